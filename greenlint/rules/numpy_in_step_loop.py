"""GL203 numpy-in-step-loop: `.numpy()` on every training step."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, method, node_span
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.syntax import LOOPS, SCOPES, STEP_METHODS, in_unguarded_step_loop, last_name, own_body, own_loops

NUMPY = "tensorflow.Tensor.numpy"
#: The optimizer's step counter (`optimizer.iterations`), which the training step itself increments.
COUNTER = "iterations"


class NumpyInStepLoop(Rule):
    """
    ## What it does
    Flags `Tensor.numpy()` called directly in the body of a loop that runs a training step
    (`apply_gradients`, `minimize` or `train_on_batch` in the same loop), with no `if` around
    it inside that loop, when the value is only recorded: printed, formatted, logged or
    appended to a list (directly, or through the name it is assigned to). A value the loop
    goes on to compute with on the host (actions for an environment, a comparison, an index)
    is needed every step and is not reported. The step must repeat on the same optimizer or
    model: a loop over settings (dtypes, one new optimizer each) is no training loop; nor is a
    loop of one trip (`ds.take(1)`).

    Also flags the optimizer's step counter read on the host on every pass of a training loop
    (`optimizer.iterations.numpy()`, `int(optimizer.iterations)`), wherever the value goes (an
    `if ... % n_critic == 0` test included), when the loop's own body runs a training step: a
    step method as above, or a call the analysis found to run one (a `tf.function` whose traced
    body trains a model, a TF1 `Session.run` fetching the update). The counter is the one value
    the host never needs to wait for: it can count the steps itself. Not reported: a read under
    an `if` of the loop (on some passes only), in test code (a test asserts the counter), or in
    a loop of one trip.

    ## Why is this bad?
    `.numpy()` copies the tensor to host memory and makes Python wait until every operation
    producing it has finished. On a GPU that stops the host from queueing the next step while
    the device works, so device and host take turns idling. Logging a loss every N steps, or
    accumulating it in a `tf.keras.metrics.Mean`, avoids the sync on every step.

    ## Example
    ```python
    for x, y in dataset:
        loss = train_step(x, y)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        history.append(loss.numpy())
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    mean_loss = tf.keras.metrics.Mean()
    for x, y in dataset:
        loss = train_step(x, y)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        mean_loss.update_state(loss)
    history.append(mean_loss.result().numpy())
    ```

    Reading `optimizer.iterations` makes the host wait for the step that increments it, so the
    device idles while Python prepares and dispatches the next step; a Python counter (`step +=
    1`) gives the same number without a wait.

    ## Energy evidence
    The cost is the lost overlap of host and accelerator. On a CPU-only machine there is no
    device to overlap with: the pair under bench/rules/ is expected to show no measurable saving
    here, and says so.

    ## Fix safety
    No automatic fix: the values are usually wanted, just not every step.

    ## Options
    None.
    """

    code = "GL203"
    name = "numpy-in-step-loop"
    MESSAGE = "`.numpy()` on every training step makes the host wait for the device each step"
    COUNTER_MESSAGE = (
        "`{read}` reads the step counter from the device on every training step, waiting for the step to finish:"
        " count the steps in Python instead"
    )
    FIX_TITLE = "Accumulate in a metric and read it every N steps"
    VALID = (
        Valid(
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor step, x in enumerate(ds):\n"
            "    opt.apply_gradients(zip(g, v))\n    if step % 100 == 0:\n        print(tf.reduce_sum(x).numpy())\n"
        ),
        Valid("import tensorflow as tf\nfor x in ds:\n    print(tf.reduce_sum(x).numpy())\n"),
        Valid(  # the host needs the value every step: it picks the environments' actions
            "import numpy as np\nimport tensorflow as tf\nopt = tf.keras.optimizers.RMSprop()\n"
            "for it in range(500):\n    probas = tf.sigmoid(tf.random.normal([50, 1]))\n"
            "    opt.apply_gradients(zip(g, v))\n"
            "    actions = (np.random.rand(50, 1) > probas.numpy()).astype(np.int32)\n"
            "    env.step(actions)\n"
        ),
        Valid(  # one step: `take(1)` is no loop
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor x in ds.take(1):\n"
            "    opt.apply_gradients(zip(g, v))\n    losses.append(tf.reduce_sum(x).numpy())\n"
        ),
        Valid(  # a loop over dtypes, one new optimizer and one step each: no training loop
            "import tensorflow as tf\nfor dtype in [tf.float32, tf.float64]:\n"
            "    var = tf.Variable([1.0, 2.0], dtype=dtype)\n    opt = tf.keras.optimizers.SGD(0.1)\n"
            "    opt.apply_gradients([(tf.constant([0.1, 0.1], dtype=dtype), var)])\n"
            "    check(var[0].numpy())\n"
        ),
        Valid(  # the counter read only when a report is due
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor x in ds:\n"
            "    opt.apply_gradients(zip(g, v))\n    if verbose:\n        print(opt.iterations.numpy())\n"
        ),
        Valid(  # a test asserts the counter after each step
            "import tensorflow as tf\n\n\ndef test_counts_steps():\n    opt = tf.keras.optimizers.SGD()\n"
            "    for i in range(3):\n        opt.apply_gradients(zip(g, v))\n"
            "        assert opt.iterations.numpy() == i + 1\n"
        ),
        Valid(  # the counter read once per epoch, in a loop whose steps are in the loop inside it
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor epoch in range(10):\n"
            "    for x in ds:\n        opt.apply_gradients(zip(g, v))\n    print(int(opt.iterations))\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor x in ds:\n"
            "    opt.apply_gradients(zip(g, v))\n    losses.append(tf.reduce_sum(x).numpy())\n",
            line=5,
        ),
        Invalid(  # recorded through a name: formatted into a progress line
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor it in range(500):\n"
            "    loss = tf.reduce_sum(tf.random.normal([8]))\n    opt.apply_gradients(zip(g, v))\n"
            "    value = float(loss.numpy())\n    print(f'{it}: {value:.3f}')\n",
            line=6,
        ),
        Invalid(  # a GAN: the step counter read to decide whether to train the generator, after a traced D step
            "import tensorflow as tf\nD = tf.keras.Sequential()\nd_opt = tf.keras.optimizers.Adam()\n\n\n"
            "@tf.function\ndef train_d(x):\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(D(x, training=True))\n"
            "    d_opt.apply_gradients(zip(tape.gradient(loss, D.trainable_variables), D.trainable_variables))\n\n\n"
            "for epoch in range(100):\n    for x in dataset:\n        train_d(x)\n"
            "        if d_opt.iterations.numpy() % 5 == 0:\n            train_g()\n",
            line=16,
            message_contains="`d_opt.iterations.numpy()` reads the step counter",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if (
                site.api == NUMPY
                and site.repeats(same=())
                and in_unguarded_step_loop(facts, site)
                and _only_recorded(facts, facts.node(site), site.callsite.span.cell)
            ):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
        yield from self._counter_reads(facts)

    def _counter_reads(self, facts: FileFacts) -> Iterator[Diagnostic]:
        """`optimizer.iterations` read on the host on every pass of a training loop."""
        seen: set[int] = set()
        for site in facts.sites:
            if not (site.work_value("step") == "training" or method(site.api) in STEP_METHODS) or not site.repeats(same=("receiver",)):
                continue
            call, cell = facts.node(site), site.callsite.span.cell
            loops = own_loops(facts, call, cell) if call is not None else []
            if not loops or id(loops[0]) in seen or in_test_code(facts, site):
                continue
            seen.add(id(loops[0]))
            for node in own_body(loops[0]):
                if isinstance(node, ast.Call) and _counter_read(node) and _every_pass(facts, node, cell):
                    yield self.diagnostic(node_span(node, cell), facts.path, self.COUNTER_MESSAGE.format(read=ast.unparse(node)))


def _counter_read(node: ast.Call) -> bool:
    """`<x>.iterations.numpy()` or `int(<x>.iterations)`: the step counter copied to the host."""
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "numpy" and not node.args:
        return isinstance(func.value, ast.Attribute) and func.value.attr == COUNTER
    return (isinstance(func, ast.Name) and func.id in ("int", "float") and len(node.args) == 1
            and isinstance(node.args[0], ast.Attribute) and node.args[0].attr == COUNTER)


def _every_pass(facts: FileFacts, node: ast.AST, cell: int | None) -> bool:
    """The node is evaluated on every pass of the loop around it: no `if` body, conditional
    expression, handler or function between them (an `if`'s test is evaluated on every pass)."""
    child = node
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, LOOPS):
            return True
        if isinstance(parent, (*SCOPES, ast.IfExp, ast.ExceptHandler, ast.BoolOp)):
            return False
        if isinstance(parent, ast.If) and child is not parent.test:
            return False
        child = parent
    return False


#: Calls that only record a value (print, log, append to a history, format into text).
RECORDERS = frozenset({"print", "append", "extend", "format", "write", "log", "info", "debug", "set_postfix", "set_description"})
#: Conversions a recorded value passes through (`float(loss.numpy())`).
CONVERSIONS = frozenset({"float", "int", "str", "round", "repr"})


def _recorder(node: ast.AST) -> bool:
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        name = last_name(func)
        return name in RECORDERS
    return False


def _recorded(facts: FileFacts, node: ast.AST, cell: int | None) -> bool | str:
    """True when `node`'s value goes into a recorder; the name when it is assigned to one
    (to follow); False when the code computes with it."""
    child = node
    for parent in facts.ancestors(node, cell):
        if _recorder(parent):
            return True
        if isinstance(parent, (ast.FormattedValue, ast.keyword, ast.Starred)):
            child = parent
            continue
        if isinstance(parent, ast.Call) and child is not parent.func:
            if isinstance(parent.func, ast.Name) and parent.func.id in CONVERSIONS:
                child = parent
                continue
            return False  # an argument of a call that computes with it
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
            return parent.targets[0].id if parent.value is child else False
        if isinstance(parent, (ast.stmt, *SCOPES)):
            return False
        child = parent
    return False


def _only_recorded(facts: FileFacts, node: ast.Call | None, cell: int | None) -> bool:
    """The `.numpy()` value is only printed, formatted, logged or appended, directly or through
    the one name it is assigned to in the loop."""
    if node is None:
        return False
    found = _recorded(facts, node, cell)
    if not isinstance(found, str):
        return found
    loop = next((a for a in facts.ancestors(node, cell) if isinstance(a, (*LOOPS, *SCOPES))), None)
    if not isinstance(loop, LOOPS):
        return False
    uses = [n for n in ast.walk(loop) if isinstance(n, ast.Name) and n.id == found and isinstance(n.ctx, ast.Load)]
    return bool(uses) and all(_recorded(facts, use, cell) is True for use in uses)
