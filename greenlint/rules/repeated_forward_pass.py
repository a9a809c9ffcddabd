"""GL205 repeated-forward-pass: a TF1 run that feeds the training step's batch again on every step."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis.flow import VARIABLE_WRITES
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import Site, method
from greenlint.rules.syntax import Loop, feed, loop_varying, own_loops, same_passes

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
        bound = [n.value for n in facts.nodes(cell, ast.Assign)
                 if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == fetched.id for t in n.targets)]
        return bool(bound) and all(_writes_only(facts, value, cell) for value in bound)
    return False


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
    computes something the step did not.

    ## Why is this bad?
    In a TF1 graph, every `run` computes all it fetches from the fed values again: nothing is
    kept from the previous run. The training step has already computed the loss and the
    predictions of the batch in its forward pass; a second run on the same feed copies the batch
    into the runtime again and repeats that forward pass, about a third of a training step's
    work (a backward pass costs about twice the forward one), on every step. Fetching the
    values with the step (`_, loss_value = sess.run([train_op, loss], feed_dict=fd)`) gets them
    from the forward pass already done.

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
    None.
    """

    code = "GL205"
    name = "repeated-forward-pass"
    CALLS = frozenset(map(method, RUNS))
    MESSAGE = (
        "`{call}` runs the graph again on {fed} the training step at line {line} was fed, on every step{times}:"
        " the forward pass is computed twice; fetch these values with the step (`sess.run([train_op, ...], ...)`)"
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
    )
    INVALID = (
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
        runs = [s for s in facts.sites if s.api in RUNS and (s.loop_runs is None or s.loop_runs > 1)]
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
            if same is not None:
                name = "eval" if site.api.endswith(".eval") else "run"
                message = self.MESSAGE.format(
                    call=f"{ast.unparse(call.func)}()" if name == "eval" else "Session.run()",
                    fed=_fed(given, same[1]),
                    line=same[0].callsite.span.line,
                    times=site.loop_times(),
                )
                yield self.diagnostic(site.callsite.span, facts.path, message)
