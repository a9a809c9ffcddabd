"""GL330 endless-model-loop: a loop with no way out that runs the model or a graph on every pass."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from greenlint.rules.base import FileFacts, Invalid, Option, Rule, Valid, unit_text
from greenlint.rules.dead_tests import dead_ways
from greenlint.rules.defaults import folded, known_value, literal, reaching_value
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import Site, is_keras_model_method
from greenlint.rules.syntax import (
    SCOPES,
    enclosing,
    exits,
    is_training_step,
    last_name,
    leaves,
    range_header,
    scope_body,
    unguarded_body,
    waits_for_user,
)
from greenlint.rules.tf_target import TargetVersion, numpy_target
from greenlint.rules.user_paced import calls_waiting_for_user

#: Keras model methods that run the model (beside the training ones).
MODEL_RUNS = ("__call__", "predict", "predict_on_batch", "evaluate", "test_on_batch")
#: A step loop counted in `{start}` up to `{bound}` (`{extra}`: more lines in the loop).
WRAPPING = (
    "import numpy as np\nimport tensorflow as tf\nclass Agent:\n    def fit(self, env, nb_steps):\n        self.step = {start}\n"
    "        while self.step < {bound}:\n            done = self.act(env)\n{extra}            self.step += 1\n"
)
#: A fine-tuning loop whose way out waits on a step budget, `steps={steps}` by default, stopped by hand.
BUDGETED = (
    "import tensorflow as tf\nsess = tf.compat.v1.Session()\ndef finetune(steps={steps}):\n{rebind}"
    "    try:\n        while True:\n            if steps > 0 and counter == steps:\n                return\n"
    "            sess.run(train_op)\n            counter += 1\n    except {caught}:\n        pass\n"
)
#: A TF1 trainer whose step budget is 2**32 unless `--max_steps` or `--max_epochs` sets it (`{options}`: how they
#: are defined; `{queue}`: its input queue's arguments), its loop leaving on the supervisor's stop request.
SUPERVISED = (
    "import argparse\nimport tensorflow as tf\np = argparse.ArgumentParser()\n{options}a = p.parse_args()\n"
    "def main():\n    files = tf.train.string_input_producer({queue})\n    sv = tf.train.Supervisor(logdir='out')\n"
    "    with sv.managed_session() as sess:\n        max_steps = 2**32\n        if a.max_epochs is not None:\n"
    "            max_steps = 1000 * a.max_epochs\n        if a.max_steps is not None:\n            max_steps = a.max_steps\n"
    "        for step in range(max_steps):\n            sess.run(train_op)\n            if sv.should_stop():\n"
    "                break\n"
)
#: A TF-slim trainer fed by a dataset provider (`{provider}`: its arguments after the dataset), its steps
#: `{steps}`: slim's `learning.train` runs until the process is stopped where they are None.
SLIM = (
    "import tensorflow as tf\nslim = tf.contrib.slim\ntf.app.flags.DEFINE_integer('max_number_of_steps', {steps}, 'steps')\n"
    "FLAGS = tf.app.flags.FLAGS\ndef main(_):\n    dataset = get_split('train')\n"
    "    provider = slim.dataset_data_provider.DatasetDataProvider(dataset{provider})\n"
    "    image, label = provider.get(['image', 'label'])\n"
    "    images, labels = tf.train.batch([image, label], batch_size=32)\n"
    "    logits = slim.fully_connected(slim.flatten(images), 10)\n"
    "    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)\n"
    "    train_op = slim.learning.create_train_op(loss, tf.train.AdamOptimizer())\n"
    "    slim.learning.train(train_op, '/tmp/log', number_of_steps=FLAGS.max_number_of_steps)\n"
)
#: Two options with no default: argparse gives each None unless the command line names it.
UNSET = "p.add_argument('--max_steps', type=int)\np.add_argument('--max_epochs', type=int)\n"
#: The narrow counter's premise stated: the code runs on NumPy 2.
NUMPY_2 = {"numpy-version": "2.0"}
#: NumPy's narrow integer types and the largest value each holds: one more wraps around.
NARROW_INTEGERS = {"int8": 2**7 - 1, "uint8": 2**8 - 1, "int16": 2**15 - 1, "uint16": 2**16 - 1}
#: The comparisons of a loop's test that a counter stays below its bound with.
BELOW = (ast.Lt, ast.LtE, ast.NotEq)
#: A pass count no run reaches: at a millisecond a pass, 2**31 passes take 25 days. Programs write such a
#: bound (`max_steps = 2**32`) to mean none.
UNREACHED = 2**31
#: Text a unit writes such a bound with (`2**32`, `1 << 40`): a cheap test first.
_HUGE = re.compile(r"\*\*\s*\d{2}|<<\s*\d{2}")
#: A stop request of TF1's thread coordination: true once a thread asks for it (an input queue that
#: ran out, a thread that failed).
STOP_REQUESTS = ("Supervisor.should_stop", "Coordinator.should_stop")
#: TF-slim's readers of a dataset's files, by where each takes `num_epochs` by position (its default,
#: None, cycles without end).
INPUT_READERS = {"DatasetDataProvider": 4, "parallel_read": 2}
#: The `tf.data` API: a pipeline that ends when its data does (unless repeated).
TF_DATA = "tensorflow.data."
#: Calls that block until something outside the program arrives (a message on a socket, a
#: timer): a loop that makes one on every pass works on demand, not for ever.
BLOCKING = frozenset({"sleep", "accept", "select"})


class EndlessModelLoop(Rule):
    """
    ## What it does
    Flags a loop that can never end, `while True:` (or `while 1:`) or a `for` over
    `itertools.count()`, whose body runs a training step or the model on every pass (a call
    the analysis counts as a step of a model or of a TF1 graph: `Session.run`, a `tf.function`,
    a Keras model called; or `fit`, `train_on_batch`, `apply_gradients`, `minimize`), when
    nothing in the loop leaves it: no `break` of its own, no `return`, no `raise`, no
    `yield` (a generator's consumer stops it), no `sys.exit()`/`exit()`/`os._exit()`; or
    whose every way out sits under an `if` that the program's defaults make false
    (`if steps > 0 and counter == steps: return` with `steps=-1`, `if max_steps and step >=
    max_steps: break` with `max_steps=0`: a parameter's default, or an option's, as every call in
    the file passes it (`rules/defaults.py`), the name never rebound but by `int()`/`float()` of
    itself; an argparse option defined with no default is None, `if a.max_steps is not None and
    step >= a.max_steps: break` false), or under a TF1 stop request (`if sv.should_stop(): break`, a `Supervisor`'s or a
    `Coordinator`'s) that only a failed thread can make true: the file feeds TF1 input queues
    (`string_input_producer()`, ...) and gives none a `num_epochs` (nor uses `limit_epochs()`), so
    none runs out, and never asks for a stop (`request_stop()`, a supervisor's `stop()`):
    run with its defaults, that loop never ends. A `for` over `range(n)` (or `range(start, n)`,
    maybe through a progress bar) is such a loop where `n` with the program's defaults is 2**31
    or more (at a millisecond a pass, 25 days), written as a power or a shift (`2**32`, `1 << 40`):
    in the range itself, as a default (`rules/defaults.py`), or bound to a name its function (or
    module) binds several times, read as the defaults reach the loop (`max_steps = 2**32`, then
    `if a.max_epochs is not None:` and `if a.max_steps is not None:` rebinding it, both options
    defined with no default: argparse gives them None); the finding is then at that binding, the
    line to change. A bound read from another module is not followed. Not reported: a loop inside a `try` with an exception handler in its function (an
    `OutOfRangeError` or `StopIteration` at the end of the data is how a TF1 input loop
    ends; a handler of `KeyboardInterrupt` alone is the person stopping it by hand, not a
    way out), a loop that waits for a person on each pass (`input()`, `cv2.waitKey(0)`,
    `plt.show()`: the person stops it), itself or in a function of the file or of a project module
    it calls on every pass (`detect(image, show=True)` whose `if show:` waits for a key), a loop in a function the file starts as a thread or
    a process (`Thread(target=worker)`: the main program ends it), and a loop that waits on
    the outside world on every pass (not under an `if`): it sleeps, `await`s, receives a
    message (`sock.recv()`, `accept()`, `recv_json()`), takes a job from a queue
    (`job_queue.get()`, `jobs.get(timeout=1)`) or waits for an event or a new checkpoint
    (`event.wait()`, `wait_for_new_checkpoint(...)`). Such a loop is a server, a worker or a
    continuous evaluator: it computes when work arrives, and running for ever is its design.

    Also flagged: TF-slim's `learning.train(train_op, logdir)` (`tf.contrib.slim`, `tf_slim`) with
    `number_of_steps` None, stated, left at slim's default or an option's default (`--max_number_of_steps`
    defined with None), where the file's input never runs out: it feeds TF1 input queues or slim's
    `DatasetDataProvider`/`parallel_read` and gives none a `num_epochs` (nor uses `limit_epochs()`), builds
    no `tf.data` pipeline and never asks for a stop. Slim's loop then runs training steps until the
    process is killed.

    Also flagged, whatever the loop runs: a `while` loop whose only way out is its counter
    reaching a bound (`while self.step < nb_steps:`, no `break`, `return`, `raise` or exit of its
    own) where the counter is a NumPy integer too narrow to hold it: assigned `np.int16(0)` (or
    `int8`, `uint8`, `uint16`) in the loop's function and only ever increased there by `+=`,
    against a bound that is not a literal within the type's range. NumPy's fixed-width integers
    wrap around (`np.int16(32767) + 1` is -32768), so with a bound past the largest value the
    counter never reaches it and the loop runs until it is killed. That holds from NumPy 2 on
    (NEP 50: a Python int added to a NumPy integer takes the NumPy integer's type); under NumPy 1,
    value-based casting promotes `np.int16(32767) + 1` to a 64-bit 32768, and the loop ends. So
    this case is reported only where the project runs on NumPy 2 or later: the `numpy-version`
    option says so, or the project's pins (pyproject.toml, requirements*.txt, setup.cfg,
    setup.py, environment.yml, read as for the TensorFlow version) bound NumPy at 2 or above
    (`numpy>=2`, `numpy==2.1`). A project that pins no NumPy, or only a lower bound below 2,
    may run on either: not reported.

    On by default since those service shapes are left out: what remains is a loop that
    computes on every pass as fast as it can and that only a kill ends. Of the research
    corpora's programs (bench/realworld/), two have such a loop: a DQN example that keeps
    acting (and rendering) after its task is solved, and a pix2pix trainer whose step budget
    is 2**32 unless `--max_steps` or `--max_epochs` is given.

    ## Why is this bad?
    A loop with no way out computes until someone kills the process. A training loop that
    never tests whether the model has converged, or whether a step budget is spent, keeps
    the device busy after the result stopped changing (an agent that solved its task keeps
    acting, a model that converged keeps taking steps), and whoever stops it by hand does so
    late. A stopping rule, a step budget (`for t in range(max_steps)`) or a test on the
    loss or the reward with a `break` ends the work when it is done.

    ## Example
    ```python
    import itertools

    for t in itertools.count():
        sess.run(train_op)
    ```

    ## Use instead
    ```python
    for t in range(max_steps):
        loss, _ = sess.run([loss_op, train_op])
        if loss < target:
            break
    ```

    ## Energy evidence
    Not measured: the saving is every pass after the work is done, which only the program's
    author can bound; bench/rules/not_measurable.json says so. On any device it is above 0: each
    pass past the last one needed is a whole step of the model (or a forward pass) at the device's
    working draw, and a loop that never ends runs until someone stops it, so the saving grows with
    every pass the program is left running.

    ## Fix safety
    No automatic fix: the stopping rule (a budget, a target, a patience) is a choice about
    the problem.

    ## Options
    - `numpy-version`: the NumPy version the checked code runs on (`"2.1"`), for the narrow
      counter case; empty: read from the project's pins, else unknown (not reported).
    """

    code = "GL330"
    name = "endless-model-loop"
    SITELESS = True  # an agent's step loop may call no TensorFlow API itself
    MENTIONS = ("count", "while", "**", "<<", "learning")  # each finding's loop, its bound, or slim's driver
    MESSAGE = (
        "`{header}` never ends (no `break`, `return`, `raise` or exit in it) and runs {what} on every pass:"
        " the program computes until it is killed"
    )
    DEFAULT_MESSAGE = (
        "`{header}` runs {what} on every pass and leaves only when `{test}`, which is false with the program's"
        " defaults (`{name}` = {value!r}: {where}): run as it is by default, it computes until it is killed"
    )
    RANGE_MESSAGE = (
        "`{header}`{at} makes {passes:,} passes{basis}, more than any run reaches, and runs {what} on every pass{way}:"
        " the program computes until it is killed"
    )
    #: The way out of a loop of `RANGE_MESSAGE`, false with the program's defaults.
    RANGE_DEAD = ", its way out waiting on `{test}`, false with the program's defaults (`{name}` = {value!r}: {where})"
    FAILURE_MESSAGE = (
        "`{header}` runs {what} on every pass and leaves only when `{test}`, which only a failed thread makes"
        " true ({why}): the program computes until it is killed"
    )
    #: The way out of a loop of `RANGE_MESSAGE` that only a failure takes.
    RANGE_FAILURE = ", its way out waiting on `{test}`, which only a failed thread makes true ({why})"
    DRIVEN_MESSAGE = (
        "`{call}()` runs its train op until the process is stopped ({steps}) and {why}, so no end of the data"
        " stops it either: the program computes until it is killed (give it a step budget)"
    )
    WRAP_MESSAGE = (
        "`{header}` counts `{counter}` in numpy.{type}, which wraps around to {low} after {high}"
        " on {numpy}: with `{bound}` above {high} the counter never reaches it and the loop runs until it"
        " is killed (count with a Python int)"
    )
    OPTIONS = (
        Option(
            "numpy-version",
            str,
            "",
            'The NumPy version the checked code runs on (`"2.1"`), for GL330\'s narrow counter (it wraps around'
            " from NumPy 2 on); empty: read from the project's pins, else unknown (not reported).",
        ),
    )
    FIX_TITLE = "Give the loop a stopping rule: a step budget, or a `break` on a converged loss or reward"
    VALID = (
        Valid(  # `count` of another module: itertools' is imported by another function, for its own scope
            "import tensorflow as tf\nfrom mylib import count\nsess = tf.compat.v1.Session()\n"
            "def ticks():\n    from itertools import count\n    return count()\n"
            "def train():\n    for t in count():\n        sess.run(train_op)\n"
        ),
        Valid(WRAPPING.format(start="np.int16(0)", bound="1000", extra=""), options=NUMPY_2),  # a bound int16 holds
        Valid(  # NumPy 1: `np.int16 + int` promotes to int64 (value-based casting), the counter never wraps
            WRAPPING.format(start="np.int16(0)", bound="nb_steps", extra=""), options={"numpy-version": "1.26"}
        ),
        Valid(WRAPPING.format(start="np.int16(0)", bound="nb_steps", extra="")),  # the NumPy run on is not known
        Valid(WRAPPING.format(start="0", bound="nb_steps", extra=""), options=NUMPY_2),  # a Python int never wraps
        Valid(SLIM.format(steps=100000, provider="")),  # slim's loop given a step budget
        Valid(SLIM.format(steps=None, provider=", num_epochs=10")),  # the provider's queue runs out after 10 epochs
        Valid(SLIM.format(steps=None, provider=", 4, None, True, 10")),  # the same, by position
        Valid(  # a tf.data pipeline feeds the graph: its end ends the run
            SLIM.format(steps=None, provider="").replace(
                "    images, labels = tf.train.batch(",
                "    ds = tf.data.TFRecordDataset(files).batch(32)\n    images, labels = tf.train.batch(",
            )
        ),
        Valid(  # slim's evaluation loop waits for new checkpoints: a service, not a training
            SLIM.format(steps=None, provider="").replace(
                "slim.learning.train(train_op, '/tmp/log', number_of_steps=FLAGS.max_number_of_steps)",
                "slim.evaluation.evaluation_loop('', '/tmp/log', '/tmp/eval', eval_op=[loss])",
            )
        ),
        Valid(  # the budget's option has a default
            "import argparse\nimport tensorflow as tf\np = argparse.ArgumentParser()\n"
            "p.add_argument('--max_steps', type=int, default=1000)\na = p.parse_args()\nm = tf.keras.Sequential()\n"
            "step = 0\nwhile True:\n    m.train_on_batch(x, y)\n    step += 1\n"
            "    if a.max_steps is not None and step >= a.max_steps:\n        break\n"
        ),
        Valid(  # the loop leaves on its own
            WRAPPING.format(
                start="np.int16(0)", bound="nb_steps", extra="            if done:\n                break\n"
            ),
            options=NUMPY_2,
        ),
        Valid(  # the counter also set to a Python int: its type is not known
            WRAPPING.format(start="np.int16(0)", bound="nb_steps", extra="            self.step = int(self.step)\n"),
            options=NUMPY_2,
        ),
        Valid(  # a break ends it
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\nwhile True:\n"
            "    loss, _ = sess.run([loss_op, train_op])\n    if loss < 0.01:\n        break\n"
        ),
        Valid(  # a step budget, tested in the loop
            "import itertools\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "for t in itertools.count():\n    m.train_on_batch(x, y)\n    if t >= max_steps:\n        break\n"
        ),
        Valid(  # a bounded loop
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor t in range(1000):\n    m.train_on_batch(x, y)\n"
        ),
        Valid(  # the end of the data ends a TF1 input loop
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\ntry:\n    while True:\n"
            "        sess.run(train_op)\nexcept tf.errors.OutOfRangeError:\n    pass\n"
        ),
        Valid(  # a person stops it
            "import tensorflow as tf\nm = tf.keras.Sequential()\nwhile True:\n"
            "    text = input('> ')\n    print(m.predict(encode(text)))\n"
        ),
        Valid(  # the function called on every pass waits for a key where the call asks it to show the result
            "import cv2\nimport tensorflow as tf\n\n\ndef detect(model, image, show=False):\n"
            "    boxes = model(image[None])\n    if show:\n        cv2.imshow('boxes', draw(image, boxes))\n"
            "        cv2.waitKey(0)\n    return boxes\n\n\nm = tf.keras.Sequential()\nwhile True:\n"
            "    image = cv2.imread(random_file())\n    m.predict(image[None])\n    detect(m, image, show=True)\n"
        ),
        Valid(  # a generator: its consumer decides how many passes run
            "import tensorflow as tf\nm = tf.keras.Sequential()\ndef stream():\n    while True:\n"
            "        yield m.predict(next_batch())\n"
        ),
        Valid(  # a worker thread: the main program ends it
            "import threading\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "def worker():\n    while True:\n        sess.run(enqueue_op)\n"
            "threading.Thread(target=worker, daemon=True).start()\n"
        ),
        Valid(  # a condition that can turn false
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\nwhile not done:\n    done = sess.run(step_op)\n"
        ),
        Valid(  # no model work in the loop
            "import itertools\nimport tensorflow as tf\nfor t in itertools.count():\n    poll(t)\n"
        ),
        Valid(  # a server: each pass waits for a request on a queue
            "import tensorflow as tf\nm = tf.keras.Sequential()\nwhile True:\n"
            "    job = job_queue.get()\n    results.put(m.predict(job))\n"
        ),
        Valid(  # a server: each pass waits for a message on a socket
            "import tensorflow as tf\nm = tf.keras.Sequential()\nwhile True:\n"
            "    data = conn.recv(4096)\n    conn.sendall(encode(m(decode(data))))\n"
        ),
        Valid(  # a continuous evaluator: each pass waits for the trainer's next checkpoint
            "import tensorflow as tf\nm = tf.keras.Sequential()\nwhile True:\n"
            "    path = tf.train.wait_for_new_checkpoint(ckpt_dir, last)\n    m.load_weights(path)\n"
            "    m.evaluate(val)\n    last = path\n"
        ),
        Valid(  # a polling loop paced by a timer
            "import time\nimport tensorflow as tf\nm = tf.keras.Sequential()\nwhile True:\n"
            "    m.predict(read_sensors())\n    time.sleep(60)\n"
        ),
        Valid(  # an actor process: the main program ends it
            "import multiprocessing\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def actor():\n    while True:\n        m.train_on_batch(*collect())\n"
            "multiprocessing.Process(target=actor).start()\n"
        ),
        Valid(  # the loop checks convergence: a break once the loss stops improving
            "import tensorflow as tf\nm = tf.keras.Sequential()\nbest = float('inf')\nwhile True:\n"
            "    loss = m.train_on_batch(x, y)\n    if loss > best - 1e-4:\n        break\n    best = loss\n"
        ),
        Valid(BUDGETED.format(steps=1000, rebind="", caught="KeyboardInterrupt")),  # a budget by default
        Valid(  # the budget set anew in the function: its value is not the default
            BUDGETED.format(steps=-1, rebind="    steps = read_budget()\n", caught="KeyboardInterrupt")
        ),
        Valid(BUDGETED.format(steps=-1, rebind="", caught="(KeyboardInterrupt, tf.errors.OutOfRangeError)")),
        Valid(  # an identity test against a float: whether `0.0 is 0.0` holds depends on the objects made
            BUDGETED.format(steps="0.0", rebind="", caught="KeyboardInterrupt").replace("steps > 0", "steps is 0.0")
        ),
        Valid(SUPERVISED.format(options=UNSET, queue="paths, num_epochs=200")),  # the queue runs out, a stop request
        Valid(  # the step budget has a default: the binding the defaults reach is not known
            SUPERVISED.format(options=UNSET.replace("type=int)\n", "type=int, default=100000)\n", 1), queue="paths")
        ),
        Valid(  # a required option: the command line always sets it
            SUPERVISED.format(options=UNSET.replace("type=int)\n", "type=int, required=True)\n", 1), queue="paths")
        ),
        Valid(  # the program asks for a stop itself
            SUPERVISED.format(options=UNSET, queue="paths") + "        sv.request_stop()\n"
        ),
        Valid(SUPERVISED.format(options=UNSET, queue="tf.train.limit_epochs(paths, 20)")),  # the queue runs out
        Valid(  # a large bound that a run reaches
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\nfor step in range(10**6):\n    sess.run(train_op)\n"
        ),
        Valid(  # the budget set under a test the defaults do not decide
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\ndef train(fast):\n    max_steps = 2**32\n"
            "    if fast:\n        max_steps = 100\n    for step in range(max_steps):\n        sess.run(train_op)\n"
        ),
        Valid(  # a return in the loop's function ends it
            "import tensorflow as tf\nm = tf.keras.Sequential()\ndef train():\n    while True:\n"
            "        loss = m.train_on_batch(x, y)\n        if loss < 0.1:\n            return loss\n"
        ),
    )
    INVALID = (
        Invalid(  # the same function called without `show`: its default shows nothing, nobody paces the loop
            "import cv2\nimport tensorflow as tf\n\n\ndef detect(model, image, show=False):\n"
            "    boxes = model(image[None])\n    if show:\n        cv2.imshow('boxes', draw(image, boxes))\n"
            "        cv2.waitKey(0)\n    return boxes\n\n\nm = tf.keras.Sequential()\nwhile True:\n"
            "    image = cv2.imread(random_file())\n    m.predict(image[None])\n    detect(m, image)\n",
            line=14,
        ),
        Invalid(  # the function waits a millisecond per frame (`waitKey(1)`): a live window, not a person's pace
            "import cv2\nimport tensorflow as tf\n\n\ndef show(image):\n    cv2.imshow('frame', image)\n"
            "    cv2.waitKey(1)\n\n\nm = tf.keras.Sequential()\nwhile True:\n"
            "    image = grab()\n    m.predict(image[None])\n    show(image)\n",
            line=11,
        ),
        Invalid(  # an int16 step counter against the caller's step budget, on NumPy 2
            WRAPPING.format(start="np.int16(0)", bound="nb_steps", extra=""),
            options=NUMPY_2,
            line=6,
            message_contains="counts `self.step` in numpy.int16, which wraps around to -32768 after 32767"
            " on NumPy 2.0 (the numpy-version setting)",
        ),
        Invalid(  # a literal bound past the type's range
            WRAPPING.format(start="np.uint8(0)", bound="1000", extra=""),
            options={"numpy-version": "2"},
            line=6,
            message_contains="numpy.uint8, which wraps around to 0 after 255 on NumPy 2.x",
        ),
        Invalid(
            "import itertools\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "for t in itertools.count():\n    sess.run(train_op)\n    if t % 100 == 0:\n        print(t)\n",
            line=4,
            message_contains="`for t in itertools.count()` never ends",
        ),
        Invalid(  # `count` as the imports visible there bind it: a function's own `import itertools as it`
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\ndef train():\n"
            "    import itertools as it\n    for t in it.count():\n        sess.run(train_op)\n",
            line=5,
            message_contains="never ends",
        ),
        Invalid(  # a break of a nested loop leaves that loop only
            "import tensorflow as tf\nm = tf.keras.Sequential()\nwhile True:\n"
            "    for x, y in batches:\n        m.train_on_batch(x, y)\n        if bad(x):\n            break\n",
            line=3,
            message_contains="runs a training step",
        ),
        Invalid(  # an endless GAN loop: the epoch counter grows, nothing ends it
            "import tensorflow as tf\ngen = tf.keras.Sequential()\nepoch = 0\nwhile True:\n"
            "    for x in batches:\n        gen.train_on_batch(noise(), x)\n    epoch += 1\n"
            "    if epoch % 10 == 0:\n        gen.save('gen.h5')\n",
            line=4,
            message_contains="runs a training step",
        ),
        Invalid(  # a sleep under an `if` paces only some passes
            "import time\nimport tensorflow as tf\nm = tf.keras.Sequential()\nwhile True:\n"
            "    m.train_on_batch(x, y)\n    if throttle:\n        time.sleep(1)\n",
            line=4,
        ),
        Invalid(  # the step budget's default, -1, never ends the loop; Ctrl-C is the only stop
            BUDGETED.format(steps=-1, rebind="    if steps:\n        steps = int(steps)\n", caught="KeyboardInterrupt"),
            line=7,
            message_contains="leaves only when `steps > 0`, which is false with the program's defaults (`steps` = -1:"
            " the default of parameter `steps`)",
        ),
        Invalid(  # a budget of 0 by default: its truth is false
            "import tensorflow as tf\nm = tf.keras.Sequential()\ndef train(max_steps=0):\n    step = 0\n"
            "    while True:\n        m.train_on_batch(x, y)\n        step += 1\n"
            "        if max_steps and step >= max_steps:\n            break\n",
            line=5,
            message_contains="leaves only when `max_steps`",
        ),
        Invalid(  # a budget of 2**32 unless an option sets it; the stop request only a failed thread makes
            SUPERVISED.format(options=UNSET, queue="paths"),
            line=11,
            message_contains="`for step in range(max_steps)` (line 16) makes 4,294,967,296 passes (`max_steps = 2 ** 32`,"
            " the binding the program's defaults reach it with), more than any run reaches, and runs the model"
            " on every pass, its way out waiting on `sv.should_stop()`, which only a failed thread makes true (the"
            " file's input queues cycle without end: `string_input_producer()` given no `num_epochs`)",
        ),
        Invalid(  # a bound written as a constant expression
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\nfor step in range(1, 1 << 40):\n    sess.run(train_op)\n",
            line=3,
            message_contains="`for step in range(1, 1 << 40)` makes 1,099,511,627,775 passes, more than any run reaches",
        ),
        Invalid(  # a module's step budget, bound twice: the binding the program reaches the loop with
            "import tensorflow as tf\nm = tf.keras.Sequential()\nSTEPS = 100\nSTEPS = 2**40\n"
            "for step in range(STEPS):\n    m.train_on_batch(x, y)\n",
            line=4,
            message_contains="`for step in range(STEPS)` (line 5) makes 1,099,511,627,776 passes (`STEPS = 2 ** 40`",
        ),
        Invalid(  # the budget an option with no default sets: argparse gives None unless the command line names it
            "import argparse\nimport tensorflow as tf\np = argparse.ArgumentParser()\n"
            "p.add_argument('--max_steps', type=int)\na = p.parse_args()\nm = tf.keras.Sequential()\nstep = 0\n"
            "while True:\n    m.train_on_batch(x, y)\n    step += 1\n"
            "    if a.max_steps is not None and step >= a.max_steps:\n        break\n",
            line=8,
            message_contains="leaves only when `a.max_steps is not None`, which is false with the program's defaults"
            " (`a.max_steps` = None: `--max_steps` not given)",
        ),
        Invalid(  # slim's loop with no step budget, fed a provider that cycles through the data without end
            SLIM.format(steps=None, provider=", shuffle=True"),
            line=13,
            message_contains="`slim.learning.train()` runs its train op until the process is stopped (number_of_steps"
            " None: the default of --max_number_of_steps) and the file's input queues cycle without end:"
            " `DatasetDataProvider()` given no `num_epochs`",
        ),
        Invalid(  # no step count given at all: slim's default is None
            SLIM.format(steps=None, provider="").replace(", number_of_steps=FLAGS.max_number_of_steps", ""),
            line=13,
            message_contains="(number_of_steps None: its default)",
        ),
        Invalid(  # count imported from itertools; a model called in the loop
            "from itertools import count\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "for step in count(1):\n    out = m(x, training=False)\n",
            line=4,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        running = [s for s in facts.sites if _runs_model(s) is not None]
        for cell in sorted({s.callsite.span.cell for s in running}, key=lambda c: c or 0):
            sites = [s for s in running if s.callsite.span.cell == cell]
            threads = None
            # the tree indexed only where the text may loop for ever
            for loop, function, bound in _endless_loops(facts, cell):
                inside = [s for s in sites if _directly_in(loop, s.callsite.span.line)]
                if not inside or _handled(facts, loop, cell) or waits_for_user(loop) or _serves(loop) \
                        or calls_waiting_for_user(facts, loop, cell):
                    continue
                ways = dead_ways(facts, loop, cell)
                failing = _failure_stop(facts, loop, cell) if ways is None else None
                if ways is None and failing is None:
                    continue
                threads = _thread_targets(facts, cell) if threads is None else threads
                if function is not None and function.name in threads:
                    continue
                training = any(_runs_model(s) == "training" for s in inside)
                head = loop.iter if isinstance(loop, ast.For) else loop.test
                header = ast.unparse(loop).split("\n", 1)[0].rstrip(":")
                span = (
                    facts.span(bound.at, cell)
                    if bound is not None and bound.at is not loop
                    else facts.span(loop, cell, through=head)
                )
                what = "a training step" if training else "the model"
                yield self.diagnostic(span, facts.path, self._message(header, loop.lineno, what, bound, ways, failing))
        cells = (None,) if isinstance(facts.source, str) else range(1, len(facts.source) + 1)
        for cell in cells:
            yield from self._wrapping(facts, cell, options)
        yield from self._driven(facts)

    def _driven(self, facts: FileFacts) -> Iterator[Diagnostic]:
        """TF-slim's `learning.train` told to run until the process is stopped (its `number_of_steps`
        None, analysis/slim_training.py), where the file's input never runs out (`_cycling_input`)."""
        driven = [s for s in facts.sites if s.features.get("until_stopped") and is_training_step(s)]
        why = _cycling_input(facts) if driven else None
        for site in driven if why is not None else ():
            call = facts.call_at(site)
            if call is None or _handled(facts, call, site.callsite.span.cell):
                continue
            shown = ast.unparse(call.func)
            message = self.DRIVEN_MESSAGE.format(call=shown, steps=site.features["until_stopped"], why=why)
            yield self.diagnostic(site.callsite.span, facts.path, message)

    def _message(
        self,
        header: str,
        line: int,
        what: str,
        bound: Unreached | None,
        ways: list[Any] | None,
        failing: dict[str, str] | None,
    ) -> str:
        """The finding's message: the loop's length where a bound no run reaches makes it endless, then its
        ways out (none, false with the defaults, or taken only by a failure)."""
        if bound is not None:
            way = (
                self.RANGE_FAILURE.format(**failing)
                if failing is not None
                else self.RANGE_DEAD.format(**ways[0]._asdict())
                if ways
                else ""
            )
            at = "" if isinstance(bound.at, ast.For) else f" (line {line})"
            return self.RANGE_MESSAGE.format(
                header=header, at=at, passes=bound.passes, basis=bound.basis, what=what, way=way
            )
        if failing is not None:
            return self.FAILURE_MESSAGE.format(header=header, what=what, **failing)
        if ways:
            return self.DEFAULT_MESSAGE.format(header=header, what=what, **ways[0]._asdict())
        return self.MESSAGE.format(header=header, what=what)

    def _wrapping(self, facts: FileFacts, cell: int | None, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        """`while counter < bound:` loops whose counter is a narrow NumPy integer, on NumPy 2 (see the docstring)."""
        text = unit_text(facts.source, cell) or ""
        # plain substrings first (a `while` loop, the type's name): the tree is indexed only where both may be
        if "while" not in text or ("int8" not in text and "int16" not in text) or not _NARROW.search(text):
            return
        numpy = numpy_target(facts.path, str(options.get("numpy-version") or ""))
        if numpy.version is None or numpy.version < (2, 0):
            return
        for loop in facts.nodes(cell, ast.While):
            test = loop.test
            if not (isinstance(loop, ast.While) and isinstance(test, ast.Compare) and len(test.ops) == 1):
                continue
            if not isinstance(test.ops[0], BELOW) or leaves(loop):
                continue
            counter, bound = ast.unparse(test.left), test.comparators[0]
            narrow = _narrow_counter(enclosing(facts, loop, cell), loop, counter)
            if narrow is None:
                continue
            high = NARROW_INTEGERS[narrow]
            if isinstance(bound, ast.Constant) and isinstance(bound.value, int) and bound.value <= high:
                continue
            header = ast.unparse(loop).split("\n", 1)[0].rstrip(":")
            message = self.WRAP_MESSAGE.format(
                header=header,
                counter=counter,
                type=narrow,
                low=-high - 1 if narrow.startswith("int") else 0,
                high=high,
                bound=ast.unparse(bound),
                numpy=_shown(numpy),
            )
            yield self.diagnostic(facts.span(loop, cell, through=test), facts.path, message)


_NARROW = re.compile(r"\bu?int(?:8|16)\b")


def _shown(numpy: TargetVersion) -> str:
    """`NumPy 2.1 (pinned in requirements.txt)`, `NumPy 2.x (...)` for a bound without a minor."""
    major, minor = numpy.version or (0, 0)
    return f"NumPy {major}.{'x' if minor == 99 else minor} ({numpy.basis})"


def _narrow_counter(scope: ast.AST | None, loop: ast.While, counter: str) -> str | None:
    """The NumPy type of *counter* where its scope assigns it a narrow NumPy integer
    (`np.int16(0)`) and nothing else, and changes it by `+=` alone, inside *loop*; else None."""
    if scope is None:
        return None
    types, increased = set(), False
    inside = {id(node) for node in ast.walk(loop)}
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and any(ast.unparse(t) == counter for t in node.targets):
            value = node.value
            if not (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Attribute)
                and value.func.attr in NARROW_INTEGERS
            ):
                return None
            types.add(value.func.attr)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and ast.unparse(node.target) == counter:
            if not (isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and id(node) in inside):
                return None
            increased = True
    return types.pop() if len(types) == 1 and increased else None


def _runs_model(site: Site) -> str | None:
    """ "training" for a training step, "model" for another run of a model or graph, else None."""
    if is_training_step(site):
        return "training"
    if site.work_value("step") is not None:
        return "model"
    from greenlint.catalog.kinds import TRACED_CALL  # on first need: a warm run loads no catalog

    if is_keras_model_method(site.api or "", MODEL_RUNS) or site.api == TRACED_CALL:
        return "model"
    return None


def _endless_loops(
    facts: FileFacts, cell: int | None
) -> Iterator[tuple[ast.While | ast.For, ast.FunctionDef | ast.AsyncFunctionDef | None, Unreached | None]]:
    """Each `while True:` / `for ... in itertools.count():` loop, and each `for` over a range whose bound
    no run reaches (`_unreached`: its passes and where they come from), in source order, with the
    function it is in."""
    text = unit_text(facts.source, cell) or ""
    endless = ("while" in text or "count" in text) and _MAY_LOOP_FOR_EVER.search(text) is not None  # substrings first
    huge = "range" in text and _HUGE.search(text) is not None
    if not (endless or huge):
        return
    counted = "itertools" in facts.text  # no `count` without an import of itertools (a notebook: any cell)
    loops: list[tuple[ast.While | ast.For, Unreached | None]] = []
    for node in facts.nodes(cell, ast.While, ast.For):
        if endless and (
            (isinstance(node, ast.While) and isinstance(node.test, ast.Constant) and node.test.value in (True, 1))
            or (
                counted
                and isinstance(node, ast.For)
                and isinstance(node.iter, ast.Call)
                and facts.imported_path(node.iter.func, cell) == "itertools.count"
            )
        ):
            loops.append((node, None))
        elif huge and isinstance(node, ast.For) and (bound := _unreached(facts, node, cell)) is not None:
            loops.append((node, bound))
    for loop, bound in sorted(loops, key=lambda found: (found[0].lineno, found[0].col_offset)):
        function = next(
            (p for p in facts.ancestors(loop, cell) if isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef))), None
        )
        yield loop, function, bound


class Unreached(NamedTuple):
    """The passes of a `for` over a range that no run reaches."""

    passes: int
    #: Where the count comes from, to follow it in a message (" (`EPISODES` = 1000)"; "" as written).
    basis: str
    #: Where it is reported: the binding of the bound that the defaults reach the loop with (the line
    #: to change), else the loop.
    at: ast.stmt


def _unreached(facts: FileFacts, loop: ast.For, cell: int | None) -> Unreached | None:
    """The passes of `for ... in range(stop)` (or `range(start, stop)` from a literal start, maybe through
    a progress bar) with the program's defaults, where they are at least `UNREACHED`; the bound is a
    default (`known_value`), a constant expression (`2**32`), or a name the function binds several
    times, as the defaults reach the loop (`reaching_value`); None otherwise."""
    call = range_header(facts, loop.iter, cell)
    if call is None or not 1 <= len(call.args) <= 2 or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    stop, start = call.args[-1], literal(call.args[0]) if len(call.args) == 2 else 0
    value, basis = known_value(facts, stop, cell)
    if value is None:
        value = folded(stop)
    bound: ast.stmt = loop
    if value is None and isinstance(stop, ast.Name):
        found = reaching_value(facts, stop, cell)
        if found is not None:
            value, basis, bound = found[0].value, f" ({found[0].where})", found[1]
    if type(value) is not int or type(start) is not int or value - start < UNREACHED:
        return None
    return Unreached(value - start, basis, bound)


def _failure_stop(facts: FileFacts, loop: ast.AST, cell: int | None) -> dict[str, str] | None:
    """The stop request every way out of the loop waits on (`if sv.should_stop(): break`, a TF1
    `Supervisor`'s or `Coordinator`'s), where only a failed thread can make it: the file's input
    never runs out (`_cycling_input`). None otherwise."""
    if "should_stop" not in facts.text:
        return None
    why = _cycling_input(facts)
    if why is None:
        return None
    tests = {_stop_request(facts, way, loop, cell) for way in exits(loop)}
    if not tests or None in tests or len(tests) != 1:
        return None
    return {"test": str(tests.pop()), "why": why}


def _cycling_input(facts: FileFacts) -> str | None:
    """Why the file's input never runs out, where it does not: the file feeds TF1 input queues
    (`string_input_producer()`, ..., or TF-slim's `DatasetDataProvider`/`parallel_read`) and gives
    none a `num_epochs` (nor uses `limit_epochs()`), builds no `tf.data` pipeline (whose end ends the
    run), and never asks for a stop itself (`request_stop()`, a supervisor's `stop()`). None otherwise."""
    if any(word in facts.text for word in ("request_stop", ".stop(", "limit_epochs")) or any(
        s.api.startswith(TF_DATA) for s in facts.sites
    ):
        return None
    cells = (None,) if isinstance(facts.source, str) else range(1, len(facts.source) + 1)
    queues = [(c, at) for cell in cells for c in facts.calls(cell) if (at := _queue_epochs_at(c)) is not None]
    if not queues or any(
        len(c.args) > at or any(k.arg in ("num_epochs", None) for k in c.keywords) for c, at in queues
    ):
        return None
    named = ", ".join(sorted({f"`{last_name(c.func)}()`" for c, _ in queues}))
    return f"the file's input queues cycle without end: {named} given no `num_epochs`"


def _queue_epochs_at(call: ast.Call) -> int | None:
    """Where a TF1 input queue's call takes `num_epochs` by position (None: the call makes no queue)."""
    name = last_name(call.func)
    return 1 if name.endswith("_input_producer") else INPUT_READERS.get(name)


def _stop_request(facts: FileFacts, way: ast.AST, loop: ast.AST, cell: int | None) -> str | None:
    """The stop request (`sv.should_stop()`) an `if` between *loop* and its way out *way* tests, None
    where none does."""
    child = way
    for parent in facts.ancestors(way, cell):
        if parent is loop:
            return None
        if isinstance(parent, ast.If) and child in parent.body and isinstance(parent.test, ast.Call):
            site = facts.site_at(parent.test, cell)
            if site is not None and site.api.endswith(STOP_REQUESTS):
                return ast.unparse(parent.test)
        child = parent
    return None


#: Text without which a unit has no endless loop (`while True`, `while 1`, `count()`): a cheap test first.
_MAY_LOOP_FOR_EVER = re.compile(r"\bwhile\b|\bcount\b")


def _serves(loop: ast.AST) -> bool:
    """The loop waits on the outside world on every pass (not under an `if`): it sleeps, awaits,
    receives a message (`sock.recv()`, `accept()`, zmq's `recv_json()`), takes a request from a
    queue (`job_queue.get()`, `jobs.get(timeout=1)`) or waits for an event or a new checkpoint
    (`event.wait()`, `wait_for_new_checkpoint(...)`). Such a loop is a server, a worker or a
    continuous evaluator: it runs the model when work arrives, and its life is the service's."""
    for node in unguarded_body(loop):
        if isinstance(node, ast.Await):
            return True
        if not isinstance(node, ast.Call):
            continue
        name = last_name(node.func)
        if name in BLOCKING or name.startswith("recv") or name.startswith("wait") and name != "waitKey":
            return True
        receiver = getattr(node.func, "value", None)
        if (
            name == "get"
            and receiver is not None
            and ("queue" in last_name(receiver).lower() or any(k.arg in ("block", "timeout") for k in node.keywords))
        ):
            return True
    return False


def _handled(facts: FileFacts, loop: ast.AST, cell: int | None) -> bool:
    """The loop sits in the body of a `try` with an exception handler, in its own function (a
    handler of `KeyboardInterrupt` alone is a person stopping it, not a way out)."""
    child = loop
    for parent in facts.ancestors(loop, cell):
        if isinstance(parent, SCOPES):
            return False
        if isinstance(parent, ast.Try) and child in parent.body and any(map(_catches_more, parent.handlers)):
            return True
        child = parent
    return False


def _catches_more(handler: ast.ExceptHandler) -> bool:
    """The handler catches something beside `KeyboardInterrupt` (a bare `except:` catches all)."""
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(last_name(t) != "KeyboardInterrupt" if t is not None else True for t in caught)


def _thread_targets(facts: FileFacts, cell: int | None) -> frozenset[str]:
    """Names of functions (or methods) the file passes as a thread's `target=`."""
    return frozenset(
        last_name(k.value)
        for node in facts.calls(cell)
        for k in node.keywords
        if k.arg == "target" and last_name(k.value)
    )


def _directly_in(loop: ast.While | ast.For, line: int) -> bool:
    """The line is in the loop's body and not in a function or class defined there."""
    if not loop.body or not (loop.body[0].lineno <= line <= (loop.end_lineno or loop.lineno)):
        return False
    return not any(
        isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))
        and n.lineno <= line <= (n.end_lineno or n.lineno)
        for n in scope_body(loop)
    )
