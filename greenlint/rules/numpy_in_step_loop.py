"""GL203 numpy-in-step-loop: `.numpy()` on every training step."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.analysis.trees import dotted
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.base_classes import FUNCTIONS
from greenlint.rules.defaults import other_mode
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.periodic import every_step, one_step, training_steps
from greenlint.rules.site import Site, method
from greenlint.rules.syntax import (
    LOOPS,
    SCOPES,
    STEP_METHODS,
    Loop,
    enclosing,
    gate_divisor,
    is_step_loop,
    last_name,
    own_body,
    own_loops,
    period_divisor,
    scope_body,
    unguarded_body,
)

NUMPY = "tensorflow.Tensor.numpy"
#: The optimizer's step counter (`optimizer.iterations`), which the training step itself increments.
COUNTER = "iterations"
#: Keras methods that copy every weight of a layer or model between device and host: `get_weights`
#: is `.numpy()` of each weight, `set_weights` an assignment from host memory of each.
WEIGHT_METHODS = frozenset({"get_weights", "set_weights"})
#: Keras backend functions that do the same for the variables they are given.
BACKEND_TRANSFERS = frozenset(
    f"tensorflow.keras.backend.{name}" for name in ("get_value", "batch_get_value", "set_value", "batch_set_value")
)
#: Attributes naming a layer's or model's weights (what makes a backend read or write one of weights).
WEIGHT_ATTRIBUTES = frozenset(
    {
        "weights",
        "trainable_weights",
        "non_trainable_weights",
        "variables",
        "trainable_variables",
        "non_trainable_variables",
        "kernel",
        "bias",
    }
)

#: A traced training step of the file, one step a call (the cases' loops call it).
TRACED_STEP = (
    "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nopt = tf.keras.optimizers.Adam()\n\n\n"
    "@tf.function\ndef train_step(x, y):\n    with tf.GradientTape() as tape:\n"
    "        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))\n"
    "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
    "    return loss\n\n\n"
)

#: An eager step function (no `tf.function`) ending `{tail}`, called once per batch of an epoch loop.
EAGER_STEP = (
    "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nopt = tf.keras.optimizers.Adam()\n"
    "def train_step(x, y, step):\n    with tf.GradientTape() as tape:\n"
    "        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))\n"
    "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
    "{tail}"
    "for epoch in range(10):\n    for step, (x, y) in enumerate(dataset):\n        train_step(x, y, step)\n"
)


class NumpyInStepLoop(Rule):
    """
    ## What it does
    Flags `Tensor.numpy()` called directly in the body of a loop that runs a training step
    (`apply_gradients`, `minimize` or `train_on_batch` in the same loop, or a call the analysis
    found to run one training step a call: a `tf.function` of the file whose traced body trains
    a model and has no loop of its own, `loss = train_step(x, y)`), with no `if` around
    it inside that loop (or directly in the body of an eager step function that applies such an
    update on every call, no `if` around either, which a loop calls once per batch: `def
    train_step(x, y): ...; opt.apply_gradients(...); print(loss.numpy())`), when the value is only
    recorded: printed, formatted, logged or
    appended to a list (directly, or through the name it is assigned to). A value the loop
    goes on to compute with on the host (actions for an environment, a comparison, an index)
    is needed every step and is not reported. The step must repeat on the same optimizer or
    model: a loop over settings (dtypes, one new optimizer each) is no training loop; nor is a
    loop of one trip (`ds.take(1)`). Nothing is reported in a mode the program offers beside its
    default: a branch of an `if`/`else` on an option whose default takes the other branch (`if
    FLAGS.mode == "eager_tf": <an eager loop> else: model.fit(...)`, `--mode` defaulting to
    "fit"), run only when asked for, often to debug.

    Also flags what a traced training step returns (`loss = train_step(x, y)`, one step a call
    as above) copied to the host on every pass only to be recorded: `float(loss)` or `int(loss)`
    recorded as above, or the tensor itself printed, formatted or logged (`print(loss)`,
    `f"{loss:.3f}"`, `'loss %.4f' % loss`, `pbar.set_postfix(loss=loss)`, `log({"loss": loss})`),
    each of which reads its value. Appending the tensor to a list, or adding it
    to a metric, keeps it on the device and is not reported; nor is a value the host computes
    with (`if float(loss) < 0.01: break`).

    Also flags such a value (`loss.numpy()`, `float(loss)`) copied on every step only to be added
    to a running sum (`total += loss.numpy()`) that the loop reads, if at all, only to record it:
    adding the tensor itself keeps the sum on the device, read once after the loop. A sum the
    loop tests (`if total > limit: break`) is needed on the host and is not reported.

    Also flags the optimizer's step counter read on the host on every pass of a training loop
    (`optimizer.iterations.numpy()`, `int(optimizer.iterations)`), wherever the value goes (an
    `if ... % n_critic == 0` test included), when the loop's own body runs a training step: a
    step method as above, or a call the analysis found to run one (a `tf.function` whose traced
    body trains a model, a TF1 `Session.run` fetching the update). The counter is the one value
    the host never needs to wait for: it can count the steps itself. Not reported: a read under
    an `if` of the loop (on some passes only), in test code (a test asserts the counter), in
    a loop of one trip, or in a loop that writes summaries on every pass (`tf.summary.scalar`,
    a project's `summary(losses, step)`): each write takes the step's values to the host, so the
    pass waits for its step anyway and counting in Python would save no wait.

    Also flags the weights of a layer or model copied between the device and the host on every
    pass of such a training loop: `layer.get_weights()` / `model.get_weights()` (a `.numpy()`
    of every weight), `set_weights(...)` (every weight written back from host memory), and the
    Keras backend's `K.get_value`, `K.batch_get_value`, `K.set_value` and `K.batch_set_value`
    given weights (`model.trainable_weights`, `layer.kernel`), also in a loop over the model's
    layers nested in the training loop (the WGAN's weight clipping: every weight read, clipped
    in NumPy and written back after each critic step; a target network's weights copied from
    the online one after every step). Not reported: a copy under an `if` of the training loop
    (every N steps), once per epoch (after the loop of steps), or outside the loop; a backend
    read of something that is not weights (`K.get_value(model.optimizer.lr)`); test code.

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

    `get_weights()` and `set_weights()` move every weight through host memory, each one waiting
    for the step that updates it: a clip, a moving average or a copy to a target network is done
    on the device instead (a `kernel_constraint`/`bias_constraint` the optimizer applies after
    its update, or `target_var.assign(...)` of each variable inside the traced step), or every N
    steps:

    ```python
    import tensorflow as tf


    class Clip(tf.keras.constraints.Constraint):  # applied on the device after each update
        def __call__(self, w):
            return tf.clip_by_value(w, -0.01, 0.01)


    critic.add(tf.keras.layers.Conv2D(16, 3, kernel_constraint=Clip(), bias_constraint=Clip()))
    ```

    ## Energy evidence
    The cost is the lost overlap of host and accelerator. On a CPU-only machine there is no
    device to overlap with: the pair under bench/rules/, kept for a GPU, cost more after the
    change on this CPU (an op more per step, and a host tensor's read is free), so no saving is
    measured until it runs on an accelerator.

    The case on a GPU, argued from TensorFlow's own documents: GPU ops run asynchronously ("the
    op may still be running on the GPU when the function returns",
    `tf.test.experimental.sync_devices`), so without a read the host queues step n + 1 while the
    device runs step n, and a step lasts the longer of the two sides. A `.numpy()` in the loop
    waits for the queue to drain; then the device idles while the host formats and prints the
    value, draws the next batch and dispatches the next step, whose first kernel starts 20-40 µs
    after it is queued (tensorflow.org/guide/gpu_performance_analysis, "Small GPU kernels and
    host kernel launch delays"). A step then lasts the sum of the two sides, so the time
    saved per step is the shorter of them: from about 1 % of a step whose device time is 50 times
    its host time to 50 % where the two are equal, at the draw of a device waiting on the host
    (greenlint's device model, greenlint/predict/devices.py: 0.222 of the board's TDP, 15.5 W on a
    Tesla T4, within a factor 2) plus the host's. The change adds one small op per step (a
    metric's update, 20-40 µs of launch), which the queue hides on a GPU as it does the step's
    own ops; never more than the read it replaces.

    ## Fix safety
    No automatic fix: the values are usually wanted, just not every step.

    ## Options
    None.
    """

    code = "GL203"
    name = "numpy-in-step-loop"
    #: `.numpy()`, the step counter, a weight transfer: `get_weights`, or a backend read naming one of
    #: WEIGHT_ATTRIBUTES (`trainable_weights` holds `weights`)
    MENTIONS = ("numpy", "iterations", "weights", "variables", "kernel", "bias")
    MESSAGE = "`.numpy()` on every training step makes the host wait for the device each step"
    RESULT_MESSAGE = (
        "`{read}` copies what the training step returned to the host on every step, waiting for the step to finish:"
        " keep it on the device (a metric's `update_state`) and read it every N steps"
    )
    SUMMED_MESSAGE = (
        "`{read}` copies a tensor to the host on every training step, waiting for the step to finish, only to add it to"
        " `{total}`: add the tensor itself (the sum stays on the device) and read the sum once, after the loop"
    )
    COUNTER_MESSAGE = (
        "`{read}` reads the step counter from the device on every training step, waiting for the step to finish:"
        " count the steps in Python instead"
    )
    WEIGHTS_MESSAGE = (
        "`{call}` copies the weights between the device and the host on every training step, waiting for the step"
        " to finish: transform them on the device (a kernel constraint, `variable.assign` in the step) or every N steps"
    )
    FIX_TITLE = "Keep the values on the device (a metric, a constraint, a Python counter) and read them every N steps"
    VALID = (
        Valid(  # an eager step function reading its loss every 100 steps only
            EAGER_STEP.format(tail="    if step % 100 == 0:\n        print('loss', loss.numpy())\n")
        ),
        Valid(  # the step function returns the value: its caller may need it (an early stop)
            EAGER_STEP.format(tail="    return loss.numpy()\n")
        ),
        Valid(  # an evaluation function, no update in it, printing its accuracy per batch of a loop
            EAGER_STEP.format(tail="def evaluate(x, y):\n    print(tf.reduce_mean(model(x)).numpy())\n").replace(
                "train_step(x, y, step)", "evaluate(x, y)"
            )
        ),
        Valid(  # an eager debugging mode beside the default `fit`: run only when asked for
            "import tensorflow as tf\nfrom absl import flags\nflags.DEFINE_enum('mode', 'fit', ['fit', 'eager_tf'], 'how')\n"
            "FLAGS = flags.FLAGS\nopt = tf.keras.optimizers.Adam()\nif FLAGS.mode == 'eager_tf':\n"
            "    for x in ds:\n        opt.apply_gradients(zip(g, v))\n        losses.append(tf.reduce_sum(x).numpy())\n"
            "else:\n    model.fit(ds, epochs=10)\n"
        ),
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
        Valid(  # summaries of the step's losses written on every pass: each waits for the step anyway
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor x in ds:\n    loss = step(x)\n"
            "    opt.apply_gradients(zip(g, v))\n    tf.summary.scalar('loss', loss, step=opt.iterations)\n"
            "    if opt.iterations.numpy() % 100 == 0:\n        sample()\n"
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
        Valid(  # weights clipped every 100 steps only
            "import numpy as np\nimport tensorflow as tf\ncritic = tf.keras.Sequential()\nfor step in range(4000):\n"
            "    critic.train_on_batch(x, y)\n    if step % 100 == 0:\n        for l in critic.layers:\n"
            "            l.set_weights([np.clip(w, -0.01, 0.01) for w in l.get_weights()])\n"
        ),
        Valid(  # the target copied in the `else` of `step % 100 != 0`: on 1 step in 100
            "import tensorflow as tf\nmodel = tf.keras.Sequential()\ntarget = tf.keras.Sequential()\n"
            "for step in range(4000):\n    model.train_on_batch(x, y)\n    if step % 100 != 0:\n        continue\n"
            "    else:\n        target.set_weights(model.get_weights())\n"
        ),
        Valid(  # the target copied after `if step % 100 != 0: continue`: on 1 step in 100
            "import tensorflow as tf\nmodel = tf.keras.Sequential()\ntarget = tf.keras.Sequential()\n"
            "for step in range(4000):\n    model.train_on_batch(x, y)\n    if step < 1000 or step % 100 != 0:\n"
            "        continue\n    target.set_weights(model.get_weights())\n"
        ),
        Valid(  # weights kept once per epoch, after the loop of steps
            "import tensorflow as tf\nmodel = tf.keras.Sequential()\nfor epoch in range(10):\n"
            "    for x, y in batches:\n        model.train_on_batch(x, y)\n    snapshots.append(model.get_weights())\n"
        ),
        Valid(  # weights set once before training and read once after it
            "import tensorflow as tf\nmodel = tf.keras.Sequential()\nmodel.set_weights(initial)\n"
            "for x, y in batches:\n    model.train_on_batch(x, y)\nfinal = model.get_weights()\n"
        ),
        Valid(  # the learning rate, not weights: one scalar
            "import tensorflow as tf\nfrom tensorflow.keras import backend as K\nmodel = tf.keras.Sequential()\n"
            "for x, y in batches:\n    model.train_on_batch(x, y)\n    K.set_value(model.optimizer.lr, K.get_value(model.optimizer.lr) * 0.99)\n"
        ),
        Valid(  # an outer loop of meta-iterations whose steps run in a loop inside it (Reptile)
            "import tensorflow as tf\nmodel = tf.keras.Sequential()\nopt = tf.keras.optimizers.SGD()\n"
            "for meta in range(1000):\n    old = model.get_weights()\n    for x in task_batches():\n"
            "        opt.apply_gradients(zip(g, model.trainable_variables))\n    model.set_weights(interpolate(old, model.get_weights()))\n"
        ),
        Valid(  # the loss a traced step returns, printed every 100 steps only
            TRACED_STEP + "for step, (x, y) in enumerate(dataset):\n    loss = train_step(x, y)\n"
            "    if step % 100 == 0:\n        print(loss.numpy())\n"
        ),
        Valid(  # the loss decides on the host whether training goes on: needed every step
            TRACED_STEP
            + "for x, y in dataset:\n    loss = train_step(x, y)\n    if loss.numpy() < 0.01:\n        break\n"
        ),
        Valid(  # the step's loss kept as a tensor (a list of tensors, a metric): nothing read on the host
            TRACED_STEP + "mean = tf.keras.metrics.Mean()\nfor x, y in dataset:\n    loss = train_step(x, y)\n"
            "    losses.append(loss)\n    mean.update_state(loss)\n"
        ),
        Valid(  # the converted loss decides on the host whether training goes on
            TRACED_STEP
            + "for x, y in dataset:\n    loss = train_step(x, y)\n    if float(loss) < 0.01:\n        break\n"
        ),
        Valid(  # a traced function running 100 steps a call: one read per 100 steps
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nopt = tf.keras.optimizers.Adam()\n\n\n"
            "@tf.function\ndef train_steps(it):\n    for _ in tf.range(100):\n        x, y = next(it)\n"
            "        with tf.GradientTape() as tape:\n            loss = tf.reduce_mean(tf.square(model(x, training=True) - y))\n"
            "        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
            "    return loss\n\n\nfor epoch in range(100):\n    loss = train_steps(it)\n    print(loss.numpy())\n"
        ),
        Valid(  # a test checks the weights after each step
            "import tensorflow as tf\n\n\ndef test_weights_change():\n    model = tf.keras.Sequential()\n"
            "    for i in range(3):\n        model.train_on_batch(x, y)\n        assert model.get_weights() != before\n"
        ),
        Valid(  # a running sum the loop tests on every pass (a divergence check) is needed on the host
            TRACED_STEP + "total = 0.0\nfor x, y in dataset:\n    loss = train_step(x, y)\n"
            "    total += float(loss)\n    if total > 1e6:\n        break\n"
        ),
        Valid(  # a dict holding the tensor appended to a history: the tensor stays where it is
            TRACED_STEP + "history = []\nfor x, y in dataset:\n    loss = train_step(x, y)\n"
            "    history.append({'loss': loss})\n"
        ),
        Valid(  # %-formatted every 100 steps only
            TRACED_STEP + "for i, (x, y) in enumerate(dataset):\n    loss = train_step(x, y)\n"
            "    if i % 100 == 0:\n        print('loss %.4f' % loss)\n"
        ),
        Valid(  # an attribute sum the loop tests on every pass
            TRACED_STEP + "class Trainer:\n    def fit(self, dataset):\n        self.total = 0.0\n"
            "        for x, y in dataset:\n            loss = train_step(x, y)\n            self.total += float(loss)\n"
            "            if self.total > 1e6:\n                break\n"
        ),
        Valid(  # the tensor itself summed: the sum stays on the device until it is printed after the loop
            TRACED_STEP + "total = 0.0\nfor x, y in dataset:\n    loss = train_step(x, y)\n    total += loss\n"
            "print(float(total))\n"
        ),
    )
    INVALID = (
        Invalid(  # an eager step function printing its loss on every call, once per batch
            EAGER_STEP.format(tail="    print('loss', loss.numpy())\n"),
            line=8,
        ),
        Invalid(  # the eager loop is the mode the defaults run
            "import tensorflow as tf\nfrom absl import flags\nflags.DEFINE_string('mode', 'eager_tf', 'fit or eager_tf')\n"
            "FLAGS = flags.FLAGS\nopt = tf.keras.optimizers.Adam()\nif FLAGS.mode == 'eager_tf':\n"
            "    for x in ds:\n        opt.apply_gradients(zip(g, v))\n        losses.append(tf.reduce_sum(x).numpy())\n"
            "else:\n    model.fit(ds, epochs=10)\n",
            line=9,
        ),
        Invalid(  # an `if` with no alternative chooses no mode: `--do_train` is how the script trains
            "import argparse\nimport tensorflow as tf\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--do_train', action='store_true')\nargs = parser.parse_args()\n"
            "opt = tf.keras.optimizers.Adam()\nif args.do_train:\n    for x in ds:\n"
            "        opt.apply_gradients(zip(g, v))\n        losses.append(tf.reduce_sum(x).numpy())\n",
            line=10,
        ),
        Invalid(
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor x in ds:\n"
            "    opt.apply_gradients(zip(g, v))\n    losses.append(tf.reduce_sum(x).numpy())\n",
            line=5,
        ),
        Invalid(  # the loss a traced step returns, printed after every step: the host waits for each step
            TRACED_STEP + "for x, y in dataset:\n    loss = train_step(x, y)\n    print(loss.numpy())\n",
            line=16,
            message_contains="`.numpy()` on every training step",
        ),
        Invalid(  # the step's loss converted to a Python float after every step, to keep a history
            TRACED_STEP
            + "history = []\nfor x, y in dataset:\n    loss = train_step(x, y)\n    history.append(float(loss))\n",
            line=17,
            message_contains="`float(loss)` copies what the training step returned to the host on every step",
        ),
        Invalid(  # the step's loss added to a running sum on the host after every step, the sum printed per epoch
            TRACED_STEP + "for epoch in range(10):\n    total = 0.0\n    for x, y in dataset:\n"
            "        loss = train_step(x, y)\n        total += loss.numpy()\n    print(epoch, total)\n",
            line=18,
            message_contains="`loss.numpy()` copies a tensor to the host on every training step, waiting for the step to"
            " finish, only to add it to `total`",
        ),
        Invalid(  # a trainer's running sum kept in an attribute, read after the loop
            TRACED_STEP + "class Trainer:\n    def fit(self, dataset):\n        self.total = 0.0\n"
            "        for x, y in dataset:\n            loss = train_step(x, y)\n            self.total += float(loss)\n"
            "        return self.total\n",
            line=19,
            message_contains="only to add it to `self.total`",
        ),
        Invalid(  # the tensor itself %-formatted into a progress line after every step
            TRACED_STEP + "for i, (x, y) in enumerate(dataset):\n    loss = train_step(x, y)\n"
            "    print('step %d loss %.4f acc %.4f' % (i, loss, loss))\n",
            line=16,
            message_contains="`loss` copies what the training step returned",
        ),
        Invalid(  # the tensor itself given to a progress bar's postfix after every step
            TRACED_STEP + "for x, y in tqdm(dataset):\n    loss = train_step(x, y)\n    pbar.set_postfix(loss=loss)\n",
            line=16,
            message_contains="`loss` copies what the training step returned",
        ),
        Invalid(  # the tensor itself in a dict given to a logger after every step
            TRACED_STEP + "for x, y in dataset:\n    loss = train_step(x, y)\n    wandb.log({'loss': loss})\n",
            line=16,
            message_contains="`loss` copies what the training step returned",
        ),
        Invalid(  # the same through `float()`, the running mean shown each step
            TRACED_STEP + "total = 0.0\nfor i, (x, y) in enumerate(dataset):\n    loss = train_step(x, y)\n"
            "    total += float(loss)\n    print(total / (i + 1))\n",
            line=17,
            message_contains="`float(loss)` copies a tensor to the host on every training step",
        ),
        Invalid(  # the tensor itself formatted into a progress line after every step
            TRACED_STEP
            + "for i, (x, y) in enumerate(dataset):\n    loss = train_step(x, y)\n    print(f'{i}: {loss:.4f}')\n",
            line=16,
            message_contains="`loss` copies what the training step returned",
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
        Invalid(  # the summaries written every 100 steps only: the counter read is the pass's one wait
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor x in ds:\n    loss = step(x)\n"
            "    opt.apply_gradients(zip(g, v))\n    if opt.iterations.numpy() % 100 == 0:\n"
            "        tf.summary.scalar('loss', loss, step=opt.iterations)\n",
            line=6,
            message_contains="reads the step counter",
        ),
        Invalid(  # WGAN weight clipping on the host after every critic step, layer by layer
            "import numpy as np\nimport tensorflow as tf\ncritic = tf.keras.Sequential()\nfor epoch in range(4000):\n"
            "    for _ in range(5):\n        critic.train_on_batch(x, y)\n        for l in critic.layers:\n"
            "            weights = l.get_weights()\n            weights = [np.clip(w, -0.01, 0.01) for w in weights]\n"
            "            l.set_weights(weights)\n",
            line=8,
            message_contains="`l.get_weights()` copies the weights between the device and the host on every training step",
        ),
        Invalid(  # the target network's weights copied from the online one after every step
            "import tensorflow as tf\nmodel = tf.keras.Sequential()\ntarget = tf.keras.Sequential()\n"
            "while True:\n    model.train_on_batch(x, y)\n    target.set_weights(model.get_weights())\n",
            line=6,
        ),
        Invalid(  # the target copied in the `else` of `step % 100 == 0`: on the 99 other steps of 100
            "import tensorflow as tf\nmodel = tf.keras.Sequential()\ntarget = tf.keras.Sequential()\n"
            "for step in range(4000):\n    model.train_on_batch(x, y)\n    if step % 100 == 0:\n        log(step)\n"
            "    else:\n        target.set_weights(model.get_weights())\n",
            line=9,
        ),
        Invalid(  # a backend read of every trainable weight, per step, per layer that has weights
            "import tensorflow as tf\nfrom tensorflow.keras import backend as K\nmodel = tf.keras.Sequential()\n"
            "for x, y in batches:\n    model.train_on_batch(x, y)\n    for layer in model.layers:\n"
            "        if layer.weights:\n            norms.append(K.batch_get_value(layer.trainable_weights))\n",
            line=8,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api != NUMPY or not site.repeats(same=()):
                continue
            if not (every_step(facts, site) or _in_step_function(facts, site)):
                continue
            node, cell = facts.node(site), site.callsite.span.cell
            if other_mode(facts, node, cell):
                continue
            if _only_recorded(facts, node, cell):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
            elif node is not None and (total := _summed(facts, node, cell)):
                message = self.SUMMED_MESSAGE.format(read=ast.unparse(node), total=total)
                yield self.diagnostic(site.callsite.span, facts.path, message)
        yield from self._counter_reads(facts)
        yield from self._result_reads(facts)

    def _result_reads(self, facts: FileFacts) -> Iterator[Diagnostic]:
        """What a traced training step returned, copied to the host on every pass of its loop only
        to be recorded (`float(loss)` appended, the tensor printed)."""
        for loop, cell in _step_loops(facts):
            for step in training_steps(facts, loop, cell):
                call = facts.node(step)
                parent = facts.parent(call, cell) if call is not None else None
                if (
                    call is None
                    or not isinstance(parent, ast.Assign)
                    or not facts.functions_named(last_name(call.func))
                    or not one_step(facts, step, cell)
                ):
                    continue  # a function of the file running one step a call (its result a tensor), bound to names
                names = frozenset().union(*(flow.targets(t) for t in parent.targets))
                waited: set[int] = set()  # the statements already reported: their first read waits for the step
                for read in sorted(_host_reads(facts, loop, names, cell), key=lambda n: (n.lineno, n.col_offset)):
                    statement = next(a for a in facts.ancestors(read, cell) if isinstance(a, ast.stmt))
                    if id(statement) in waited:
                        continue
                    waited.add(id(statement))
                    total = _summed(facts, read, cell)
                    message = (
                        self.SUMMED_MESSAGE.format(read=ast.unparse(read), total=total)
                        if total
                        else self.RESULT_MESSAGE.format(read=ast.unparse(read))
                    )
                    yield self.diagnostic(facts.span(read, cell), facts.path, message)

    def _counter_reads(self, facts: FileFacts) -> Iterator[Diagnostic]:
        """`optimizer.iterations` read on the host on every pass of a training loop, and weights
        copied between device and host there."""
        for loop, cell in _step_loops(facts):
            synced = _writes_summaries(facts, loop, cell)
            for node in own_body(loop):
                if not synced and isinstance(node, ast.Call) and _counter_read(node) and _every_pass(facts, node, cell):
                    yield self.diagnostic(
                        facts.span(node, cell), facts.path, self.COUNTER_MESSAGE.format(read=ast.unparse(node))
                    )
            lines: set[int] = set()
            for node in sorted(scope_body(loop), key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))):
                if (
                    isinstance(node, ast.Call)
                    and node.lineno not in lines
                    and _weight_transfer(facts, node, cell)
                    and _each_pass(facts, node, loop, cell)
                ):
                    lines.add(node.lineno)
                    yield self.diagnostic(
                        facts.span(node, cell), facts.path, self.WEIGHTS_MESSAGE.format(call=_shown(node))
                    )


def _step_loops(facts: FileFacts) -> Iterator[tuple[Loop, int | None]]:
    """Each loop (with its cell) whose own body runs a training step again and again on the
    same optimizer or model (a step method, or a call the analysis found to run one), outside
    test code; each loop once."""
    seen: set[int] = set()
    for site in facts.sites:
        if not (site.work_value("step") == "training" or method(site.api) in STEP_METHODS) or not site.repeats(
            same=("receiver",)
        ):
            continue
        call, cell = facts.node(site), site.callsite.span.cell
        loops = own_loops(facts, call, cell) if call is not None else []
        if not loops or id(loops[0]) in seen or in_test_code(facts, site) or other_mode(facts, loops[0], cell):
            continue
        seen.add(id(loops[0]))
        yield loops[0], cell


def _writes_summaries(facts: FileFacts, loop: Loop, cell: int | None) -> bool:
    """The loop writes summaries on every pass (`tf.summary.scalar(loss, step)`, a project's
    `summary(losses, step)`): each write takes its values to the host, so the pass waits for its
    step anyway and a counter read adds no wait of its own."""
    return any(
        isinstance(node, ast.Call) and "summary" in dotted(node.func) and _every_pass(facts, node, cell)
        for node in own_body(loop)
    )


def _weight_transfer(facts: FileFacts, node: ast.Call, cell: int | None) -> bool:
    """`<layer or model>.get_weights()` / `.set_weights(...)`, or a Keras backend read or write
    (`K.get_value`, `K.batch_get_value`, `K.set_value`, `K.batch_set_value`) of weights: its
    first argument names a layer's or model's weights (`model.trainable_weights`, `layer.kernel`)."""
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in WEIGHT_METHODS:
        return True
    site = facts.site_at(node, cell)
    if site is None or site.api not in BACKEND_TRANSFERS or not node.args:
        return False
    return any(isinstance(n, ast.Attribute) and n.attr in WEIGHT_ATTRIBUTES for n in ast.walk(node.args[0]))


def _each_pass(facts: FileFacts, node: ast.AST, loop: Loop, cell: int | None) -> bool:
    """The node runs on every pass of *loop* (an ancestor of it in the same function): nothing
    between them runs it on some passes only (an `if` but for the `else` of a remainder test, a
    skip of the other passes before it, `if step % k != 0: continue`, a conditional expression,
    a handler, `and`/`or`), but for an `if` on the variables of a loop
    nested in *loop* (`for layer in model.layers: if layer.weights: ...`, which runs on every
    pass for some layers), and no training loop of its own is nested in between."""
    chain: list[tuple[ast.AST, ast.AST]] = []
    child = node
    for parent in facts.ancestors(node, cell):
        if parent is loop:
            break
        chain.append((child, parent))
        child = parent
    else:
        return False
    inner: set[str] = set()  # the variables of the loops between the node and `loop`, outermost first
    if gate_divisor(loop, chain[-1][1] if chain else node) is not None:
        return False  # after `if step % k != 0: continue`: on 1 pass in k
    for child, parent in reversed(chain):
        if gate_divisor(parent, child) is not None and not isinstance(parent, ast.If):
            return False
        if isinstance(parent, LOOPS):
            if is_step_loop(parent):
                return False
            inner |= flow.names(getattr(parent, "target", None))
        elif isinstance(parent, (*SCOPES, ast.IfExp, ast.ExceptHandler, ast.BoolOp)):
            return False
        elif isinstance(parent, ast.If) and child is not parent.test:
            thinned = period_divisor(parent.test) is not None
            if not (child in parent.orelse and thinned) and not (inner and flow.names(parent.test) <= inner):
                return False
    return True


def _shown(node: ast.Call) -> str:
    """The call as the message names it: `layer.get_weights()`, `K.batch_get_value(...)`."""
    func = ast.unparse(node.func)
    return f"{func}()" if not node.args and not node.keywords else f"{func}(...)"


def _counter_read(node: ast.Call) -> bool:
    """`<x>.iterations.numpy()` or `int(<x>.iterations)`: the step counter copied to the host."""
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "numpy" and not node.args:
        return isinstance(func.value, ast.Attribute) and func.value.attr == COUNTER
    return (
        isinstance(func, ast.Name)
        and func.id in ("int", "float")
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Attribute)
        and node.args[0].attr == COUNTER
    )


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
RECORDERS = frozenset(
    {"print", "append", "extend", "format", "write", "log", "info", "debug", "set_postfix", "set_description"}
)
#: Conversions a recorded value passes through (`float(loss.numpy())`).
CONVERSIONS = frozenset({"float", "int", "str", "round", "repr"})


#: Recorders that read a tensor's value to show it (a list's `append` keeps the tensor where it is).
SHOWN = RECORDERS - {"append", "extend"}


def _host_reads(facts: FileFacts, loop: Loop, names: frozenset, cell: int | None) -> Iterator[ast.expr]:
    """The reads of *names* (tensors) in the loop's own body, on every pass, that copy the value to
    the host only to record it: `float(loss)` / `int(loss)` only recorded, or the tensor itself given
    to a recorder that shows it (`print(loss)`, an f-string, `.format(loss)`, a logger)."""
    for node in own_body(loop):
        if not (isinstance(node, ast.Name) and node.id in names and isinstance(node.ctx, ast.Load)):
            continue
        parent = facts.parent(node, cell)
        if isinstance(parent, ast.Call) and last_name(parent.func) in ("float", "int") and parent.args == [node]:
            read: ast.expr | None = (
                parent if _only_recorded(facts, parent, cell) or _summed(facts, parent, cell) else None
            )
        elif (
            isinstance(parent, ast.FormattedValue)
            or _shown_argument(facts, node, cell)
            or _percent_formatted(facts, node, cell)
        ):
            read = node
        else:
            read = None
        if read is not None and _every_pass(facts, read, cell):
            yield read


def _shown_argument(facts: FileFacts, node: ast.expr, cell: int | None) -> bool:
    """*node* is given to a call that shows it (`SHOWN`): as an argument (`print(loss)`), a keyword's
    value (`pbar.set_postfix(loss=loss)`), or a value of a dict given as an argument
    (`wandb.log({"loss": loss})`)."""
    given: ast.AST = node
    parent = facts.parent(node, cell)
    if isinstance(parent, ast.Dict) and node in parent.values:
        given, parent = parent, facts.parent(parent, cell)
    elif isinstance(parent, ast.keyword):
        given, parent = parent, facts.parent(parent, cell)
    return (
        isinstance(parent, ast.Call)
        and (given in parent.args or given in parent.keywords)
        and last_name(parent.func) in SHOWN
    )


def _percent_formatted(facts: FileFacts, node: ast.expr, cell: int | None) -> bool:
    """*node* is a value `%`-formatted into a string (`'loss %.4f' % loss`, `'%d %f' % (i, loss)`),
    which reads it."""
    parent = facts.parent(node, cell)
    if isinstance(parent, ast.Tuple):
        node, parent = parent, facts.parent(parent, cell)
    return (
        isinstance(parent, ast.BinOp)
        and isinstance(parent.op, ast.Mod)
        and parent.right is node
        and isinstance(parent.left, ast.Constant)
        and isinstance(parent.left.value, str)
    )


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


def _summed(facts: FileFacts, node: ast.expr, cell: int | None) -> str | None:
    """The name of the running sum that *node*'s host value (through conversions: `float(loss)`) is
    only added to (`total += loss.numpy()`, `self.total += ...`), where the loop around reads that
    sum on its passes only to record it (`print(total / (i + 1))`), or not at all; None otherwise (a
    sum the loop tests, `if total > limit: break`, is needed on the host every step)."""
    child: ast.AST = node
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in CONVERSIONS:
            child = parent
            continue
        if not (
            isinstance(parent, ast.AugAssign)
            and isinstance(parent.op, ast.Add)
            and parent.value is child
            and (path := dotted(parent.target))
        ):
            return None
        loop = next((a for a in facts.ancestors(parent, cell) if isinstance(a, (*LOOPS, *SCOPES))), None)
        if not isinstance(loop, LOOPS):
            return None
        reads = [
            n
            for n in ast.walk(loop)
            if isinstance(n, (ast.Name, ast.Attribute)) and isinstance(n.ctx, ast.Load) and dotted(n) == path
        ]
        return ".".join(path) if all(_recorded(facts, read, cell) is True for read in reads) else None
    return None


def _in_step_function(facts: FileFacts, site: Site) -> bool:
    """The `.numpy()` runs once per training step in an eager step function: the function around it
    (not traced) applies an update (`apply_gradients`, `minimize`, `train_on_batch`) on every call,
    and reads the value on every call too (neither under an `if` nor in a loop there:
    `syntax.unguarded_body`), and a loop runs the function again and again (the site repeats through
    its callers: `for x, y in ds: train_step(x, y)`)."""
    node, cell = facts.node(site), site.callsite.span.cell
    function = enclosing(facts, node, cell, FUNCTIONS) if node is not None else None
    if not isinstance(function, FUNCTIONS) or site.features.get("in_tf_function"):
        return False
    every_call = list(unguarded_body(function))
    return any(n is node for n in every_call) and any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in STEP_METHODS
        for n in every_call
    )


def _only_recorded(facts: FileFacts, node: ast.Call | None, cell: int | None) -> bool:
    """The `.numpy()` value is only printed, formatted, logged or appended, directly or through
    the one name it is assigned to in the loop (or in the step function, `_in_step_function`)."""
    if node is None:
        return False
    found = _recorded(facts, node, cell)
    if not isinstance(found, str):
        return found
    loop = next((a for a in facts.ancestors(node, cell) if isinstance(a, (*LOOPS, *SCOPES))), None)
    if not isinstance(loop, (*LOOPS, *FUNCTIONS)):  # a step function's body, read as a loop's
        return False
    uses = [n for n in ast.walk(loop) if isinstance(n, ast.Name) and n.id == found and isinstance(n.ctx, ast.Load)]
    return bool(uses) and all(_recorded(facts, use, cell) is True for use in uses)
