"""GL302 eager-training-step: a custom training step that runs eagerly, outside `tf.function`."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.predict.work_energy import DISPATCH_S, energy_at, power_for
from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid
from greenlint.rules.batch_price import reference_work
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.material import (
    SAVING_OPTION,
    immaterial_overhead,
    immaterial_work,
    known_runs,
    least_runs,
    repeated_cost,
)
from greenlint.rules.site import Site, method
from greenlint.rules.syntax import enclosing, host_reads, innermost_loop, is_training_step, last_name, own_body


def _is_step_call(api: str) -> bool:
    owner, _, name = api.rpartition(".")
    if api == "tensorflow.GradientTape.gradient":
        return True
    return name == "apply_gradients" and owner.startswith("tensorflow.keras.optimizers")


#: Calls that apply an update: an optimizer's, or a hand-written `v.assign_sub(lr * g)`.
UPDATES = frozenset({"apply_gradients", "minimize", "assign_sub", "assign_add"})


def _loop_updates(facts: FileFacts, site) -> bool:
    """Whether the loop around a `gradient()` call also updates variables (anywhere in its body);
    True when the syntax is not at hand, as before this check existed."""
    loop, _ = innermost_loop(facts, site)
    if facts.node(site) is None:
        return True
    return loop is not None and any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in UPDATES for n in ast.walk(loop)
    )


#: Eager ops a layer adds to a training step: its forward pass (a Dense layer's matmul, bias add and
#: activation: 3), their gradients (about two ops each: 6) and the optimizer's update of its kernel
#: and bias (2); each dispatched at DISPATCH_S.
OPS_PER_LAYER = 11
#: Eager ops of a step whatever its model: the loss and its reduction, the tape's bookkeeping and
#: the optimizer's own (its iteration counter, learning rate): about ten.
STEP_OPS = 10


def dispatch_price(facts: FileFacts, site: Site) -> tuple[float, int]:
    """(seconds, ops) of eager dispatch `tf.function` saves per step, estimated: STEP_OPS and
    OPS_PER_LAYER for each layer of the model whose forward pass the step trains (the nearest
    training call above the site in its function, with a known layer count; else one layer, the
    least), at DISPATCH_S each."""
    scope, line = site.callsite.scope, site.callsite.span.line
    layers = [
        n
        for s in facts.sites
        if s.callsite.scope == scope and s.callsite.span.line <= line and is_training_step(s)
        and isinstance(n := s.features.get("n_layers"), int) and n > 0
    ]
    ops = STEP_OPS + OPS_PER_LAYER * (layers[-1] if layers else 1)
    return DISPATCH_S * ops, ops


def immaterial_dispatch(facts: FileFacts, site: Site, each_s: float, options: Mapping[str, Any]) -> bool:
    """What compiling saves over the step's runs is not material: the runs are neither counted
    nor floored (on the real-world benchmark no such finding was judged worth a change), or their
    dispatch over the counted runs, or over the fewest certain (`least_runs`: the counted outer
    loops, each loop of unknown length once), adds up to under MIN_SAVING_S, or under
    `material-saving-j` at the training steady power of the bundled model's reference machine;
    or the step is test code."""
    runs = known_runs(site) or least_runs(site)
    if runs is None:
        return True
    power = power_for(reference_work(), "training")
    return immaterial_overhead(facts, site, each_s, None if power is None else energy_at(power, each_s), options, runs)


#: Cases whose fix must not apply (the text stays as it is): `loss` read after the loop, and a
#: step that may leave the loop early.
_READ_AFTER = (
    "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor x, y in data.take(500000):\n"
    "    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(x * y)\n"
    "    grads = tape.gradient(loss, [x])\n    opt.apply_gradients(zip(grads, [x]))\nprint(loss)\n"
)
_LEAVES_EARLY = (
    "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor x in data.take(500000):\n"
    "    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(x * x)\n"
    "    grads = tape.gradient(loss, [x])\n    opt.apply_gradients(zip(grads, [x]))\n"
    "    if stop(x):\n        break\n"
)


#: A step function of a twenty-layer model, called per batch of data of unknown length in an epoch
#: loop: `{epochs}` epochs, each at least one batch.
_STEP_PER_BATCH = (
    "import tensorflow as tf\nmodel = tf.keras.Sequential([" + "tf.keras.layers.Dense(64, activation='relu'), " * 20
    + "tf.keras.layers.Dense(1)])\nopt = tf.keras.optimizers.Adam()\ndef train_step(x, y):\n"
    "    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))\n"
    "    grads = tape.gradient(loss, model.trainable_variables)\n"
    "    opt.apply_gradients(zip(grads, model.trainable_variables))\n"
    "for epoch in range({epochs}):\n    for x, y in batches:\n{call}"
)
#: A step in a loop body that reads its loss with `.numpy()`: tracing cannot run it, so no fix.
_READS_NUMPY = (
    "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor x in data.take(500000):\n"
    "    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(x * x)\n"
    "    grads = tape.gradient(loss, [x])\n    opt.apply_gradients(zip(grads, [x]))\n    history.append(loss.numpy())\n"
)


class EagerTrainingStep(Rule):
    """
    ## What it does
    Flags `GradientTape.gradient()` and `optimizer.apply_gradients()` called inside a Python
    loop but not inside a function decorated with `@tf.function`: a custom training loop whose
    step runs eagerly, op by op. A `gradient()` call counts only when its loop also updates
    variables (`apply_gradients`, `minimize`, `assign_sub`, `assign_add`): gradients printed or
    checked in a loop are not a training step. Nor is a loop whose forward and backward pass
    already run in a function of the file compiled with `tf.function` (no `GradientTape` in the
    loop itself, a call of that function): only the update, a few ops per variable, runs
    eagerly, and compiling it too saves next to nothing. A step is reported once, at its
    `gradient()` (its `apply_gradients()` in the same loop is the same change), and not in test
    code: a test runs a few steps on tiny inputs, and what compiling saves there no user pays
    (greenlint/rules/material.py). Nor a step whose whole figure over its counted runs stays under
    `material-saving-j` (10 kJ) at its point (the predictor's median): compiling saves part of that work
    at most. A call that only builds a graph (its work counted where the graph runs) says nothing
    of it.

    What `tf.function` saves is the eager dispatch of each op of the step (`DISPATCH_S`, 50 µs),
    times the ops of the step, times its runs. The ops are estimated from the model the step
    trains (the nearest training call above it in its function): ten for the loss, the tape and
    the optimizer, and eleven per layer (a Dense layer's three forward ops, about two gradient ops
    for each, two variable updates); a model of unknown layers counts one, the least. A step is
    reported only where its runs are counted and that dispatch adds up to at least `MIN_SAVING_S`
    and `material-saving-j` at the training steady power of the bundled model's reference machine:
    5,000 steps of a two-layer model dispatch for some 8 s, 0.4 kJ, not worth a change.
    Runs greenlint cannot count are judged on their floor (`runs.least`: the counted loops around
    the step, each loop of unknown length, a batch loop over a data set, once): reported only where
    that floor alone adds up to both thresholds, as "at least N times"; with no floor they are not
    reported: on the real-world benchmark none of the eleven first-judged findings was true (all
    debatable: textbook loops over small models), and a second judge called false two that saved
    "a second or two". The message says the estimate, and the step's `.numpy()` calls, which a
    traced function cannot run: they must change first.

    ## Why is this bad?
    In eager mode every operation of the forward pass, the gradient and the update is
    dispatched from Python one at a time. Wrapped in `tf.function`, the step is traced once
    into a graph that TensorFlow optimises (op fusion, constant folding, pruning) and runs
    without returning to Python between ops. The TensorFlow guide "Better performance with
    tf.function" states that graphs can speed up code "especially for models with many small
    operations". Shorter steps at similar power mean less energy; `Model.fit()` already
    compiles its step this way.

    ## Example
    ```python
    import tensorflow as tf

    optimizer = tf.keras.optimizers.Adam()
    for x, y in dataset:
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    optimizer = tf.keras.optimizers.Adam()

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    for x, y in dataset:
        train_step(x, y)
    ```

    ## Energy evidence
    Estimated, not measured: the bundled knowledge base has no paired eager/graph measurements.
    The figure is the dispatch the change removes (ops of the step x `DISPATCH_S` x runs); graph
    optimisations (fusion, constant folding) may save more on large models, which is not claimed.

    ## Fix safety
    Unsafe: the fix moves the body of the `for` loop into `@tf.function def train_step(<loop
    variables>)` just before the loop and calls it from there, but code inside `tf.function` must
    be traceable (no Python side effects that should run on every step, no NumPy conversions of
    tensors), which greenlint cannot check. It is offered only for a loop over plain names whose
    body neither leaves the loop (`break`, `continue`, `return`), nor binds a name read outside it,
    nor calls `.numpy()`.

    ## Options
    - `material-saving-j`
    """

    code = "GL302"
    name = "eager-training-step"
    OPTIONS = (SAVING_OPTION,)
    CALLS = frozenset({"gradient", "apply_gradients"})
    MESSAGE = (
        "`{call}` runs eagerly in a training loop: the step is not compiled with tf.function, and pays {cost}"
    )
    FIX_TITLE = "Move the training step into a function decorated with @tf.function"
    FIX = FixBy("WrapLoopBody", {"name": "train_step"}, safe=False)
    VALID = (
        Valid(  # runs not counted: what compiling saves is not known (no such finding was judged worth a change)
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor x in data:\n"
            "    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(x * x)\n"
            "    grads = tape.gradient(loss, [x])\n    opt.apply_gradients(zip(grads, [x]))\n"
        ),
        Valid(  # 5,000 steps of a two-layer model: ~1.6 ms of dispatch each, 8 s in all, under material-saving-j
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(32, activation='elu'),"
            " tf.keras.layers.Dense(1)])\nopt = tf.keras.optimizers.RMSprop(0.01)\nfor episode in range(5000):\n"
            "    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(model(obs[None], training=True))\n"
            "    grads = tape.gradient(loss, model.trainable_variables)\n"
            "    opt.apply_gradients(zip(grads, model.trainable_variables))\n"
        ),
        Valid(  # a hundred counted steps whose whole figure stays under material-saving-j: compiling saves less
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor step in range(100):\n"
            "    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(x * x)\n"
            "    grads = tape.gradient(loss, [x])\n    opt.apply_gradients(zip(grads, [x]))\n"
        ),
        Valid(
            "import tensorflow as tf\n"
            "opt = tf.keras.optimizers.Adam()\n"
            "@tf.function\n"
            "def step(x):\n"
            "    with tf.GradientTape() as tape:\n"
            "        loss = tf.reduce_sum(x * x)\n"
            "    return tape.gradient(loss, [x])\n"
            "for x in data:\n"
            "    step(x)\n"
        ),
        Valid(
            "import tensorflow as tf\n"
            "x = tf.Variable(1.0)\n"
            "with tf.GradientTape() as tape:\n"
            "    y = x * x\n"
            "g = tape.gradient(y, x)\n"
        ),
        Valid(
            "import tensorflow as tf\nfor x in [tf.constant(1.0), tf.Variable(2.0)]:\n"
            "    with tf.GradientTape() as tape:\n        y = x + 1\n    print(tape.gradient(y, x))\n"
        ),
        Valid(  # gradient ascent: the loss and its gradient are compiled, one variable updated eagerly
            "import tensorflow as tf\nopt = tf.keras.optimizers.SGD(0.01)\nimage = tf.Variable(start)\n"
            "@tf.function\ndef loss_and_grads(img):\n    with tf.GradientTape() as tape:\n"
            "        loss = -tf.reduce_mean(model(img))\n    return loss, tape.gradient(loss, img)\n"
            "for i in range(100):\n    loss, grads = loss_and_grads(image)\n    opt.apply_gradients([(grads, image)])\n"
        ),
        Valid(  # a test of an optimizer: a few steps on tiny inputs, nothing a user pays
            "import tensorflow as tf\n\n\ndef test_multi_optimizer():\n    opt = tf.keras.optimizers.Adam()\n"
            "    for x in data:\n        with tf.GradientTape() as tape:\n            loss = tf.reduce_sum(x * x)\n"
            "        grads = tape.gradient(loss, [x])\n        opt.apply_gradients(zip(grads, [x]))\n"
        ),
        Valid(  # 500 epochs of at least one batch each: at least 6 s, 0.3 kJ of dispatch: not shown material
            _STEP_PER_BATCH.format(epochs=500, call="        train_step(x, y)\n")
        ),
        Valid(  # the step under an `if` in the loop of unknown length: it may never run, no floor
            _STEP_PER_BATCH.format(epochs=20000, call="        if x is not None:\n            train_step(x, y)\n")
        ),
        Valid(  # one step over one batch: no training loop
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor x in ds.take(1):\n"
            "    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(x * x)\n"
            "    grads = tape.gradient(loss, [x])\n    opt.apply_gradients(zip(grads, [x]))\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\n"
            "opt = tf.keras.optimizers.Adam()\n"
            "for x in data.take(500000):\n"
            "    with tf.GradientTape() as tape:\n"
            "        loss = tf.reduce_sum(x * x)\n"
            "    grads = tape.gradient(loss, [x])\n"
            "    opt.apply_gradients(zip(grads, [x]))\n",
            line=6,
            message_contains="pays about 1.05 ms of eager dispatch (21 ops, estimated) each, at most 500,000 times: 525 s",
            expected_replacement=(
                "import tensorflow as tf\n"
                "opt = tf.keras.optimizers.Adam()\n"
                "@tf.function\n"
                "def train_step(x):\n"
                "    with tf.GradientTape() as tape:\n"
                "        loss = tf.reduce_sum(x * x)\n"
                "    grads = tape.gradient(loss, [x])\n"
                "    opt.apply_gradients(zip(grads, [x]))\n"
                "for x in data.take(500000):\n"
                "    train_step(x)\n"
            ),
        ),
        Invalid(  # batches of unknown number in 20,000 epochs: at least 20,000 steps of a 21-layer model
            _STEP_PER_BATCH.format(epochs=20000, call="        train_step(x, y)\n"),
            line=8,
            message_contains="(241 ops, estimated) each, at least 20,000 times: at least 241 s",
        ),
        Invalid(  # the step reads its loss with `.numpy()`: the message says to change it, and no fix applies
            _READS_NUMPY,
            line=6,
            message_contains="its `.numpy()` (line 8) reads a tensor on the host",
            expected_replacement=_READS_NUMPY,
        ),
        Invalid(  # `loss` is read after the loop: moved into a function it would not be set there, so no fix
            _READ_AFTER,
            line=6,
            expected_replacement=_READ_AFTER,
        ),
        Invalid(  # a step that may leave the loop early: no fix
            _LEAVES_EARLY,
            line=6,
            expected_replacement=_LEAVES_EARLY,
        ),
        Invalid(  # loop variables unpacked, in a function: the step becomes a function beside the loop
            "import tensorflow as tf\n"
            "opt = tf.keras.optimizers.Adam()\n"
            "def fit(model, data):\n"
            "    for step, (x, y) in enumerate(data.take(500000)):\n"
            "        with tf.GradientTape() as tape:\n"
            "            loss = tf.reduce_sum(model(x) - y)\n"
            "        grads = tape.gradient(loss, model.trainable_variables)\n"
            "        opt.apply_gradients(zip(grads, model.trainable_variables))\n"
            "fit(net, dataset)\n",
            line=7,
            expected_replacement=(
                "import tensorflow as tf\n"
                "opt = tf.keras.optimizers.Adam()\n"
                "def fit(model, data):\n"
                "    @tf.function\n"
                "    def train_step(step, x, y):\n"
                "        with tf.GradientTape() as tape:\n"
                "            loss = tf.reduce_sum(model(x) - y)\n"
                "        grads = tape.gradient(loss, model.trainable_variables)\n"
                "        opt.apply_gradients(zip(grads, model.trainable_variables))\n"
                "    for step, (x, y) in enumerate(data.take(500000)):\n"
                "        train_step(step, x, y)\n"
                "fit(net, dataset)\n"
            ),
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        stepped: set[int] = set()  # the loops reported: one finding per training step
        for site in facts.sites:
            if not (_is_step_call(site.api) and site.repeats(same=()) and not site.features.get("in_tf_function")):
                continue
            if site.api == "tensorflow.GradientTape.gradient" and not _loop_updates(facts, site):
                continue  # gradients printed or checked in a loop (tests, tutorials), not a training step
            if _compiled_pass(facts, site) or immaterial_work(facts, site, options):
                continue
            price = dispatch_price(facts, site)
            if immaterial_dispatch(facts, site, price[0], options):
                continue
            loop, _ = innermost_loop(facts, site)
            if loop is not None:
                if id(loop) in stepped:
                    continue  # the step of this loop is reported already: the same change
                stepped.add(id(loop))
            cost = repeated_cost(site, price[0], f"of eager dispatch ({price[1]} ops, estimated)")
            message = self.MESSAGE.format(call=method(site.api) + "()", cost=cost) + _host_reads_clause(facts, site, loop)
            yield self.diagnostic(site.callsite.span, facts.path, message)


def _host_reads_clause(facts: FileFacts, site: Site, loop: ast.AST | None) -> str:
    """What the step must change before it can be compiled, in words: its `.numpy()` calls (the
    loop's body, else the function around the call), which a traced function cannot run; "" where none."""
    node = facts.node(site)
    step = loop if loop is not None or node is None else enclosing(facts, node, site.callsite.span.cell)
    lines = [] if step is None or isinstance(step, ast.Module) else host_reads(step)
    if not lines:
        return ""
    at = ", ".join(str(n) for n in sorted(set(lines)))
    return (
        f"; its `.numpy()` (line {at}) reads a tensor on the host, which a tf.function cannot: make it a"
        " TensorFlow op or move it out of the step first"
    )


def _compiled_pass(facts: FileFacts, site) -> bool:
    """The loop around the call records no `GradientTape` itself and calls a function of the
    file compiled with `tf.function`: the forward and backward pass run as a graph."""
    loop, _ = innermost_loop(facts, site)
    if loop is None:
        return False
    body = list(own_body(loop))
    if any(isinstance(n, ast.Call) and last_name(n.func) == "GradientTape" for n in body):
        return False
    compiled = _compiled_functions(facts)
    return any(isinstance(n, ast.Call) and last_name(n.func) in compiled for n in body)


def _compiled_functions(facts: FileFacts) -> frozenset:
    """Names of the file's functions compiled with `tf.function`: decorated, or a name bound
    to `tf.function(f)`."""
    found = set()
    for cell in facts.cells:
        for node in facts.nodes(cell, ast.FunctionDef, ast.AsyncFunctionDef, ast.Assign):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                last_name(d.func if isinstance(d, ast.Call) else d) == "function" for d in node.decorator_list
            ):
                found.add(node.name)
            elif (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and last_name(node.value.func) == "function"
            ):
                found.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return frozenset(found)
