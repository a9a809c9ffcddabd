"""GL309 fit-in-epoch-loop: `fit()` called once per iteration of a Python loop: once per epoch on
the same data, once per sample of a loop over samples, or on one batch per pass (`train_on_batch`'s step)."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument, binds
from greenlint.rules.batch_price import START_UP_TIMED, call_start_up
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.keras_flavour import Flavour, keras_flavour
from greenlint.rules.material import SAVING_OPTION, immaterial_overhead, known_runs, least_runs, repeated_cost
from greenlint.rules.site import Site, is_keras_model_method, method
from greenlint.rules.syntax import (
    FEW_ELEMENTS,
    autograph_loop,
    batch_of_one,
    calls_by_name,
    enclosing,
    is_method,
    loop_varying,
    own_body,
    own_loops,
    parameters,
    positional_parameters,
    simple_bindings,
    waits_for_user,
)
from greenlint.units import fmt_count, fmt_counted

#: Calls that run one training step on what they are given (`fit` with one epoch on one sample is one step).
TRAINS = ("fit", "train_on_batch")
#: `fit()` arguments `train_on_batch` has no place for: callbacks, validation, and how epochs are cut and resumed.
FIT_ONLY = frozenset({"callbacks", "validation_data", "validation_split", "validation_steps", "validation_freq",
                      "validation_batch_size", "steps_per_epoch", "initial_epoch"})
#: Model calls whose result is the model's output (what a later target or input may be made from).
OUTPUTS = ("predict", "predict_on_batch", "__call__", "fit", "train_on_batch")


#: A case's online learner: each step's one sample comes from acting on the model's output (line 9: its `fit`).
ONLINE = (
    "import numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\nstate = env.reset()\n"
    "for t in range(10000):\n    q = m.predict(state[None], verbose=0)\n"
    "    next_state, reward, done, _ = env.step(int(q.argmax()))\n"
    "    q[0][int(q.argmax())] = reward\n    m.fit(state[None], q, epochs=1, verbose=0)\n"
    "    state = next_state\n"
)
#: A case's agent trained by `fit()` on the one step it took, in a function a loop of 1,000 episodes calls
#: (`{kw}`: further arguments of the fit, `{rows}`: the rows of its arrays, `{episodes}`: the loop's count).
AGENT_STEP = (
    "import numpy as np\nimport tensorflow as tf\n"
    "actor = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(4,))])\n"
    "actor.compile(optimizer='adam', loss='categorical_crossentropy')\n"
    "def train(state, advantages):\n    actor.fit(state, advantages, epochs=1, verbose=0{kw})\n"
    "for episode in range({episodes}):\n    state = np.zeros(({rows}, 4))\n    advantages = np.zeros(({rows}, 2))\n"
    "    train(state, advantages)\n"
)

#: A case's DQN replay, a function an episode loop of 300 calls on every step: `{rows}` transitions
#: sampled from the memory into arrays of as many rows, fitted with `{kw}`.
REPLAY = (
    "import random\nimport numpy as np\nimport tensorflow as tf\n"
    "model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(4,))])\n"
    "model.compile(optimizer='adam', loss='mse')\n"
    "def replay(memory):\n    rows = {rows}\n    batch = random.sample(memory, rows)\n"
    "    states = np.zeros((rows, 4))\n    for i in range(rows):\n        states[i] = batch[i][0]\n"
    "    targets = model.predict(states, verbose=0)\n    model.fit(states, targets, {kw}verbose=0)\n"
    "for episode in range(300):\n    done = False\n    while not done:\n        done = play(model)\n"
    "        replay(memory)\n"
)


class FitInEpochLoop(Rule):
    """
    ## What it does
    Flags `fit()` on a Keras model called once per iteration of a Python loop, in three shapes:

    - **an epoch loop**: `fit()` with a literal `epochs=1`, repeated by a loop on the same model
      and the same data, where one `fit(epochs=N)` does the same;
    - **a fit per sample**: `fit()` (one epoch) or `train_on_batch()` on ONE sample per
      iteration of a `for` loop over samples (`np.expand_dims(x, 0)`, `x[None]`,
      `x[i:i + 1]`, `np.array([x])`, a reshape to a leading 1, or an array whose row 0 the loop
      fills, `target[0][action] = ...`), where the samples could be stacked into one batch and
      trained on by one call;
    - **a fit of one batch per pass**: `fit()` of one epoch on arrays of at most `batch_size` rows (one
      batch: an agent's replay, `random.sample(memory, 32)` or `min(32, len(memory))` rows, or the one
      step it took), on every pass of a loop (its own, or a
      caller's) counted or known to run more than 32 times, with no callbacks, validation,
      `steps_per_epoch` or `initial_epoch` (what `train_on_batch` has no place for): `train_on_batch`
      takes the same optimizer step on the same batch without `fit()`'s set-up. Reported where that
      set-up over the counted runs is material (`material-saving-j`).

    Not reported (the first two shapes): a loop over models (`for m in models`); a loop whose body binds the data
    anew in batches or chunks (`for chunk in chunks`, `x, y = play_game()`: each iteration
    trains on other data, and not on one sample); a function merely called from several
    places; a sample made from what the model returned in an earlier iteration (an agent
    that acts, then learns from the step it just took: the samples do not exist before the
    loop); a loop that decides on the result of each `fit` (`if history.history["loss"][0] <
    tol: break`); a `while` loop (samples read as they come); a loop known to run at most 32
    times; a loop that waits for the user on each sample; a `fit` whose function makes its
    data anew on each call (a minibatch sampled, then stacked) and is called from a loop.

    ## Why is this bad?
    Each `fit()` call sets up training again: it wraps the data in a new adapter and iterator,
    builds the callbacks and progress bar, and checks the compiled step function, before the
    first batch runs; the input pipeline cannot prefetch across the boundary between calls.
    One `fit(epochs=N)` does that once. Per-epoch work (evaluation, saving, a learning-rate
    schedule) belongs in a callback or `validation_data`.

    A fit per sample pays that setup for one gradient step on one row: the arithmetic of a small
    model is a sliver of the call, so the loop's time (and a device's power) goes to the
    per-call overhead. One call on the stacked samples (a minibatch) makes one step of the
    same size of work in one call, and on a GPU or TPU the batch uses the cores a single row
    leaves idle.

    Batching is not bit-identical: a loop of one-sample fits takes one optimizer step per
    sample, one call on the stacked batch takes one step on their mean loss. Where the
    targets are made in the loop from the model's own predictions (a DQN replay: `target =
    reward + gamma * max(model.predict(next_state))`), a batched update computes every target
    with the weights from before the update, where the loop computed each with the weights its
    earlier fits left: the usual minibatch update of these algorithms, but a slightly different
    result. The message says so when it sees it.

    ## Example
    ```python
    for epoch in range(20):
        model.fit(train_ds, epochs=1)
        model.evaluate(val_ds)

    for state, action, reward, next_state in random.sample(memory, 32):
        target = model.predict(state)
        target[0][action] = reward + gamma * np.max(model.predict(next_state)[0])
        model.fit(state, target, epochs=1, verbose=0)
    ```

    ## Use instead
    ```python
    model.fit(train_ds, epochs=20, validation_data=val_ds)

    batch = random.sample(memory, 32)
    states = np.concatenate([s for s, _, _, _ in batch])
    next_states = np.concatenate([n for _, _, _, n in batch])
    targets = model.predict(states, verbose=0)
    best_next = model.predict(next_states, verbose=0).max(axis=1)
    for i, (_, action, reward, _) in enumerate(batch):
        targets[i][action] = reward + gamma * best_next[i]
    model.fit(states, targets, epochs=1, verbose=0)
    ```

    ## Energy evidence
    The pair under bench/rules/GL309/ trains the same small model for the same epochs both ways
    (the epoch loop; its figures follow).

    The per-sample shape has its own pair, bench/rules/GL309/per_sample/: a replay step of 32
    transitions through a 4-24-24-2 network (770 parameters), 32 one-sample `fit` calls against
    one `fit` on the 32 stacked. Measured with `python bench/rules/measure.py
    bench/rules/GL309/per_sample/{before,after}.py 5` on this 2-core CPU machine under load
    (energy estimated from process CPU time): median 39.0 J and 4.97 s before, 0.99 J and
    0.14 s after, a saving of 97 % (96.8 % to 97.9 % over the worst and best pairing of the
    runs). The update differs (one step on the batch's mean loss instead of 32 steps), so
    this is the cost of one replay step, not of reaching the same score.
    The one-batch shape's set-up is the bundled training time model's fixed term (`t0`, fitted on the
    KB's call sites, timed on FECoM's 2023 workstation with one NVIDIA GPU) at its steady power, and the
    message says it is that machine's; on this 2-core CPU machine (Keras 3, TensorFlow 2.21) blind
    judges timed `fit(epochs=1)` of one batch of a CartPole agent at 116 ms a call against 1.9 ms for
    `train_on_batch` on the same batch, and 46 ms of CPU a call on another agent's.

    ## Fix safety
    No automatic fix: the loop body usually does more than train, and batching a per-sample
    fit changes the updates (above); the advice is for a person to weigh. `train_on_batch` returns
    the loss, not a `History`: code reading `history.history` needs that change too.

    ## Options
    - `material-saving-j`
    """

    code = "GL309"
    name = "fit-in-epoch-loop"
    CALLS = frozenset(TRAINS)
    OPTIONS = (SAVING_OPTION,)
    MESSAGE = "`fit(epochs=1)` in a loop sets training up again every iteration; pass `epochs=` to one `fit()`"
    PER_SAMPLE = (
        "`{method}` trains on one sample (`{item}`) per iteration of the loop{times}: each call sets training up "
        "for one tiny step; collect the samples and call `{method}` once on the stacked batch (one optimizer "
        "step on their mean loss instead of one per sample{caveat}: the usual minibatch update, not the same "
        "result)"
    )
    BOOTSTRAPPED = (
        ", and its targets, which the loop makes with the model, computed with the weights from before the update"
    )
    ONE_BATCH = (
        "`fit()` trains one batch ({samples}, batch_size {batch}) for one epoch on every pass of a loop:"
        " each call sets training up again (data adapter, callbacks, progress bar: {cost}, {timed}{keras}) for one"
        " optimizer step; `train_on_batch(x, y)` takes the same step on the same batch without it"
    )
    FIX_TITLE = "Call `fit()` once: with `epochs=N`, or on the samples stacked into one batch"
    VALID = (
        Valid(AGENT_STEP.format(kw=", callbacks=[logger]", rows=1, episodes=1000)),  # callbacks train_on_batch drops
        Valid(AGENT_STEP.format(kw="", rows=100, episodes=1000)),  # 100 rows: four batches, an epoch of them
        Valid(AGENT_STEP.format(kw="", rows=1, episodes=5)),  # five passes: little to save
        Valid(AGENT_STEP.format(kw="", rows="len(memory)", episodes=1000)),  # rows not known
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=20)\n"),
        Valid(  # twenty epochs given positionally; after a `*args`, `epochs` is not known to be one
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor epoch in range(20):\n    m.fit(x, y, 32, 20)\n"
            "    m.fit(*data, 1)\n"
        ),
        Valid(
            "import tensorflow as tf\nfor lr in [0.1, 0.01]:\n"
            "    m = tf.keras.Sequential()\n    m.fit(x, y, epochs=10)\n"
        ),
        Valid(  # one epoch of each of several models: no epoch loop
            "import tensorflow as tf\nfor name in ['a.keras', 'b.keras']:\n"
            "    m = tf.keras.models.load_model(name)\n    m.fit(x, y, epochs=1)\n"
        ),
        Valid(  # a helper called from two cells, in no loop
            "import tensorflow as tf\nm = tf.keras.Sequential()\ndef one_epoch():\n    m.fit(x, y, epochs=1)\n"
            "one_epoch()\none_epoch()\n"
        ),
        Valid(  # new data every iteration (a game played, then learnt from)
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor game in range(100):\n"
            "    boards, moves = play_game(m)\n    m.fit(boards, moves, epochs=1)\n"
        ),
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor xc, yc in chunks:\n    m.fit(xc, yc, epochs=1)\n"
        ),
        Valid(  # chunks of a data set, an epoch loop around them: no one-sample evidence, and not one epoch loop
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor epoch in range(10):\n"
            "    for xc, yc in chunks:\n        m.fit(xc, yc, epochs=1)\n"
        ),
        Valid(  # batches from a generator: a training loop written by hand, each call on a batch
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor xb, yb in generator:\n"
            "    m.train_on_batch(xb, yb)\n"
        ),
        Valid(  # online learning: the next sample comes from acting on the model's output, none exists before
            ONLINE.replace("m.fit(state[None], q, epochs=1, verbose=0)", "m.train_on_batch(state[None], q)")
        ),
        Valid(  # each fit's loss decides whether the loop goes on: one batched call cannot stop half-way
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor i in range(len(xs)):\n"
            "    h = m.fit(xs[i:i + 1], ys[i:i + 1], epochs=1, verbose=0)\n"
            "    if h.history['loss'][0] < 1e-3:\n        break\n"
        ),
        Valid(  # one sample each of several models
            "import numpy as np\nimport tensorflow as tf\nfor m, x in zip(models, samples):\n"
            "    m.train_on_batch(np.expand_dims(x, 0), y1)\n"
        ),
        Valid(  # nine samples: at most one batch's worth
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "for i in range(9):\n    m.fit(x[i:i + 1], y[i:i + 1], epochs=1)\n"
        ),
        Valid(  # many epochs on each sample: not one step per call
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "for i in range(1000):\n    m.fit(x[i:i + 1], y[i:i + 1], epochs=50)\n"
        ),
        Valid(REPLAY.format(rows="min(1000, len(memory))", kw="batch_size=32, ")),  # up to 1,000 rows: 32 batches
        Valid(REPLAY.format(rows="min(32, len(memory))", kw="epochs=5, ")),  # five epochs: five steps per call
        Valid(REPLAY.format(rows="min(n, len(memory))", kw="")),  # rows bounded by nothing known
        Valid(  # each call fits a minibatch sampled afresh: the caller's loop is a training loop, not epochs (nor
            # one batch: the sample's size is a parameter)
            "import random\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def replay(memory, k):\n    states, targets = [], []\n"
            "    for state, target in random.sample(memory, k):\n"
            "        states.append(state)\n        targets.append(target)\n"
            "    m.fit(np.array(states), np.array(targets), epochs=1, verbose=0)\n"
            "for step in range(1000):\n    replay(memory, k)\n"
        ),
        Valid(  # a model's train method fits what its caller samples afresh per call: not an epoch loop (nor one
            # batch: the sample's size is not known)
            "import tensorflow as tf\nclass Net:\n    def __init__(self):\n        self.model = tf.keras.Sequential()\n"
            "    def train(self, states, targets):\n        self.model.fit(states, targets, epochs=1, verbose=0)\n"
            "class Agent:\n    def __init__(self):\n        self.net = Net()\n    def replay(self):\n"
            "        for _ in range(10):\n"
            "            states, targets = self.buffer.sample()\n            self.net.train(states, targets)\n"
            "agent = Agent()\nfor episode in range(1000):\n    agent.replay()\n"
        ),
        Valid(  # samples as they arrive from a stream
            "import numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "while True:\n    x, y = stream.read()\n    m.train_on_batch(np.expand_dims(x, 0), np.expand_dims(y, 0))\n"
        ),
    )
    INVALID = (
        Invalid(  # a DQN replay of at most 32 sampled rows (fewer while the memory fills), one batch of 32
            REPLAY.format(rows="min(32, len(memory))", kw="batch_size=32, epochs=1, "),
            line=13,
            message_contains="`fit()` trains one batch (at most 32 samples, batch_size 32)",
        ),
        Invalid(  # the same replay of 32 transitions stacked by a comprehension, at Keras' default batch of 32
            REPLAY.replace("    states = np.zeros((rows, 4))\n    for i in range(rows):\n        states[i] = batch[i][0]\n",
                           "    states = np.array([t[0] for t in batch])\n").format(rows=32, kw=""),
            line=11,
            message_contains="`fit()` trains one batch (32 samples, batch_size 32)",
        ),
        Invalid(  # a minibatch sampled afresh on each call and stacked: one batch, `train_on_batch`'s step
            "import random\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def replay(memory):\n    states, targets = [], []\n"
            "    for state, target in random.sample(memory, 32):\n"
            "        states.append(state)\n        targets.append(target)\n"
            "    m.fit(np.array(states), np.array(targets), epochs=1, verbose=0)\n"
            "for step in range(1000):\n    replay(memory)\n",
            line=10,
            message_contains="`fit()` trains one batch (32 samples, batch_size 32)",
        ),
        Invalid(  # the online learner's fit: no batch to stack, but train_on_batch takes its step without the set-up
            ONLINE, line=9, message_contains="`train_on_batch(x, y)` takes the same step on the same batch without it",
        ),
        Invalid(  # an agent's fit on the one step it took, per episode: train_on_batch takes that step
            AGENT_STEP.format(kw="", rows=1, episodes=1000),
            line=6,
            message_contains="`fit()` trains one batch (1 sample, batch_size 32) for one epoch on every pass of a loop",
        ),
        Invalid(  # the set-up is timed on the KB's machine, said so: not the reader's, which may take a tenth of it
            AGENT_STEP.format(kw="", rows=1, episodes=1000),
            message_contains="s, timed on greenlint's reference machine (FECoM's 2023 workstation, one NVIDIA GPU), not this one)",
        ),
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor epoch in range(20):\n    m.fit(x, y, epochs=1)\n",
            line=4,
            message_contains="pass `epochs=`",
        ),
        Invalid(  # the epoch number reaches an argument; the model is the same
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor epoch in range(20):\n"
            "    m.fit(x, y, epochs=1, initial_epoch=epoch)\n",
            line=4,
        ),
        Invalid(  # an epoch helper on the same global data, called by an epoch loop
            "import tensorflow as tf\nm = tf.keras.Sequential()\ndef one_epoch():\n    m.fit(x, y, epochs=1)\n"
            "for epoch in range(20):\n    one_epoch()\n",
            line=4,
            message_contains="pass `epochs=`",
        ),
        Invalid(  # a helper fitting its parameters, called by an epoch loop with the same global data each time
            "import tensorflow as tf\nm = tf.keras.Sequential()\ndef one_epoch(xs, ys):\n    m.fit(xs, ys, epochs=1)\n"
            "for epoch in range(20):\n    one_epoch(x, y)\n",
            line=4,
            message_contains="pass `epochs=`",
        ),
        Invalid(  # a DQN replay: one fit per sampled transition, targets from the model's predictions
            "import random\nimport numpy as np\nimport tensorflow as tf\n"
            "class Agent:\n    def __init__(self):\n        self.model = tf.keras.Sequential()\n"
            "    def replay(self, batch_size):\n        minibatch = random.sample(self.memory, batch_size)\n"
            "        for state, action, reward, next_state, done in minibatch:\n"
            "            target = reward + 0.95 * np.amax(self.model.predict(next_state)[0])\n"
            "            target_f = self.model.predict(state)\n            target_f[0][action] = target\n"
            "            self.model.fit(state, target_f, epochs=1, verbose=0)\n",
            line=13,
            message_contains="the weights from before the update",
        ),
        Invalid(  # one row sliced per iteration, fixed targets: batching computes the same loss terms
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "for i in range(len(x_train)):\n    m.fit(x_train[i:i + 1], y_train[i:i + 1], verbose=0)\n",
            line=4,
            message_contains="`x_train[i:i + 1]`",
        ),
        Invalid(  # the same, one epoch given positionally: `fit(x, y, batch_size, epochs, verbose)`
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "for i in range(len(x_train)):\n    m.fit(x_train[i:i + 1], y_train[i:i + 1], 1, 1, 0)\n",
            line=4,
            message_contains="`x_train[i:i + 1]`",
        ),
        Invalid(  # train_on_batch on a batch of one made on the line before
            "import numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "for image, label in zip(images, labels):\n    batch = np.expand_dims(image, axis=0)\n"
            "    m.train_on_batch(batch, np.array([label]))\n",
            line=6,
            message_contains="collect the samples",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if not is_keras_model_method(site.api, TRAINS) or site.features.get("in_tf_function"):
                continue
            if not site.repeats(same=("receiver",)):
                continue
            call, cell = facts.node(site), site.callsite.span.cell
            loops = own_loops(facts, call, cell) if call is not None else []
            loop = loops[0] if loops else None
            per_sample = self._per_sample(facts, site, call, loop)
            if per_sample is not None:
                yield self.diagnostic(site.callsite.span, facts.path, per_sample)
            elif (
                method(site.api) == "fit"
                and site.features.get("epochs") == 1
                and site.repeats(same=("receiver", "x", "y"))  # the same model on the same data
                and not _varies_data(call, loop)
                and not (loop is None and _made_per_call(facts, call, site.callsite.span.cell))
            ):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
            elif (one_batch := self._one_batch(facts, site, call, loop, options)) is not None:
                yield self.diagnostic(site.callsite.span, facts.path, one_batch)

    def _one_batch(self, facts: FileFacts, site: Site, call: ast.Call | None,
                   loop: ast.For | ast.AsyncFor | ast.While | None, options: Mapping[str, Any]) -> str | None:
        """The message for a `fit()` of one epoch on arrays that make one batch, called on every pass of a loop
        whose data each pass makes anew (an agent's replay step), where `train_on_batch` takes the same step
        without `fit()`'s set-up; None otherwise (callbacks or validation `train_on_batch` would drop, data of
        unknown size, a loop of few or of immaterial passes)."""
        if call is None or method(site.api) != "fit" or not _one_epoch(call):
            return None
        if any(k.arg is None or k.arg in FIT_ONLY for k in call.keywords) or len(call.args) > 3:
            return None  # what train_on_batch has no place for (or `**kwargs`, which may carry it)
        samples, batch = site.work_value("samples"), site.work_value("batch_size")
        if site.features.get("input_kind") != "arrays" or not all(
                isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in (samples, batch)) or samples > batch:
            return None
        runs = known_runs(site) or least_runs(site)  # its own loop's, or a caller's: `train_model()` per step
        price = call_start_up("training")
        if runs is None or runs <= FEW_ELEMENTS or price is None or loop is not None and autograph_loop(
                facts, loop, site.callsite.span.cell):
            return None
        if immaterial_overhead(facts, site, price[0], price[1], options):
            return None
        most = "at most " if site.work_bound("samples") == "upper" else ""  # `min(32, len(memory))` rows
        return self.ONE_BATCH.format(samples=most + fmt_counted(samples, "sample"), batch=fmt_count(batch),
                                     cost=repeated_cost(site, price[0], "of set-up"), timed=START_UP_TIMED,
                                     keras=_other_keras(keras_flavour(facts)))

    def _per_sample(self, facts: FileFacts, site: Site, call: ast.Call | None, loop: ast.AST | None) -> str | None:
        """The message for a training call on one sample per iteration of a loop over samples, or None."""
        if (
            call is None
            or not isinstance(loop, (ast.For, ast.AsyncFor))
            or autograph_loop(facts, loop, site.callsite.span.cell)
        ):
            return None
        runs = site.loop_runs
        if runs is not None and runs <= FEW_ELEMENTS:
            return None
        if method(site.api) == "fit" and not _one_epoch(call):
            return None
        x, y = argument(call, "x", 0), argument(call, "y", 1)
        if x is None or not flow.names(x) & loop_varying(loop):
            return None
        item = _one_sample(x, y, loop)
        if item is None or waits_for_user(loop):
            return None
        outputs = _model_outputs(facts, loop, site.callsite.span.cell)
        if outputs & flow.names(x) or _decides(call, loop):
            return None
        caveat = self.BOOTSTRAPPED if y is not None and outputs & flow.names(y) - {"self"} else ""
        return self.PER_SAMPLE.format(
            method=f"{method(site.api)}()",
            item=ast.unparse(item),
            times=site.loop_times(),
            caveat=caveat,
        )


def _one_epoch(call: ast.Call) -> bool:
    """`epochs=1` (by keyword or as the fourth positional argument) or no `epochs` (Keras's default is 1)."""
    if not binds(call, "epochs", 3):
        return True
    given = argument(call, "epochs", 3)
    return isinstance(given, ast.Constant) and given.value == 1 and type(given.value) is int


def _one_sample(x: ast.expr, y: ast.expr | None, loop: ast.For | ast.AsyncFor) -> ast.expr | None:
    """What shows the call trains on one sample: its input (or the expression the loop binds it
    to) is a batch of one, or the loop fills row 0 of its input or target (`target[0][a] = v`,
    `target[0, a] = v`): the program itself treats it as a batch of one row."""
    bound = simple_bindings(loop)
    for expr in (x, y):
        if expr is None:
            continue
        made = bound.get(expr.id, expr) if isinstance(expr, ast.Name) else expr
        if batch_of_one(made):
            return made
    filled = {name for name in (_name(x), _name(y)) if name is not None}
    for node in own_body(loop):
        if isinstance(node, ast.Assign) and any(_row_zero(t) in filled for t in node.targets):
            return x
    return None


def _name(expr: ast.expr | None) -> str | None:
    return expr.id if isinstance(expr, ast.Name) else None


def _row_zero(target: ast.expr) -> str | None:
    """`t` in `t[0][a] = v` or `t[0, a] = v` (a column of row 0), else None."""
    if not isinstance(target, ast.Subscript):
        return None
    index, inner = target.slice, target.value
    if isinstance(index, ast.Tuple) and len(index.elts) >= 2 and _zero(index.elts[0]) and isinstance(inner, ast.Name):
        return inner.id
    if isinstance(inner, ast.Subscript) and _zero(inner.slice) and isinstance(inner.value, ast.Name):
        return inner.value.id
    return None


def _zero(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value == 0 and type(expr.value) is int


def _model_outputs(facts: FileFacts, loop: ast.AST, cell: int | None) -> frozenset:
    """The names the loop binds from a Keras model's output (a prediction, a training call's
    result), and every name it makes from them."""
    seeds: set[str] = set()
    for node in own_body(loop):
        if not isinstance(node, ast.Assign):
            continue
        for inner in ast.walk(node.value):
            site = facts.site_at(inner, cell) if isinstance(inner, ast.Call) else None
            if site is not None and is_keras_model_method(site.api, OUTPUTS):
                seeds |= flow.targets(node.targets[0]) if len(node.targets) == 1 else set()
                break
    return flow.derived(frozenset(seeds), list(getattr(loop, "body", [])))


def _decides(call: ast.Call, loop: ast.AST) -> bool:
    """The call's result reaches a condition in the loop (a `break` on the loss)."""
    bound: frozenset = frozenset()
    for node in own_body(loop):
        if isinstance(node, ast.Assign) and any(n is call for n in ast.walk(node.value)):
            bound = bound.union(*(flow.targets(t) for t in node.targets))
    if not bound:
        return False
    made = flow.derived(bound, list(getattr(loop, "body", [])))
    return any(isinstance(n, (ast.If, ast.While)) and flow.names(n.test) & made for n in own_body(loop))


def _varies_data(call: ast.Call | None, loop: ast.AST | None) -> bool:
    """The loop right around the call binds its data anew each iteration (a loop over chunks or
    samples): not an epoch loop, whatever loops further out do."""
    if call is None or not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
        return False
    data = flow.names(argument(call, "x", 0)) | flow.names(argument(call, "y", 1))
    return bool(data & loop_varying(loop))


#: Methods that fill a list or set with their argument (`states.append(state)`).
FILLS = ("append", "extend", "insert", "add")


def _made_per_call(facts: FileFacts, call: ast.Call | None, cell: int | None) -> bool:
    """The call's data is made anew on each call of its function (a minibatch sampled, or a
    file read, then stacked), or of a function of the file that calls it with that data (`self.model.train(states,
    targets)` after `states = self.buffer.sample()`): loops around the callers then repeat a fit on other data
    each time, not an epoch loop."""
    if call is None:
        return False
    data = flow.names(argument(call, "x", 0)) | flow.names(argument(call, "y", 1))
    return _fresh_at(facts, call, data, cell, CALLERS_FOLLOWED)


#: How many callers up `_made_per_call` follows data given as a function's parameters.
CALLERS_FOLLOWED = 1


def _fresh_at(facts: FileFacts, node: ast.AST, data: frozenset[str], cell: int | None, depth: int) -> bool:
    """Whether the function around *node* makes any of the names *data* anew on each call: binds them from a call's
    result or a loop, or fills them from those (`states.append(state)`); or, *depth* callers up, a call of it in the
    file passes such names to its parameters among *data*."""
    func = enclosing(facts, node, cell)
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    pairs = flow.assignments(func.body)
    for inner in ast.walk(func):
        if (
            isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Attribute)
            and inner.func.attr in FILLS
            and isinstance(inner.func.value, ast.Name)
        ):
            read = frozenset().union(*(flow.names(a) for a in inner.args))
            pairs.append((frozenset((inner.func.value.id,)), read, False))
    fresh = frozenset().union(*(bound for bound, _, made in pairs if made))
    if data & flow.derived(fresh, func.body, pairs):
        return True
    positional = positional_parameters(facts, func, cell)
    given = [p for p in parameters(func) if p in data]
    if depth <= 0 or not given:
        return False
    for at, caller in calls_by_name(facts, func.name, is_method(facts, func, cell)):
        passed = [argument(caller, p, positional.index(p) if p in positional else None) for p in given]
        names = frozenset().union(*(flow.names(a) for a in passed if a is not None))
        if names and _fresh_at(facts, caller, names, at, depth - 1):
            return True
    return False


def _other_keras(flavour: Flavour) -> str:
    """Where the program may not run tf.keras, whose `fit()` set-up the figure is: what its Keras sets up
    instead (multi-backend Keras 2.0-2.3's `fit` has no data adapter, and with `verbose=0` no progress
    bar: its callbacks and batch slicing, a few milliseconds, are not measured here)."""
    if flavour.multi_backend:
        return (f", with tf.keras; this program runs multi-backend Keras 2 ({flavour.basis}), whose `fit()`"
                " sets up less (callbacks, batch slicing: not measured)")
    if flavour.unknown:
        return (", with tf.keras; less with multi-backend Keras 2.0-2.3, which a standalone `keras` may be"
                " (callbacks, batch slicing: not measured)")
    return ""
