"""GL530 constant-batched-with-input (opt-in): fixed images joined to the fed input, so the network recomputes them on every run."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, keyword
from greenlint.rules.callbacks import constructors, listed
from greenlint.rules.diagnostic import Diagnostic

#: Joining tensors along an axis.
JOINS = frozenset({"tensorflow.keras.backend.concatenate", "tensorflow.concat", "tensorflow.keras.backend.stack", "tensorflow.stack"})
#: Tensors that hold fixed values for the whole program (data loaded once).
FIXED = frozenset({"tensorflow.keras.backend.variable", "tensorflow.keras.backend.constant", "tensorflow.constant"})
#: Tensors the program feeds anew on every run of the graph.
FED = frozenset({"tensorflow.keras.backend.placeholder", "tensorflow.compat.v1.placeholder"})


class ConstantBatchedWithInput(Rule):
    """
    ## What it does
    Flags a join along the batch axis (`K.concatenate(tensors, axis=0)`, `tf.concat(...,
    axis=0)`, `K.stack`/`tf.stack` with their default axis 0) of a list (written in the call,
    or the name of a list the file builds, appends included) that holds both a tensor of fixed
    values (`K.variable(...)`, `K.constant(...)`, `tf.constant(...)`: an image loaded once) and
    a placeholder the program feeds on each run (`K.placeholder(...)`,
    `tf.compat.v1.placeholder(...)`). A name in the list counts when every assignment of it in
    the file makes such a tensor (`if channels_first: x = K.placeholder(...) else: x =
    K.placeholder(...)`). Off by default (preview): the waste is real only when the graph runs
    more than once, which is what a placeholder is for, but greenlint does not see the runs
    (an optimiser's callbacks, as SciPy's `fmin_l_bfgs_b` makes them).

    ## Why is this bad?
    The joined batch goes through the network as one: every run of the graph computes the
    fixed images' activations (and, for a gradient, their part of the backward pass) again,
    though they never change. In the classic Keras style transfer the content and style images
    sit in the batch beside the generated one, so two thirds or more of every evaluation
    recomputes features that are the same each time. Computing the fixed images' features
    once (a first run, kept as constants) and running the network on the fed input alone does
    the same optimisation for a fraction of the work.

    ## Example
    ```python
    from tensorflow.keras import backend as K

    content = K.variable(load("content.jpg"))
    style = K.variable(load("style.jpg"))
    generated = K.placeholder((1, 400, 400, 3))
    batch = K.concatenate([content, style, generated], axis=0)
    ```

    ## Use instead
    ```python
    from tensorflow.keras import backend as K

    targets = features_of(load("content.jpg"), load("style.jpg"))  # run the network once
    generated = K.placeholder((1, 400, 400, 3))
    batch = generated  # only the generated image goes through the network on each run
    ```

    ## Energy evidence
    Not measured: the saving is, by construction, the fixed images' share of the batch on
    every run after the first; bench/rules/not_measurable.json says so.

    ## Fix safety
    No automatic fix: the losses must be rewritten against features computed once.

    ## Options
    None.
    """

    code = "GL530"
    name = "constant-batched-with-input"
    DEFAULT_ENABLED = False  # preview: the graph's runs are not seen
    MESSAGE = (
        "`{fixed}` holds fixed values and is joined along the batch axis with the fed `{fed}`:"
        " the network recomputes it on every run"
    )
    FIX_TITLE = "Compute the fixed tensors' features once and run the network on the fed input alone"
    VALID = (
        Valid(  # only fixed images: one batch of data
            "from tensorflow.keras import backend as K\na = K.variable(x)\nb = K.variable(y)\n"
            "batch = K.concatenate([a, b], axis=0)\n"
        ),
        Valid(  # along the channels: a constant mask beside the input is no extra batch item
            "from tensorflow.keras import backend as K\nmask = K.constant(m)\nimage = K.placeholder((1, 64, 64, 3))\n"
            "x = K.concatenate([image, mask], axis=-1)\n"
        ),
        Valid(  # a name bound to something else in one branch
            "from tensorflow.keras import backend as K\nimage = K.placeholder((1, 64, 64, 3))\n"
            "if warm:\n    base = K.variable(x)\nelse:\n    base = make(x)\n"
            "batch = K.concatenate([base, image], axis=0)\n"
        ),
    )
    INVALID = (
        Invalid(
            "from tensorflow.keras import backend as K\ncontent = K.variable(load('c.jpg'))\n"
            "style = K.variable(load('s.jpg'))\ngenerated = K.placeholder((1, 400, 400, 3))\n"
            "batch = K.concatenate([content, style, generated], axis=0)\n",
            line=5,
            message_contains="`content` holds fixed values and is joined along the batch axis with the fed `generated`",
        ),
        Invalid(  # a list the file builds, and a placeholder made in either branch
            "from tensorflow.keras import backend as K\nbase = K.variable(load('c.jpg'))\n"
            "if channels_first:\n    out = K.placeholder((1, 3, 64, 64))\nelse:\n    out = K.placeholder((1, 64, 64, 3))\n"
            "tensors = [base]\nfor path in styles:\n    tensors.append(K.variable(load(path)))\ntensors.append(out)\n"
            "batch = K.concatenate(tensors, axis=0)\n",
            line=11,
        ),
        Invalid(  # tf.concat in a TF1 graph
            "import tensorflow as tf\ncontent = tf.constant(image)\nx = tf.compat.v1.placeholder(tf.float32, (1, 64, 64, 3))\n"
            "batch = tf.concat([content, x], 0)\n",
            line=4,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api not in JOINS:
                continue
            call = facts.node(site)
            if call is None or not call.args or not _batch_axis(site.api, call):
                continue
            elements = listed(facts, call.args[0])
            kinds = [(e, _kind(facts, e, site.callsite.span.cell)) for e in elements or ()]
            fixed = next((e for e, k in kinds if k == "fixed"), None)
            fed = next((e for e, k in kinds if k == "fed"), None)
            if fixed is not None and fed is not None:
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(
                    fixed=ast.unparse(fixed), fed=ast.unparse(fed),
                ))


def _batch_axis(api: str, call: ast.Call) -> bool:
    """The join is along axis 0 (the default of `stack`; `concatenate`'s and `concat`'s given)."""
    given = keyword(call, "axis")
    axis = given.value if given is not None else call.args[1] if len(call.args) > 1 else None
    if axis is None:
        return api.endswith("stack")
    return isinstance(axis, ast.Constant) and axis.value == 0


def _kind(facts: FileFacts, element: ast.expr, cell: int | None) -> str | None:
    """"fixed" or "fed" when every call the element may be made by is one of those; else None."""
    made = constructors(facts, element)
    kinds = set()
    for call in made or ():
        site = facts.site_at(call, cell)
        api = site.api if site is not None else None
        kinds.add("fixed" if api in FIXED else "fed" if api in FED else None)
    return kinds.pop() if made and len(kinds) == 1 else None
