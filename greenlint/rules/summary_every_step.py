"""GL318 summary-every-step: a histogram, image or audio summary, or a TF1 merge holding one, written on every training step."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.analysis.handed import PER_BATCH
from greenlint.analysis.import_table import resolver
from greenlint.catalog.names import TF1_PREFIX
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument
from greenlint.rules.callbacks import read_tree
from greenlint.rules.defaults import known_value
from greenlint.rules.deliberate import chosen_at
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.hooks import FEW_CALLS, FittedHook, every_call, fitted_hooks
from greenlint.rules.keras_rl import agent_fits, fit_argument
from greenlint.rules.periodic import always_due, call_points, loop_period, steps_between
from greenlint.rules.project_merges import heavy_imported, project_calls, project_merge_names
from greenlint.rules.site import Site
from greenlint.rules.syntax import (
    LOOPS,
    SCOPES,
    STEP_METHODS,
    every_pass,
    innermost_loop,
    last_name,
    loop_varying,
    own_body,
    own_loops,
    periodic,
    scope_body,
    scope_of,
    trains,
)

#: Summaries that copy a whole tensor out each time (scalars cost next to nothing).
HEAVY = frozenset({"tensorflow.summary.histogram", "tensorflow.summary.image", "tensorflow.summary.audio"})
#: TF1 ops that merge summary ops into one the session evaluates (`merge_all`: every summary of the graph),
#: under TensorFlow 0.x's names too (`tf.merge_all_summaries`), which programs of that time call.
MERGES = frozenset(
    {
        "tensorflow.compat.v1.summary.merge_all",
        "tensorflow.compat.v1.summary.merge",
        "tensorflow.merge_all_summaries",
        "tensorflow.merge_summary",
    }
)
#: The same heavy summaries as TF1 graph ops, what a merge may hold (`tf.summary.histogram` reads as TF2's),
#: and under TensorFlow 0.x's names (`tf.histogram_summary`).
HEAVY_OPS = (
    HEAVY
    | {TF1_PREFIX + name.removeprefix("tensorflow.") for name in HEAVY}
    | {f"tensorflow.{kind}_summary" for kind in ("histogram", "image", "audio")}
)
RUNS = frozenset({"tensorflow.compat.v1.Session.run", "tensorflow.compat.v1.InteractiveSession.run"})
#: TF1's runs of their receiver in the default session (`summary = merged.eval()`, `train_op.run()`).
RECEIVER_RUNS = frozenset({"tensorflow.Tensor.eval", "tensorflow.Operation.run"})
#: The `RunOptions` trace levels that record every op's timings (`NO_TRACE` records none).
TRACE_LEVELS = frozenset({"FULL_TRACE", "SOFTWARE_TRACE", "HARDWARE_TRACE"})
#: A loop known to run fewer traced steps than this is a profile being taken, not a training traced.
PROFILED_STEPS = 100
#: The writer the TF2 cases make, without which a summary writes nothing.
WRITER = "writer = tf.summary.create_file_writer('logs')\n"

#: A traced training step of the file, then the writer (the per-tensor cases' training loops call it).
TRACED = (
    "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nopt = tf.keras.optimizers.Adam()\n"
    + WRITER
    + "@tf.function\ndef train_step(x, y):\n    with tf.GradientTape() as tape:\n"
    "        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))\n"
    "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
)
#: A Keras callback writing a summary `{kind}` of each of its model's weights from its hook `{hook}`
#: (under `{gate}`, an `if` or nothing, `{pad}` its indent), given to the fit `{fit}` of 100 batches an epoch.
WEIGHTS_CALLBACK = (
    "import numpy as np\nimport tensorflow as tf\n\n\nclass Histograms(tf.keras.callbacks.Callback):\n"
    "    def __init__(self):\n        super().__init__()\n        self.writer = tf.summary.create_file_writer('logs')\n\n"
    "    def {hook}(self, batch, logs=None):\n{gate}        {pad}with self.writer.as_default():\n"
    "            {pad}for w in self.model.weights:\n                {pad}tf.summary.{kind}(w.name, w, step=batch)\n\n\n"
    "m = tf.keras.Sequential([tf.keras.Input((784,)), tf.keras.layers.Dense(10)])\n"
    "m.compile(optimizer='adam', loss='mse')\nx, y = np.zeros((3200, 784)), np.zeros((3200, 10))\n"
    "histograms = Histograms()\n{fit}\n"
)
#: The fit given the callback.
FIT_HISTOGRAMS = "m.fit(x, y, batch_size=32, epochs=10, callbacks=[histograms])"
#: What writes a histogram of each trainable variable.
#: TF1: an estimator class that merges a histogram and fetches it in the update its instance runs
#: once per step of a generator's loop; `{bind}` binds the receiver, `{call}` runs the loop's step.
ESTIMATOR = (
    "import tensorflow as tf\n\n\nclass Estimator:\n    def __init__(self, sess):\n        self.sess = sess\n"
    "        self.loss = tf.reduce_mean(tf.square(self.y - self.q))\n"
    "        self.train_op = tf.compat.v1.train.AdamOptimizer().minimize(self.loss)\n"
    "        self.summaries = tf.compat.v1.summary.merge([tf.compat.v1.summary.scalar('loss', self.loss),"
    " tf.compat.v1.summary.histogram('q', self.q)])\n\n"
    "    def update(self, s, y):\n"
    "        summaries, _ = self.sess.run([self.summaries, self.train_op], {{self.x: s, self.y: y}})\n"
    "        return summaries\n\n\n"
    "def learn(estimator, episodes):\n    for episode in range(episodes):\n        for t in range(200):\n"
    "{call}        yield episode\n\n\n{bind}for stats in learn(estimator, 10000):\n    print(stats)\n"
)
LOG_WEIGHTS = "def log_weights(step):\n    for v in model.trainable_variables:\n        tf.summary.histogram(v.name, v, step=step)\n"

#: A TF1 graph whose gradients get histograms in a loop over them (`{test}`: the `if` around each,
#: the file's options first), merged by `merge_all()` and fetched with every one of 1,000 steps.
GRADS = (
    "import argparse\nimport tensorflow as tf\nparser = argparse.ArgumentParser()\n"
    "parser.add_argument('--hist', default={hist})\nargs = parser.parse_args()\n"
    "opt = tf.compat.v1.train.GradientDescentOptimizer(0.5)\ngrads = opt.compute_gradients(loss)\n"
    "train_op = opt.apply_gradients(grads)\nfor grad, var in grads:\n    if {test}:\n"
    "        tf.compat.v1.summary.histogram(var.op.name + '/gradients', grad)\n"
    "merged = tf.compat.v1.summary.merge_all()\nsess = tf.compat.v1.Session()\nfor i in range(1000):\n"
    "    summary, _ = sess.run([merged, train_op])\n    writer.add_summary(summary, i)\n"
)

#: A TF1 training step run with `options` (`{options}`) on every one of 10,000 steps, its metadata written.
TRACE = (
    "import tensorflow as tf\ntrain_op = tf.compat.v1.train.AdamOptimizer().minimize(loss)\n"
    "sess = tf.compat.v1.Session()\nrun_options = tf.compat.v1.RunOptions({options})\n"
    "run_metadata = tf.compat.v1.RunMetadata()\nfor step in range(10000):\n"
    "    _, l = sess.run([train_op, loss], options=run_options, run_metadata=run_metadata)\n"
    "    writer.add_run_metadata(run_metadata, 'step%d' % step)\n"
)

#: A GAN whose generator step, every `n_critic` steps (an option's default, `{every}`), fetches a merge
#: holding the histograms of some variables, appended to an attribute and extended into the merge's list.
CRITIC = (
    "import argparse\nimport tensorflow as tf\nparser = argparse.ArgumentParser()\n"
    "parser.add_argument('--n_critic', type=int, default={every})\n\n\nclass GAN:\n"
    "    def __init__(self, sess, args):\n        self.sess, self.n_critic = sess, args.n_critic\n"
    "        self.hists = []\n        for var in tf.compat.v1.trainable_variables():\n"
    "            self.hists.append(tf.compat.v1.summary.histogram(var.name, var))\n"
    "        g_list = [tf.compat.v1.summary.scalar('g', self.g_loss)]\n        g_list.extend(self.hists)\n"
    "        self.g_sum = tf.compat.v1.summary.merge(g_list)\n"
    "        self.g_optim = tf.compat.v1.train.AdamOptimizer().minimize(self.g_loss)\n\n"
    "    def train(self):\n        for idx in range(1000):\n            if idx % self.n_critic == 0:\n"
    "                _, s = self.sess.run([self.g_optim, self.g_sum])\n\n\n"
    "GAN(tf.compat.v1.Session(), parser.parse_args()).train()\n"
)


class SummaryEveryStep(Rule):
    """
    ## What it does
    Flags `tf.summary.histogram()`, `tf.summary.image()` and `tf.summary.audio()` run on every
    pass of a loop (or of a function a loop calls, such as a training step): not under an
    `if` in that loop, in a file that makes a writer (`tf.summary.create_file_writer`) and never
    calls `tf.summary.record_if` to thin them out. With no default writer a summary writes
    nothing, so a file that makes none (its writer, if any, is made elsewhere) is not reported. A
    loop over the tensors summarised (`for var in layer.variables:`), with no training step in
    it, writes each once per pass of whatever runs it, and is not reported for itself; it is
    reported where it runs after every training step: on every pass of a loop around it whose own
    body trains (through loops over layers, then their weights), or in a function of the file that
    such a loop calls on every pass (`log_weights(step)` after `train_step(x, y)`); an `if` that
    only picks among the tensors the loop over them goes over (its test reads that loop's variables
    alone, with no arithmetic: `if 'kernel' in v.name:`) still writes them all. Under an `if`
    of that loop (`if step % 100 == 0:`), or after the loop of steps (once per epoch), it is not,
    but under one whose period is below 10 with the program's defaults (`if step % 5 == 0:`) in
    a loop that trains on the other passes too, as the merged summaries below; nor is
    any summary written on each pass of a loop that trains nothing itself but runs a nested loop
    that does (`log_images(x, epoch)` after the epoch's batches: once per epoch). Nor is
    a summary under an `if` of the function a loop calls (a helper that writes a histogram
    only for some kinds of data): whether that branch runs is decided by its callers' data.

    In a TensorFlow 1 graph, flags a `Session.run` (or a `tensor.eval()`, `op.run()` in the
    default session) that fetches the merged summaries (a name
    bound in the file to `tf.summary.merge_all()` or `tf.summary.merge(...)`, TensorFlow 0.x's
    `tf.merge_all_summaries()` and `tf.merge_summary(...)` alike, or such a call
    written among the fetches, or a name the file binds to what a project function returns
    where that function returns its `merge_all()`: `loss, train_op, summaries = model.train(x)`
    with `model = Model(hp)` of a project module) on every pass of its loop (or of a loop that calls the run's
    function, with no `if` of its own around the run: a `train_step` nested in the training function, called for each
    batch), when that run is a training step (it
    fetches the optimizer's update, in a list, tuple or dict of fetches, or a `tf.group` holding it:
    `sess.run({"train": train_op, "summary": merged})`; the fetches may be a name bound once to such
    a display and never changed, `fetches = [train_op, merged]`) or a run of its own beside the training step's in the same
    loop body (which computes the forward pass the summaries read a second time: `summary =
    merged.eval(feed)` after `train_op.run(feed)`), and only when
    the merge holds a histogram, image or audio summary (`tf.histogram_summary` and the other
    TensorFlow 0.x names included): `merge([...])` of such a summary (a name
    bound to one, or the call itself, in its list; a list it was appended to, a merge holding one, as in
    `merge([loss_sum, merge(grad_hists)])`), or `merge_all()` in a module that builds one
    unconditionally (not under an `if` of its function: histograms behind a flag the user turns
    on; but an `if` on a name or an option true with the program's defaults, `if args.histograms:`
    with `--histograms` on by default, and one that picks among the tensors of a loop over them, `for grad, var in
    grads:` then `if grad is not None:`, build them all the same), or whose project modules
    imported directly build one so (read from their text, never
    imported: an attention image made in the project's layers module). A merge of scalars only,
    or one whose summaries are built where the file cannot read them (a library, a module not
    imported directly), is not reported: a few scalars serialised per step cost next to nothing
    beside the step. The message names a heavy summary the merge holds and where it is built
    (`tf.summary.image` of modules.py:89), which may be another module than the run's. Not
    reported either: a run under an `if` in the loop
    (`if step % 100 == 0:` is the usual cure), except the `else` of an `if` that takes a
    remainder, which runs on all the other steps, the body of one whose period is 1 with the
    program's defaults (`if (counter - 1) % self.n_critic == 0:` with `--n_critic` 1, kept as
    `self.n_critic = args.n_critic`: a GAN's generator updated on every step unless told
    otherwise), the body of one whose period is below 10 with the program's defaults (`if step %
    5 == 0:`, `if step % args.every != 0: continue` with `--every` 5) where the loop trains on the
    passes it skips too (a step in its `else`, before its `continue`, or outside it: a GAN's
    generator step fetched with the summaries every `n_critic` passes and on no other pass is
    every step of that model, and is not reported so), as a per-batch hook gated every fewer than
    10 batches is, and a branch of an `if` the loop never changes
    (`if config.dataset == 'mnist':`, a test with no call and no name the loop binds) whose other
    branch fetches the heavy summaries too: whichever branch the program takes, every step fetches
    them (an `else` that runs the step without them is a flag that turns them off); a loop of one
    trip. The merges and the summaries they hold may be kept in attributes (`self.d_sum =
    tf.summary.merge([self.z_sum, ...])`, fetched as `self.d_sum`), a list attribute the
    summaries are appended to included, and a list extended by one that holds them
    (`self.rho_hists.append(tf.summary.histogram(...))`, then `g_list.extend(self.rho_hists)`).

    In a TensorFlow 1 graph too, flags a training step's `Session.run` given `RunOptions` that
    trace it (`trace_level` `FULL_TRACE`, `SOFTWARE_TRACE` or `HARDWARE_TRACE`, made in the call or
    bound once, outside any `if`, to the name given as `options`: not `options = None` with a
    traced one on some steps) on every pass of its loop, as the merged
    summaries above: with no `if` around the run but the `else` of a periodic one. Options that
    trace nothing (`report_tensor_allocations_upon_oom=True`) are not reported, nor a loop known to
    run fewer than 100 steps (a profile being taken).

    Also flags keras-rl's `agent.fit(env, nb_steps, ..., visualize=True)` (the `rl` package of
    keras-rl and keras-rl2, on an agent the file builds from a class it imports from there:
    `dqn = DQNAgent(...)`), `visualize` true as written or with the program's defaults: keras-rl
    then adds its `Visualizer` callback, which renders the environment in a window
    (`env.render(mode='human')`) after every action, so every training step draws a frame. A
    `fit` under an `if` (rendering on a flag) or in test code is not reported, nor `test()`,
    which renders by default to show the trained agent.

    Also flags a histogram, image or audio summary of each tensor a loop goes over (the model's
    weights) in a per-batch hook (`on_train_batch_end`, `on_batch_end`, ...) of a Keras callback
    class the file defines directly on `Callback` (or `ModelCheckpoint`, `TensorBoard`: its own hook's work), where an instance of it is given to a `fit()`
    of the file (its `callbacks=` list, followed through names): Keras calls the hook once per
    training batch. Not reported: under an `if` of the hook, but a gate of every N batches of N
    below 10; in a per-epoch hook; a callback given to no fit seen; a fit known to run fewer than
    10 batches. The class may be defined so, in a project module the file
    imports it from (`from utils.callbacks import Histograms`), which makes the writer and thins
    nothing out (`tf.summary.record_if`): the finding is then where the file makes the callback,
    the module named; a library's class is not read.

    Also flags a call, on every pass of a training loop of the file (or every N of N below 10), of
    a function of a project module or a method of a project class the file makes the instance of
    (`logger = Logger("logs")`, then `logger.log_weights(model, step)` after the step), that writes
    a TF2 histogram, image or audio summary on each of its calls (under no `if` of its own but a
    gate of every N calls of N below 10), where a writer is made (`create_file_writer`, in the
    module or the file) and no `record_if` thins the summaries out. The message names the summary
    and where the module writes it.

    ## Why is this bad?
    Each of these summaries reads a whole tensor (a layer's weights or gradients, a batch of
    images) and writes the result to the event file. TF1's histogram op has a CPU kernel only,
    so the tensor is copied from the device and binned on the host; TF2's `tf.summary.histogram`
    bins it where it lives, comparing every element with every bucket (work in proportion to the
    tensor's size times the buckets), and copies the buckets; an image is encoded to PNG on the
    host.
    Written on every step, it adds that work to every step, and TensorBoard shows only a
    sample of them anyway. A TF1 run fetching the merged summaries evaluates every summary op
    of the graph, serialises them into one protocol buffer that is copied to Python, and
    `FileWriter.add_summary` appends it to the event file, on each step. A traced run records the
    start, end and memory of every op the step runs (on a GPU, through the device's tracing
    interface) and copies that `RunMetadata` out to Python: a profile of one step, taken on all of
    them. Write them every few hundred steps (`if step % 100 == 0:`, or
    `tf.summary.record_if(...)`), or once per epoch. A frame rendered and shown after every step
    of a reinforcement-learning agent adds the drawing and the display of a window to each step,
    on top of steps that are often a few calls of a small network; the training computes the same
    without it.

    ## Example
    ```python
    writer = tf.summary.create_file_writer("logs")
    with writer.as_default():
        for step, (x, y) in enumerate(dataset):
            loss = train_step(x, y)
            tf.summary.histogram("weights", model.layers[0].kernel, step=step)
    ```

    ## Use instead
    ```python
    writer = tf.summary.create_file_writer("logs")
    with writer.as_default():
        for step, (x, y) in enumerate(dataset):
            loss = train_step(x, y)
            if step % 100 == 0:
                tf.summary.histogram("weights", model.layers[0].kernel, step=step)
    ```

    ## Energy evidence
    The pair under bench/rules/ trains an MNIST-sized perceptron (784 → 256 → 128 → 10, batches
    of 64) for 20 steps of a custom loop that writes histograms of its three kernels' gradients:
    before, on every step; after, every 100 steps (here once, at the first). The saving is the
    histograms' share of each step: large beside a small model's step, as here, and smaller as
    the step grows. The merged TF1 summaries and the traced TF1 runs have no pair of their own:
    their findings rest on what those ops do on each step (above), and claim no figure.

    ## Fix safety
    No automatic fix: how often to write is the user's choice.

    ## Options
    None.
    """

    code = "GL318"
    name = "summary-every-step"
    #: What each kind of finding needs written in the file: a session's `run` fetching merged
    #: summaries, a keras-rl `...Agent`, the writer a heavy summary writes to, the `callbacks=` of
    #: a fit given a callback of a project module, or a training step beside a project logger's call.
    MENTIONS = ("run", "Agent", "create_file_writer", "callbacks", *STEP_METHODS)
    MESSAGE = "`tf.summary.{kind}` is written on {every}{times}: write it every few hundred steps"
    EACH = (
        "`tf.summary.{kind}` of each tensor the loop on line {line} goes over is written after every training step:"
        " each reads a whole tensor and waits for the step to write it; write them every few hundred steps"
        " (`if step % 100 == 0:`)"
    )
    LOGGED = (
        "`{call}()` writes `tf.summary.{kind}` ({where}) on {every}: each reads a whole tensor and waits for the step"
        " to write it; write it every few hundred steps (`if step % 100 == 0:`)"
    )
    HOOKED = (
        "`tf.summary.{kind}` of each tensor the loop on line {line} goes over is written in `{hook}` of the callback"
        " `{callback}`{of}, which Keras calls {runs}: each reads a whole tensor after every training step; write them"
        " every few hundred batches (`if batch % 100 == 0:`) or once per epoch"
    )
    MERGED = (
        "`{run}` evaluates the merged summaries `{name}` ({held} among them) with {every}{times}:"
        " fetch and write them"
        " every few hundred steps (`if step % 100 == 0:`) and only the loss and update otherwise"
    )
    MERGED_APART = (
        "`{run}` evaluates the merged summaries `{name}` ({held} among them) in a second run of the graph after"
        " {every}{times}, computing again the forward pass they read: fetch them with the step, every few"
        " hundred steps"
    )
    TRACED_RUN = (
        "`Session.run` traces every op of the training step (`RunOptions(trace_level={level})`) on every"
        " step{times}: the trace's per-op timings are collected and copied out each time; trace one step in a few"
        " hundred (`if step % 100 == 0:`)"
    )
    RENDERED = (
        "keras-rl's `fit(visualize=True)` renders the environment in a window after {when}"
        " (its `Visualizer` callback calls `env.render(mode='human')` on each action): train with"
        " `visualize=False` and render the test episodes only"
    )
    FIX_TITLE = "Write the summary every N steps (a keras-rl agent: `fit(visualize=False)`)"
    VALID = (
        Valid(
            "import tensorflow as tf\n" + WRITER + "for step in range(1000):\n    train_step()\n"
            "    if step % 100 == 0:\n        tf.summary.histogram('w', w, step=step)\n"
        ),
        Valid(  # no writer made in the file: with no default writer the summary writes nothing
            "import tensorflow as tf\nfor step in range(1000):\n    train_step()\n"
            "    tf.summary.histogram('w', w, step=step)\n"
        ),
        Valid(  # scalars cost next to nothing
            "import tensorflow as tf\n" + WRITER + "for step in range(1000):\n    loss = train_step()\n"
            "    tf.summary.scalar('loss', loss, step=step)\n"
        ),
        Valid(  # record_if thins the summaries out
            "import tensorflow as tf\n" + WRITER + "with tf.summary.record_if(lambda: step % 100 == 0):\n"
            "    for step in range(1000):\n        tf.summary.histogram('w', w, step=step)\n"
        ),
        Valid("import tensorflow as tf\n" + WRITER + "tf.summary.image('batch', images, step=0)\n"),
        Valid(  # one histogram per variable, in a loop over the variables
            "import tensorflow as tf\n" + WRITER + "def log(layer, step):\n    for var in layer.variables:\n"
            "        tf.summary.histogram(var.name, var, step=step)\n"
        ),
        Valid(  # a histogram of each variable every 100 training steps, through a function of the file
            TRACED + LOG_WEIGHTS + "for step, (x, y) in enumerate(ds):\n    train_step(x, y)\n"
            "    if step % 100 == 0:\n        log_weights(step)\n"
        ),
        Valid(  # a histogram of each variable once per epoch, after the loop of steps
            TRACED + "for epoch in range(10):\n    for x, y in ds:\n        train_step(x, y)\n"
            "    for v in model.trainable_variables:\n        tf.summary.histogram(v.name, v, step=epoch)\n"
        ),
        Valid(  # an image of the last batch once per epoch, through a function the epoch loop calls after its steps
            TRACED + "def log_images(x, step):\n    tf.summary.image('x', x, step=step)\n"
            "for epoch in range(10):\n    for x, y in ds:\n        train_step(x, y)\n    log_images(x, epoch)\n"
        ),
        Valid(  # the same written in the epoch loop itself
            TRACED + "for epoch in range(10):\n    for x, y in ds:\n        train_step(x, y)\n"
            "    tf.summary.image('x', x, step=epoch)\n"
        ),
        Valid(  # the same through a function the epoch loop calls
            TRACED + LOG_WEIGHTS + "for epoch in range(10):\n    for x, y in ds:\n        train_step(x, y)\n"
            "    log_weights(epoch)\n"
        ),
        Valid(  # a helper a loop calls writes the histogram only for some data (its callers pass scalars)
            "import tensorflow as tf\n"
            + WRITER
            + "def summary(data, step, types=('mean',)):\n    if data.shape == ():\n"
            "        tf.summary.scalar('x', data, step=step)\n    elif 'histogram' in types:\n"
            "        tf.summary.histogram('x', data, step=step)\nfor step in range(1000):\n"
            "    summary(train_step(), step)\n"
        ),
        Valid(  # TF1: the merged summaries fetched every 100 steps only, the step alone otherwise
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "merged = tf.compat.v1.summary.merge_all()\nsess = tf.compat.v1.Session()\n"
            "writer = tf.compat.v1.summary.FileWriter('logs')\nfor step in range(10000):\n"
            "    if step % 100 == 0:\n        s, _ = sess.run([merged, train_op])\n        writer.add_summary(s, step)\n"
            "    else:\n        sess.run(train_op)\n"
        ),
        Valid(  # TF1: the same with dicts of fetches: the summaries every 100 steps, the grouped update alone otherwise
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\n"
            "train_op = tf.group(opt.minimize(loss), update_ops)\ntf.compat.v1.summary.histogram('w', w)\n"
            "merged = tf.compat.v1.summary.merge_all()\nsess = tf.compat.v1.Session()\nfor step in range(10000):\n"
            "    if step % 100 == 0:\n        out = sess.run({'train': train_op, 'summary': merged})\n"
            "    else:\n        sess.run({'train': train_op})\n"
        ),
        Valid(  # TF1: a dict of fetches that gets the summaries only every 100 steps (`fetches["summary"] = ...`)
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "tf.compat.v1.summary.histogram('w', w)\nmerged = tf.compat.v1.summary.merge_all()\n"
            "sess = tf.compat.v1.Session()\nfor step in range(10000):\n    fetches = {'train': train_op}\n"
            "    if step % 100 == 0:\n        fetches['summary'] = merged\n    results = sess.run(fetches)\n"
        ),
        Valid(  # TF1: summaries in a run of their own, every 10 steps (TensorFlow's mnist_with_summaries)
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "merged = tf.compat.v1.summary.merge_all()\nsess = tf.compat.v1.Session()\nfor i in range(1000):\n"
            "    if i % 10 == 0:\n        summary, acc = sess.run([merged, accuracy], feed_dict=test_feed)\n"
            "        writer.add_summary(summary, i)\n    else:\n        sess.run(train_op, feed_dict=next_feed())\n"
        ),
        Valid(  # TF1: `eval()` of the merged summaries every 100 steps only
            "import tensorflow as tf\ntrain_op = tf.compat.v1.train.AdamOptimizer().minimize(loss)\n"
            "tf.compat.v1.summary.histogram('w', w)\nmerged = tf.compat.v1.summary.merge_all()\n"
            "sess = tf.compat.v1.InteractiveSession()\nfor i in range(10000):\n    train_op.run(feed_dict={x: xs})\n"
            "    if i % 100 == 0:\n        writer.add_summary(merged.eval(feed_dict={x: xs}), i)\n"
        ),
        Valid(  # TF1: a run that fetches the summaries but no update is an evaluation, not a training step
            "import tensorflow as tf\nmerged = tf.compat.v1.summary.merge_all()\nsess = tf.compat.v1.Session()\n"
            "for batch in test_batches:\n    s, acc = sess.run([merged, accuracy], feed_dict={x: batch})\n"
        ),
        Valid(  # TF1: the function running the step with the histograms is called every 100 steps only
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "hs = [tf.compat.v1.summary.histogram('w', w)]\nslow = tf.compat.v1.summary.merge(hs)\n"
            "sess = tf.compat.v1.Session()\n\n\ndef logged_step():\n    return sess.run([train_op, slow])\n\n\n"
            "for i in range(10000):\n    if i % 100 == 0:\n        logged_step()\n    else:\n        sess.run(train_op)\n"
        ),
        Valid(  # TF1: merges of merged scalars only, fetched with every step from the step's function
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "inner = tf.compat.v1.summary.merge([tf.compat.v1.summary.scalar('l', loss)])\n"
            "fast = tf.compat.v1.summary.merge([inner])\nsess = tf.compat.v1.Session()\n\n\n"
            "def step():\n    return sess.run([train_op, fast])\n\n\nfor i in range(10000):\n    step()\n"
        ),
        Valid(  # TF1: a merge of scalars only, fetched with every step: a few bytes beside the step
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "tf.compat.v1.summary.scalar('loss', loss)\nmerged = tf.compat.v1.summary.merge_all()\n"
            "sess = tf.compat.v1.Session()\nfor step in range(10000):\n    s, _ = sess.run([merged, train_op])\n"
        ),
        Valid(  # TF1: merge_all of summaries built in a module the file cannot read (here: none on disk)
            "import tensorflow as tf\nfrom model import build\nloss = build()\nopt = tf.compat.v1.train.AdamOptimizer()\n"
            "train_op = opt.minimize(loss)\nsummaries = tf.compat.v1.summary.merge_all()\nsess = tf.compat.v1.Session()\n"
            "for step in range(10000):\n    s, _ = sess.run([summaries, train_op])\n"
        ),
        Valid(  # TF1: the histograms only behind a flag (off by default): the merge is scalars otherwise
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "if args.histograms:\n    tf.compat.v1.summary.histogram('w', w)\ntf.compat.v1.summary.scalar('loss', loss)\n"
            "merged = tf.compat.v1.summary.merge_all()\nsess = tf.compat.v1.Session()\n"
            "for step in range(10000):\n    s, _ = sess.run([merged, train_op])\n"
        ),
        Valid(GRADS.format(hist=False, test="args.hist")),  # TF1: the histograms behind an option off by default
        Valid(  # every 2 epochs, after the loop of steps
            TRACED + "for epoch in range(100):\n    for x, y in ds:\n        train_step(x, y)\n    if epoch % 2 == 0:\n"
            "        tf.summary.histogram('kernel', model.layers[0].kernel, step=epoch)\n"
        ),
        Valid(  # TF1: fetched every 10 steps and more seldom: `if step % 100 == 0:` is the cure the rule advises
            GRADS.format(hist=True, test="args.hist").replace(
                "    summary, _ = sess.run([merged, train_op])\n    writer.add_summary(summary, i)\n",
                "    if i % 10 == 0:\n        summary, _ = sess.run([merged, train_op])\n        writer.add_summary(summary, i)\n"
                "    else:\n        sess.run(train_op)\n",
            )
        ),
        Valid(  # TF1: every few steps of a loop that trains nothing (an evaluation's summaries)
            GRADS.format(hist=True, test="args.hist").replace(
                "    summary, _ = sess.run([merged, train_op])\n",
                "    if i % 2 == 0:\n        summary = sess.run(merged)\n",
            ).replace("    writer.add_summary(summary, i)\n", "        writer.add_summary(summary, i)\n")
        ),
        Valid(  # TF1: behind an attribute on by default in `__init__`, but the program makes the model with it off
            "import tensorflow as tf\n\n\nclass Model:\n    def __init__(self, histograms=True):\n"
            "        self.histograms = histograms\n\n    def build(self, w, loss):\n        if self.histograms:\n"
            "            tf.compat.v1.summary.histogram('w', w)\n"
            "        return tf.compat.v1.train.AdamOptimizer().minimize(loss)\n\n\n"
            "train_op = Model(histograms=False).build(w, loss)\nmerged = tf.compat.v1.summary.merge_all()\n"
            "sess = tf.compat.v1.Session()\nfor step in range(10000):\n    s, _ = sess.run([merged, train_op])\n"
        ),
        Valid(  # TF1: a test of the loop's item that also reads another name decides whether any is built
            GRADS.format(hist=False, test="grad is not None and args.hist")
        ),
        Valid(  # a histogram of 1 in 10 of the images a loop goes over: a period, not a pick among them
            TRACED + "for step, (x, y) in enumerate(ds):\n    train_step(x, y)\n    for i, img in enumerate(x):\n"
            "        if i % 10 == 0:\n            tf.summary.image('x', img, step=step)\n"
        ),
        Valid(  # TensorFlow 0.x's names: a merge of scalar summaries only
            "import tensorflow as tf\ntrain_op = tf.train.AdamOptimizer().minimize(loss)\n"
            "tf.scalar_summary('loss', loss)\nmerged = tf.merge_summary([tf.scalar_summary('acc', acc)])\n"
            "sess = tf.Session()\nfor i in range(1000):\n    s, _ = sess.run([merged, train_op])\n"
        ),
        Valid(  # TF1: merge() of scalars, beside a histogram merged apart and fetched every 100 steps
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "l = tf.compat.v1.summary.scalar('loss', loss)\nh = tf.compat.v1.summary.histogram('w', w)\n"
            "fast = tf.compat.v1.summary.merge([l])\nslow = tf.compat.v1.summary.merge([h])\n"
            "sess = tf.compat.v1.Session()\nfor step in range(10000):\n    s, _ = sess.run([fast, train_op])\n"
            "    if step % 100 == 0:\n        sess.run(slow)\n"
        ),
        Valid(  # TF1: summaries behind a flag the user turns on
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "merged = tf.compat.v1.summary.merge_all()\nsess = tf.compat.v1.Session()\nfor step in range(10000):\n"
            "    if args.summaries:\n        s, _ = sess.run([merged, train_op])\n    else:\n        sess.run(train_op)\n"
        ),
        Valid(  # TF1: only one data set's branch fetches the summaries; the other trains without them
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "tf.compat.v1.summary.histogram('w', w)\nmerged = tf.compat.v1.summary.merge_all()\n"
            "sess = tf.compat.v1.Session()\nfor step in range(10000):\n"
            "    if config.dataset == 'mnist':\n        s, _ = sess.run([merged, train_op])\n"
            "    else:\n        sess.run(train_op)\n"
        ),
        Valid(  # TF1: the step with the histograms every 5 steps, the period an option's default kept in `__init__`
            CRITIC.format(every=5)
        ),
        Valid(  # TF1: a list attribute of scalars extended into the merge, fetched on every step (period 1)
            CRITIC.format(every=1).replace("summary.histogram(var.name, var)", "summary.scalar(var.name, var[0])")
        ),
        Valid(TRACE.format(options="report_tensor_allocations_upon_oom=True")),  # TF1: options that trace nothing
        Valid(  # TF1: the options traced only on the steps an `if` picks, none otherwise
            TRACE.format(options="").replace(
                "for step in range(10000):\n",
                "for step in range(10000):\n    run_options = None\n    if step % args.trace_every == 0:\n"
                "        run_options = tf.compat.v1.RunOptions(trace_level=tf.compat.v1.RunOptions.FULL_TRACE)\n",
            )
        ),
        Valid(  # TF1: 20 steps traced: a profile being taken
            TRACE.format(options="trace_level=tf.compat.v1.RunOptions.FULL_TRACE").replace("10000", "20")
        ),
        Valid(  # TF1: the traced options made only when a flag asks for them
            TRACE.format(options="trace_level=tf.compat.v1.RunOptions.FULL_TRACE").replace(
                "run_options = tf", "if args.trace:\n    run_options = tf"
            )
        ),
        Valid(  # TF1: one step traced in 50, the others run plainly
            TRACE.format(options="trace_level=tf.compat.v1.RunOptions.FULL_TRACE").replace(
                "    _, l = sess.run(",
                "    if step % 50 != 0:\n        sess.run([train_op, loss])\n        continue\n    _, l = sess.run(",
            )
        ),
        Valid(  # keras-rl: rendering only when asked, and the trained agent's test episodes
            "import keras\nfrom rl.agents.dqn import DQNAgent\ndqn = DQNAgent(model=keras.Sequential(), nb_actions=2, memory=memory)\n"
            "if args.render:\n    dqn.fit(env, nb_steps=50000, visualize=True)\nelse:\n"
            "    dqn.fit(env, nb_steps=50000, visualize=False)\ndqn.test(env, nb_episodes=5, visualize=True)\n"
        ),
        Valid(  # an agent class of the program's own, named like keras-rl's (whose a function imports for itself)
            "import tensorflow as tf\nfrom agents import DQNAgent\ndef baseline():\n"
            "    from rl.agents.dqn import DQNAgent\n    return DQNAgent\n"
            "dqn = DQNAgent(model=tf.keras.Sequential())\ndqn.fit(env, nb_steps=50000, visualize=True)\n"
        ),
        Valid(  # another library's `fit(visualize=True)`: not a keras-rl agent
            "import tensorflow as tf\nfrom plots import Trainer\nt = Trainer(tf.keras.Sequential())\n"
            "t.fit(x, y, visualize=True)\n"
        ),
        Valid(  # the callback's histograms every 100 batches
            WEIGHTS_CALLBACK.format(
                hook="on_train_batch_end",
                gate="        if batch % 100 == 0:\n",
                pad="    ",
                kind="histogram",
                fit=FIT_HISTOGRAMS,
            )
        ),
        Valid(  # once per epoch
            WEIGHTS_CALLBACK.format(pad="", hook="on_epoch_end", gate="", kind="histogram", fit=FIT_HISTOGRAMS)
        ),
        Valid(  # scalars only
            WEIGHTS_CALLBACK.format(pad="", hook="on_train_batch_end", gate="", kind="scalar", fit=FIT_HISTOGRAMS)
        ),
        Valid(  # the callback is made but given to no fit
            WEIGHTS_CALLBACK.format(
                pad="",
                hook="on_train_batch_end",
                gate="",
                kind="histogram",
                fit="m.fit(x, y, batch_size=32, epochs=10)",
            )
        ),
        Valid(  # the update runs on 1 step in 100: the summaries are thinned out
            ESTIMATOR.format(bind="estimator = Estimator(tf.compat.v1.Session())\n",
                             call="            if t % 100 == 0:\n                estimator.update(s, y)\n")
        ),
        Valid(  # `update` called on a dict of the same method name, not on an estimator: the update never runs
            ESTIMATOR.format(bind="estimator = Estimator(tf.compat.v1.Session())\nstats = {}\n",
                             call="            stats.update(s=s)\n")
        ),
        Valid(  # the name bound to an estimator is rebound to something else: which class runs is not known
            ESTIMATOR.format(bind="estimator = Estimator(tf.compat.v1.Session())\nestimator = load(path)\n",
                             call="            estimator.update(s, y)\n")
        ),
    )
    INVALID = (
        Invalid(  # a histogram of each gradient, in a loop over them, on every pass of the training loop
            TRACED + "for step, (x, y) in enumerate(ds):\n    grads = train_step(x, y)\n"
            "    for g, v in zip(grads, model.trainable_variables):\n        tf.summary.histogram(v.name, g, step=step)\n",
            line=13,
            message_contains="`tf.summary.histogram` of each tensor the loop on line 12 goes over is written after every"
            " training step",
        ),
        Invalid(  # through a function of the file that the training loop calls on every pass
            TRACED + LOG_WEIGHTS + "for step, (x, y) in enumerate(ds):\n    train_step(x, y)\n    log_weights(step)\n",
            line=12,
            message_contains="the loop on line 11 goes over is written after every training step",
        ),
        Invalid(  # over the layers, then each layer's weights: still every step
            TRACED + "for step, (x, y) in enumerate(ds):\n    train_step(x, y)\n    for layer in model.layers:\n"
            "        for w in layer.weights:\n            tf.summary.histogram(w.name, w, step=step)\n",
            line=14,
        ),
        Invalid(  # keras-rl: a frame rendered after each of the 50,000 steps
            "from keras.models import Sequential\nfrom rl.agents.dqn import DQNAgent\nfrom rl.memory import SequentialMemory\n"
            "memory = SequentialMemory(limit=50000, window_length=1)\n"
            "dqn = DQNAgent(model=Sequential(), nb_actions=2, memory=memory)\n"
            "dqn.fit(env, nb_steps=50000, visualize=True, verbose=2)\n",
            line=6,
            message_contains="keras-rl's `fit(visualize=True)` renders the environment in a window after each of its"
            " 50000 training steps",
        ),
        Invalid(  # the agent class reached through its module (`agents.DQNAgent`, `import rl.agents as agents`)
            "from keras.models import Sequential\nimport rl.agents as agents\n"
            "dqn = agents.DQNAgent(model=Sequential(), nb_actions=2, memory=memory)\n"
            "dqn.fit(env, nb_steps=50000, visualize=True, verbose=2)\n",
            line=4,
            message_contains="keras-rl's `fit(visualize=True)` renders the environment",
        ),
        Invalid(  # the flag positional, the steps a parameter's default
            "import tensorflow as tf\nfrom rl.agents import DDPGAgent\n\n\ndef train(env, steps=20000):\n"
            "    agent = DDPGAgent(nb_actions=1, actor=tf.keras.Sequential(), critic=critic)\n"
            "    agent.fit(env, steps, 1, None, 1, True)\n",
            line=7,
            message_contains="each of its 20000 training steps (`steps`: the default of parameter `steps`)",
        ),
        Invalid(
            "import tensorflow as tf\n" + WRITER + "for step in range(1000):\n    train_step()\n"
            "    tf.summary.histogram('w', w, step=step)\n",
            line=5,
            message_contains="(1,000 times)",
        ),
        Invalid(  # in the step function a loop calls
            "import tensorflow as tf\n"
            + WRITER
            + "def train_step(x, step):\n    tf.summary.image('input', x, step=step)\n"
            "for step in range(500):\n    train_step(next(batches), step)\n",
            line=4,
        ),
        Invalid(  # TF1: the merged summaries fetched with the update on every step
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "tf.compat.v1.summary.histogram('w', w)\nmerged = tf.compat.v1.summary.merge_all()\nsess = tf.compat.v1.Session()\n"
            "writer = tf.compat.v1.summary.FileWriter('logs')\nfor step in range(10000):\n"
            "    s, _ = sess.run([merged, train_op])\n    writer.add_summary(s, step)\n",
            line=9,
            message_contains="merged summaries `merged` (`tf.compat.v1.summary.histogram` on line 4 among them) with every"
            " training step (10,000 times)",
        ),
        Invalid(  # TF1: the step's run in a function the batch loop calls; histograms merged into a list, merged again
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ngvs = opt.compute_gradients(loss)\n"
            "train_op = opt.apply_gradients(gvs)\nhs = []\nfor g, v in gvs:\n"
            "    h = tf.compat.v1.summary.histogram(v.name, g)\n    hs.append(h)\n"
            "grads = tf.compat.v1.summary.merge(hs)\nl = tf.compat.v1.summary.scalar('loss', loss)\n"
            "train_sum = tf.compat.v1.summary.merge([l, grads])\nsess = tf.compat.v1.Session()\n\n\n"
            "def train_step(xb):\n    _, s = sess.run([train_op, train_sum], {x: xb})\n    writer.add_summary(s)\n\n\n"
            "for xb in batches:\n    train_step(xb)\n",
            line=16,
            message_contains="merged summaries `train_sum` (`tf.compat.v1.summary.histogram` on line 7 among them)",
        ),
        Invalid(  # TF1: the `if` picks the gradients that exist among those the loop goes over
            GRADS.format(hist=False, test="grad is not None"),
            line=15,
            message_contains="merged summaries `merged` (`tf.compat.v1.summary.histogram` on line 11 among them)",
        ),
        Invalid(GRADS.format(hist=True, test="args.hist"), line=15),  # TF1: behind an option on by default
        Invalid(  # every 5 training steps: as good as every step for the histogram's cost
            TRACED + "for step, (x, y) in enumerate(ds):\n    train_step(x, y)\n    if step % 5 == 0:\n"
            "        tf.summary.histogram('kernel', model.layers[0].kernel, step=step)\n",
            line=13,
            message_contains="`tf.summary.histogram` is written on every 5 training steps: write it every few hundred",
        ),
        Invalid(  # TF1: fetched every 2 steps, the plain step in the `else`
            GRADS.format(hist=True, test="args.hist").replace(
                "    summary, _ = sess.run([merged, train_op])\n    writer.add_summary(summary, i)\n",
                "    if i % 2 == 0:\n        summary, _ = sess.run([merged, train_op])\n        writer.add_summary(summary, i)\n"
                "    else:\n        sess.run(train_op)\n",
            ),
            line=16,
            message_contains="with every 2 training steps: fetch and write them",
        ),
        Invalid(  # TF1: fetched every 5 steps, a flag's default: as good as every step for the histograms' cost
            GRADS.format(hist=True, test="args.hist").replace(
                "for i in range(1000):\n    summary, _", "for i in range(1000):\n    if i % args.every != 0:\n"
                "        sess.run(train_op)\n        continue\n    summary, _"
            ).replace("args = parser", "parser.add_argument('--every', type=int, default=5)\nargs = parser"),
            line=19,
            message_contains=(
                "with every 5 training steps (`args.every`: the default of `--every`): fetch and write them"
            ),
        ),
        Invalid(  # the histograms of the kernels only, among the weights the loop goes over, after every step
            TRACED + "for step, (x, y) in enumerate(ds):\n    train_step(x, y)\n    for v in model.weights:\n"
            "        if 'kernel' in v.name:\n            tf.summary.histogram(v.name, v, step=step)\n",
            line=14,
            message_contains="the loop on line 12 goes over is written after every training step",
        ),
        Invalid(  # TF1: a run of its own for the summaries after every step: the forward pass again
            "import tensorflow as tf\nopt = tf.compat.v1.train.GradientDescentOptimizer(0.1)\n"
            "train_op = opt.minimize(loss)\nfor v in tf.compat.v1.trainable_variables():\n"
            "    tf.compat.v1.summary.histogram(v.op.name, v)\nmerged = tf.compat.v1.summary.merge_all()\n"
            "with tf.compat.v1.Session() as sess:\n    for i in range(2000):\n"
            "        sess.run(train_op, feed_dict={x: xs[i], y: ys[i]})\n"
            "        summary = sess.run(merged, feed_dict={x: xs[i], y: ys[i]})\n        writer.add_summary(summary, i)\n",
            line=10,
            message_contains="`merged` (`tf.compat.v1.summary.histogram` on line 5 among them) in a second run of the"
            " graph after every training step (2,000 times)",
        ),
        Invalid(  # TF1: the merged summaries evaluated by `eval()` after each `train_op.run()`
            "import tensorflow as tf\ntrain_op = tf.compat.v1.train.AdamOptimizer().minimize(loss)\n"
            "tf.compat.v1.summary.histogram('w', w)\nmerged = tf.compat.v1.summary.merge_all()\n"
            "sess = tf.compat.v1.InteractiveSession()\nfor i in range(10000):\n    train_op.run(feed_dict={x: xs})\n"
            "    summary = merged.eval(feed_dict={x: xs})\n    writer.add_summary(summary, i)\n",
            line=8,
            message_contains="`Tensor.eval` evaluates the merged summaries `merged` (`tf.compat.v1.summary.histogram` on"
            " line 3 among them) in a second run of the graph after every training step (10,000 times)",
        ),
        Invalid(  # TF1: a dict of fetches, the update grouped with other ops, the summaries fetched on every step
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\n"
            "train_op = tf.group(opt.minimize(loss), update_ops)\ntf.compat.v1.summary.histogram('w', w)\n"
            "merged = tf.compat.v1.summary.merge_all()\nsess = tf.compat.v1.Session()\nfor step in range(10000):\n"
            "    out = sess.run({'train': train_op, 'summary': merged})\n",
            line=8,
            message_contains="merged summaries `merged` (`tf.compat.v1.summary.histogram` on line 4 among them) with every"
            " training step (10,000 times)",
        ),
        Invalid(  # TF1: the fetches a list bound once before the loop, never changed
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "tf.compat.v1.summary.histogram('w', w)\nmerged = tf.compat.v1.summary.merge_all()\n"
            "sess = tf.compat.v1.Session()\nfetches = [train_op, merged]\nfor step in range(10000):\n"
            "    _, s = sess.run(fetches)\n",
            line=9,
            message_contains="merged summaries `merged`",
        ),
        Invalid(  # TensorFlow 0.x's names: `tf.histogram_summary`, merged by `tf.merge_all_summaries()`
            "import tensorflow as tf\ntrain_op = tf.train.AdamOptimizer().minimize(loss)\n"
            "tf.histogram_summary('w', w)\ntf.scalar_summary('loss', loss)\nmerged = tf.merge_all_summaries()\n"
            "sess = tf.Session()\nwriter = tf.train.SummaryWriter('logs', sess.graph)\nfor i in range(1000):\n"
            "    s, _ = sess.run([merged, train_op])\n    writer.add_summary(s, i)\n",
            line=9,
            message_contains="merged summaries `merged` (`tf.histogram_summary` on line 3 among them)",
        ),
        Invalid(  # TF1: merged where it is fetched
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "tf.compat.v1.summary.image('input', images)\nsess = tf.compat.v1.Session()\nfor step in range(500):\n"
            "    s, _ = sess.run([tf.compat.v1.summary.merge_all(), train_op])\n",
            line=7,
            message_contains="merged summaries `merge_all()` (`tf.compat.v1.summary.image` on line 4 among them)",
        ),
        Invalid(  # TF1: merges kept in attributes, through TF 0.x's names or TF 1's; every data set's branch fetches one
            "import tensorflow as tf\ntry:\n    histogram_summary = tf.histogram_summary\n"
            "    merge_summary = tf.merge_summary\nexcept AttributeError:\n"
            "    histogram_summary = tf.summary.histogram\n    merge_summary = tf.summary.merge\n\n\n"
            "class GAN:\n    def build(self):\n        self.z_sum = histogram_summary('z', self.z)\n"
            "        self.d_sum = merge_summary([self.z_sum])\n"
            "        self.d_optim = tf.compat.v1.train.AdamOptimizer().minimize(self.d_loss)\n\n"
            "    def train(self, config):\n        for idx in range(1000):\n"
            "            if config.dataset == 'mnist':\n"
            "                _, s = self.sess.run([self.d_optim, self.d_sum], feed_dict={self.x: mnist[idx]})\n"
            "            else:\n"
            "                _, s = self.sess.run([self.d_optim, self.d_sum], feed_dict={self.x: load(idx)})\n",
            line=21,
            message_contains="merged summaries `self.d_sum` (`tf.summary.histogram` on line 12 among them)",
        ),
        Invalid(  # TF1: histograms appended to an attribute, that list extended into the merged one; the period is 1
            CRITIC.format(every=1),
            line=21,
            message_contains="`self.g_sum` (`tf.compat.v1.summary.histogram` on line 12 among them) with every training"
            " step (at most 1,000 times), since `idx % self.n_critic == 0` holds on every pass (`self.n_critic`: the default of"
            " `--n_critic`)",
        ),
        Invalid(  # TF1: every training step traced, op by op
            TRACE.format(options="trace_level=tf.compat.v1.RunOptions.FULL_TRACE"),
            line=7,
            message_contains="`Session.run` traces every op of the training step (`RunOptions(trace_level=FULL_TRACE)`)"
            " on every step (10,000 times)",
        ),
        Invalid(  # TF1: the update of an estimator instance fetches the histogram on every step of a generator's loop
            ESTIMATOR.format(bind="estimator = Estimator(tf.compat.v1.Session())\n",
                             call="            estimator.update(s, y)\n"),
            line=12,
            message_contains="merged summaries `self.summaries` (`tf.compat.v1.summary.histogram` on line 9 among them)",
        ),
        Invalid(  # the else of a periodic trace: every other step still fetches the summaries
            "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\ntrain_op = opt.minimize(loss)\n"
            "h = tf.compat.v1.summary.histogram('w', w)\nl = tf.compat.v1.summary.scalar('loss', loss)\n"
            "summaries = tf.compat.v1.summary.merge([h, l])\nsess = tf.compat.v1.Session()\n"
            "for step in range(100000):\n    if args.store_metadata and step % 50 == 0:\n"
            "        s, _ = sess.run([summaries, train_op], options=trace, run_metadata=meta)\n"
            "    else:\n        s, _ = sess.run([summaries, train_op])\n",
            line=12,
            message_contains="merged summaries `summaries` (`tf.compat.v1.summary.histogram` on line 4 among them)",
        ),
        Invalid(  # a callback's per-batch hook writes a histogram of each weight
            WEIGHTS_CALLBACK.format(pad="", hook="on_train_batch_end", gate="", kind="histogram", fit=FIT_HISTOGRAMS),
            line=13,
            message_contains="is written in `on_train_batch_end` of the callback `Histograms`, which Keras calls once"
            " per batch of the `fit` at line 20, 1000 batches",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        yield from self._merged_every_step(facts)
        yield from self._rendered_every_step(facts)
        yield from self._traced_every_step(facts)
        yield from self._hooked_in_project(facts)
        yield from self._logged_in_project(facts)
        sites = [s for s in facts.sites if s.api in HEAVY]
        if not sites or "record_if" in facts.text or "create_file_writer" not in facts.text:
            return  # thinned out, or no writer made here: with no default writer a summary writes nothing
        for site in sites:
            loop = site.loop_runs
            if loop is not None and loop <= 1:
                continue
            call = facts.node(site)
            around, guarded = innermost_loop(facts, site)
            guarded = guarded and not (call is not None and _filtered(facts, call, around, site.callsite.span.cell))
            few = _every_few_steps(facts, call, site.callsite.span.cell) if call is not None and guarded else None
            if few is not None:
                every, kind = f"every {few[0]} training steps{few[1]}", site.api.rsplit(".", 1)[-1]
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(kind=kind, every=every, times=""))
                continue
            if call is None or guarded or periodic(facts, call, site.callsite.span.cell):
                continue
            if around is None and _conditional(
                facts, call, site.callsite.span.cell
            ):  # a branch of the function a loop calls
                continue
            each = around is not None and _over_summarised(around, call)
            hook = _batch_hook(facts, around) if each and around is not None else None
            if hook is not None:
                runs, callback = hook.runs(), ast.unparse(hook.made.func)
                line = getattr(around, "lineno", 0)
                message = self.HOOKED.format(
                    kind=site.api.rsplit(".", 1)[-1], line=line, hook=hook.function.name, callback=callback, of="",
                    runs=runs,
                )
                yield self.diagnostic(site.callsite.span, facts.path, message)
                continue
            if around is not None and each and not _after_every_step(facts, call, around, site.callsite.span.cell):
                continue
            if not each and site.callsite.runs.loop_bound == "upper":  # a guard around a call of its function
                continue
            if not each and _once_per_epoch(facts, call, site.callsite.span.cell):
                continue
            kind = site.api.rsplit(".", 1)[-1]
            if each:
                message = self.EACH.format(kind=kind, line=getattr(around, "lineno", 0))
            else:
                message = self.MESSAGE.format(kind=kind, every="every pass", times=site.loop_times())
            yield self.diagnostic(site.callsite.span, facts.path, message)

    def _hooked_in_project(self, facts: FileFacts) -> Iterator[Diagnostic]:
        """The per-batch hook of a callback class of a project module, given to a fit of the file of at
        least `FEW_CALLS` batches where known, writing a heavy summary of each tensor a loop of the hook
        goes over on each of its calls (or every few), in a module that makes its writer and thins
        nothing out (`record_if`): as the file's own hooks are read (`_batch_hook`), reported where
        the file makes the callback, once per hook."""
        if "callbacks" not in facts.text:
            return
        for hook in fitted_hooks(facts, PER_BATCH):
            read = read_tree(hook.module) if hook.module is not None and not hook.few_batches() else None
            if read is None or "record_if" in read[0] or "create_file_writer" not in read[0]:
                continue
            resolve = resolver(read[1], hook.function)
            found = next(
                (
                    (loop, call, api)
                    for loop in scope_body(hook.function)
                    if isinstance(loop, (ast.For, ast.AsyncFor))
                    for call in own_body(loop)
                    if isinstance(call, ast.Call)
                    and (api := resolve(call.func)) in HEAVY
                    and every_call(hook.function, call)
                    and _over_summarised(loop, call)
                ),
                None,
            )
            if found is not None:
                loop, call, api = found
                message = self.HOOKED.format(
                    kind=api.rsplit(".", 1)[-1], line=loop.lineno, hook=hook.function.name,
                    callback=ast.unparse(hook.made.func), of=hook.of(facts), runs=hook.runs(),
                )
                yield self.diagnostic(hook.span(facts, call), facts.path, message)

    def _logged_in_project(self, facts: FileFacts) -> Iterator[Diagnostic]:
        """A function or method of a project module (`logger.log_weights(model, step)` of a
        `logger = Logger(...)` the file makes) that writes a heavy summary on each of its calls (or
        every few: `every_call`), called on every pass of a training loop of the file, or 1 in fewer
        than `FEW_CALLS` (`_every_few_steps`), where a writer is made (in the module or the file) and
        nothing thins the summaries out (`record_if`): reported at the call, the module named."""
        if "record_if" in facts.text:
            return
        for cell, call, path, function in project_calls(facts):
            loops = own_loops(facts, call, cell)
            if not loops or not trains(facts, loops[0], cell):
                continue
            each = every_pass(facts, call, cell)
            few = None if each else _every_few_steps(facts, call, cell)
            read = read_tree(path) if each or few is not None else None
            if read is None or "record_if" in read[0] or "create_file_writer" not in read[0] + facts.text:
                continue
            resolve = resolver(read[1], function)
            heavy = next(
                (
                    (node, api)
                    for node in scope_body(function)
                    if isinstance(node, ast.Call) and (api := resolve(node.func)) in HEAVY and every_call(function, node)
                ),
                None,
            )
            if heavy is None:
                continue
            where = f"{os.path.relpath(path, os.path.dirname(os.path.abspath(facts.path)))}:{heavy[0].lineno}"
            every = f"every {few[0]} training steps{few[1]}" if few is not None else "every training step"
            message = self.LOGGED.format(
                call=ast.unparse(call.func), kind=heavy[1].rsplit(".", 1)[-1], where=where.replace(os.sep, "/"),
                every=every,
            )
            yield self.diagnostic(facts.span(call, cell), facts.path, message)

    def _rendered_every_step(self, facts: FileFacts) -> Iterator[Diagnostic]:
        """keras-rl's `agent.fit(..., visualize=True)`: the environment rendered after every step."""
        if "Agent" not in facts.text:  # keras-rl agent classes: `DQNAgent`, `DDPGAgent`, ...
            return
        for cell, call in agent_fits(facts):
            given = fit_argument(call, "visualize")
            if given is None or known_value(facts, given, cell)[0] is not True or chosen_at(facts, call, cell):
                continue
            steps_given = fit_argument(call, "nb_steps")
            steps, source = known_value(facts, steps_given, cell) if steps_given is not None else (None, "")
            known = isinstance(steps, int) and not isinstance(steps, bool) and steps > 1
            when = f"each of its {steps} training steps{source}" if known else "every training step"
            yield self.diagnostic(facts.span(call, cell), facts.path, self.RENDERED.format(when=when))

    def _traced_every_step(self, facts: FileFacts) -> Iterator[Diagnostic]:
        """TF1: a training step's `Session.run` given `RunOptions` that trace it, on every pass of its loop."""
        if "_TRACE" not in facts.text:
            return
        for site in facts.sites:
            call = facts.node(site) if site.api in RUNS and _training(site) else None
            if call is None or (site.loop_runs is not None and site.loop_runs < PROFILED_STEPS):
                continue
            cell = site.callsite.span.cell
            level = _trace_level(facts, argument(call, "options", 2), call, cell)
            due = _every_step(facts, call, cell) if level is not None else None
            if level is not None and due is not None:
                message = self.TRACED_RUN.format(level=level, times=site.loop_times() + due)
                yield self.diagnostic(site.callsite.span, facts.path, message)

    def _merged_every_step(self, facts: FileFacts) -> Iterator[Diagnostic]:
        """TF1: the merged summaries fetched on every pass of a training loop, by the training
        step's own `Session.run` or by a run of their own beside it."""
        runs = [s for s in facts.sites if s.api in RUNS | RECEIVER_RUNS and (s.loop_runs is None or s.loop_runs > 1)]
        merges = [s for s in facts.sites if s.api in MERGES] if runs else []
        imported = project_merge_names(facts) if any(_training(s) for s in runs) else {}
        if not merges and not imported:
            return
        nodes = [
            (m, node, held)
            for m in merges
            if (node := facts.node(m)) is not None and (held := _holds_heavy(facts, m, node))
        ]
        names = {
            name: held for m, node, held in nodes if (name := _bound(facts, node, m.callsite.span.cell))
        } | imported
        inline = {id(node): held for _, node, held in nodes}
        steps = {id(node) for s in runs if _training(s) and (node := facts.node(s)) is not None}
        fetching: dict[int, tuple[Site, ast.Call, str, str]] = {}  # the runs that fetch a heavy merge, by node
        for site in runs:
            call = facts.node(site)
            fetches = _written(facts, _fetches(call, site), call, site.callsite.span.cell) if call is not None else None
            if call is None or fetches is None:
                continue
            fetched = [(name, names[name]) for name in sorted(_read(fetches) & names.keys())] or [
                ("merge_all()", inline[id(n)]) for n in ast.walk(fetches) if id(n) in inline
            ][:1]
            if fetched:
                fetching[id(call)] = (site, call, *fetched[0])
        for site, call, name, held in fetching.values():
            cell, times, every = site.callsite.span.cell, site.loop_times(), "every training step"
            due = _every_step(facts, call, cell)
            few = _every_few_steps(facts, call, cell) if due is None else None
            if due is None and few is None and not _every_configuration(facts, call, cell, fetching):
                continue
            times += due or ""
            if few is not None:
                every, times = f"every {few[0]} training steps{few[1]}", ""  # the period says how often
            if id(call) in steps:
                yield self.diagnostic(
                    site.callsite.span,
                    facts.path,
                    self.MERGED.format(run=_run_name(site), name=name, held=held, every=every, times=times),
                )
                continue
            loop = next(iter(own_loops(facts, call, cell)), None)
            if loop is not None and any(id(n) in steps for n in own_body(loop)):
                message = self.MERGED_APART.format(run=_run_name(site), name=name, held=held, every=every, times=times)
                yield self.diagnostic(site.callsite.span, facts.path, message)


def _every_step(facts: FileFacts, call: ast.Call, cell: int | None) -> str | None:
    """Whether the run is on every pass of a loop around it, or of a loop that calls its function with
    no `if` of its own around the run (`train_step(x, y)` in the loop over batches): "", or, where an
    `if` taking a remainder by a period that is 1 with the program's defaults is around it, the
    message's clause saying so (`always_due`); None where it is not."""
    points = call_points(facts, call, cell)
    if any(every_pass(facts, point, point_cell) for point_cell, point in points):
        return ""
    due = next((why for point_cell, point in points if (why := always_due(facts, point, point_cell))), None)
    return None if due is None else f", since {due}"


def _every_few_steps(facts: FileFacts, call: ast.Call, cell: int | None) -> tuple[int, str] | None:
    """(N, where N comes from) where the run is under an `if` of the loop around it (or around a call
    of its function) that runs it on 1 in N passes, N below `FEW_CALLS` with the program's defaults
    (`if step % 5 == 0:`; `loop_period`), and the loop trains on the other passes too
    (`steps_between`: a step gated with the summaries alone is every step of that model), as a
    per-batch hook gated so is reported; None otherwise."""
    for point_cell, point in call_points(facts, call, cell):
        found = loop_period(facts, point, point_cell)
        if found is not None and 1 < found[0] < FEW_CALLS and steps_between(facts, found[2], point, point_cell):
            return found[0], found[1]
    return None


def _trace_level(facts: FileFacts, given: ast.expr | None, call: ast.Call, cell: int | None) -> str | None:
    """The trace level (`FULL_TRACE`, `SOFTWARE_TRACE`, `HARDWARE_TRACE`) of the `RunOptions` a run
    is given: made there, or bound once, outside any `if`, to the name given (`_bound_once`); None
    for no trace or one not known (`options = None`, then a traced one on some steps)."""
    if isinstance(given, ast.Name):
        binding = _bound_once(facts, given, call, cell)
        given = binding.value if binding is not None and not _conditional(facts, binding, cell) else None
    site = facts.site_at(given, cell) if isinstance(given, ast.Call) else None
    if site is None or not site.api.endswith(".RunOptions") or not isinstance(given, ast.Call):
        return None
    level = argument(given, "trace_level", 0)
    name = level.attr if isinstance(level, ast.Attribute) else level.id if isinstance(level, ast.Name) else None
    return name if name in TRACE_LEVELS else None


def _every_configuration(facts: FileFacts, call: ast.Call, cell: int | None, fetching: Mapping[int, Any]) -> bool:
    """The run sits in a branch of `if`s that its loop never changes (`if config.dataset ==
    'mnist':`, no call in the test, no name the loop binds), each of whose other branches runs
    one of the *fetching* runs too: whichever branch the program takes, every pass fetches the
    summaries. A flag that turns them off (an `else` without them) keeps the run unreported."""
    loop = next(iter(own_loops(facts, call, cell)), None)
    if loop is None:
        return False
    varying = loop_varying(loop)
    child: ast.AST = call
    for parent in facts.ancestors(call, cell):
        if parent is loop:
            return True
        if isinstance(parent, (*SCOPES, ast.IfExp, ast.ExceptHandler)):
            return False
        if isinstance(parent, ast.If):
            other = parent.orelse if child in parent.body else parent.body
            fixed = not any(isinstance(n, ast.Call) for n in ast.walk(parent.test)) and not (
                flow.names(parent.test) & varying
            )
            if not (fixed and any(id(n) in fetching for statement in other for n in ast.walk(statement))):
                return False
        child = parent
    return False


def _holds_heavy(facts: FileFacts, merge: Site, call: ast.Call) -> str | None:
    """The histogram, image or audio summary a TF1 merge holds, and where (None where it holds
    none): `merge([...])` naming one (or calling it there), `merge_all()` in a file that builds
    one outside an `if` of its function, or whose project imports do."""
    heavy = [(s, node) for s in facts.sites if s.api in HEAVY_OPS and (node := facts.node(s)) is not None]
    if merge.api.endswith((".merge_all", ".merge_all_summaries")):
        unguarded = next((s for s, node in heavy if _built_every_run(facts, node, s.callsite.span.cell)), None)
        return _where(unguarded) if unguarded is not None else heavy_imported(facts.path, facts.text)
    given = argument(call, "inputs", 0)
    if given is None:
        return None
    inside = {id(n) for n in ast.walk(given)}
    holders = _holders(facts, heavy)
    return next(
        (_where(s) for s, node in heavy if id(node) in inside),
        next((_where(holders[name]) for name in sorted(_read(given)) if name in holders), None),
    )


def _holders(facts: FileFacts, heavy: list[tuple[Site, ast.Call]]) -> dict[str, Site]:
    """The names and attributes that hold a heavy summary, each with one it holds: the name the
    summary is bound to (`h = histogram(...)`), a list it is appended or written to (`hs.append(h)`,
    `hs = [h, s]`), and a merge of those (`m = merge(hs)`, itself merged again), to a fixed point."""
    held = {name: s for s, node in heavy if (name := _bound(facts, node, s.callsite.span.cell))}
    links: list[tuple[str, frozenset[str]]] = []  # (holder, the names it is made of)
    for cell in facts.cells:
        for node in facts.nodes(cell, ast.Assign, ast.Call):
            if isinstance(node, ast.Assign):
                target = _path(node.targets[0]) if len(node.targets) == 1 else None
                value = node.value
                merged = (
                    isinstance(value, ast.Call)
                    and (site := facts.site_at(value, cell)) is not None
                    and (site.api in MERGES)
                )
                if target is not None and (isinstance(value, (ast.List, ast.Tuple)) or merged):
                    links.append((target, _read(value)))
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("append", "extend")
                and len(node.args) == 1
            ):
                holder = _path(node.func.value)
                if holder is not None:
                    links.append((holder, _read(node.args[0])))
    grown = True
    while grown:
        grown = False
        for holder, parts in links:
            source = next((held[n] for n in sorted(parts) if n in held), None)
            if holder not in held and source is not None:
                held[holder], grown = source, True
    return held


def _where(site: Site) -> str:
    """`tf.compat.v1.summary.histogram` on line 4 (of cell 2, in a notebook)."""
    cell = site.callsite.span.cell
    return f"`{site.api.replace('tensorflow.', 'tf.', 1)}` on line {site.callsite.span.line}" + (
        f" of cell {cell}" if cell else ""
    )


def _bound(facts: FileFacts, call: ast.Call, cell: int | None) -> str | None:
    """The name or attribute a summary op is kept in: assigned (`h = ...`, `self.z_sum = ...`,
    `hs = [... for v in vs]`) or appended (`hs.append(...)`)."""
    for parent in facts.ancestors(call, cell):
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and _path(parent.targets[0]) is not None:
            return _path(parent.targets[0])
        if (
            isinstance(parent, ast.Call)
            and isinstance(parent.func, ast.Attribute)
            and parent.func.attr == "append"
            and _path(parent.func.value) is not None
        ):
            return _path(parent.func.value)
        if isinstance(parent, (ast.stmt, *SCOPES)):
            return None
    return None


def _path(expr: ast.expr) -> str | None:
    """`merged`, `self.d_sum`: the dotted name an expression is; None for another expression."""
    if isinstance(expr, ast.Attribute):
        owner = _path(expr.value)
        return None if owner is None else f"{owner}.{expr.attr}"
    return expr.id if isinstance(expr, ast.Name) else None


def _read(expr: ast.expr) -> frozenset[str]:
    """The names and dotted attributes an expression reads (`[d_optim, self.d_sum]`)."""
    return flow.names(expr) | {path for n in ast.walk(expr) if isinstance(n, ast.Attribute) and (path := _path(n))}


def _training(site: Site) -> bool:
    """A session run that fetches an optimizer's update: one training step of the graph."""
    return site.work_value("step") == "training"


def _fetches(call: ast.Call, site: Site) -> ast.expr | None:
    """What a run fetches: its first argument, or the receiver of `tensor.eval()` and `op.run()`."""
    if site.api in RECEIVER_RUNS:
        return call.func.value if isinstance(call.func, ast.Attribute) else None
    return argument(call, "fetches", 0)


def _run_name(site: Site) -> str:
    """`Session.run`, `Tensor.eval`: the run's class and method, for a message."""
    return ".".join(site.api.split(".")[-2:])


def _written(facts: FileFacts, fetches: ast.expr | None, call: ast.Call, cell: int | None) -> ast.expr | None:
    """The fetches as written: a name bound once (`_bound_once`) to a list, tuple or dict display
    (`fetches = [train_op, merged]`) is read as that display; any other expression as itself."""
    binding = _bound_once(facts, fetches, call, cell)
    display = binding.value if binding is not None else None
    return display if isinstance(display, (ast.List, ast.Tuple, ast.Dict)) else fetches


def _bound_once(facts: FileFacts, given: ast.expr | None, call: ast.Call, cell: int | None) -> ast.Assign | None:
    """The one plain assignment to the name *given* in the call's function (or module), where
    nothing else binds it and nothing changes it in place (no item set, no method called on it);
    None for any other expression."""
    scope = scope_of(facts, call, cell)
    if not isinstance(given, ast.Name) or scope is None:
        return None
    name = given.id
    stored = [
        n for n in scope_body(scope) if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
    ]
    changed = any(
        isinstance(n, (ast.Subscript, ast.Attribute))
        and isinstance(n.value, ast.Name)
        and n.value.id == name
        and (not isinstance(n.ctx, ast.Load) or isinstance(n, ast.Attribute))
        for n in scope_body(scope)
    )
    binding = facts.parent(stored[0], cell) if len(stored) == 1 and not changed else None
    return binding if isinstance(binding, ast.Assign) and binding.targets == [stored[0]] else None


def _conditional(facts: FileFacts, call: ast.AST, cell: int | None) -> bool:
    """An `if` (or exception handler) in the call's own function decides whether it runs."""
    for parent in facts.ancestors(call, cell):
        if isinstance(parent, SCOPES):
            return False
        if isinstance(parent, (ast.If, ast.IfExp, ast.ExceptHandler)):
            return True
    return False


def _built_every_run(facts: FileFacts, call: ast.Call, cell: int | None) -> bool:
    """The summary op is built whenever its function (or module) runs: no `if` of its function
    decides it but one that filters the items of a `for` loop around it by those items alone
    (`for grad, var in grads:` then `if grad is not None:`: each gradient there gets its
    summary), or one whose test is true with the program's defaults (`if args.histograms:`,
    `--histograms` on by default); no conditional expression or exception handler either."""
    child: ast.AST = call
    for parent in facts.ancestors(call, cell):
        if isinstance(parent, SCOPES):
            return True
        if (
            isinstance(parent, ast.If)
            and child in parent.body
            and (_item_filter(facts, parent, call, cell) or _switched_on(facts, parent.test, cell))
        ):
            child = parent
            continue
        if isinstance(parent, (ast.If, ast.IfExp, ast.ExceptHandler)):
            return False
        child = parent
    return True


def _switched_on(facts: FileFacts, test: ast.expr, cell: int | None) -> bool:
    """The test is a name or an option (`args.histograms`, not an attribute of `self`, whose
    constructor's callers may pass another value) true with the program's defaults."""
    option = isinstance(test, ast.Attribute) and not (isinstance(test.value, ast.Name) and test.value.id == "self")
    return (isinstance(test, ast.Name) or option) and known_value(facts, test, cell)[0] is True


def _filtered(facts: FileFacts, call: ast.Call, loop: ast.AST | None, cell: int | None) -> bool:
    """The only `if`s between the call and the loop around it pick among that loop's items
    (`_item_filter`: `for v in model.weights:` then `if 'kernel' in v.name:`)."""
    child: ast.AST = call
    for parent in facts.ancestors(call, cell):
        if parent is loop:
            return loop is not None
        if isinstance(parent, (ast.IfExp, ast.Try, ast.ExceptHandler, *SCOPES)):
            return False
        if isinstance(parent, ast.If) and (child not in parent.body or not _item_filter(facts, parent, call, cell)):
            return False
        child = parent
    return False


def _item_filter(facts: FileFacts, branch: ast.If, call: ast.Call, cell: int | None) -> bool:
    """The `if` picks among the tensors a `for` loop around it goes over: its test reads only
    that loop's variables, which the summarised data is made of, and takes no remainder or other
    arithmetic (`for grad, var in grads:` then `if grad is not None:`, `if 'kernel' in var.name:`),
    not whether any summary is built."""
    read = flow.names(branch.test)
    data = next((a for key in ("data", "values", "tensor") if (a := argument(call, key, 1)) is not None), None)
    if not read or data is None or any(isinstance(n, ast.BinOp) for n in ast.walk(branch.test)):
        return False
    for parent in facts.ancestors(branch, cell):
        if isinstance(parent, SCOPES):
            return False
        if isinstance(parent, (ast.For, ast.AsyncFor)) and read <= (items := flow.names(parent.target)):
            return bool(items & flow.names(data))
    return False


def _after_every_step(facts: FileFacts, call: ast.Call, loop: ast.AST, cell: int | None) -> bool:
    """The loop over the summarised tensors (*loop*, around *call*) runs after every training step:
    on every pass of a loop around it in its function whose own body trains (`trains`), through
    loops around it that train nothing (over layers, then their weights), or, where no loop of its
    function trains, because a training loop calls its function on every pass (`call_points`)."""
    node = loop
    while outer := own_loops(facts, node, cell):
        if not every_pass(facts, node, cell):
            return False
        if trains(facts, outer[0], cell):
            return True
        node = outer[0]
    return any(
        point is not call
        and every_pass(facts, point, point_cell)
        and trains(facts, own_loops(facts, point, point_cell)[0], point_cell)
        for point_cell, point in call_points(facts, call, cell)
    )


def _batch_hook(facts: FileFacts, loop: ast.AST) -> FittedHook | None:
    """The per-batch hook of a callback given to a fit of the file (hooks.py) that runs *loop* on each
    of its calls (or every few), None where there is none."""
    hooks = fitted_hooks(facts, PER_BATCH)
    return next((hook for hook in hooks if not hook.few_batches() and every_call(hook.function, loop)), None)


def _once_per_epoch(facts: FileFacts, call: ast.Call, cell: int | None) -> bool:
    """Each loop that runs the summary (around it, or calling its function) trains nothing in its
    own body but runs a nested loop that does: the summary is written once per epoch, after its
    steps (`log_images(x, epoch)` after the loop over the epoch's batches), not with each step."""
    loops = [
        (loops[0], point_cell)
        for point_cell, point in call_points(facts, call, cell)
        if (loops := own_loops(facts, point, point_cell))
    ]
    return bool(loops) and all(
        not trains(facts, loop, loop_cell)
        and any(isinstance(n, LOOPS) and trains(facts, n, loop_cell) for n in own_body(loop))
        for loop, loop_cell in loops
    )


def _over_summarised(loop: ast.AST, call: ast.Call) -> bool:
    """The loop goes over the tensors it summarises (its variable reaches the data) and runs no
    training step: one summary per tensor, not one per step."""
    if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
        return False
    data = argument(call, "data", 1)
    if data is None or not flow.names(data) & loop_varying(loop):
        return False
    return not any(
        isinstance(n, ast.Call)
        and (last_name(n.func) in STEP_METHODS or "step" in last_name(n.func) or "train" in last_name(n.func))
        for n in own_body(loop)
    )
