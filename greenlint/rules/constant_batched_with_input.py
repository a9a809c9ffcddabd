"""GL530 constant-batched-with-input: fixed images joined to the fed input of a network, so the network recomputes them on every run."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument, binds
from greenlint.rules.callbacks import constructors, listed
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.networks import network
from greenlint.rules.site import method
from greenlint.rules.syntax import bound_name, enclosing, last_name

#: Joining tensors along an axis.
JOINS = frozenset(
    {"tensorflow.keras.backend.concatenate", "tensorflow.concat", "tensorflow.keras.backend.stack", "tensorflow.stack"}
)
#: Tensors that hold fixed values for the whole program (data loaded once).
FIXED = frozenset({"tensorflow.keras.backend.variable", "tensorflow.keras.backend.constant", "tensorflow.constant"})
#: Tensors the program feeds anew on every run of the graph.
FED = frozenset({"tensorflow.keras.backend.placeholder", "tensorflow.compat.v1.placeholder"})
#: Keywords that make a tensor a network's input (`Input(tensor=...)`, `VGG19(input_tensor=...)`).
INPUT_KEYWORDS = frozenset({"tensor", "input_tensor"})
#: Calls that change a variable's value: a variable given to one holds no fixed values.
UPDATES = frozenset(
    {"assign", "assign_add", "assign_sub", "set_value", "update", "update_add", "update_sub", "batch_set_value"}
)


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
    K.placeholder(...)`), when the joined batch is a network's input, directly or through the
    name it is bound to: given as `tensor=` or `input_tensor=` (`Input(tensor=batch)`,
    `VGG19(input_tensor=batch)`), to a layer built in place (`Conv2D(64, 3)(batch)`), to a
    model the file makes (`Model(...)`, `Sequential(...)`, a Keras application, a layer,
    `load_model(...)`), or to a function of the file that runs one (a convolution
    `tf.nn.conv2d`, a Keras layer or model).

    Not reported: a join along another axis (a constant mask beside the channels); a
    placeholder made with a one-dimensional shape (`(None,)`: axis 0 is one vector's positions,
    not a batch of examples); a join that
    feeds no network the file shows (the join alone costs a copy, not a forward pass); a
    "fixed" variable the file changes (`.assign(...)`, `K.set_value(v, ...)`: a memory bank
    or a queue of past samples, which is new data on each run); a name bound to something
    else in any branch.

    On by default: a placeholder is made to be fed, so the graph runs more than once, and a
    network run on a batch computes every item of it; the fixed items' share of each run after
    the first is work whose result is already known. greenlint does not see how many runs
    there are (an optimiser's callbacks, as SciPy's `fmin_l_bfgs_b` makes them, or a
    `K.function` called in a loop of another module), so the finding names no count.

    A frozen teacher run on each step's batch (knowledge distillation: `self.teacher(x,
    training=False)` in a `train_step`) is not this rule's case: its input changes on every
    step, and whether the same batch comes back unchanged in a later epoch (no random
    augmentation, so the teacher's outputs could be stored once) is decided by a data pipeline
    the step does not show; storing a teacher's per-pixel outputs for a whole set can also cost
    more memory than the recomputation costs energy.

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
    The pair under bench/rules/ runs a three-convolution feature extractor 20 times (loss and
    gradient of a content and a Gram-matrix style loss, through a TensorFlow 1 session): the
    content and style images joined with the fed image, against their features computed once
    per run and the network run on the fed image alone. The saving approaches the fixed images'
    share of the batch (two thirds with one style image) as the evaluations grow.

    ## Fix safety
    No automatic fix: the losses must be rewritten against features computed once.

    ## Options
    None.
    """

    code = "GL530"
    name = "constant-batched-with-input"
    CALLS = frozenset(map(method, JOINS))
    MESSAGE = (
        "`{fixed}` holds fixed values and is joined along the batch axis with the fed `{fed}` as a network's input:"
        " the network recomputes it on every run"
    )
    FIX_TITLE = "Compute the fixed tensors' features once and run the network on the fed input alone"
    VALID = (
        Valid(  # `**options` may carry another axis than `stack`'s default 0
            "from tensorflow.keras import backend as K\ncontent = K.variable(load('c.jpg'))\n"
            "generated = K.placeholder((1, 400, 400, 3))\nbatch = K.stack([content, generated], **options)\n"
            "model = vgg19.VGG19(input_tensor=batch, weights='imagenet', include_top=False)\n"
        ),
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
            "batch = K.concatenate([base, image], axis=0)\nmodel = VGG19(input_tensor=batch)\n"
        ),
        Valid(  # a function of the file that runs no network (statistics of the batch)
            "import tensorflow as tf\n\n\ndef stats(x):\n    return tf.reduce_mean(x), tf.math.reduce_std(x)\n\n\n"
            "content = tf.constant(image)\nx = tf.compat.v1.placeholder(tf.float32, (1, 64, 64, 3))\n"
            "m = stats(tf.concat([content, x], axis=0))\n"
        ),
        Valid(  # the joined batch feeds no network this file shows: the join is a copy, no forward pass
            "from tensorflow.keras import backend as K\ncontent = K.variable(x)\nimage = K.placeholder((1, 64, 64, 3))\n"
            "batch = K.concatenate([content, image], axis=0)\nmean = K.mean(batch)\n"
        ),
        Valid(  # a one-dimensional placeholder: axis 0 is a vector's positions, not a batch of examples
            "import tensorflow as tf\nbias = tf.constant([1.0])\nx = tf.compat.v1.placeholder(tf.float32, (None,))\n"
            "h = tf.keras.layers.Dense(8)(tf.reshape(tf.concat([bias, x], 0), (1, -1)))\n"
            "y = tf.keras.layers.Dense(8)(tf.concat([bias, x], axis=0))\n"
        ),
        Valid(  # a GAN's discriminator batch: real images fed, fakes generated, both new on every step
            "import tensorflow as tf\nreal = tf.compat.v1.placeholder(tf.float32, (64, 28, 28, 1))\n"
            "fake = generator(tf.compat.v1.placeholder(tf.float32, (64, 100)))\n"
            "logits = discriminator(tf.concat([real, fake], axis=0))\n"
        ),
        Valid(  # a memory bank the program updates: new samples on each run, not fixed values
            "import tensorflow as tf\nfrom tensorflow.keras import backend as K\nbank = K.variable(init)\n"
            "x = K.placeholder((None, 128))\nbatch = K.concatenate([bank, x], axis=0)\n"
            "logits = tf.keras.layers.Dense(10)(batch)\nK.set_value(bank, recent)\n"
        ),
    )
    INVALID = (
        Invalid(
            "from tensorflow.keras import backend as K\ncontent = K.variable(load('c.jpg'))\n"
            "style = K.variable(load('s.jpg'))\ngenerated = K.placeholder((1, 400, 400, 3))\n"
            "batch = K.concatenate([content, style, generated], axis=0)\n"
            "model = vgg19.VGG19(input_tensor=batch, weights='imagenet', include_top=False)\n",
            line=5,
            message_contains="`content` holds fixed values and is joined along the batch axis with the fed `generated` as a"
            " network's input",
        ),
        Invalid(  # a list the file builds, and a placeholder made in either branch
            "from tensorflow.keras import backend as K\nbase = K.variable(load('c.jpg'))\n"
            "if channels_first:\n    out = K.placeholder((1, 3, 64, 64))\nelse:\n    out = K.placeholder((1, 64, 64, 3))\n"
            "tensors = [base]\nfor path in styles:\n    tensors.append(K.variable(load(path)))\ntensors.append(out)\n"
            "batch = K.concatenate(tensors, axis=0)\nip = Input(tensor=batch, batch_shape=(3, 64, 64, 3))\n",
            line=11,
        ),
        Invalid(  # tf.concat in a TF1 graph
            "import tensorflow as tf\ncontent = tf.constant(image)\nx = tf.compat.v1.placeholder(tf.float32, (1, 64, 64, 3))\n"
            "batch = tf.concat([content, x], 0)\nfeatures = tf.keras.layers.Conv2D(64, 3)(batch)\n",
            line=4,
        ),
        Invalid(  # the batch given to a function of the file that runs convolutions
            "import tensorflow as tf\n\n\ndef features(x):\n    return tf.nn.relu(tf.nn.conv2d(x, kernel, 1, 'SAME'))\n\n\n"
            "content = tf.constant(image)\nx = tf.compat.v1.placeholder(tf.float32, (1, 64, 64, 3))\n"
            "f = features(tf.concat([content, x], axis=0))\n",
            line=10,
        ),
        Invalid(  # the batch given to a model the file makes
            "import tensorflow as tf\ncontent = tf.constant(image)\nx = tf.compat.v1.placeholder(tf.float32, (1, 64, 64, 3))\n"
            "extractor = tf.keras.Model(inputs=vgg.inputs, outputs=outputs)\n"
            "features = extractor(tf.concat([content, x], axis=0))\n",
            line=5,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        apis = {site.api for site in facts.sites}
        if apis.isdisjoint(FIXED) or apis.isdisjoint(FED) or apis.isdisjoint(JOINS):
            return  # a join is reported only between a fixed tensor and a fed one the file makes
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
            if (
                fixed is not None
                and fed is not None
                and not _vector(facts, fed, site.callsite.span.cell)
                and _into_network(facts, call, site.callsite.span.cell)
            ):
                yield self.diagnostic(
                    site.callsite.span,
                    facts.path,
                    self.MESSAGE.format(
                        fixed=ast.unparse(fixed),
                        fed=ast.unparse(fed),
                    ),
                )


def _batch_axis(api: str, call: ast.Call) -> bool:
    """The join is along axis 0 (the default of `stack`; `concatenate`'s and `concat`'s given)."""
    if not binds(call, "axis", 1):
        return api.endswith("stack")
    axis = argument(call, "axis", 1)
    return isinstance(axis, ast.Constant) and axis.value == 0


def _kind(facts: FileFacts, element: ast.expr, cell: int | None) -> str | None:
    """ "fixed" or "fed" when every call the element may be made by is one of those; else None."""
    made = constructors(facts, element)
    kinds = set()
    for call in made or ():
        site = facts.site_at(call, cell)
        api = site.api if site is not None else None
        kinds.add("fixed" if api in FIXED else "fed" if api in FED else None)
    if kinds == {"fixed"} and isinstance(element, ast.Name) and _updated(facts, element.id):
        return None
    return kinds.pop() if made and len(kinds) == 1 else None


def _vector(facts: FileFacts, fed: ast.expr, cell: int | None) -> bool:
    """The placeholder is made with a one-dimensional shape written in the call (`(None,)`, `[128]`):
    its axis 0 is not a batch of examples but the positions of one vector."""
    for call in constructors(facts, fed) or ():
        site = facts.site_at(call, cell)
        position = (
            0 if site is not None and site.api == "tensorflow.keras.backend.placeholder" else 1
        )  # (shape, ...) or (dtype, shape)
        shape = argument(call, "shape", position)
        if isinstance(shape, (ast.Tuple, ast.List)) and len(shape.elts) == 1:
            return True
    return False


def _updated(facts: FileFacts, name: str) -> bool:
    """The file changes the variable *name* holds: `name.assign(...)`, `K.set_value(name, ...)`."""
    for cell in facts.cells:
        for node in facts.nodes(cell, ast.Call):
            if last_name(node.func) not in UPDATES:
                continue
            owner = node.func.value if isinstance(node.func, ast.Attribute) else None
            first = node.args[0] if node.args else None
            if any(isinstance(e, ast.Name) and e.id == name for e in (owner, first)):
                return True
            if isinstance(first, (ast.List, ast.Tuple)) and any(  # K.batch_set_value([(v, value), ...])
                isinstance(p, ast.Tuple) and p.elts and isinstance(p.elts[0], ast.Name) and p.elts[0].id == name
                for p in first.elts
            ):
                return True
    return False


def _into_network(facts: FileFacts, call: ast.Call, cell: int | None) -> bool:
    """The joined batch is a network's input, itself or through the name it is bound to."""
    uses: list[ast.expr] = [call]
    name = bound_name(facts, call, cell)
    scope = enclosing(facts, call, cell)
    if name is not None and scope is not None:
        uses += [n for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
    for use in uses:
        parent = facts.parent(use, cell)
        if isinstance(parent, ast.keyword) and parent.arg in INPUT_KEYWORDS:
            return True
        if isinstance(parent, ast.Call) and use in parent.args and network(facts, parent.func, cell):
            return True
    return False
