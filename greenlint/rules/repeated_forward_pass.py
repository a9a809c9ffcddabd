"""GL205 repeated-forward-pass: a TF1 run that feeds the training step's batch again on every step, a Keras
model run forward again on the batch its training step was given in the same pass (greenlint/rules/step_batch.py),
or a training step that also fetches a separate `tf.gradients` of its loss (a second backward pass)."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.analysis.flow import VARIABLE_WRITES
from greenlint.analysis.handwritten import GRADIENTS
from greenlint.rules.base import FileFacts, Invalid, Option, Rule, Valid, argument
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import Site, method
from greenlint.rules.step_batch import repeats
from greenlint.rules.syntax import (
    Loop,
    bound_between,
    every_pass,
    feed,
    loop_varying,
    own_body,
    own_loops,
    periodic,
    same_passes,
)

#: TF1 graph runs: a session's `run`, and `Tensor.eval`/`Operation.run` (the default session's).
RUNS = frozenset(
    {
        "tensorflow.compat.v1.Session.run",
        "tensorflow.compat.v1.InteractiveSession.run",
        "tensorflow.Tensor.eval",
        "tensorflow.Variable.eval",
    }
)


def _training(site: Site) -> bool:
    """A run that fetches an optimizer's update: one training step of the graph (the analysis's `step`)."""
    return site.work_value("step") == "training"


def _same_batch(given: ast.expr, fed: ast.expr, loop: Loop) -> bool:
    """*given* feeds what the step was *fed*: the same expression, or a dict of some of its pairs
    whose left-out values are all batches the loop binds afresh (`{inputs: batch_images}` of a step
    fed `{inputs: batch_images, z: batch_z}`), never a literal or a name bound outside it (a
    `training: True` left to its default, a fixed `keep_prob`) that sets how the graph computes."""
    if ast.dump(given) == ast.dump(fed):
        return True
    if not isinstance(given, ast.Dict) or not isinstance(fed, ast.Dict) or None in given.keys or None in fed.keys:
        return False
    pairs = {ast.dump(k): v for k, v in zip(fed.keys, fed.values) if k is not None}
    kept = {ast.dump(k): ast.dump(v) for k, v in zip(given.keys, given.values) if k is not None}
    if not kept or any(k not in pairs or ast.dump(pairs[k]) != v for k, v in kept.items()):
        return False
    fresh = loop_varying(loop)
    return all(isinstance(v, ast.Name) and v.id in fresh for k, v in pairs.items() if k not in kept)


def _feeds_step(call: ast.Call, loop: Loop, fed: list[ast.expr]) -> bool:
    """What the run returns reaches what a training step of its loop is *fed* (`adv = sess.run(advantage,
    fd)`, then `sess.run(train_op, {..., tfadv: adv})`): an input the step needs before it runs, which no
    fetch beside the step can give."""
    bound = frozenset().union(
        *(
            flow.targets(target)
            for node in own_body(loop)
            if isinstance(node, ast.Assign) and any(n is call for n in ast.walk(node.value))
            for target in node.targets
        )
    )
    reached = flow.derived(bound, loop.body)
    return any(flow.names(given) & reached for given in fed)


#: Methods and functions that write a variable: an op fetching only these reads no batch.
_WRITES = VARIABLE_WRITES | {"variables_initializer", "global_variables_initializer", "local_variables_initializer"}


def _writes_only(facts: FileFacts, fetched: ast.expr | None, cell: int | None) -> bool:
    """The run fetches only variable writes (`zero_op = [v.assign(tf.zeros_like(v)) for v in accum]`, a
    gradient accumulator cleared): a list, tuple or comprehension of `.assign*()` calls, or a name the file
    binds only to one. It computes no forward pass, whatever it is fed."""
    if isinstance(fetched, (ast.List, ast.Tuple)):
        return bool(fetched.elts) and all(_writes_only(facts, e, cell) for e in fetched.elts)
    if isinstance(fetched, (ast.ListComp, ast.GeneratorExp)):
        return _writes_only(facts, fetched.elt, cell)
    if isinstance(fetched, ast.Call):
        func = fetched.func
        return (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) in _WRITES
    if isinstance(fetched, ast.Name):
        bound = _bindings(facts, fetched, cell)
        return bool(bound) and all(_writes_only(facts, value, cell) for value in bound)
    return False


def _bindings(facts: FileFacts, target: ast.expr, cell: int | None) -> list[ast.expr]:
    """The values the unit assigns to *target*: a name's plain assignments, or those of any object's
    attribute of that name (`self.cost` in a network's class, read as `self.net.cost` in a trainer's)."""
    def same(t: ast.expr) -> bool:
        if isinstance(target, ast.Name):
            return isinstance(t, ast.Name) and t.id == target.id
        return isinstance(target, ast.Attribute) and isinstance(t, ast.Attribute) and t.attr == target.attr
    return [n.value for n in facts.nodes(cell, ast.Assign) if isinstance(n, ast.Assign) and any(map(same, n.targets))]


def _returned(facts: FileFacts, value: ast.expr, cell: int | None) -> list[ast.expr]:
    """*value*, or what the unit's function it calls returns (`self.optimizer = self._get_optimizer()`,
    each `return` followed through the names its function binds)."""
    func = value.func if isinstance(value, ast.Call) else None
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    defs = [d for d in facts.nodes(cell, ast.FunctionDef) if isinstance(d, ast.FunctionDef) and d.name == name]
    if not defs:
        return [value]
    found: list[ast.expr] = []
    for d in defs:
        assigns = [n for n in ast.walk(d) if isinstance(n, ast.Assign)]
        for ret in (n.value for n in ast.walk(d) if isinstance(n, ast.Return) and n.value is not None):
            bound = [a.value for a in assigns if isinstance(ret, ast.Name)
                     and any(isinstance(t, ast.Name) and t.id == ret.id for t in a.targets)]
            found.extend(bound or [ret])
    return found


def _method_call(value: ast.expr, name: str) -> ast.Call | None:
    """*value* where it is a call of a method *name* (`opt.minimize(loss)`), else None."""
    return value if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == name else None


def _update_losses(facts: FileFacts, fetched: ast.expr, cell: int | None) -> list[ast.expr]:
    """The losses of the optimizer's update *fetched* is bound to, wherever it is built:
    `opt.minimize(loss)`, or `opt.apply_gradients(gvs)` of `gvs = opt.compute_gradients(loss)`
    (transformed in a comprehension or not); none where a binding is another call or gradients of no
    known loss (`zip(grads, tvars)`: gradients built apart, the ones applied). Bindings to no call (a
    setting the attribute held before: `self.optimizer = optimizer`) are left aside."""
    values = [v for b in _bindings(facts, fetched, cell) if isinstance(b, ast.Call) for v in _returned(facts, b, cell)]
    losses = []
    for value in values:
        minimize, apply = _method_call(value, "minimize"), _method_call(value, "apply_gradients")
        if minimize is not None:
            loss = argument(minimize, "loss", 0)
        elif apply is not None:
            loss = _computed_loss(facts, argument(apply, "grads_and_vars", 0), cell)
        else:
            return []
        if loss is None:
            return []
        losses.append(loss)
    return losses


def _computed_loss(facts: FileFacts, gvs: ast.expr | None, cell: int | None) -> ast.expr | None:
    """The loss of the `opt.compute_gradients(loss)` an update applies (*gvs*: that call, a name bound to
    it once, or a comprehension over either); None otherwise."""
    if isinstance(gvs, ast.ListComp) and len(gvs.generators) == 1:
        gvs = gvs.generators[0].iter
    bound = _bindings(facts, gvs, cell) if isinstance(gvs, ast.Name) else [gvs] if gvs is not None else []
    computed = _method_call(bound[0], "compute_gradients") if len(bound) == 1 else None
    return argument(computed, "loss", 0) if computed is not None else None


def _same_loss(a: ast.expr, b: ast.expr) -> bool:
    """*a* and *b* name the same loss: the same expression, or an object's attribute read as `self.cost`
    in its own class and through another object (`self.net.cost`) in another's."""
    if ast.dump(a) == ast.dump(b):
        return True
    if not (isinstance(a, ast.Attribute) and isinstance(b, ast.Attribute) and a.attr == b.attr):
        return False
    return any(isinstance(x.value, ast.Name) and x.value.id == "self" for x in (a, b))


def _gradients(facts: FileFacts, fetched: ast.expr, cell: int | None) -> tuple[ast.Call, ast.expr] | None:
    """The `tf.gradients(loss, ...)` call *fetched* is bound to (its one binding), with its loss; None otherwise."""
    bound = _bindings(facts, fetched, cell)
    call = bound[0] if len(bound) == 1 and isinstance(bound[0], ast.Call) else None
    site = facts.site_at(call, cell) if call is not None else None
    loss = argument(call, "ys", 0) if call is not None and site is not None and site.api in GRADIENTS else None
    return (call, loss) if call is not None and loss is not None else None


def _fetches(call: ast.Call) -> list[ast.expr]:
    """The expressions a session's `run` fetches: its first argument, or the items of a literal list,
    tuple or dict of them."""
    fetches = argument(call, "fetches", 0)
    if isinstance(fetches, (ast.List, ast.Tuple)):
        return list(fetches.elts)
    if isinstance(fetches, ast.Dict):
        return list(fetches.values)
    return [fetches] if fetches is not None else []


def _fed(given: ast.expr, fed: ast.expr) -> str:
    """What of the step's feed *fed* the run is *given*, as the message says it: "the batch", or
    the values of the pairs it keeps ("`batch_images`, part of the batch")."""
    if ast.dump(given) == ast.dump(fed) or not isinstance(given, ast.Dict):
        return "the batch"
    return ", ".join(f"`{ast.unparse(value)}`" for value in given.values) + ", part of the batch"


class RepeatedForwardPass(Rule):
    """
    ## What it does
    Flags, in a TensorFlow 1 training loop, a `Session.run()` or `Tensor.eval()` that is fed
    the same `feed_dict` as the loop's training step (the run that fetches the optimizer's
    update) and runs on every pass of the same loop: `sess.run(train_op, feed_dict=fd)` followed
    by `loss.eval(feed_dict=fd)` or `sess.run(loss, feed_dict=fd)` to log the loss or the
    accuracy of the batch just trained on. A run fed some of the step's pairs is fed the same
    batch when each pair it leaves out feeds a name the loop binds afresh, another batch the
    graph's other inputs take (a GAN's discriminator loss on the real images alone,
    `d_loss_real.eval({inputs: batch_images})`, after a step fed `{inputs: batch_images, z:
    batch_z}`): what it fetches is computed from the same fed values, in the same forward pass.

    Also flags two runs on every pass of a loop, neither a training step, fed the same
    `feed_dict` as written, with no name of it bound again and no training step run between
    them: `loss.eval(fd)` then `accuracy.eval(fd)` on each test batch. The second computes the
    forward pass of the batch again; one run fetching both (`sess.run([loss, accuracy], fd)`)
    computes it once. Not reported where a training step of the loop is fed the same batch (the
    runs are then reported as its repeats).

    Also flags, in Keras, a forward pass of a model on the batch its training step is given in
    the same pass: `model.evaluate(x, y)` or `model.test_on_batch(x, y)` beside
    `model.train_on_batch(x, y)`, which returns the batch's loss and compiled metrics itself
    (`return_dict=True`), and `model(x)`, `model.predict(x)`, `evaluate` or `test_on_batch`
    beside the step's forward pass under a `tf.GradientTape` (`logits = model(x, training=True)`),
    whose outputs give any metric of the batch (`acc.update_state(y, logits)`), also where the
    step is the whole body of a function of the file that the pass calls on the same inputs
    (`train_step(x, y)`, then `model(x)`; the model a name the function neither takes nor binds,
    or `self.model` in one class). The pass is the
    step's: the same passes of the same loop, or a function that trains one step, with no `if`
    between either call and the function; the inputs (and `evaluate`'s targets) are the step's,
    as written, no name of them bound again between the two calls. With `repeated-forward-outputs`,
    also a `predict`, `predict_on_batch` or call of the model beside its `train_on_batch`: the step
    computed those outputs but does not return them, so the fix is a custom training step, and
    the outputs may serve more than a log (an object detector's proposals for its next stage).

    Also flags a training step's run, on every pass of its loop, that fetches beside the
    optimizer's update of a loss (`opt.minimize(loss)`, `opt.apply_gradients` of
    `opt.compute_gradients(loss)`) a separate `tf.gradients` of the same loss:
    `sess.run([train_op, loss, grads], ...)` with `grads = tf.gradients(loss, variables)` kept
    to inspect or log the gradients. The loss is matched as the file names it (`self.cost` in a
    network's class is `self.net.cost` in its trainer's; `gen.loss` is not `disc.loss`). Not reported:
    the gradients the update applies (`opt.apply_gradients(zip(grads, tvars))`: one backward
    pass), gradients of another loss, and a run under an `if` that thins the passes out.

    The run and the step run on the same passes: both on every pass, or both in the same
    branch of an `if` of the loop with no other condition between (`if config.dataset ==
    "mnist":` choosing the feeds of the whole step, its logging included).

    Not reported: a run under an `if` in the loop that the step is not under (`if step % 100 ==
    0:` logs every 100 steps), except the `else` of an `if` that takes a remainder, which runs
    on all the other steps; a run beside a step under an `if` of its own (a step taken on some
    passes only); a run in an outer loop (once per epoch); a run fed anything else (the
    validation set, another batch, the same batch with other values such as `keep_prob: 1.0`,
    a part of the step's feed that leaves out a literal or a name not bound in the loop, such as
    `training: True` left to a `placeholder_with_default(False)` or a fixed `keep_prob`), which
    computes something the step did not; a run whose result the loop feeds to a training step
    (`adv = sess.run(advantage, fd)`, then `sess.run(train_op, {..., tfadv: adv})`: an input the step
    needs before it runs); and a run beside a step that a comprehension repeats on each pass
    (`[sess.run(train_op, fd) for _ in range(10)]`: the run computes once what the steps then change).
    Nor, in Keras: a pass on another batch (the validation
    set, another slice, an input written as a call such as `next(batches)`), a pass under an `if`
    that thins the passes out and that the step is not under, another model run on the step's inputs (a GAN's generator predicting from the noise
    the combined model then trains on: GL210's), and a pass after the step whose value decides
    what the loop does next (read in an `if`, `while` or `assert` test: a policy's KL divergence
    after its update that ends the updates, a line search): there the updated model's figure is
    the one wanted.

    ## Why is this bad?
    In a TF1 graph, every `run` computes all it fetches from the fed values again: nothing is
    kept from the previous run. The training step has already computed the loss and the
    predictions of the batch in its forward pass; a second run on the same feed copies the batch
    into the runtime again and repeats that forward pass, about a third of a training step's
    work (a backward pass costs about twice the forward one), on every step. Each `tf.gradients`
    call builds a backward pass of its own into the graph: fetched with an update that
    differentiates the same loss, it computes the backward pass a second time, about two thirds
    of the step's work again (TF's graph optimizer does not merge the two). Fetching the
    values with the step (`_, loss_value = sess.run([train_op, loss], feed_dict=fd)`) gets them
    from the forward pass already done. Keras' `train_on_batch` and a step under a tape compute
    the batch's forward pass too; running the model again on the batch costs that pass again.
    The figures logged change slightly: the step's loss is computed before its update (as the
    figures `fit` logs), where a pass after it sees the updated weights; and a model with dropout
    or batch normalisation runs in training mode in the step, in inference mode in `evaluate`,
    `predict` or `model(x)`. Where the inference-mode figure of the training batch is wanted,
    computing it every few steps costs little.

    ## Example
    ```python
    for step in range(10000):
        fd = {x: xs[step], y: ys[step]}
        sess.run(train_op, feed_dict=fd)
        loss_value = loss.eval(feed_dict=fd)
    ```

    ## Use instead
    ```python
    for step in range(10000):
        fd = {x: xs[step], y: ys[step]}
        _, loss_value = sess.run([train_op, loss], feed_dict=fd)
    ```

    ## Energy evidence
    The pair under bench/rules/ trains a three-layer perceptron as a TF1 graph
    (`tf.compat.v1`, eager execution off) for 200 steps of 64 rows, reading the loss with a
    second `sess.run` on the same feed, and fetching it with the step: +27 % (+22 % to +28 % over
    four side-by-side rounds) on a 2-core CPU. On a DCGAN's step, a blind judge timed the three
    loss `.eval()` calls at 20-35 % of an iteration on a CPU.

    ## Fix safety
    No automatic fix: fetched with the step, the loss is the one computed before the update,
    not after it; the logged numbers change slightly.

    ## Options
    - `repeated-forward-outputs`
    """

    code = "GL205"
    name = "repeated-forward-pass"
    CALLS = frozenset(map(method, RUNS)) | {"train_on_batch", "__call__"}
    OPTIONS = (
        Option(
            "repeated-forward-outputs",
            bool,
            False,
            "GL205 also flags a Keras model's `predict`, `predict_on_batch` or call on the batch its"
            " `train_on_batch` was given in the same pass: outputs the step computed but does not return.",
        ),
    )
    MESSAGE = (
        "`{call}` runs the graph again on {fed} the training step at line {line} was fed, on every step{times}:"
        " the forward pass is computed twice; fetch these values with the step (`sess.run([train_op, ...], ...)`)"
    )
    BACKWARD_MESSAGE = (
        "`Session.run()` fetches `{grads}`, a separate `tf.gradients` of the step's loss (line {line}), with the"
        " optimizer's update that already differentiates it, on every step{times}: each `tf.gradients` builds"
        " a backward pass of its own, so the step computes the backward pass twice (about 2/3 of a training"
        " step's work again); fetch the gradients only on the steps that use them, or apply these"
        " (`opt.apply_gradients(zip(grads, vars))`)"
    )
    AGAIN_MESSAGE = (
        "`{call}` runs the graph again on the batch the run at line {line} was fed, on every pass{times}:"
        " the forward pass is computed twice; fetch the values of both in one run (`sess.run([loss, accuracy], ...)`)"
    )
    KERAS_MESSAGE = (
        "`{call}` runs `{model}` forward again on `{given}`, the batch the training step at line {line} has run it on,"
        " on every step{times}: the forward pass is computed twice; {advice}"
    )
    SCORED = "`train_on_batch()` returns the batch's loss and compiled metrics (`return_dict=True`)"
    TAPED = "use the outputs the step computed under its tape{outputs}"
    RETURNED = "return the outputs `{function}()` computes under its tape{outputs} and use them"
    UNRETURNED = (
        "`train_on_batch()` computes these outputs but does not return them: a custom training step"
        " (`tf.GradientTape`) can return them with its loss"
    )
    FIX_TITLE = "Fetch the logged values with the training step"
    VALID = (
        Valid(  # logged every 100 steps only
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "sess = tf.compat.v1.Session()\nfor step in range(10000):\n    fd = {x: xs[step], y: ys[step]}\n"
            "    sess.run(train_op, feed_dict=fd)\n    if step % 100 == 0:\n        print(loss.eval(feed_dict=fd))\n"
        ),
        Valid(  # once per epoch, in the outer loop (on the last batch)
            "import tensorflow as tf\nopt = tf.compat.v1.train.GradientDescentOptimizer(0.01)\ntrain_op = opt.minimize(loss)\n"
            "with tf.compat.v1.Session() as sess:\n    for epoch in range(40):\n        for i in range(n_batches):\n"
            "            X_batch, y_batch = next_batch(i)\n"
            "            sess.run(train_op, feed_dict={X: X_batch, y: y_batch})\n"
            "        acc = accuracy.eval(feed_dict={X: X_batch, y: y_batch})\n"
        ),
        Valid(  # the validation set: work the step did not do
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    sess.run(train_op, feed_dict={x: xb[step], y: yb[step]})\n"
            "    val = sess.run(loss, feed_dict={x: x_val, y: y_val})\n"
        ),
        Valid(  # the same batch without dropout: another computation than the step's
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    sess.run(train_op, feed_dict={x: xb, keep_prob: 0.5})\n"
            "    acc = accuracy.eval(feed_dict={x: xb, keep_prob: 1.0})\n"
        ),
        Valid(  # the run clears gradient accumulators: variable writes, no forward pass, whatever it is fed
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "zero_op = [v.assign(tf.zeros_like(v)) for v in accum_grads]\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n    fd = {x: xb[step]}\n"
            "    sess.run(zero_op, feed_dict=fd)\n    sess.run(train_op, feed_dict=fd)\n"
        ),
        Valid(  # the values fetched with the step
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    _, loss_value = sess.run([train_op, loss], feed_dict={x: xb[step]})\n"
        ),
        Valid(  # the step taken on some passes only: the run on the others computes what no step did
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n    fd = {x: xb[step]}\n"
            "    if step % 5 == 0:\n        sess.run(train_op, feed_dict=fd)\n    print(loss.eval(fd))\n"
        ),
        Valid(  # the step in one branch, the run in the other: never both on one pass
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n    fd = {x: xb[step]}\n"
            "    if training:\n        sess.run(train_op, feed_dict=fd)\n    else:\n        print(loss.eval(fd))\n"
        ),
        Valid(  # the step's batch without its `training: True`: the graph's default mode, another computation
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n    X_batch, y_batch = next_batch(step)\n"
            "    sess.run(train_op, feed_dict={training: True, X: X_batch, y: y_batch})\n"
            "    acc = accuracy.eval(feed_dict={X: X_batch, y: y_batch})\n"
        ),
        Valid(  # a dropout rate bound before the loop left out: the run computes without dropout
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "keep = 0.5\nsess = tf.compat.v1.Session()\nfor step in range(1000):\n    X_batch = next_batch(step)\n"
            "    sess.run(train_op, feed_dict={X: X_batch, keep_prob: keep})\n    print(loss.eval({X: X_batch}))\n"
        ),
        Valid(  # the fetched gradients are the ones applied: one backward pass
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntvars = tf.compat.v1.trainable_variables()\n"
            "grads = tf.gradients(loss, tvars)\ntrain_op = opt.apply_gradients(zip(grads, tvars))\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    _, g = sess.run([train_op, grads], feed_dict={x: xb[step]})\n"
        ),
        Valid(  # the gradients fetched every 100 steps only, to log their norms
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "grads = tf.gradients(loss, tf.compat.v1.trainable_variables())\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n    fd = {x: xb[step]}\n"
            "    if step % 100 == 0:\n        _, g = sess.run([train_op, grads], feed_dict=fd)\n"
            "    else:\n        sess.run(train_op, feed_dict=fd)\n"
        ),
        Valid(  # the gradients of another loss (the discriminator's, beside the generator's step)
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ng_optim = opt.minimize(g_loss)\n"
            "d_grads = tf.gradients(d_loss, d_vars)\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    _, g = sess.run([g_optim, d_grads], feed_dict={z: zb[step]})\n"
        ),
        Valid(  # two networks' losses of one name: the generator's update, the discriminator's gradients
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ngen, disc = Generator(), Discriminator()\n"
            "train_g = opt.minimize(gen.loss)\nd_grads = tf.gradients(disc.loss, d_vars)\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    _, g = sess.run([train_g, d_grads], feed_dict={z: zb[step]})\n"
        ),
        Valid(  # the advantage fed to the step: an input it needs before it runs, not a value to fetch with it
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    adv = sess.run(advantage, feed_dict={x: xb[step], r: rb[step]})\n"
            "    sess.run(train_op, feed_dict={x: xb[step], r: rb[step], tfadv: adv})\n"
        ),
        Valid(  # the value run once per update, the critic's step ten times on the same rollout
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\nc_train = opt.minimize(closs)\n"
            "sess = tf.compat.v1.Session()\nfor update in range(1000):\n    s, ret = rollout()\n"
            "    v = sess.run(value, {x: s, r: ret})\n    [sess.run(c_train, {x: s, r: ret}) for _ in range(10)]\n"
        ),
        Valid(  # two runs on one batch, a training step on it between: the second sees the updated weights
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n    fd = {x: xb[step]}\n    before = sess.run(loss, fd)\n"
            "    sess.run(train_op, feed_dict={x: xb[step], keep_prob: 0.5})\n    after = sess.run(loss, fd)\n"
        ),
        Valid(  # two runs of a recurrent net, the second fed the state the first returned
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "for xb in batches:\n    out, state = sess.run([pred, final_state], {x: xb, init: state})\n"
            "    cost = sess.run(loss, {x: xb, init: state})\n"
        ),
        Valid(  # the two runs every 100 steps only
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "for step in range(10000):\n    sess.run(train_op, feed_dict={x: xs[step]})\n    if step % 100 == 0:\n"
            "        fd = {x: x_val}\n        print(sess.run(loss, fd), sess.run(accuracy, fd))\n"
        ),
        Valid(  # Keras: the validation set after the step, another batch
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nmodel.compile('adam', 'mse')\n"
            "for xb, yb in batches:\n    model.train_on_batch(xb, yb)\n    print(model.evaluate(x_val, y_val))\n"
        ),
        Valid(  # Keras: the batch scored every 100 steps only
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nmodel.compile('adam', 'mse')\n"
            "for step, (xb, yb) in enumerate(batches):\n    model.train_on_batch(xb, yb)\n"
            "    if step % 100 == 0:\n        print(model.evaluate(xb, yb, verbose=0))\n"
        ),
        Valid(  # Keras: the batch's names bound again between the two calls: the next batch
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nmodel.compile('adam', 'mse')\n"
            "for step in range(1000):\n    xb, yb = next_batch()\n    model.train_on_batch(xb, yb)\n"
            "    xb, yb = next_batch()\n    print(model.test_on_batch(xb, yb))\n"
        ),
        Valid(  # Keras: inputs written as a call, which may give another batch at each reading
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nmodel.compile('adam', 'mse')\n"
            "for step in range(1000):\n    model.train_on_batch(sample(x), y)\n    print(model.evaluate(sample(x), y))\n"
        ),
        Valid(  # Keras: the batch scored against other targets, another loss
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nmodel.compile('adam', 'mse')\n"
            "for xb, yb in batches:\n    model.train_on_batch(xb, yb)\n    print(model.evaluate(xb, yb_clean))\n"
        ),
        Valid(  # Keras: outputs `train_on_batch` does not return (opt-in: `repeated-forward-outputs`)
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nmodel.compile('adam', 'mse')\n"
            "for xb, yb in batches:\n    model.train_on_batch(xb, yb)\n    proposals = model.predict_on_batch(xb)\n"
        ),
        Valid(  # Keras: another model on the step's inputs (the generator a GAN's combined model holds: GL210's)
            "import tensorflow as tf\ngenerator = tf.keras.Sequential()\ncombined = tf.keras.Sequential()\n"
            "for step in range(1000):\n    noise = sample()\n    fake = generator.predict(noise)\n"
            "    combined.train_on_batch(noise, valid)\n"
        ),
        Valid(  # the updated policy's divergence on the batch ends the updates: its figure after the step is wanted
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nopt = tf.keras.optimizers.Adam()\n"
            "acc = tf.keras.metrics.SparseCategoricalAccuracy()\n"
            "for i in range(80):\n    with tf.GradientTape() as tape:\n        loss = loss_fn(act, model(obs, training=True))\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
            "    kl = tf.reduce_mean(logp_old - model(obs))\n    if kl > 0.015:\n        break\n"
        ),
        Valid(  # the step function's batch, then the model on the validation batch
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nopt = tf.keras.optimizers.Adam()\n"
            "acc = tf.keras.metrics.SparseCategoricalAccuracy()\n"
            "@tf.function\ndef train_step(x, y):\n    with tf.GradientTape() as tape:\n        logits = model(x, training=True)\n"
            "        loss = loss_fn(y, logits)\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
            "    return loss\n"
            "for x, y in train_ds:\n    loss = train_step(x, y)\n    acc.update_state(y_val, model(x_val))\n"
        ),
        Valid(  # the step function trains the model it is given: another one than the model run after it
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nopt = tf.keras.optimizers.Adam()\n"
            "acc = tf.keras.metrics.SparseCategoricalAccuracy()\n"
            "def train_step(model, x, y):\n    with tf.GradientTape() as tape:\n"
            "        loss = loss_fn(y, model(x, training=True))\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
            "student = tf.keras.Sequential()\nfor x, y in train_ds:\n    train_step(student, x, y)\n"
            "    acc.update_state(y, model(x))\n"
        ),
        Valid(  # a tape's step and a validation step: two functions, each run on its own batches
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nopt = tf.keras.optimizers.Adam()\n"
            "acc = tf.keras.metrics.SparseCategoricalAccuracy()\n"
            "def train_step(x, y):\n    with tf.GradientTape() as tape:\n        loss = loss_fn(y, model(x, training=True))\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
            "def val_step(x, y):\n    acc.update_state(y, model(x))\n"
            "for epoch in range(10):\n    for x, y in train_ds:\n        train_step(x, y)\n"
            "    for x, y in val_ds:\n        val_step(x, y)\n"
        ),
    )
    INVALID = (
        Invalid(  # near miss: the loss run's result is fed to a summary's run, no training step
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n    fd = {x: xb[step]}\n"
            "    sess.run(train_op, feed_dict=fd)\n    loss_value = sess.run(loss, feed_dict=fd)\n"
            "    sess.run(summary_op, feed_dict={loss_ph: loss_value})\n",
            line=8,
        ),
        Invalid(  # near miss: the step and the run repeated by one comprehension, on the same batch
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "sess = tf.compat.v1.Session()\nfor update in range(1000):\n    fd = {x: xb[update]}\n"
            "    [(sess.run(train_op, feed_dict=fd), sess.run(loss, feed_dict=fd)) for _ in range(10)]\n",
            line=7,
        ),
        Invalid(  # two forward-only runs on each test batch
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "for i in range(100):\n    fd = {x: x_test[i], y: y_test[i]}\n    test_loss = sess.run(loss, feed_dict=fd)\n"
            "    test_acc = sess.run(accuracy, feed_dict=fd)\n",
            line=6,
            message_contains="`Session.run()` runs the graph again on the batch the run at line 5 was fed, on every pass (100 times)",
        ),
        Invalid(  # Keras: the batch just trained on scored again to log its loss
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nmodel.compile('adam', 'mse')\n"
            "for step in range(1000):\n    xb, yb = x[step * 64:(step + 1) * 64], y[step * 64:(step + 1) * 64]\n"
            "    model.train_on_batch(xb, yb)\n    loss = model.evaluate(xb, yb, verbose=0)\n",
            line=7,
            message_contains="`model.evaluate()` runs `model` forward again on `xb`, the batch the training step at line 6"
            " has run it on, on every step (1,000 times)",
        ),
        Invalid(  # Keras: test_on_batch before the step on the same batch (the same weights)
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nmodel.compile('adam', 'mse')\n"
            "for xb, yb in batches:\n    before = model.test_on_batch(xb, yb)\n    model.train_on_batch(xb, yb)\n",
            line=5,
            message_contains="returns the batch's loss and compiled metrics",
        ),
        Invalid(  # a tape's step, then the model run again on the batch for an accuracy
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nopt = tf.keras.optimizers.Adam()\n"
            "acc = tf.keras.metrics.SparseCategoricalAccuracy()\n"
            "for epoch in range(10):\n    for x, y in train_ds:\n        with tf.GradientTape() as tape:\n"
            "            logits = model(x, training=True)\n            loss = loss_fn(y, logits)\n"
            "        grads = tape.gradient(loss, model.trainable_variables)\n"
            "        opt.apply_gradients(zip(grads, model.trainable_variables))\n"
            "        acc.update_state(y, model(x, training=False))\n",
            line=12,
            message_contains="use the outputs the step computed under its tape (`logits`)",
        ),
        Invalid(  # a step function (one step per call): its model run again on its batch after the update
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nopt = tf.keras.optimizers.Adam()\n"
            "acc = tf.keras.metrics.SparseCategoricalAccuracy()\n"
            "@tf.function\ndef train_step(x, y):\n    with tf.GradientTape() as tape:\n"
            "        loss = loss_fn(y, model(x, training=True))\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
            "    acc.update_state(y, model.predict(x))\n"
            "for x, y in train_ds:\n    train_step(x, y)\n",
            line=10,
            message_contains="`model.predict()` runs `model` forward again on `x`, the batch the training step at line 8",
        ),
        Invalid(  # the step function called on the batch, then the model run on it again for an accuracy
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nopt = tf.keras.optimizers.Adam()\n"
            "acc = tf.keras.metrics.SparseCategoricalAccuracy()\n"
            "@tf.function\ndef train_step(x, y):\n    with tf.GradientTape() as tape:\n        logits = model(x, training=True)\n"
            "        loss = loss_fn(y, logits)\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
            "    return loss\n"
            "for x, y in train_ds:\n    loss = train_step(x, y)\n    acc.update_state(y, model(x))\n",
            line=14,
            message_contains="return the outputs `train_step()` computes under its tape (`logits`) and use them",
        ),
        Invalid(  # a trainer's step method, then its model scored on the same batch
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nclass Trainer:\n    def __init__(self):\n"
            "        self.model = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n\n    def step(self, x, y):\n"
            "        with tf.GradientTape() as tape:\n            loss = loss_fn(y, self.model(x, training=True))\n"
            "        variables = self.model.trainable_variables\n"
            "        opt.apply_gradients(zip(tape.gradient(loss, variables), variables))\n\n    def fit(self, ds):\n"
            "        for x, y in ds:\n            self.step(x, y)\n            print(self.model.evaluate(x, y, verbose=0))\n",
            line=16,
            message_contains="return the outputs `self.step()` computes under its tape and use them",
        ),
        Invalid(  # opt-in: outputs that `train_on_batch` computes but does not return
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nmodel.compile('adam', 'mse')\n"
            "for xb, yb in batches:\n    model.train_on_batch(xb, yb)\n    proposals = model.predict_on_batch(xb)\n",
            options={"repeated-forward-outputs": True},
            line=6,
            message_contains="does not return them",
        ),
        Invalid(  # a separate tf.gradients of the minimized loss, fetched with the step
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "grads = tf.compat.v1.gradients(loss, tf.compat.v1.trainable_variables())\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    _, loss_value, grad_values = sess.run([train_op, loss, grads], feed_dict={x: xb[step]})\n",
            line=7,
            message_contains="fetches `grads`, a separate `tf.gradients` of the step's loss (line 4)",
        ),
        Invalid(  # the net's gradients read through a trainer, whose update applies compute_gradients of the same loss
            "import tensorflow as tf\nclass Net:\n    def __init__(self):\n        self.loss = build_loss()\n"
            "        self.grads = tf.gradients(self.loss, tf.compat.v1.trainable_variables())\n"
            "class Trainer:\n    def __init__(self, net, optimizer='adam'):\n        self.net = net\n"
            "        self.optimizer = optimizer\n\n    def _update(self):\n"
            "        opt = tf.compat.v1.train.AdamOptimizer()\n        gvs = opt.compute_gradients(self.net.loss)\n"
            "        update = opt.apply_gradients([(tf.clip_by_norm(g, 5.0), v) for g, v in gvs])\n        return update\n\n"
            "    def train(self, sess, batches):\n        self.optimizer = self._update()\n"
            "        for xb in batches:\n"
            "            _, grads = sess.run((self.optimizer, self.net.grads), feed_dict={self.net.x: xb})\n",
            line=20,
        ),
        Invalid(
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "sess = tf.compat.v1.InteractiveSession()\nfor step in range(10000):\n    fd = {x: xs[step], y: ys[step]}\n"
            "    sess.run(train_op, feed_dict=fd)\n    loss_value = loss.eval(feed_dict=fd)\n",
            line=8,
            message_contains="the training step at line 7 was fed, on every step (10,000 times)",
        ),
        Invalid(  # a session run, the feed written out the same way
            "import tensorflow as tf\nopt = tf.compat.v1.train.GradientDescentOptimizer(0.1)\ntrain_op = opt.minimize(loss)\n"
            "with tf.compat.v1.Session() as sess:\n    for X_batch, y_batch in batches:\n"
            "        sess.run(train_op, feed_dict={X: X_batch, y: y_batch})\n"
            "        summary, acc = sess.run([merged, accuracy], feed_dict={X: X_batch, y: y_batch})\n",
            line=7,
        ),
        Invalid(  # step and run in the same branch of a setting's `if`: together on every pass
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ng_optim = opt.minimize(g_loss)\n"
            "sess = tf.compat.v1.Session()\nfor idx in range(batch_idxs):\n    batch_z = sample()\n"
            "    if config.dataset == 'mnist':\n        sess.run(g_optim, feed_dict={z: batch_z, y: labels})\n"
            "        errG = g_loss.eval({z: batch_z, y: labels})\n    else:\n"
            "        sess.run([g_optim, g_sum], feed_dict={z: batch_z})\n        errG = g_loss.eval({z: batch_z})\n",
            line=9,
            message_contains="runs the graph again on the batch the training step at line 8 was fed",
        ),
        Invalid(  # the real images' loss fed some of the discriminator step's batches: the same forward pass
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\nd_optim = opt.minimize(d_loss)\n"
            "sess = tf.compat.v1.Session()\nfor idx in range(batch_idxs):\n    batch_images = data[idx]\n"
            "    batch_z = np.random.uniform(-1, 1, [64, 100])\n"
            "    sess.run(d_optim, feed_dict={inputs: batch_images, z: batch_z})\n"
            "    errD_real = d_loss_real.eval({inputs: batch_images})\n",
            line=9,
            message_contains="on `batch_images`, part of the batch the training step at line 8 was fed",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        yield from self._keras(facts, bool(options.get("repeated-forward-outputs", False)))
        runs = [s for s in facts.sites if s.api in RUNS and (s.loop_runs is None or s.loop_runs > 1)]
        yield from self._backward_twice(facts, runs)
        yield from self._forward_twice(facts, runs)
        steps = [s for s in runs if _training(s)]
        if not steps:
            return
        fed_steps: list[tuple[Site, ast.Call, Loop, ast.expr]] = []
        for step in steps:
            call = facts.node(step)
            given = feed(call) if call is not None else None
            loops = own_loops(facts, call, step.callsite.span.cell) if call is not None else []
            if call is not None and given is not None and loops:
                fed_steps.append((step, call, loops[0], given))
        for site in runs:
            if _training(site):
                continue
            call, cell = facts.node(site), site.callsite.span.cell
            given = feed(call) if call is not None else None
            if call is None or given is None or _writes_only(facts, call.args[0] if call.args else None, cell):
                continue
            loops = own_loops(facts, call, cell)
            same = next(
                (
                    (s, fed)
                    for s, step, loop, fed in fed_steps
                    if loops and loop is loops[0] and _same_batch(given, fed, loop) and same_passes(facts, call, step, cell)
                ),
                None,
            )
            fed_here = [f for _, _, loop, f in fed_steps if loops and loop is loops[0]]
            if same is not None and not _feeds_step(call, loops[0], fed_here):
                name = "eval" if site.api.endswith(".eval") else "run"
                message = self.MESSAGE.format(
                    call=f"{ast.unparse(call.func)}()" if name == "eval" else "Session.run()",
                    fed=_fed(given, same[1]),
                    line=same[0].callsite.span.line,
                    times=site.loop_times(),
                )
                yield self.diagnostic(site.callsite.span, facts.path, message)

    def _forward_twice(self, facts: FileFacts, runs: list[Site]) -> Iterator[Diagnostic]:
        """Two runs on every pass of a loop, neither a training step, fed the same feed as written,
        no name of it bound again and no training step run between them, and no training step of
        the loop fed it (the runs' repeat of its pass is reported as such): the later run computes
        the forward pass of the batch again."""
        fed: list[tuple[Site, ast.Call, ast.expr, Loop]] = []
        for site in runs:
            call, cell = facts.node(site), site.callsite.span.cell
            given = feed(call) if call is not None else None
            loops = own_loops(facts, call, cell) if call is not None else []
            if call is not None and given is not None and loops and every_pass(facts, call, cell):
                fed.append((site, call, given, loops[0]))
        for later, call, given, loop in fed:
            steps = [n for s in runs if _training(s) and (n := facts.node(s)) is not None and loop in own_loops(facts, n, s.callsite.span.cell)]
            if _training(later) or _writes_only(facts, call.args[0] if call.args else None, later.callsite.span.cell):
                continue
            cell = later.callsite.span.cell
            same = [(s, c) for s, c, g, o in fed if o is loop and ast.dump(g) == ast.dump(given) and s is not later]
            if any(_training(s) for s, _ in same):
                continue
            earlier = next(
                (
                    (s, c)
                    for s, c in same
                    if (c.lineno, c.col_offset) < (call.lineno, call.col_offset)
                    and not _writes_only(facts, c.args[0] if c.args else None, cell)
                    and not bound_between(facts, c, call, (given,), cell)
                    and not any(c.lineno < step.lineno < call.lineno for step in steps)
                ),
                None,
            )
            if earlier is not None:
                message = self.AGAIN_MESSAGE.format(
                    call=f"{ast.unparse(call.func)}()" if later.api.endswith(".eval") else "Session.run()",
                    line=earlier[1].lineno,
                    times=later.loop_times(),
                )
                yield self.diagnostic(later.callsite.span, facts.path, message)

    def _backward_twice(self, facts: FileFacts, runs: list[Site]) -> Iterator[Diagnostic]:
        """Runs in a loop, on every pass, that fetch an optimizer's update of a loss and, beside it, a
        separate `tf.gradients` of the same loss."""
        for site in runs:
            call, cell = facts.node(site), site.callsite.span.cell
            if call is None or not own_loops(facts, call, cell) or periodic(facts, call, cell):
                continue
            fetches = _fetches(call)
            losses = [loss for f in fetches for loss in _update_losses(facts, f, cell)]
            for fetched in fetches:
                found = _gradients(facts, fetched, cell)
                if found is not None and any(_same_loss(found[1], loss) for loss in losses):
                    message = self.BACKWARD_MESSAGE.format(
                        grads=ast.unparse(fetched), line=found[0].lineno, times=site.loop_times()
                    )
                    yield self.diagnostic(site.callsite.span, facts.path, message)

    def _keras(self, facts: FileFacts, outputs: bool) -> Iterator[Diagnostic]:
        """Keras forward passes on the batch their model's training step was given in the same pass;
        with *outputs*, also those whose outputs `train_on_batch` does not return."""
        for found in repeats(facts):
            call, stepped = facts.node(found.site), facts.node(found.step)
            if call is None or stepped is None or not (found.returned or outputs):
                continue
            if method(found.step.api) == "train_on_batch":
                advice = self.SCORED if found.returned else self.UNRETURNED
            else:
                held = facts.parent(stepped, found.step.callsite.span.cell)
                targets = held.targets if isinstance(held, ast.Assign) else []
                named = f" (`{targets[0].id}`)" if len(targets) == 1 and isinstance(targets[0], ast.Name) else ""
                advice = (
                    self.TAPED.format(outputs=named)
                    if found.via is None
                    else self.RETURNED.format(function=ast.unparse(found.via.func), outputs=named)
                )
            message = self.KERAS_MESSAGE.format(
                call=f"{ast.unparse(call.func)}()",
                model=ast.unparse(found.model),
                given=ast.unparse(found.given),
                line=found.step.callsite.span.line,
                times=found.site.loop_times(),
                advice=advice,
            )
            yield self.diagnostic(found.site.callsite.span, facts.path, message)
