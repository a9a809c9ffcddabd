"""GL311 save-in-step-loop: a model or checkpoint saved on every training step."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis.handed import PER_BATCH
from greenlint.rules.base import FileFacts, Invalid, Option, Rule, Valid, argument, keyword
from greenlint.rules.callbacks import constructors, is_self_attribute
from greenlint.rules.defaults import known_value
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.hooks import FittedHook, every_call, fitted_hooks, own_calls
from greenlint.rules.material import MIN_SHARE
from greenlint.rules.periodic import call_points, every_step, loop_period, pass_steps
from greenlint.rules.save_price import FEW_SAVES, FEW_STEPS, SaveShare, save_share
from greenlint.rules.site import Site, method
from greenlint.rules.syntax import own_loops

SAVES = ("save", "save_weights", "export")
#: A Keras callback saving its model (`self.model.save_weights(...)`) from its hook `{hook}`, given to
#: a fit of `{epochs}` epochs of 100 batches.
HOOKED = (
    "import numpy as np\nimport tensorflow as tf\n\n\nclass Saver(tf.keras.callbacks.Callback):\n"
    "    def {hook}(self, batch, logs=None):\n{body}\n\n"
    "m = tf.keras.Sequential([tf.keras.Input((784,)), tf.keras.layers.Dense(10)])\n"
    "m.compile(optimizer='adam', loss='mse')\nx, y = np.zeros((3200, 784)), np.zeros((3200, 10))\n"
    "{fit}\n"
)
#: The fit given the callback through a name and a list.
FIT_SAVER = "saver = Saver()\ncallbacks = [tf.keras.callbacks.TerminateOnNaN(), saver]\nm.fit(x, y, batch_size=32, epochs={epochs}, callbacks=callbacks)"
#: `CheckpointManager.save`, and the position of its constructor's `checkpoint_interval`.
MANAGER_SAVE = "tensorflow.train.CheckpointManager.save"
INTERVAL_POSITION = 6
SAVE_FUNCTIONS = ("tensorflow.saved_model.save", "tensorflow.keras.models.save_model")
#: Objects whose `save` writes every variable: TF2 checkpoints, and TF1's `Saver`.
CHECKPOINTS = ("tensorflow.train.Checkpoint", "tensorflow.train.CheckpointManager", "tensorflow.compat.v1.train.Saver")
#: TF1 and Estimator settings that write a checkpoint every that many training steps: API -> (the
#: parameter, its position where it is commonly given positionally).
CHECKPOINT_STEPS = {
    "tensorflow.estimator.RunConfig": ("save_checkpoints_steps", None),
    "tensorflow.compat.v1.estimator.RunConfig": ("save_checkpoints_steps", None),
    "tensorflow.compat.v1.estimator.tpu.RunConfig": ("save_checkpoints_steps", None),
    "tensorflow.compat.v1.train.MonitoredTrainingSession": ("save_checkpoint_steps", None),
    "tensorflow.compat.v1.train.CheckpointSaverHook": ("save_steps", 2),
}
#: A model of wide dense layers (75M weights) trained on batches of 8 (`{every}`: the test of the
#: `if` around the save, `{save}`: the save).
WIDE = (
    "import numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential([tf.keras.Input((784,)),"
    " tf.keras.layers.Dense(8192, activation='relu'), tf.keras.layers.Dense(8192), tf.keras.layers.Dense(10)])\n"
    "m.compile(optimizer='adam', loss='mse')\nx, y = np.zeros((8, 784)), np.zeros((8, 10))\n"
    "for step in range(100000):\n    m.train_on_batch(x, y)\n    if {every}:\n        {save}\n"
)

#: The same model written by a TF2 `CheckpointManager` of a `Checkpoint` tracking it.
MANAGED = WIDE.replace(
    "x, y = np.zeros", "manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=m), 'ckpts', 3)\nx, y = np.zeros"
)

#: The same model written on every step by a `CheckpointManager` made with `{made}` (its arguments after
#: the directory), its `save({given})`.
INTERVAL = WIDE.replace(
    "x, y = np.zeros",
    "counter = tf.Variable(0)\n"
    "manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=m, counter=counter), 'ckpts', {made})\n"
    "x, y = np.zeros",
).replace("    if {every}:\n        {save}\n", "    counter.assign_add(1)\n    manager.save({given})\n")

#: A large embedding trained by a traced step of `{optimizer}` on its trainable variables, its checkpoint
#: (tracking the model and the optimizer) written every 30 steps.
TRACKED = (
    "import numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential([tf.keras.Input((20,)),"
    " tf.keras.layers.Embedding(5000000, 64), tf.keras.layers.GlobalAveragePooling1D(), tf.keras.layers.Dense(1)])\n"
    "opt = {optimizer}\nmanager = tf.train.CheckpointManager(tf.train.Checkpoint(model=m, optimizer=opt), 'ckpts', 3)\n"
    "x, y = np.zeros((32, 20)), np.zeros((32, 1))\n\n\n@tf.function\ndef train_step(x, y):\n"
    "    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(tf.square(m(x) - y))\n"
    "    opt.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), {trained}.trainable_variables))\n\n\n"
    "for step in range(100000):\n    train_step(x, y)\n    if step % 30 == 0:\n        manager.save()\n"
)

#: The same wide layers as a TF1 graph fed batches of one (`{saver}`: the Saver's arguments, `{every}`
#: and `{save}` as in WIDE).
GRAPH = (
    "import tensorflow as tf\nx = tf.compat.v1.placeholder(tf.float32, [1, 784])\n"
    "h = tf.compat.v1.layers.dense(tf.compat.v1.layers.dense(x, 8192, activation=tf.nn.relu), 8192)\n"
    "loss = tf.reduce_mean(tf.square(tf.compat.v1.layers.dense(h, 10)))\n"
    "train_op = tf.compat.v1.train.AdamOptimizer().minimize(loss)\nsaver = tf.compat.v1.train.Saver({saver})\n"
    "with tf.compat.v1.Session() as sess:\n    for step in range(100000):\n"
    "        sess.run(train_op, feed_dict={{x: xs}})\n        if {every}:\n            {save}\n"
)

#: A graph trained on batches the code does not size (`{steps}`: the loop's iterable), saved by a TF1
#: Saver when `{every}`.
UNSIZED = (
    "import tensorflow as tf\ntrain_op = tf.compat.v1.train.AdamOptimizer().minimize(loss)\n"
    "saver = tf.compat.v1.train.Saver()\nsess = tf.compat.v1.Session()\nfor step, xs in {steps}:\n"
    "    sess.run(train_op, feed_dict={{x: xs}})\n    if {every}:\n        saver.save(sess, 'ckpt', global_step=step)\n"
)


def _manager_thins(facts: FileFacts, site: Site, call: ast.Call) -> bool:
    """A `CheckpointManager.save()` of a manager made with a `checkpoint_interval` (as the analysis
    resolved its constructor, or a name bound to it given one that is not None), called without
    `check_interval=False`: the manager writes only when its step counter has moved that many steps
    since the last checkpoint, whatever the loop calling it."""
    if site.api != MANAGER_SAVE:
        return False
    told = keyword(call, "check_interval")
    if told is not None and not (isinstance(told.value, ast.Constant) and told.value.value is True):
        return False
    if site.features.get("init", {}).get("checkpoint_interval") is not None:
        return True
    receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
    made = constructors(facts, receiver) if receiver is not None else None
    given = [argument(m, "checkpoint_interval", INTERVAL_POSITION) for m in made or ()]
    return any(g is not None and not (isinstance(g, ast.Constant) and g.value is None) for g in given)


def _is_save(api: str) -> bool:
    if api in SAVE_FUNCTIONS:
        return True
    owner, _, name = api.rpartition(".")
    return name in SAVES and (owner.startswith("tensorflow.keras") or owner in CHECKPOINTS)


class SaveInStepLoop(Rule):
    """
    ## What it does
    Flags `model.save()`, `save_weights()`, `tf.saved_model.save()`, `Checkpoint.save()` and
    `CheckpointManager.save()` called directly in the body of a loop that runs a training step
    (`apply_gradients`, `minimize` or `train_on_batch` in the same loop, or a call the analysis
    found to run one, one step a call: a TF1 `Session.run` fetching the optimizer's update, a
    `tf.function` of the file whose body trains a model and has no loop of steps; or a call of a
    plain function of the file that runs such a step once a call, `train_step(x, y)` around
    `apply_gradients`), with no `if` around the save inside that loop. The step must repeat on the same optimizer, model or
    session: a loop over
    settings (dtypes, one new optimizer each) is no training loop; nor is a loop of one trip
    (`ds.take(1)`). A `CheckpointManager.save()` of a manager made with a `checkpoint_interval`
    (and its `step_counter`) is not reported, on every step or every few, unless it is called
    with `check_interval=False`: the manager writes only once its counter has moved that many
    steps, the pattern TensorFlow documents.

    Also flags the TF1 and Estimator settings that checkpoint every fewer than 10 training steps,
    as written or with the program's defaults (a flag's, a parameter's): `tf.estimator.RunConfig(
    save_checkpoints_steps=5)`, `MonitoredTrainingSession(save_checkpoint_steps=...)`,
    `CheckpointSaverHook(save_steps=...)` (by keyword, the hook's also third positionally); a
    setting by time (`save_checkpoints_secs`, their default) is not, nor one in test code. The
    model they save is not known here: no price is claimed (below, an unpriced period of fewer
    than 10 steps).

    Also flags a save that a training loop runs every few steps, where its price says the saves
    take a real share of the training: under an `if` in that loop that takes a remainder (`if
    step % 50 == 0:`), or after one that skips the other passes (`if step % 50 != 0: continue`),
    whose divisor is known with the program's defaults (any period: the price decides; only below
    `min-save-steps` where that is set): a literal, a module constant (`CHECKPOINT_EVERY = 50`), a
    parameter's default or an argparse/absl flag's default (`args.checkpoint_every`, or passed so by every call of the
    function to a parameter without one), a configuration class's attribute or a dict's entry that
    the file never sets again (`cfg.SAVE_EVERY`, `config["save_every"]`). The loop trains when its own body runs a training step:
    a step method as above, or a call the analysis found to run one (a TF1 `Session.run` fetching
    the optimizer's update, a `tf.function` whose body trains a model), or a call of a function
    of the file that runs one step a call (`train_step(x, y)`, `self.step(batch)` around such a
    step, up to two calls further in; one with a step in a loop of its own trains an epoch a
    call, and its loop is no loop of steps). The save may be the call
    in the loop, or in a function of the file that the loop calls there (`save(saver, sess,
    logdir, step)` around `saver.save(...)`, TF1's `Saver.save` included), or in one that such a
    function calls (a helper nested in it), up to three calls deep; an `if` around the save in
    such a function hides it, except one on a parameter true with the program's defaults (`if
    ckpt:` of `def save(..., ckpt=True)` that no call gives another value), and a loop there
    that runs no training step (over the files or models saved) is that function's own work. The
    finding is on the call in the loop.

    Also flags a save in a per-batch hook (`on_batch_end`, `on_train_batch_begin`, ...) of a
    Keras callback class the file defines directly on `Callback` (or `ModelCheckpoint`, `TensorBoard`: its own hook's work), where an instance of it is
    given to a `fit()` of the file (its `callbacks=` list, followed through names, `append` and
    helpers that return it): the callback's own model (`self.model.save_weights(...)`) or a save
    the analysis resolves (a TF1 `Saver`'s), made on every call of the hook, or under a gate of
    every N batches of N below 10 (`if batch % 5 == 0:`). Keras calls such a hook once per
    training batch. Not reported: a save under any other `if` of the hook, one in a per-epoch
    hook, a callback given to no fit seen, a fit known to run fewer than 10 batches. The class may
    be defined so, in a project module the file imports it from (`from
    utils.callbacks import Saver`): its saves of `self.model` are read there, and the finding is
    where the file makes the callback, the module named; a library's class is not read.

    The price: one save takes at least 5 ms to lay out its file (a tenth of what the pair under
    bench/rules/ measured) plus the saved model's weights (`params` x 4 bytes, as the analysis
    counts them) and the slots its optimizer keeps for each weight it trains, where the save writes
    them and the optimizer is known: a TF1 `Saver` of a graph trained by an optimizer's `minimize` of
    every variable (no `var_list`; 2 for Adam, Adadelta, RMSProp and Ftrl, 1 for Momentum and Adagrad,
    none for gradient descent), and a Keras model's `save()` (or `save_model`, `include_optimizer`
    left true) after it trained since its `compile` with a known optimizer (`"adam"`: 2; `"rmsprop"`,
    `SGD(momentum=0.9)`: 1; the layers that compile freezes have none), and a TF2 `Checkpoint` (or
    its `CheckpointManager`) tracking one Keras optimizer of a known class that the code applies to
    the trainable variables of a model the checkpoint tracks (`opt.apply_gradients(zip(grads,
    m.trainable_variables))`, no layer of it frozen), at the fast end of a disk's bandwidth (5 GB/s:
    the page cache), against the loop's training steps between two saves (each step's FLOPs per
    sample and batch, timed by greenlint's device model on the GPU stated with `--device`, else
    a T4, every step constant at its slow end). A periodic save is reported when that least
    share reaches 10 %, and the message states it; the weights of a TF2 `Checkpoint` (and of a
    `CheckpointManager` of one) are those of the Keras models it tracks (`Checkpoint(model=m,
    optimizer=opt)`: at least those), and those of a TF1 `Saver` given no `var_list` (built after
    the graph) at least the weights of the largest graph its session trains, where every op of that
    graph is known. Where the saved model's weights or any
    step's FLOPs or batch are not known (a TF1 `Saver` of some variables, a graph of an op not known,
    a batch read from a file), nothing is priced, and a periodic save is reported only where its
    period is below 10 steps, as GL310 reports an unpriced `save_freq`: each save writes every weight
    to disk, at a disk's bandwidth (5 GB/s at most: the page cache), which a step reads at the
    device memory's (hundreds of GB/s on a GPU), so a save costs more than a few steps of most
    models. A save on every step is reported unless
    its price is known and under 10 % (a large convolutional network on large batches, whose
    step computes far longer than its weights take to write). Not reported either: a save in a
    loop over epochs (its own body runs no step: the step is in the loop inside it); a loop
    known to run so few times that it saves fewer than 10 checkpoints.

    ## Why is this bad?
    Saving serialises every weight (a SavedModel also traces and writes the graph) and writes it
    to disk. Doing it on every step can cost more than the step itself. Save every N steps
    (`if step % N == 0`), once per epoch, or with `tf.train.CheckpointManager` and a
    `checkpoint_interval`. Every few dozen steps is not much better where the model's bytes
    are large beside its step's work (wide dense layers or embeddings on small batches): the
    saves then take a tenth of the training time or more. TensorFlow's own training loops
    (`MonitoredTrainingSession`, Estimator's `RunConfig`) save every 10 minutes by default.

    ## Example
    ```python
    for x, y in dataset:
        loss = train_step(x, y)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        model.save_weights("ckpt.weights.h5")
    ```

    ## Use instead
    ```python
    for step, (x, y) in enumerate(dataset):
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        if step % 1000 == 0:
            model.save_weights("ckpt.weights.h5")
    ```

    ## Energy evidence
    The pair under bench/rules/ trains a small model saving its weights every step, and every
    50 steps.

    ## Fix safety
    No automatic fix: how often to save is a trade between energy and the work a crash loses.

    ## Options
    - `min-save-steps`
    """

    code = "GL311"
    name = "save-in-step-loop"
    CALLS = frozenset({*SAVES, *map(method, SAVE_FUNCTIONS), *map(method, CHECKPOINT_STEPS), "fit", "fit_generator"})
    MESSAGE = "`{call}()` runs on every training step: saving serialises and writes every weight{price}"
    PERIODIC = (
        "`{call}()` writes a checkpoint every {period} training steps{source}: {price}; save less often (every"
        " few minutes, or once per epoch)"
    )
    CONFIGURED = (
        "`{call}({name}={period})`{source} writes a checkpoint every {period} training steps: each save writes"
        " every weight to disk, where a step reads them from the device's memory; save less often (every few"
        " minutes, or once per epoch)"
    )
    UNPRICED = (
        "`{call}()` writes a checkpoint every {period} training steps{source}: each save writes every weight to"
        " disk, where a step reads them from the device's memory; save less often (every few minutes, or once per"
        " epoch)"
    )
    HOOK_MESSAGE = (
        "`{call}()` runs in `{hook}` of the callback `{callback}`{of}, which Keras calls {runs}: saving serialises"
        " and writes every weight on every training step; save every N batches (`if batch % N == 0:`) or once"
        " per epoch (`on_epoch_end`)"
    )
    FIX_TITLE = "Save every N steps (`if step % N == 0:`) or once per epoch"
    OPTIONS = (
        Option(
            "min-save-steps",
            int,
            0,
            "GL311 flags a save every N training steps only for N below this (0: any N, its price alone decides).",
        ),
    )
    VALID = (
        Valid(  # an Estimator checkpointing every 1,000 steps, and one by time (the default)
            "import tensorflow as tf\nfast = tf.estimator.RunConfig(save_checkpoints_steps=1000)\n"
            "timed = tf.estimator.RunConfig(save_checkpoints_secs=600, save_summary_steps=1)\n"
        ),
        Valid(  # the steps from an option with no default: not known
            "import tensorflow as tf\nhook = tf.compat.v1.train.CheckpointSaverHook('c', save_steps=args.every)\n"
        ),
        Valid(  # a test of checkpointing saves every step of its few steps on purpose
            "import tensorflow as tf\n\n\ndef test_checkpoints(tmp_path):\n"
            "    config = tf.estimator.RunConfig(str(tmp_path), save_checkpoints_steps=1)\n"
        ),
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nopt = tf.keras.optimizers.Adam()\n"
            "for step, (x, y) in enumerate(ds):\n"
            "    opt.apply_gradients(zip(g, m.trainable_variables))\n"
            "    if step % 100 == 0:\n        m.save_weights('w.weights.h5')\n"
        ),
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor epoch in range(3):\n"
            "    m.fit(x, y)\n    m.save('m.keras')\n"
        ),
        Valid(  # one step: `take(1)` is no loop
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor x, y in ds.take(1):\n"
            "    m.train_on_batch(x, y)\n    m.save('m.keras')\n"
        ),
        Valid(  # TF1: a loop that evaluates (no update fetched) and saves each pass is no training loop
            "import tensorflow as tf\nsaver = tf.compat.v1.train.Saver()\nsess = tf.compat.v1.Session()\n"
            "for step in range(100000):\n    sess.run(accuracy)\n    saver.save(sess, 'ckpt', global_step=step)\n"
        ),
        Valid(  # a traced function that only predicts, a checkpoint each pass: no training step
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
            "ckpt = tf.train.Checkpoint(model=model)\n@tf.function\ndef infer(x):\n    return model(x)\n"
            "for x in ds:\n    infer(x)\n    ckpt.save('ckpt')\n"
        ),
        Valid(  # each call of the traced function runs a loop of steps: one save per `steps_per_loop` steps
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
            "opt = tf.keras.optimizers.Adam()\nmanager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model), 'd', 5)\n"
            "@tf.function\ndef train_steps(it):\n    for _ in tf.range(steps_per_loop):\n        x, y = next(it)\n"
            "        with tf.GradientTape() as tape:\n            loss = tf.reduce_mean(model(x) - y)\n"
            "        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
            "it = iter(ds)\nwhile opt.iterations < 10000:\n    train_steps(it)\n    manager.save()\n"
        ),
        Valid(  # every 1000 steps of a graph whose work is not known: not priced
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "saver = tf.compat.v1.train.Saver()\nsess = tf.compat.v1.Session()\n"
            "for step in range(100000):\n    sess.run(train_op)\n"
            "    if step % 1000 == 0:\n        saver.save(sess, 'ckpt', global_step=step)\n"
        ),
        Valid(  # every 5 epochs: the loop around the save runs epochs, its steps are in the loop inside
            "import tensorflow as tf\nm = tf.keras.Sequential()\nckpt = tf.train.Checkpoint(model=m)\n"
            "for epoch in range(100):\n    for x, y in ds:\n        m.train_on_batch(x, y)\n"
            "    if epoch % 5 == 0:\n        ckpt.save('ckpt')\n"
        ),
        Valid(  # a loop of 200 steps saving every 50: four checkpoints
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "saver = tf.compat.v1.train.Saver()\nsess = tf.compat.v1.Session()\n"
            "for step in range(200):\n    sess.run(train_op)\n"
            "    if step % 50 == 0:\n        saver.save(sess, 'ckpt', global_step=step)\n"
        ),
        Valid(  # the period comes from the command line with no default: not known
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "saver = tf.compat.v1.train.Saver()\nsess = tf.compat.v1.Session()\n"
            "for step in range(100000):\n    sess.run(train_op)\n"
            "    if step % args.save_every == 0:\n        saver.save(sess, 'ckpt', global_step=step)\n"
        ),
        Valid(  # a loop that evaluates (no update fetched) is no training loop
            "import tensorflow as tf\nsaver = tf.compat.v1.train.Saver()\nsess = tf.compat.v1.Session()\n"
            "for step in range(100000):\n    sess.run(accuracy)\n"
            "    if step % 10 == 0:\n        saver.save(sess, 'ckpt', global_step=step)\n"
        ),
        Valid(  # the same model every 50 steps: the saves take under 10 % of the steps between them
            WIDE.format(every="step % 50 == 0", save="m.save_weights('w.weights.h5')")
        ),
        Valid(  # a TF2 checkpoint of the same model every 50 steps, priced by the weights it tracks: under 10 %
            MANAGED.format(every="step % 50 == 0", save="manager.save()")
        ),
        Valid(  # the configuration's attribute set again before the training: its value is not known here
            WIDE.format(every="step % cfg.SAVE_EVERY == 0", save="m.save_weights('w.weights.h5')").replace(
                "for step", "class Config:\n    SAVE_EVERY = 20\n\n\ncfg = Config()\ncfg.SAVE_EVERY = read()\nfor step"
            )
        ),
        Valid(  # a subclass's configuration: every 500 steps
            WIDE.format(every="step % cfg.SAVE_EVERY == 0", save="m.save_weights('w.weights.h5')").replace(
                "for step",
                "class Config:\n    SAVE_EVERY = 20\n\n\nclass Long(Config):\n    SAVE_EVERY = 500\n\n\n"
                "cfg = Long()\nfor step",
            )
        ),
        Valid(  # the manager thins the saves itself: one every 1,000 steps of its step counter
            INTERVAL.format(made="3, step_counter=counter, checkpoint_interval=1000", given="")
        ),
        Valid(  # the same, the interval a flag's value the file does not show
            INTERVAL.format(made="3, step_counter=counter, checkpoint_interval=FLAGS.interval", given="check_interval=True")
        ),
        Valid(  # a stricter `min-save-steps`: a period of 20 steps is long enough
            WIDE.format(every="step % 20 == 0", save="m.save_weights('w.weights.h5')"),
            options={"min-save-steps": 20},
        ),
        Valid(  # every step, but priced under 10 %: ResNet50 on batches of 256 computes far longer than it writes
            "import numpy as np\nimport tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\n"
            "m.compile(optimizer='sgd', loss='sparse_categorical_crossentropy')\n"
            "x, y = np.zeros((256, 224, 224, 3)), np.zeros((256,))\nfor step in range(1000):\n"
            "    m.train_on_batch(x, y)\n    m.save_weights('w.weights.h5')\n"
        ),
        Valid(  # a second training step in the loop whose batch the code does not size: not priced
            WIDE.format(every="step % 20 == 0", save="m.save_weights('w.weights.h5')")
            .replace(
                "    m.train_on_batch(x, y)\n", "    m.train_on_batch(x, y)\n    other.train_on_batch(*next(batches))\n"
            )
            .replace("x, y = np.zeros", "other = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nx, y = np.zeros")
        ),
        Valid(  # TF1: a Saver of a graph's variables, a step of unknown size: nothing priced
            "import tensorflow as tf\nCHECKPOINT_EVERY = 50\n"
            "opt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "saver = tf.compat.v1.train.Saver()\nsess = tf.compat.v1.Session()\n"
            "for step in range(100000):\n    sess.run(train_op)\n"
            "    if step % CHECKPOINT_EVERY == 0:\n        saver.save(sess, 'model.ckpt', global_step=step)\n"
        ),
        Valid(  # TF1: a Saver of some variables only (`var_list`): its save's weights not known, nothing priced
            GRAPH.format(saver="var_list=g_vars", every="step % 10 == 0", save="saver.save(sess, 'ckpt')")
        ),
        Valid(  # TF1: a Saver built before the graph writes the variables then made: not priced
            GRAPH.format(saver="", every="step % 10 == 0", save="saver.save(sess, 'ckpt')")
            .replace("saver = tf.compat.v1.train.Saver()\n", "")
            .replace("import tensorflow as tf\n", "import tensorflow as tf\nsaver = tf.compat.v1.train.Saver()\n")
        ),
        Valid(  # TF1, every 10 steps of gradient descent, which keeps no slot: the weights take 5 % of that time
            GRAPH.format(saver="", every="step % 10 == 0", save="saver.save(sess, 'ckpt')").replace(
                "AdamOptimizer()", "GradientDescentOptimizer(0.1)"
            )
        ),
        Valid(  # TF1: Adam given a `var_list` (a part of the graph): its slots not counted, the weights take 5 %
            GRAPH.format(saver="", every="step % 10 == 0", save="saver.save(sess, 'ckpt')").replace(
                ".minimize(loss)", ".minimize(loss, var_list=tf.compat.v1.trainable_variables())"
            )
        ),
        Valid(  # the whole model every 50 steps, without its optimizer: the weights alone take 7 %
            WIDE.format(every="step % 50 == 0", save="m.save('m.h5', include_optimizer=False)")
        ),
        Valid(  # saved every 50 steps but trained only through another model (a GAN's generator): its own
            # optimizer never made a slot, and the weights alone take 7 %
            WIDE.format(every="step % 50 == 0", save="m.save('m.keras')")
            .replace("    m.train_on_batch(x, y)\n", "    combined.train_on_batch(x, y)\n")
            .replace(
                "x, y = np.zeros",
                "combined = tf.keras.Sequential([m])\ncombined.compile(optimizer='adam', loss='mse')\nx, y = np.zeros",
            )
        ),
        Valid(  # the same checkpoint of plain SGD, which keeps no slot: the weights alone take 5 %
            TRACKED.format(optimizer="tf.keras.optimizers.SGD(0.01)", trained="m")
        ),
        Valid(  # Adam applied to variables the code does not tie to the model: its slots not counted, 5 %
            TRACKED.format(optimizer="tf.keras.optimizers.Adam()", trained="other")
        ),
        Valid(  # not priced, every 5 steps of a loop known to run 40: eight saves
            UNSIZED.format(steps="range(40)", every="step % 5 == 0")
        ),
        Valid(  # a batch the code does not size: the steps between two saves are not priced
            "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.Input((784,)), tf.keras.layers.Dense(8192)])\n"
            "m.compile(optimizer='adam', loss='mse')\nfor step, (x, y) in enumerate(batches):\n"
            "    m.train_on_batch(x, y)\n    if step % 10 == 0:\n        m.save_weights('w.weights.h5')\n"
        ),
        Valid(  # each call of the file's function trains an epoch (a loop of steps): a save every 20 epochs
            WIDE.format(every="step % 20 == 0", save="m.save_weights('w.weights.h5')")
            .replace("    m.train_on_batch(x, y)\n", "    train_epoch()\n")
            .replace(
                "for step", "def train_epoch():\n    for _ in range(100):\n        m.train_on_batch(x, y)\n\n\nfor step"
            )
        ),
        Valid(  # after each call of the file's function that trains an epoch (a loop of steps): a save an epoch
            "import tensorflow as tf\nm = tf.keras.Sequential()\n\n\ndef train_epoch():\n"
            "    for x, y in ds:\n        m.train_on_batch(x, y)\n\n\nfor epoch in range(100):\n"
            "    train_epoch()\n    m.save_weights('w.weights.h5')\n"
        ),
        Valid(  # after each call of the file's function that fits: `fit` trains an epoch or more, not one step
            "import tensorflow as tf\nm = tf.keras.Sequential()\n\n\ndef train(x, y):\n    m.fit(x, y)\n\n\n"
            "for x, y in chunks:\n    train(x, y)\n    m.save_weights('w.weights.h5')\n"
        ),
        Valid(  # `env.step(action)` is no call of the file's method `Agent.step`, which trains
            "import tensorflow as tf\nm = tf.keras.Sequential()\n\n\nclass Agent:\n"
            "    def step(self, x, y):\n        return m.train_on_batch(x, y)\n\n\n"
            "agent = Agent()\nfor b in range(100):\n    agent.step(x, y)\n"
            "for t in range(100000):\n    obs = env.step(action)\n    m.save_weights('w.weights.h5')\n"
        ),
        Valid(  # the `if` on a parameter that a call turns off: whether it saves is the caller's choice
            WIDE.format(every="step % 20 == 0", save="save(step, ckpt=False)")
            + "def save(step, ckpt=True):\n    if ckpt:\n        m.save_weights('w.weights.h5')\n"
        ),
        Valid(  # a callback's per-batch save gated every 100 batches
            HOOKED.format(
                hook="on_train_batch_end",
                body="        if batch % 100 == 0:\n            self.model.save_weights('w.weights.h5')",
                fit=FIT_SAVER.format(epochs=10),
            )
        ),
        Valid(  # once per epoch
            HOOKED.format(
                hook="on_epoch_end", body="        self.model.save('m.keras')", fit=FIT_SAVER.format(epochs=10)
            )
        ),
        Valid(  # a subclass of another callback (EarlyStopping): its behaviour is not all in the file
            HOOKED.format(
                hook="on_batch_end", body="        self.model.save('m.keras')", fit=FIT_SAVER.format(epochs=10)
            ).replace("(tf.keras.callbacks.Callback)", "(tf.keras.callbacks.EarlyStopping)")
        ),
        Valid(  # a per-batch hook that only logs a scalar
            HOOKED.format(
                hook="on_train_batch_end", body="        print(logs['loss'])", fit=FIT_SAVER.format(epochs=10)
            )
        ),
        Valid(  # the callback is defined but given to no fit
            HOOKED.format(
                hook="on_batch_end",
                body="        self.model.save_weights('w.weights.h5')",
                fit="m.fit(x, y, batch_size=32, epochs=10)",
            )
        ),
        Valid(  # a save of another model than the callback's (`self.generator`) is not known to be a save
            HOOKED.format(
                hook="on_batch_end", body="        self.generator.save('g.keras')", fit=FIT_SAVER.format(epochs=10)
            )
        ),
    )
    INVALID = (
        Invalid(  # an Estimator checkpointing every 5 steps
            "import tensorflow as tf\nconfig = tf.estimator.RunConfig(model_dir='m', save_checkpoints_steps=5)\n"
            "est = tf.estimator.Estimator(model_fn, config=config)\nest.train(input_fn, steps=100000)\n",
            line=2,
            message_contains="`RunConfig(save_checkpoints_steps=5)` writes a checkpoint every 5 training steps",
        ),
        Invalid(  # a TF1 hook saving every step, its steps a flag's default (positional)
            "import tensorflow as tf\nfrom absl import flags\nflags.DEFINE_integer('ckpt_steps', 1, 'steps')\n"
            "FLAGS = flags.FLAGS\nhook = tf.compat.v1.train.CheckpointSaverHook('ckpt', None, FLAGS.ckpt_steps)\n"
            "with tf.compat.v1.train.MonitoredTrainingSession(hooks=[hook]) as sess:\n"
            "    while not sess.should_stop():\n        sess.run(train_op)\n",
            line=5,
            message_contains="`CheckpointSaverHook(save_steps=1)` (`FLAGS.ckpt_steps`: the default of `--ckpt_steps`)",
        ),
        Invalid(  # a monitored session checkpointing every 2 steps
            "import tensorflow as tf\nwith tf.compat.v1.train.MonitoredTrainingSession(checkpoint_dir='c',"
            " save_checkpoint_steps=2) as sess:\n    while not sess.should_stop():\n        sess.run(train_op)\n",
            line=2,
        ),
        Invalid(  # not priced (a batch the code does not size), but a checkpoint every 5 steps
            UNSIZED.format(steps="enumerate(batches)", every="step % 5 == 0"),
            line=8,
            message_contains="`save()` writes a checkpoint every 5 training steps: each save writes every weight",
        ),
        Invalid(  # TF1: a Saver of some variables, every 2 steps of a flag's default: not priced, every few steps
            GRAPH.format(
                saver="var_list=g_vars", every="step % args.every == 0", save="saver.save(sess, 'ckpt')"
            ).replace(
                "import tensorflow as tf\n",
                "import tensorflow as tf\nfrom absl import flags\n"
                "flags.DEFINE_integer('every', 2, 'steps between saves')\nargs = flags.FLAGS\n",
            ),
            line=14,
            message_contains="every 2 training steps (`args.every`: the default of `--every`)",
        ),
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nopt = tf.keras.optimizers.Adam()\n"
            "for x, y in ds:\n"
            "    opt.apply_gradients(zip(g, m.trainable_variables))\n"
            "    m.save_weights('w.weights.h5')\n",
            line=6,
        ),
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor x, y in ds:\n"
            "    m.train_on_batch(x, y)\n    tf.saved_model.save(m, 'out')\n",
            line=5,
        ),
        Invalid(  # TF1: the training step is a run fetching the update (in a dict), the save after each
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "saver = tf.compat.v1.train.Saver()\nsess = tf.compat.v1.Session()\nfor step in range(100000):\n"
            "    sess.run({'train': train_op, 'loss': loss})\n    saver.save(sess, 'model.ckpt', global_step=step)\n",
            line=8,
            message_contains="`save()` runs on every training step",
        ),
        Invalid(  # the training step is a traced function that updates the model
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
            "opt = tf.keras.optimizers.Adam()\nckpt = tf.train.Checkpoint(model=model)\n@tf.function\n"
            "def train_step(x, y):\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(model(x) - y)\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
            "for x, y in ds:\n    train_step(x, y)\n    ckpt.save('ckpt')\n",
            line=12,
        ),
        Invalid(  # after every call of the file's (untraced) function that runs one step
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
            "opt = tf.keras.optimizers.Adam()\nckpt = tf.train.Checkpoint(model=model)\n\n\n"
            "def train_step(x, y):\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(model(x) - y)\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n\n\n"
            "for x, y in ds:\n    train_step(x, y)\n    ckpt.save('ckpt')\n",
            line=15,
            message_contains="`save()` runs on every training step",
        ),
        Invalid(  # every step of ResNet50 on batches of 8: the price is stated
            "import numpy as np\nimport tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\n"
            "m.compile(optimizer='sgd', loss='sparse_categorical_crossentropy')\n"
            "x, y = np.zeros((8, 224, 224, 3)), np.zeros((8,))\nfor step in range(1000):\n"
            "    m.train_on_batch(x, y)\n    m.save_weights('w.weights.h5')\n",
            line=8,
            message_contains="runs on every training step: saving serialises and writes every weight; each save takes at least",
        ),
        Invalid(  # wide dense layers on a batch of 8, saved every 20 steps: 295 MB of weights per save
            WIDE.format(every="step % 20 == 0", save="m.save_weights('w.weights.h5')"),
            line=9,
            message_contains="every 20 training steps: each save takes at least",
        ),
        Invalid(  # a manager with an interval, told not to check it: a save on every step
            INTERVAL.format(made="3, step_counter=counter, checkpoint_interval=1000", given="check_interval=False"),
            line=11,
            message_contains="`save()` runs on every training step",
        ),
        Invalid(  # a manager without one
            INTERVAL.format(made="3", given=""),
            line=11,
            message_contains="`save()` runs on every training step",
        ),
        Invalid(  # the same, its period a configuration class's attribute
            WIDE.format(every="step % cfg.SAVE_EVERY == 0", save="m.save_weights('w.weights.h5')").replace(
                "for step", "class Config:\n    SAVE_EVERY = 20\n\n\ncfg = Config()\nfor step"
            ),
            line=14,
            message_contains="every 20 training steps (`cfg.SAVE_EVERY` = 20): each save takes at least",
        ),
        Invalid(  # a dict's entry
            WIDE.format(every="step % config['save_every'] == 0", save="m.save_weights('w.weights.h5')").replace(
                "for step", "config = {'save_every': 20}\nfor step"
            ),
            line=10,
            message_contains="every 20 training steps (`config['save_every']` = 20)",
        ),
        Invalid(  # TF1: a Saver given no variables writes at least the weights of the graph its session trains,
            # and Adam's two moments of each (its `minimize` trains every variable)
            GRAPH.format(saver="", every="step % 2 == 0", save="saver.save(sess, 'ckpt')"),
            line=11,
            message_contains=(
                "every 2 training steps: each save takes at least 181 ms (5 ms to lay out the file, then 884 MB of"
                " weights and the optimizer's 2 slots per weight it trains"
            ),
        ),
        Invalid(  # TF1, every 10 steps: the weights alone take 5 % of that time, with Adam's two moments 12 %
            GRAPH.format(saver="", every="step % 10 == 0", save="saver.save(sess, 'ckpt')"),
            line=11,
            message_contains="at least 12% of the time it and the training steps since the last save take",
        ),
        Invalid(  # the whole compiled model every 50 steps: its weights and Adam's two moments of each, 18 %
            WIDE.format(every="step % 50 == 0", save="m.save('m.keras')"),
            line=9,
            message_contains="then 884 MB of weights and the optimizer's 2 slots per weight it trains at 5 GB/s), at least 18%",
        ),
        Invalid(  # a large embedding trained by Adam, the whole model every 120 steps: each step updates every
            # row and both moments, each save writes them all to disk: at least 12 %
            "import numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential([tf.keras.Input((20,)),"
            " tf.keras.layers.Embedding(5000000, 64), tf.keras.layers.GlobalAveragePooling1D(), tf.keras.layers.Dense(1)])\n"
            "m.compile(optimizer='adam', loss='mse')\nx, y = np.zeros((32, 20)), np.zeros((32, 1))\n"
            "for step in range(100000):\n    m.train_on_batch(x, y)\n    if step % 120 == 0:\n        m.save('m.keras')\n",
            line=9,
            message_contains="every 120 training steps: each save takes at least 771 ms",
        ),
        Invalid(  # a checkpoint of the model and of the Adam optimizer that trains it: both moments written, 14 %
            TRACKED.format(optimizer="tf.keras.optimizers.Adam()", trained="m"),
            line=19,
            message_contains="the optimizer's 2 slots per weight it trains at 5 GB/s), at least 14%",
        ),
        Invalid(  # TF1: the same graph saved on every step, its price stated
            GRAPH.format(saver="max_to_keep=1", every="True", save="saver.save(sess, 'ckpt')").replace(
                "        if True:\n            saver", "        saver"
            ),
            line=10,
            message_contains="runs on every training step: saving serialises and writes every weight; each save takes at least",
        ),
        Invalid(  # a TF2 checkpoint tracking that model, written every 20 steps: its weights priced
            MANAGED.format(every="step % 20 == 0", save="manager.save()"),
            line=10,
            message_contains="every 20 training steps: each save takes at least 63.8 ms (5 ms to lay out the file, then 295 MB",
        ),
        Invalid(  # through a function of the file, the period a flag's default
            "import argparse\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--save_every', type=int, default=10)\nargs = parser.parse_args()\n"
            + WIDE.format(every="step % args.save_every == 0", save="save()")
            + "def save():\n    m.save_weights('w.weights.h5')\n",
            line=13,
            message_contains="every 10 training steps (`args.save_every`: the default of `--save_every`)",
        ),
        Invalid(  # through a method's `if` on a parameter true by default, no call passing it
            WIDE.format(every="step % 20 == 0", save="save(step)")
            + "def save(step, ckpt=True):\n    if ckpt:\n        m.save_weights('w.weights.h5')\n",
            line=9,
            message_contains="`save()` writes a checkpoint every 20 training steps",
        ),
        Invalid(  # through a helper nested in the function the loop calls
            WIDE.format(every="step % 20 == 0", save="save_all()")
            + "def save_all():\n    def save(model, name):\n        model.save_weights(name)\n"
            "    save(m, 'w.weights.h5')\n",
            line=9,
            message_contains="`save_all()` writes a checkpoint every 20 training steps",
        ),
        Invalid(  # the save in a loop of the function the training loop calls, a loop that trains nothing
            WIDE.format(every="step % 20 == 0", save="save_all()")
            + "def save_all():\n    for path in ('w.weights.h5', 'backup/w.weights.h5'):\n"
            "        m.save_weights(path)\n",
            line=9,
            message_contains="`save_all()` writes a checkpoint every 20 training steps",
        ),
        Invalid(  # the step in a function of the file the loop calls, one step a call
            WIDE.format(every="step % 20 == 0", save="m.save_weights('w.weights.h5')")
            .replace("    m.train_on_batch(x, y)\n", "    loss = train_step(x, y)\n")
            .replace("for step", "def train_step(x, y):\n    return m.train_on_batch(x, y)\n\n\nfor step"),
            line=13,
            message_contains="every 20 training steps: each save takes at least 63.8 ms",
        ),
        Invalid(  # TF1: the run fetching the update in a function the loop calls, through a helper it calls
            GRAPH.format(saver="", every="step % 2 == 0", save="saver.save(sess, 'ckpt')")
            .replace("        sess.run(train_op, feed_dict={x: xs})\n", "        train_step(sess, xs)\n")
            .replace(
                "with tf.compat.v1.Session()",
                "def run_update(sess, xs):\n    return sess.run(train_op, feed_dict={x: xs})\n\n\n"
                "def train_step(sess, xs):\n    return run_update(sess, xs)\n\n\nwith tf.compat.v1.Session()",
            ),
            line=19,
            message_contains=(
                "every 2 training steps: each save takes at least 181 ms (5 ms to lay out the file, then 884 MB of"
                " weights and the optimizer's 2 slots per weight it trains"
            ),
        ),
        Invalid(  # the remainder taken by `tf.math.mod`, the period a flag's default
            "import argparse\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--save-every', type=int, default=10)\nargs = parser.parse_args()\n"
            + WIDE.format(every="tf.math.mod(step, args.save_every) == 0", save="m.save_weights('w.weights.h5')"),
            line=13,
            message_contains="every 10 training steps (`args.save_every`: the default of `--save_every`)",
        ),
        Invalid(  # every 20 steps and once more at the last: the period read through the `or`
            WIDE.format(every="step % 20 == 0 or step == 99999", save="m.save_weights('w.weights.h5')"),
            line=9,
            message_contains="every 20 training steps: each save takes at least",
        ),
        Invalid(  # after the steps a `continue` skips: every 20 steps, not every step
            WIDE.format(every="step % 20 != 0", save="continue\n    m.save_weights('w.weights.h5')"),
            line=10,
            message_contains="every 20 training steps: each save takes at least",
        ),
        Invalid(  # the divisor a module constant
            "EVERY = 20\n" + WIDE.format(every="step % EVERY == 0", save="m.save_weights('w.weights.h5')"),
            line=10,
            message_contains="every 20 training steps (`EVERY` = 20)",
        ),
        Invalid(  # a callback's per-batch hook saves its model, the callback given to the fit by name in a list
            HOOKED.format(
                hook="on_train_batch_end",
                body="        self.model.save_weights('w.weights.h5')",
                fit=FIT_SAVER.format(epochs=10),
            ),
            line=7,
            message_contains="runs in `on_train_batch_end` of the callback `Saver`, which Keras calls once per batch of the"
            " `fit` at line 14, 1000 batches",
        ),
        Invalid(  # gated every 5 batches only: still a save every few steps
            HOOKED.format(
                hook="on_batch_end",
                body="        if batch % 5 == 0:\n            self.model.save('m.keras')",
                fit="m.fit(x, y, epochs=3, callbacks=[Saver()])",
            ),
            line=8,
        ),
        Invalid(  # a ModelCheckpoint subclass whose own per-batch hook saves: on every batch, whatever the base does
            HOOKED.format(
                hook="on_batch_end", body="        self.model.save('m.keras')", fit=FIT_SAVER.format(epochs=10)
            ).replace("(tf.keras.callbacks.Callback)", "(tf.keras.callbacks.ModelCheckpoint)"),
            line=7,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        yield from self.hook_saves(facts)
        minimum = int(options.get("min-save-steps", 0))
        for site in facts.sites:
            if site.api in CHECKPOINT_STEPS:
                yield from self._configured(facts, site, minimum)
                continue
            if not _is_save(site.api):
                continue
            call = facts.node(site)
            if call is not None and _manager_thins(facts, site, call):
                continue
            if site.repeats(same=("receiver",)) and every_step(facts, site, called=True):
                loops = own_loops(facts, call, site.callsite.span.cell) if call is not None else []
                steps = _saving_steps(facts, loops[0], site.callsite.span.cell, 1) if loops else []
                priced = _price(site, steps, 1, facts.device) if steps else None
                if priced is None or priced.share >= MIN_SHARE:
                    clause = f"; {priced.clause()}" if priced is not None else ""
                    message = self.MESSAGE.format(call=method(site.api), price=clause)
                    yield self.diagnostic(site.callsite.span, facts.path, message)
                continue
            if call is None:
                continue
            for cell, point in call_points(facts, call, site.callsite.span.cell):
                found = loop_period(facts, point, cell)
                if found is None:
                    continue
                period, source, loop = found
                if period <= 0 or 0 < minimum <= period:
                    continue
                steps = _saving_steps(facts, loop, cell, period)
                if not steps:
                    continue
                name = point.func.attr if isinstance(point.func, ast.Attribute) else ast.unparse(point.func)
                priced = _price(site, steps, period, facts.device)
                if priced is not None and priced.share >= MIN_SHARE:
                    message = self.PERIODIC.format(call=name, period=period, source=source, price=priced.clause())
                elif priced is None and period < FEW_STEPS:
                    message = self.UNPRICED.format(call=name, period=period, source=source)
                else:
                    continue
                yield self.diagnostic(facts.span(point, cell), facts.path, message)

    def _configured(self, facts: FileFacts, site: Site, minimum: int) -> Iterator[Diagnostic]:
        """A TF1 or Estimator setting (`CHECKPOINT_STEPS`) that checkpoints every fewer than
        `FEW_STEPS` training steps, known with the program's defaults; not in test code."""
        name, position = CHECKPOINT_STEPS[site.api]
        given = argument(facts.node(site), name, position)
        if given is None or in_test_code(facts, site):
            return
        period, source = known_value(facts, given, site.callsite.span.cell)
        if not isinstance(period, int) or isinstance(period, bool) or not 0 < period < FEW_STEPS:
            return
        if 0 < minimum <= period:
            return
        message = self.CONFIGURED.format(call=method(site.api), name=name, period=period, source=source)
        yield self.diagnostic(site.callsite.span, facts.path, message)

    def hook_saves(self, facts: FileFacts) -> Iterator[Diagnostic]:
        """Saves a per-batch hook of a callback class of the file makes on each of its calls (or on
        fewer than 1 in `FEW_CALLS`), its instance given to a fit of the file that runs at least
        `FEW_CALLS` batches where its batches are known: one finding per save."""
        seen: set[int] = set()
        for hook in fitted_hooks(facts, PER_BATCH):
            for call in own_calls(hook):
                if id(call) in seen or hook.few_batches() or not _hook_save(facts, hook, call):
                    continue
                if not every_call(hook.function, call):
                    continue
                seen.add(id(call))
                name = call.func.attr if isinstance(call.func, ast.Attribute) else ast.unparse(call.func)
                callback = hook.made.func.id if isinstance(hook.made.func, ast.Name) else "callback"
                message = self.HOOK_MESSAGE.format(
                    call=name, hook=hook.function.name, callback=callback, of=hook.of(facts), runs=hook.runs()
                )
                yield self.diagnostic(hook.span(facts, call), facts.path, message)


def _saving_steps(facts: FileFacts, loop: ast.AST, cell: int | None, period: int) -> list[Site]:
    """The training steps one pass of the loop runs (`pass_steps`); none where it is known to save
    fewer than `FEW_SAVES` times, a save every *period* passes."""
    steps = pass_steps(facts, loop, cell)
    runs = next((s.loop_runs for s in steps if s.loop_runs is not None), None)
    return [] if runs is not None and runs // period < FEW_SAVES else steps


def _price(save: Site, steps: list[Site], period: int, told: str | None) -> SaveShare | None:
    """The priced share of a save every *period* passes of a loop running the training *steps*
    (save_price), None where something is not priced."""
    slots, trained = save.work_value("optimizer_slots"), save.work_value("trainable_params")
    return save_share(save.work_value("params"), steps, period, told, slots=slots, trained=trained)


def _hook_save(facts: FileFacts, hook: FittedHook, call: ast.Call) -> bool:
    """A save in a callback's hook: of the callback's model (`self.model.save_weights(...)`), or a
    call the analysis resolved to a save (a TF1 `Saver`'s, `tf.saved_model.save`; not a
    `CheckpointManager`'s that its interval thins out)."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in SAVES and is_self_attribute(func.value):
        return func.value.attr == "model"
    site = facts.site_at(call, hook.cell)
    return site is not None and _is_save(site.api) and not _manager_thins(facts, site, call)

