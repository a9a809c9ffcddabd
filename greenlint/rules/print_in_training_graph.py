"""GL320 print-in-training-graph: `tf.print`/`tf.Print` in a loss Keras runs, or a `tf.function` training step."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import Site, is_keras_model_method, method
from greenlint.rules.syntax import SCOPES, STEP_METHODS, last_name

PRINTS = frozenset({"tensorflow.print", "tensorflow.Print", "tensorflow.compat.v1.Print"})
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


class PrintInTrainingGraph(Rule):
    """
    ## What it does
    Flags `tf.print()` and TensorFlow 1's `tf.Print()` written, with no `if` around them, in a
    function that runs on every training step: a loss or metric function the file gives to a
    Keras `compile()` (`model.compile(loss=custom_loss)`), or a training step that updates a
    model itself (`apply_gradients`, `minimize` or `train_on_batch` written in it) and that
    `tf.function` traces (decorated, or wrapped by a `tf.function(f)`) or that is the
    `train_step` of a Keras model subclass. Not reported: a factory called in the `compile()`
    (`loss=make_loss(w)`), whose own prints run once, when the model is compiled; traced code
    that updates nothing (an inference function, a function `Dataset.map` runs per element, a
    helper the step calls, a Keras layer's `call`), of which it is not known that it runs once
    per training step; a traced step the program runs exactly once (called once, outside any
    loop), which prints once; a function the file wraps with `tf.function(f)` only under an
    `if` (`if trace_function: f = tf.function(f)`, a switch the user turns on), which runs
    eagerly otherwise. One finding per function, at its first print. Test code is not
    reported.

    ## Why is this bad?
    A print op is part of the graph: it runs every time the graph does, so in a loss it runs
    on every training step. Each run copies the printed tensors from the device to the host
    (up to `summarize` elements of each), formats them and writes a line to the log; the
    step cannot finish before the copy has. Thousands of steps write thousands of lines that
    nobody reads, and each step waits for the host. Print every few hundred steps (a
    `tf.cond` on the step, a callback), or report the values as metrics.

    ## Example
    ```python
    def custom_loss(y_true, y_pred):
        loss = tf.reduce_mean(tf.square(y_true - y_pred))
        loss = tf.Print(loss, [loss], message="loss ")
        return loss

    model.compile(optimizer="adam", loss=custom_loss)
    ```

    ## Use instead
    ```python
    def custom_loss(y_true, y_pred):
        return tf.reduce_mean(tf.square(y_true - y_pred))

    model.compile(optimizer="adam", loss=custom_loss)  # fit() reports the loss itself
    ```

    ## Energy evidence
    The pair under bench/rules/ (kept, run only when named) trains an MNIST-sized perceptron
    (784 → 128 → 10, batches of 64) for 300 steps of a traced training step, with and without
    `tf.print` of its loss, written to a pipe: on a loaded 2-core CPU it showed no saving
    (bench/rules/not_measurable.json gives the figures). The cost is the copy of the printed
    tensors to the host and a formatted write per step: a scalar's is nothing beside such a
    step, and it grows with the tensors printed and with a terminal or notebook rendering the
    output, which the pair does not have. With no saving shown on any device, the rule is
    opt-in: enable it with `--extend-select GL320`.

    ## Fix safety
    No automatic fix: removing the print changes what the program writes.

    ## Options
    None.
    """

    code = "GL320"
    name = "print-in-training-graph"
    CALLS = frozenset(map(method, PRINTS))
    MESSAGE = (
        "`{call}` in `{function}`, which runs on every training step ({why}): each step copies the printed"
        " tensors to the host and writes them out"
    )
    FIX_TITLE = "Drop the print, or print every few hundred steps"
    DEFAULT_ENABLED = False  # opt-in: its measured pair saves no energy (see Energy evidence)
    VALID = (
        Valid(  # under a debug switch
            "import tensorflow as tf\nm = tf.keras.Sequential()\nDEBUG = False\n"
            "def custom_loss(y, p):\n    loss = tf.reduce_mean(y - p)\n"
            "    if DEBUG:\n        loss = tf.Print(loss, [loss])\n    return loss\n"
            "m.compile(optimizer='adam', loss=custom_loss)\n"
        ),
        Valid(  # a function Keras is not given
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def report(x):\n    tf.print(x)\n"
            "m.compile(optimizer='adam', loss='mse')\n"
        ),
        Valid(  # eager code prints once
            "import tensorflow as tf\nm = tf.keras.Sequential()\ntf.print(m(x))\n"
        ),
        Valid(  # traced only when the user turns the switch on (off by default): eager otherwise
            "import tensorflow as tf\n\n\ndef make(model, trace_function=False):\n    def f(x):\n"
            "        loss = tf.reduce_mean(model(x))\n        tf.print('loss', loss)\n        return loss\n"
            "    if trace_function:\n        f = tf.function(f)\n    return f\n"
        ),
        Valid(  # an inference function: traced, but no training step
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "@tf.function\ndef infer(x):\n    y = m(x)\n    tf.print('max', tf.reduce_max(y))\n    return y\n"
        ),
        Valid(  # a function Dataset.map runs per element, traced but updating nothing
            "import tensorflow as tf\n"
            "def parse(x):\n    tf.print('shape', tf.shape(x))\n    return x / 255\n"
            "ds = tf.data.Dataset.range(10).map(parse)\n"
        ),
        Valid(  # a loss factory: its own print runs once, when compile() is given what it returns
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def make_loss(w):\n    tf.print('weight', w)\n    def loss(y, p):\n        return w * tf.reduce_mean(y - p)\n"
            "    return loss\nm.compile(optimizer='adam', loss=make_loss(2.0))\n"
        ),
        Valid(  # a training step run once, outside any loop: it prints once
            "import tensorflow as tf\nm = tf.keras.Sequential()\nopt = tf.keras.optimizers.SGD()\n"
            "@tf.function\ndef step(x, y):\n    opt.minimize(lambda: tf.reduce_mean(m(x) - y), m.trainable_variables)\n"
            "    tf.print('done')\nstep(xs, ys)\n"
        ),
        Valid(  # a layer's call: it runs in inference as well, whether it is ever trained is not read here
            "import tensorflow as tf\nclass Scale(tf.keras.layers.Layer):\n    def call(self, x):\n"
            "        tf.print('mean', tf.reduce_mean(x))\n        return x * 2\n"
        ),
    )
    INVALID = (
        Invalid(  # labelled debugging code, yet run on every step: debugging left on is what this rule reports
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def custom_loss(y, p):\n    loss = tf.reduce_mean(y - p)\n"
            '    """\n    Debugging code\n    """\n    loss = tf.Print(loss, [loss], message=\'loss\')\n    return loss\n'
            "m.compile(optimizer='adam', loss=custom_loss)\n",
            line=8,
        ),
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def custom_loss(y, p):\n    loss = tf.reduce_mean(y - p)\n"
            "    loss = tf.Print(loss, [loss], message='loss')\n    loss = tf.Print(loss, [p], message='p')\n"
            "    return loss\n"
            "m.compile(optimizer='adam', loss=custom_loss)\n",
            line=5,
            message_contains="`custom_loss`, which runs on every training step (the loss given to `compile()`)",
        ),
        Invalid(  # wrapped unconditionally
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "opt = tf.keras.optimizers.Adam()\n"
            "def train_step(x, y):\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(m(x) - y)\n"
            "    tf.print('loss', loss)\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), m.trainable_variables))\n"
            "    return loss\nstep = tf.function(train_step)\n",
            line=7,
            message_contains="(a `tf.function` that updates the model)",
        ),
        Invalid(  # a tf.function training step
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "opt = tf.keras.optimizers.SGD()\n"
            "@tf.function\ndef train_step(x, y):\n    loss = lambda: tf.reduce_mean(m(x) - y)\n"
            "    opt.minimize(loss, m.trainable_variables)\n    tf.print('step done')\n",
            line=8,
        ),
        Invalid(  # the train_step fit() calls on every batch
            "import tensorflow as tf\nclass Net(tf.keras.Model):\n    def train_step(self, data):\n        x, y = data\n"
            "        with tf.GradientTape() as tape:\n            loss = self.compiled_loss(y, self(x, training=True))\n"
            "        grads = tape.gradient(loss, self.trainable_variables)\n"
            "        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))\n"
            "        tf.print('loss', loss)\n        return {'loss': loss}\n",
            line=9,
            message_contains="(the `train_step` Keras' `fit()` runs)",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        prints = [s for s in facts.sites if s.api in PRINTS]
        if not prints:
            return
        given = _given_to_compile(facts)
        reported: set[int] = set()
        for site in prints:
            function, guarded = _function(facts, site)
            if function is None or guarded or id(function) in reported:
                continue
            cell = site.callsite.span.cell
            if (
                site.features.get("in_tf_function")
                and site.callsite.runs.count != 1  # a step the program runs once prints once
                and _updates(function)
                and _traced_always(facts, function, cell)
            ):
                why = "a `tf.function` that updates the model"
            elif site.features.get("in_keras_step") and function.name == "train_step" and _updates(function):
                why = "the `train_step` Keras' `fit()` runs"
            elif function.name in given:
                why = "the loss given to `compile()`"
            else:
                continue
            if in_test_code(facts, site):
                continue
            reported.add(id(function))
            call = "tf." + site.api.rsplit(".", 1)[-1]
            yield self.diagnostic(
                site.callsite.span, facts.path, self.MESSAGE.format(call=call, function=function.name, why=why)
            )


def _function(facts: FileFacts, site: Site) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef | None, bool]:
    """The function the print is written in, and whether an `if` (or a conditional expression)
    stands between them."""
    node = facts.node(site)
    if node is None:
        return None, False
    guarded = False
    for parent in facts.ancestors(node, site.callsite.span.cell):
        if isinstance(parent, FUNCTIONS):
            return parent, guarded
        if isinstance(parent, (ast.If, ast.IfExp, ast.Lambda)):
            guarded = True
    return None, guarded


def _updates(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The function updates a model itself (`apply_gradients`, `minimize`, `train_on_batch`): one
    training step, not an inference or a `Dataset.map` function that `tf.function` also traces."""
    return any(isinstance(n, ast.Call) and last_name(n.func) in STEP_METHODS for n in ast.walk(function))


def _traced_always(facts: FileFacts, function: ast.FunctionDef | ast.AsyncFunctionDef, cell: int | None) -> bool:
    """`tf.function` traces the function whenever it runs: no `tf.function(f)` of the file wraps it,
    or one does outside any `if` of its own function. Wrapped only under an `if`
    (`if self.trace_function: f = tf.function(f)`, a switch off by default), it is traced only when
    the user turns that on; decorated, or traced as part of another traced function, always."""
    if any(last_name(d.func if isinstance(d, ast.Call) else d) == "function" for d in function.decorator_list):
        return True
    wraps = [
        call
        for s in facts.sites
        if s.api == "tensorflow.function"
        and s.callsite.span.cell == cell
        and (call := facts.node(s)) is not None
        and call.args
        and isinstance(call.args[0], ast.Name)
        and call.args[0].id == function.name
    ]
    return not wraps or any(not _under_if(facts, call, cell) for call in wraps)


def _under_if(facts: FileFacts, node: ast.AST, cell: int | None) -> bool:
    """An `if` of the node's own function (or module) decides whether it runs."""
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, SCOPES):
            return False
        if isinstance(parent, (ast.If, ast.IfExp)):
            return True
    return False


def _given_to_compile(facts: FileFacts) -> set[str]:
    """The names of the functions a Keras `compile()` of the file is given (`loss=`, `metrics=`):
    not a factory called there (`loss=make_loss(w)`), which runs once, when the model is compiled."""
    names: set[str] = set()
    for site in facts.sites:
        if not is_keras_model_method(site.api, ("compile",)):
            continue
        call = facts.node(site)
        if call is None:
            continue
        for value in (*call.args, *(k.value for k in call.keywords if k.arg in ("loss", "metrics"))):
            called = {id(n.func) for n in ast.walk(value) if isinstance(n, ast.Call)}
            names.update(n.id for n in ast.walk(value) if isinstance(n, ast.Name) and id(n) not in called)
    defined = {n.name for cell in facts.cells for n in facts.nodes(cell, *FUNCTIONS) if isinstance(n, FUNCTIONS)}
    return names & defined
