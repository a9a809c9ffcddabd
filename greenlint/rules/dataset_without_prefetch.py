"""GL401 dataset-without-prefetch: a batched `tf.data` pipeline that feeds a model or a loop, never prefetched."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import method
from greenlint.rules.syntax import SCOPES, chain_top, is_step_loop, last_name, own_body, takes
from greenlint.rules.tf_data_defaults import OPTION, by_hand

BATCH = "tensorflow.data.Dataset.batch"
#: The cases' TensorFlow: before tf.data injected prefetches by itself.
TF_2_10 = {"tensorflow-version": "2.10"}
#: Calls that run a model over a dataset argument.
CONSUMERS = frozenset({"fit", "evaluate", "predict"})
PREFETCH = "tensorflow.data.Dataset.prefetch"


class DatasetWithoutPrefetch(Rule):
    """
    ## What it does
    Flags the first `Dataset.batch()` of a file in which no `Dataset.prefetch()` is called, when
    the batched pipeline (directly, or through the name it is assigned to) is given to `fit()`,
    `evaluate()` or `predict()`, or iterated by a `for` loop whose body runs a training step
    (`apply_gradients`, `minimize`, `train_on_batch`, or a call of a function named `...step`): a
    `tf.data` input pipeline that does not overlap input preparation with training. A pipeline
    that is returned or passed to a helper function is not reported (the helper may prefetch
    it), nor is one only inspected (`next(iter(ds))`, `.take(n)`, a loop that prints batches).

    It applies to code that targets TensorFlow before 2.11, or whose `tf.data.Options` set
    `experimental_optimization.inject_prefetch` (or `apply_default_optimizations`) to False.
    Since TensorFlow 2.11, `tf.data.experimental.OptimizationOptions.inject_prefetch` defaults
    to True: tf.data appends a prefetch itself when a pipeline ends in a synchronous
    transformation (its 2.10 documentation: "defaults to False"; TensorFlow's
    tensorflow/python/data/ops/options.py), and a hand-written `prefetch` adds nothing. The
    version targeted is read from the project's pins (pyproject.toml, requirements*.txt,
    setup.cfg, setup.py, environment.yml), else the installed `tensorflow`, else the newest
    catalogued; the `tensorflow-version` option sets it.

    ## Why is this bad?
    Without `prefetch`, the model waits while the next batch is read and preprocessed, and the
    input pipeline waits while the model trains: the two run one after the other. The
    TensorFlow guide "Better performance with the tf.data API" recommends ending every
    pipeline with `.prefetch(tf.data.AUTOTUNE)` so that both overlap, which shortens each
    epoch. The machine draws its idle and baseline power for the whole run, so a shorter run
    costs less energy; the size of the gain depends on how expensive the input pipeline is.

    ## Example
    ```python
    import tensorflow as tf

    train = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1000).batch(64)
    model.fit(train, epochs=10)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    train = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1000).batch(64)
    train = train.prefetch(tf.data.AUTOTUNE)
    model.fit(train, epochs=10)
    ```

    ## Energy evidence
    How much prefetching saves depends on how expensive the input pipeline is compared with the
    step it feeds, and on cores or an accelerator to overlap them: this machine's estimate (process
    CPU time) counts the same work however it overlaps, so the pair under bench/rules/, kept for a
    GPU, states no saving here.

    The case on a GPU, from TensorFlow's guide "Better performance with the tf.data API" (section
    "Prefetching"): "Prefetching overlaps the preprocessing and model execution of a training step.
    While the model is executing training step `s`, the input pipeline is reading the data for step
    `s+1`." Without it the two take turns, so the time saved per step is the shorter of the
    pipeline's time per batch and the step's: a few percent of a step that dwarfs its input, half of
    one that its input matches, at the draw of a device waiting on the host (greenlint's device
    model, greenlint/predict/devices.py: 0.222 of the board's TDP, 15.5 W on a Tesla T4, within a
    factor 2) plus the host's; never below 0, since the same batches are made, a few earlier.
    TensorFlow 2.11 and later inject that prefetch themselves, which is why the rule leaves them
    out.

    ## Fix safety
    Safe: appends `.prefetch(tf.data.AUTOTUNE)` to the whole method chain of the flagged
    `batch()` call. Prefetching changes neither the elements nor their order; it holds a few
    batches more in host memory, within the RAM budget tf.data's autotuner keeps to. The fix
    needs `import tensorflow as tf` (any alias) in the file.

    ## Options
    - `tensorflow-version`: the TensorFlow version the code targets (default: read from the
      project, as above).
    """

    code = "GL401"
    name = "dataset-without-prefetch"
    CALLS = frozenset({method(BATCH)})
    MESSAGE = "this batched `tf.data` pipeline feeds a model or a loop but is never prefetched: {why}"
    FIX_TITLE = "Append `.prefetch(tf.data.AUTOTUNE)` to the pipeline"
    FIX = FixBy("AppendCall", {"method": "prefetch", "value": "{tf}.data.AUTOTUNE"}, safe=True)
    OPTIONS = (OPTION,)
    VALID = (
        Valid(  # TensorFlow 2.21 injects the prefetch itself
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.from_tensor_slices(x).shuffle(100).batch(32)\nmodel.fit(ds, epochs=3)\n",
            options={"tensorflow-version": "2.21"},
        ),
        Valid(
            "import tensorflow as tf\nds = tf.data.Dataset.from_tensor_slices(x).batch(32).prefetch(tf.data.AUTOTUNE)\n"
        ),
        Valid("import tensorflow as tf\nds = tf.data.Dataset.from_tensor_slices(x).map(f)\n"),
        Valid(  # returned: the caller (or a helper) may prefetch it
            "import tensorflow as tf\ndef make(x):\n    ds = tf.data.Dataset.from_tensor_slices(x)\n    return ds.batch(32)\n",
            options=TF_2_10,
        ),
        Valid(  # passed through a user helper that may prefetch
            "import tensorflow as tf\nds = tf.data.Dataset.from_tensor_slices(x).batch(32)\n"
            "ds = finish(ds)\nmodel.fit(ds)\n",
            options=TF_2_10,
        ),
        Valid("import tensorflow as tf\nfirst = next(iter(tf.data.Dataset.range(9).batch(3)))\n", options=TF_2_10),
        Valid(
            "import tensorflow as tf\nfor b in tf.data.Dataset.range(9).batch(3).take(2):\n    train_step(b)\n",
            options=TF_2_10,
        ),
        Valid("import tensorflow as tf\nfor b in tf.data.Dataset.range(9).batch(3):\n    print(b)\n", options=TF_2_10),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.from_tensor_slices(x)\n"
            "ds = ds.shuffle(100).batch(32)\n"
            "model.fit(ds, epochs=3)\n",
            line=3,
            options=TF_2_10,
            message_contains="TensorFlow 2.10 (the tensorflow-version setting) has no `inject_prefetch` by default",
            expected_replacement=(
                "import tensorflow as tf\n"
                "ds = tf.data.Dataset.from_tensor_slices(x)\n"
                "ds = ds.shuffle(100).batch(32).prefetch(tf.data.AUTOTUNE)\n"
                "model.fit(ds, epochs=3)\n"
            ),
        ),
        Invalid(
            "import tensorflow as tf\nfor x, y in tf.data.Dataset.range(9).batch(3).map(f):\n    train_step(x, y)\n",
            options=TF_2_10,
            expected_replacement=(
                "import tensorflow as tf\n"
                "for x, y in tf.data.Dataset.range(9).batch(3).map(f).prefetch(tf.data.AUTOTUNE):\n"
                "    train_step(x, y)\n"
            ),
        ),
        Invalid(  # the pipeline's options turn the injected prefetch off
            "import tensorflow as tf\nopts = tf.data.Options()\nopts.experimental_optimization.inject_prefetch = False\n"
            "ds = tf.data.Dataset.from_tensor_slices(x).batch(32).with_options(opts)\nmodel.fit(ds)\n",
            options={"tensorflow-version": "2.21"},
            message_contains="turn `inject_prefetch` off",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if any(site.api == PREFETCH for site in facts.sites):
            return
        for site in sorted((s for s in facts.sites if s.api == BATCH), key=lambda s: _order(s.callsite.span)):
            call = facts.node(site)
            if call is not None and _consumed(
                facts, chain_top(facts, call, site.callsite.span.cell), site.callsite.span.cell
            ):
                why = by_hand(facts, options, "inject_prefetch")
                if why is not None:
                    yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(why=why))
                return


def _order(span):
    return (span.cell or 0, span.line, span.column)


def _trains(loop: ast.AST) -> bool:
    """A loop whose own body runs a training step: an optimizer update or a `...step(...)` call."""
    if is_step_loop(loop):
        return True
    for node in own_body(loop):
        if isinstance(node, ast.Call):
            func = node.func
            name = last_name(func)
            if name.endswith("step"):
                return True
    return False


def _feeds(facts: FileFacts, expr: ast.expr, cell) -> bool | None:
    """True when `expr` is iterated by a `for` or given to `fit`/`evaluate`/`predict`; None when it
    goes somewhere greenlint cannot follow (a helper, a return: it may be prefetched there)."""
    if takes(expr):
        return False  # `.take(n)`: a look at a few batches, not a training input
    parent = facts.parent(expr, cell)
    if isinstance(parent, (ast.For, ast.AsyncFor)) and parent.iter is expr:
        return _trains(parent)
    if isinstance(parent, ast.keyword):
        parent = facts.parent(parent, cell)
    if isinstance(parent, ast.Call) and expr is not parent.func:
        func = parent.func
        return True if isinstance(func, ast.Attribute) and func.attr in CONSUMERS else None
    if isinstance(parent, (ast.Return, ast.Yield, ast.YieldFrom)):
        return None
    return False


def _consumed(facts: FileFacts, top: ast.expr, cell) -> bool:
    """The batched pipeline reaches training or inference in this file, and nowhere unknown."""
    if takes(top):
        return False
    direct = _feeds(facts, top, cell)
    if direct is not False:
        return bool(direct)
    parent = facts.parent(top, cell)
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
        return False
    name = parent.targets[0].id
    scope = next((a for a in facts.ancestors(parent, cell) if isinstance(a, SCOPES)), None)
    fed = False
    for node in ast.walk(scope) if scope is not None else ():
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            use = _feeds(facts, chain_top(facts, node, cell), cell)
            if use is None:
                return False  # passed to a helper or returned: it may be prefetched there
            fed = fed or use
    return fed
