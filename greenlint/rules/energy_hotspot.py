"""GL101 energy-hotspot: a call site predicted to cost more than a threshold."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.analysis.agents import trained_by_agent
from greenlint.rules.base import FileFacts, Invalid, Option, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.material import SAVING_OPTION, in_tests, known_runs, least_saving_j
from greenlint.rules.site import Site, is_test_assertion
from greenlint.rules.syntax import (
    LOOPS,
    Loop,
    calls_of,
    enclosing,
    environment_step,
    is_training_step,
    own_body,
    trains,
)
from greenlint.units import POINT_MAX_RATIO, TIMES, fmt_count, fmt_counted, fmt_energy, fmt_j, fmt_range, interval_ratio

_TRAIN = ("fit", "fit_generator", "train", "train_on_batch")
_INFER = ("predict", "evaluate", "predict_on_batch", "__call__", "call")


class EnergyHotspot(Rule):
    """
    ## What it does
    Flags a TensorFlow/Keras call site whose predicted net energy, times the number of times
    it runs, exceeds `hotspot-threshold-j` joules even at the low end of its 80 % interval.
    Only a figure narrow enough to act on counts: an interval wider than 100× (a guess across
    orders of magnitude), an upper bound alone (`bounded`, `negligible`: calls measured below
    the resolution or doing no tensor work; a figure priced on samples known only as "at most N",
    `x[:64]` or a replay sample of `min(32, len(memory))`, has no low end either) and `unknown` never
    make a hotspot. A hotspot's claim
    is its figure, so where its runs are counted the low end of that figure, times its runs, must
    also reach `material-saving-j` (10 kJ, about 2.8 Wh; greenlint/rules/material.py): a
    textbook's 25 epochs of an MNIST MLP (18.8 kJ, 80 % interval 7.84 kJ – 45.1 kJ) may well cost
    less, and no change to it saves a material amount. A floor (a figure whose data size or model
    the code does not state: at least its low end) says only that least, and is a hotspot only
    where that least, times its runs, reaches `material-saving-j` itself: a hundred one-sample
    `predict` calls of a model of unknown size are at least 145 J, which says nothing material.
    Nor is test code a hotspot: its cost no user pays.

    ## Why is this bad?
    It is not wrong in itself: it marks where the energy of a script goes, so that review and
    optimisation effort is spent there first. The figure is greenlint's prediction for one
    execution of the call (median net joules with an 80 % interval, CPU + RAM + GPU), multiplied
    by how often the call runs (the loops around it; a loop whose length the code does not say is
    not counted, and the message says the figure is per pass of it). A `fit` whose wall time a
    `TimeStopping` callback caps costs at most that time and one epoch. The message states the figure, its basis
    (`from data`, `predicted`, `calibrated here`, ...), what makes the call expensive (epochs ×
    samples × model, where the work is known) and one concrete lever that fits the call: a call
    that does different work on each pass of its loop (per-step work) is not told to leave the
    loop, and early stopping is left to GL308.

    Not reported for a call whose passes an environment drives: its innermost loop, or the function
    holding it, steps a reinforcement-learning environment (`obs, reward, done, info =
    env.step(action)`), or it is the training step keras-rl's `agent.fit(env, nb_steps)` runs with
    the model it was given, once per environment step. Each pass then works on the environment's
    answer to the previous one, so
    the passes can be neither gathered into one call nor moved out of the loop, and their number
    is the algorithm's budget of environment steps (GL308 reports a loop of them that never stops
    on the reward); a tiny network stepped so is GL603's. Nor for an inference call whose result a
    training step of the same loop pass takes in (a GAN's generator making the fakes its
    discriminator's `train_on_batch` trains on, a feature extractor making a perceptual loss's
    targets): those passes are the training step's own work, which none of this rule's levers
    changes while the models train.

    ## Example
    ```python
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="mse")
    for trial in range(20):
        model.fit(x_train, y_train, epochs=50)
    ```

    ## Use instead
    Run the expensive call fewer times or on less data (fewer trials, fewer epochs, a smaller
    model), or accept it and suppress the finding with `# noqa: GL101`.
    ```python
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="mse")
    model.fit(x_train, y_train, epochs=50)
    ```

    ## Energy evidence
    The figure in each message is greenlint's own prediction for that call site (see
    `greenlint calls --format json` for every component and the evidence behind it). The
    per-API figures the predictor starts from are listed below, as generated from the
    bundled knowledge base when these docs were built.

    ## Fix safety
    No automatic fix: whether the energy is well spent is a judgement about the program.

    ## Options
    - `hotspot-threshold-j`
    - `material-saving-j`
    """

    code = "GL101"
    name = "energy-hotspot"
    MESSAGE = "`{api}` is an energy hotspot: {total}{times} ({interval}, {basis}){drivers}; {lever}"
    FIX_TITLE = "Run it fewer times or on less data, or suppress it if the energy is well spent"
    OPTIONS = (
        Option(
            "hotspot-threshold-j",
            float,
            100.0,
            "Joules (low end of the 80% interval per execution x runs) above which a call site is a hotspot.",
        ),
        SAVING_OPTION,
    )
    EVIDENCE_APIS = (
        "tensorflow.keras.Sequential.fit",
        "tensorflow.keras.Model.fit",
        "tensorflow.keras.Sequential.evaluate",
        "tensorflow.keras.Sequential.predict",
    )
    VALID = (
        Valid(  # one fit whose figure, at its interval's low end, is under material-saving-j: no material claim
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
            "model.compile(optimizer='adam', loss='mse')\nmodel.fit(x, y, epochs=5)\n"
        ),
        Valid(  # near miss: the fit's high end (1 kJ) reaches material-saving-j, its low end (250 J) does not
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
            "model.compile(optimizer='adam', loss='mse')\nmodel.fit(x, y, epochs=5)\n",
            options={"material-saving-j": 500.0},
        ),
        Valid("import tensorflow as tf\nx = tf.constant([1.0, 2.0])\n"),
        Valid(
            "import tensorflow as tf\nmodel = tf.keras.Sequential()\nmodel.fit(x, y, epochs=5)\n",
            options={"hotspot-threshold-j": 1e12},
        ),
        Valid("import numpy as np\nfor i in range(1000):\n    np.dot(a, b)\n"),
        Valid(  # test-case assertions are test helpers, not the program's energy
            "import tensorflow as tf\nclass T(tf.test.TestCase):\n    def test_a(self):\n"
            "        for i in range(1000):\n            self.assertAllClose(a, b)\n",
            options={"hotspot-threshold-j": 0.01},
        ),
        Valid(  # a getter does no tensor work: negligible (an upper bound alone), however often it runs
            "import tensorflow as tf\nfor trial in range(100000):\n    eps = tf.keras.config.epsilon()\n",
            options={"hotspot-threshold-j": 1e-9},
        ),
        Valid(  # an API never measured, without work: no figure, no finding
            "import tensorflow as tf\nfor i in range(100000):\n    tf.signal.hann_window(8)\n",
            options={"hotspot-threshold-j": 1e-9},
        ),
        Valid(  # an interval 10,000x wide supports no claim, even with its low end over the threshold
            "import tensorflow as tf\nfor i in range(100000):\n    tf.linalg.det(m)\n",
            options={"hotspot-threshold-j": 1e-9},
        ),
        Valid(  # the point (1 J x 100 = 100 J) is over 60 J, the interval's low end (50 J) is not
            "import tensorflow as tf\nfor i in range(100):\n    tf.reduce_sum(x)\n",
            options={"hotspot-threshold-j": 60.0},
        ),
        Valid(  # keras-rl trains the network it is given once per environment step (50,000 of them)
            "import gym\nfrom keras.models import Sequential\nfrom keras.layers import Dense, Flatten\n"
            "from rl.agents.dqn import DQNAgent\nenv = gym.make('CartPole-v1')\nmodel = Sequential()\n"
            "model.add(Flatten(input_shape=(1, 4)))\nmodel.add(Dense(16))\nmodel.add(Dense(2))\n"
            "dqn = DQNAgent(model=model, nb_actions=2, memory=memory)\ndqn.fit(env, nb_steps=50000)\n"
        ),
        Valid(  # a policy stepped once per environment step: each pass answers the environment's last state
            "import numpy as np\nimport tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(32), tf.keras.layers.Dense(4)])\n"
            "def play_one_step(env, obs):\n    probas = model(obs[np.newaxis])\n"
            "    obs, reward, done, info = env.step(int(np.argmax(probas)))\n    return obs, done\n"
            "for episode in range(10000):\n    obs = env.reset()\n    for step in range(1000):\n"
            "        obs, done = play_one_step(env, obs)\n",
            options={"hotspot-threshold-j": 100.0},
        ),
        Valid(  # at most 64 rows of data of unknown size: priced at 64, an upper bound with no low end
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
            "model.compile(optimizer='adam', loss='mse')\nfor i in range(3):\n    model.fit(x[:64], y[:64], epochs=5)\n",
            options={"hotspot-threshold-j": 100.0, "material-saving-j": 0.0},
        ),
        Valid(  # a DQN agent's `act`: one state predicted per environment step of its caller's loop
            "import numpy as np\nimport tensorflow as tf\n"
            "class Agent:\n    def __init__(self):\n"
            "        self.model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(24), tf.keras.layers.Dense(2)])\n"
            "    def act(self, state):\n        return np.argmax(self.model.predict(state)[0])\n"
            "agent = Agent()\nfor e in range(1000):\n    state = np.reshape(env.reset(), [1, 4])\n"
            "    for time in range(500):\n        action = agent.act(state)\n"
            "        next_state, reward, done, _ = env.step(action)\n        state = np.reshape(next_state, [1, 4])\n",
            options={"hotspot-threshold-j": 1.0, "material-saving-j": 0.0},
        ),
    )
    INVALID = (
        Invalid(  # near miss of the GAN's fakes: a prediction the training step does not take in
            "import numpy as np\nimport tensorflow as tf\n"
            "gen = tf.keras.Sequential([tf.keras.Input((100,)), tf.keras.layers.Dense(784)])\n"
            "disc = tf.keras.Sequential([tf.keras.Input((784,)), tf.keras.layers.Dense(1)])\n"
            "disc.compile(optimizer='adam', loss='mse')\n"
            "for step in range(30000):\n    noise = np.random.normal(0, 1, (32, 100))\n"
            "    fake = gen.predict(noise)\n    np.save('fake.npy', fake)\n"
            "    d_loss = disc.train_on_batch(real, np.ones((32, 1)))\n",
            options={"hotspot-threshold-j": 1e-9, "material-saving-j": 0.0},
            line=8,
            message_contains="Sequential.predict",
        ),
        Invalid(  # a loop whose length the code does not say: its runs are not counted, and the message says so
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
            "model.compile(optimizer='adam', loss='mse')\nfor x, y in chunks:\n    model.fit(x, y, epochs=5)\n",
            options={"hotspot-threshold-j": 100.0, "material-saving-j": 0.0},
            line=5,
            message_contains="500 J per pass of a loop of unknown length",
        ),
        Invalid(  # literal loops and one of unknown length: neither nested in the other as the message says it
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
            "model.compile(optimizer='adam', loss='mse')\nfor epoch in range(3):\n    for x, y in chunks:\n"
            "        model.fit(x, y, epochs=5)\n",
            options={"hotspot-threshold-j": 100.0, "material-saving-j": 0.0},
            line=6,
            message_contains="1.5 kJ = 500 J × 3 runs of its literal loops, times the passes of a loop of unknown length",
        ),
        Invalid(  # near miss of the "at most 64 rows" fit: the data's 640 rows are known, so 64 are taken
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
            "model.compile(optimizer='adam', loss='mse')\nx = np.zeros((640, 8))\ny = np.zeros((640, 1))\n"
            "for i in range(3):\n    model.fit(x[:64], y[:64], epochs=5)\n",
            options={"hotspot-threshold-j": 100.0, "material-saving-j": 0.0},
            line=8,
            message_contains="5 epochs × 64 samples",
        ),
        Invalid(  # near miss: a counted loop states its runs
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
            "model.compile(optimizer='adam', loss='mse')\nfor i in range(3):\n    model.fit(x, y, epochs=5)\n",
            options={"hotspot-threshold-j": 100.0, "material-saving-j": 0.0},
            line=5,
            message_contains="1.5 kJ = 500 J × 3 runs in a loop",
        ),
        Invalid(  # near miss of the material floor below: the same fit counted against a lower floor
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
            "model.compile(optimizer='adam', loss='mse')\nmodel.fit(x, y, epochs=5)\n",
            options={"material-saving-j": 100.0},
            line=4,
        ),
        Invalid(
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
            "model.compile(optimizer='adam', loss='mse')\n"
            "model.fit(x, y, epochs=5)\n",
            options={"hotspot-threshold-j": 1e-9, "material-saving-j": 0.0},
            line=4,
            message_contains="tensorflow.keras.Sequential.fit",
        ),
        Invalid(  # no validation data: nothing to stop on, so no "stop early"
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
            "model.compile(optimizer='adam', loss='mse')\n"
            "model.fit(x, y, epochs=50)\n",
            options={"hotspot-threshold-j": 1e-9, "material-saving-j": 0.0},
            line=4,
            message_contains="fewer epochs",
        ),
        Invalid(  # gradient ascent on the input: each pass feeds the next, so "batch the inputs" does not fit
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nimg = tf.Variable(start)\n"
            "for step in range(1920):\n    with tf.GradientTape() as tape:\n"
            "        loss = tf.reduce_mean(model.predict(img))\n    img.assign_add(tape.gradient(loss, img))\n",
            options={"hotspot-threshold-j": 10.0, "material-saving-j": 0.0},
            line=6,
            message_contains="each pass works on what the previous one produced",
        ),
        Invalid(  # per-step work (a new batch each pass): never "run it once, outside the loop"
            "import tensorflow as tf\n"
            "for step in range(1000):\n"
            "    x_batch, y_batch = next(batches)\n"
            "    loss = tf.reduce_mean(tf.square(model(x_batch) - y_batch))\n",
            options={"hotspot-threshold-j": 10.0, "material-saving-j": 0.0},
            line=4,
            message_contains="each pass of its loop works on something new",
        ),
        Invalid(  # a training step per batch of a loader of unknown length: "fewer samples" of a 1-sample batch does not fit
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.Input((64,)), tf.keras.layers.Dense(4096)])\n"
            "model.compile(optimizer='adam', loss='mse')\n"
            "for epoch in range(200):\n    for imgs, labels in loader.load_batch(1):\n"
            "        model.train_on_batch(imgs, labels)\n",
            options={"hotspot-threshold-j": 1.0, "material-saving-j": 0.0},
            line=6,
            message_contains="each pass of its loop works on something new",
        ),
        Invalid(  # samples drawn every N epochs of a training loop: the model changed since the last, nothing to gather
            "import numpy as np\nimport tensorflow as tf\n"
            "gen = tf.keras.Sequential([tf.keras.layers.Dense(784)])\n"
            "gan = tf.keras.Sequential([gen, tf.keras.layers.Dense(1)])\n"
            "def sample():\n    return gen.predict(np.zeros((25, 100)))\n"
            "for epoch in range(4000):\n    gan.train_on_batch(np.zeros((32, 100)), np.ones((32, 1)))\n"
            "    if epoch % 50 == 0:\n        sample()\n",
            options={"hotspot-threshold-j": 1.0, "material-saving-j": 0.0},
            line=6,
            message_contains="a training step runs between these calls",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        threshold = float(options.get("hotspot-threshold-j", 100.0))
        for site in facts.sites:
            total = site.total_energy_j
            if total is None or is_test_assertion(site.api) or not _supported_over(site, threshold):
                continue
            if (site.prediction.floor or known_runs(site) is not None) and not _supported_over(site, least_saving_j(options)):
                continue  # its least, over counted runs (or a floor's least), is not itself material
            if trained_by_agent(site.features) or _driven_by_environment(facts, site) or in_tests(facts, site):
                continue
            if _feeds_training(facts, site):
                continue
            p = site.prediction
            factor = site.program_runs
            repeated = site.loop_runs is None or site.loop_runs > 1  # None: a loop of unknown length
            reason = site.runs_reason()
            at_most = "at most " if site.runs_bound == "upper" else ""
            why = f" {reason}" if reason else ""
            each = fmt_j(p.energy_j)
            times = f" = {each} {TIMES} {at_most}{fmt_count(factor)} runs{why}" if factor != 1 else ""
            if site.runs_bound == "unknown" and site.loop_runs is None:  # its runs are not counted: said so
                if factor != 1:  # inside or around the literal loops: the unknown one's passes multiply them
                    times = f" = {each} {TIMES} {fmt_count(factor)} runs of its literal loops, times the passes of a loop of unknown length"
                else:
                    times = " per pass of a loop of unknown length"
            interval = (
                f"80% interval {fmt_range(*(v * factor for v in p.interval_j))}" if p.interval_j else "no interval"
            )
            message = self.MESSAGE.format(
                api=site.api,
                total=fmt_energy(p.energy_j, p.interval_j, factor),
                times=times,
                interval=interval,
                basis=p.basis.label,
                drivers=_drivers(site),
                lever=_lever(
                    site,
                    per_step=repeated and _per_step(facts, site),
                    recurrent=repeated and _recurrent(facts, site),
                    trained=repeated and _trained_between(facts, site),
                ),
            )
            yield self.diagnostic(
                site.callsite.span,
                facts.path,
                message,
                energy_j=total,
                data={
                    "threshold_j": threshold,
                    "per_execution_j": p.energy_j,
                    "multiplier": factor,
                    "basis": p.basis.value,
                },
            )


def _supported_over(site: Site, threshold: float) -> bool:
    """The figure supports "over the threshold": the low end of its 80 % interval (times its runs)
    is above it, and the interval is narrow enough to act on (at most `POINT_MAX_RATIO` wide, not
    an upper bound alone). A figure without an interval (measured here) counts by its value. A
    figure of samples known only as "at most N" (`x[:64]`, `random.sample(memory, k)`) is an upper
    bound alone whatever its interval: it was priced at N, and fewer rows cost less (at most one row is
    one: a Keras call given none raises)."""
    p = site.prediction
    if site.work_bound("samples") == "upper" and site.work_value("samples") != 1:
        return False
    if p.interval_j is None:
        return site.total_energy_j > threshold
    ratio = interval_ratio(p.interval_j)
    return ratio is not None and ratio <= POINT_MAX_RATIO and p.interval_j[0] * site.program_runs > threshold


def _driven_by_environment(facts: FileFacts, site: Site) -> bool:
    """The call's innermost loop, or the function holding it, steps an environment
    (`syntax.environment_step`): each pass answers the environment's previous state. A function
    holding it outside any loop of its own (a DQN agent's `act`) counts where a call of it in the
    file (by its name) sits in such a loop."""
    call = facts.node(site)
    cell = site.callsite.span.cell
    return call is not None and (_steps_environment(facts, call, cell) or any(
        _steps_environment(facts, caller, unit)
        for function in _holding_function(facts, call, cell)
        for unit in facts.cells
        for caller in facts.calls_named(unit, function.name)
    ))


def _steps_environment(facts: FileFacts, call: ast.AST, cell: int | None) -> bool:
    """The innermost loop or function around *call* steps an environment."""
    around = enclosing(facts, call, cell, (*LOOPS, ast.FunctionDef, ast.AsyncFunctionDef))
    return around is not None and any(
        isinstance(node, ast.Call) and environment_step(facts, node, cell) for node in ast.walk(around)
    )


def _holding_function(facts: FileFacts, call: ast.AST, cell: int | None) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, ...]:
    """The function whose body holds *call* outside any loop of its own; () inside a loop or at top level."""
    around = enclosing(facts, call, cell, (*LOOPS, ast.FunctionDef, ast.AsyncFunctionDef))
    return (around,) if isinstance(around, (ast.FunctionDef, ast.AsyncFunctionDef)) else ()


def _per_step(facts: FileFacts, site: Site) -> bool:
    """The call does different work on each pass of its loop: the run counts say so (`varies`), or a
    name it reads (arguments, receiver) is bound inside the innermost enclosing loop (the loop's
    variable, or a value computed in its body, such as a batch or the model's output on it)."""
    if site.callsite.runs.varies:
        return True
    call, loop = _in_loop(facts, site)
    if call is None or loop is None:
        return False
    read = {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}
    return bool(read & flow.varying(getattr(loop, "target", None), loop.body))


def _in_loop(facts: FileFacts, site: Site) -> tuple[ast.Call | None, Loop | None]:
    """The call and the innermost loop around it (at any depth of functions), or Nones."""
    call = facts.node(site)
    if call is None:
        return None, None
    return call, next((a for a in facts.ancestors(call, site.callsite.span.cell) if isinstance(a, LOOPS)), None)


def _feeds_training(facts: FileFacts, site: Site) -> bool:
    """An inference call whose result a training step of the same loop pass takes in: a GAN's
    generator making the fakes its discriminator trains on (`fake = g.predict(z)` then
    `d.train_on_batch(fake, zeros)`), a feature extractor making a perceptual loss's targets. Its
    passes are part of that step's work: none can be batched, cached or moved out of the loop while
    the models train, and training less is the training's own finding (GL308), not this call's."""
    if site.api.rpartition(".")[2] not in _INFER:
        return False
    call, loop = _in_loop(facts, site)
    if call is None or loop is None:
        return False
    cell = site.callsite.span.cell
    assign = next((a for a in facts.ancestors(call, cell) if isinstance(a, (ast.Assign, *LOOPS))), None)
    if not isinstance(assign, ast.Assign):
        return False
    made = flow.derived(frozenset().union(*(flow.targets(t) for t in assign.targets)), loop.body)
    for node in own_body(loop):
        if not isinstance(node, ast.Call) or node is call:
            continue
        step = facts.site_at(node, cell)
        if step is not None and is_training_step(step):
            read = {n.id for arg in [*node.args, *(k.value for k in node.keywords)] for n in ast.walk(arg)
                    if isinstance(n, ast.Name)}
            if read & made:
                return True
    return False


def _trained_between(facts: FileFacts, site: Site) -> bool:
    """A training step runs between the passes that repeat the call: the loop around it in its own
    function trains (`syntax.trains`), or, outside loops there, a loop around one of the file's calls
    of that function does (`sample_images(epoch)` every N epochs of a GAN's training loop). The
    model (or what feeds it) may change from one call to the next, so the calls cannot be gathered
    into one, nor one moved out of the loop."""
    node = facts.node(site)
    if node is None:
        return False
    cell = site.callsite.span.cell
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, LOOPS):
            return trains(facts, parent, cell)
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for call_cell, call in calls_of(facts, parent, cell):
                loop = next((a for a in facts.ancestors(call, call_cell) if isinstance(a, LOOPS)), None)
                if trains(facts, loop, call_cell):
                    return True
            return False
    return False


def _recurrent(facts: FileFacts, site: Site) -> bool:
    """The call's arguments derive from a value its loop carries from one pass to the next: a
    name the body updates from itself (`img += step`, `img = img + g`, `img.assign_add(g)`), or
    one computed from such a name. Its passes form a chain, so they cannot be batched."""
    call, loop = _in_loop(facts, site)
    if call is None or loop is None:
        return False
    carried = set()
    for node in ast.walk(loop):
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            carried.add(node.target.id)
        elif isinstance(node, ast.Assign):
            bound = frozenset().union(*(flow.targets(t) for t in node.targets))
            carried |= bound & flow.names(node.value)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.attr in ("assign", "assign_add", "assign_sub")
        ):
            carried.add(node.func.value.id)
    if not carried:
        return False
    read = frozenset().union(*(flow.names(a) for a in (*call.args, *(k.value for k in call.keywords))))
    return bool(read & flow.derived(frozenset(carried), loop.body))


def _drivers(site: Site) -> str:
    """`: 20 epochs × 60,000 samples × MobileNetV2 (3.5M params)`, from what the work says."""
    parts = []
    epochs, samples = site.work_value("epochs"), site.work_value("samples")
    if epochs is not None:  # an upper bound (early stopping) kept as such
        parts.append(("at most " if site.work_bound("epochs") == "upper" else "") + fmt_counted(epochs, "epoch"))
    if samples is not None:
        parts.append(fmt_counted(samples, "sample"))  # "at most" one is one; more is no hotspot (_supported_over)
    elif site.work_value("steps_per_epoch") is not None:
        parts.append(f"{fmt_count(site.work_value('steps_per_epoch'))} steps per epoch")
    model, params, flops = site.work_value("model"), site.work_value("params"), site.work_value("flops_per_sample")
    at_least = {key: "at least " if site.work_lower(key) else "" for key in ("params", "flops_per_sample")}
    if model or params:  # a lower bound of 0 (no layer known) says nothing
        size = None
        if isinstance(params, (int, float)) and not isinstance(params, bool):
            size = at_least["params"] + (f"{params / 1e6:.3g}M params" if params >= 1e6 else f"{params:,.0f} params")
        parts.append(f"{model} ({size})" if model and size else str(model or size))
    elif flops and not isinstance(flops, bool):
        parts.append(f"{at_least['flops_per_sample']}{flops:.3g} FLOPs per sample")
    elif site.work_value("elements") is not None:
        parts.append(f"{fmt_count(site.work_value('elements'))} elements")
    return f": {f' {TIMES} '.join(parts)}" if parts else ""


def _lever(site: Site, per_step: bool = False, recurrent: bool = False, trained: bool = False) -> str:
    """One concrete change that lowers this call's energy. Never "stop early": that is GL308's
    finding where the fit has validation data, and without validation data there is nothing to stop on.
    *trained*: a training step runs between the calls (`_trained_between`)."""
    method = site.api.rpartition(".")[2]
    epochs = site.work_value("epochs")
    loop = site.loop_runs or 0  # repeats the loops give, not calls of its function from several places
    if loop > 1 and method in _INFER and site.repeats(same=("receiver",)) and not recurrent and not trained:
        return f"batch the {fmt_count(loop)} inputs into one `{method}` call"
    if recurrent:  # each pass feeds the next (gradient ascent, generation): nothing to batch or hoist
        return "each pass works on what the previous one produced: run fewer passes, or a smaller input or model"
    if per_step:  # different work on each pass (a batch, a trial's model): leaving the loop is no option
        return "each pass of its loop works on something new: run fewer passes, or do less in each (smaller inputs or model)"
    if trained and method in _INFER:  # a GAN's samples every N epochs: the generator changed since the last
        return "a training step runs between these calls, so they cannot be gathered into one: run them less often or on fewer samples"
    every_iteration = (site.callsite.runs.loop_bound or "exact") == "exact"  # not periodic, no break
    if loop > 1 and site.repeats() and every_iteration:
        return "run it once, outside the loop, or fewer times"
    cap = site.work_value("wall_s")
    if method in _TRAIN and isinstance(epochs, (int, float)) and epochs > 1 and cap is not None:  # a time cap
        return (f"train for fewer epochs than {epochs:g} or a shorter time than its TimeStopping's {cap:g} s, "
                "on less data or with a smaller model")
    if method in _TRAIN and isinstance(epochs, (int, float)) and epochs > 1:
        if site.work_bound("epochs") == "upper":
            return "early stopping already bounds the epochs: a smaller model or less data lowers it further"
        return f"train for fewer epochs than {epochs:g}, on less data or with a smaller model"
    if method in _TRAIN:
        return "train on less data or a smaller model (fewer samples, fewer or narrower layers)"
    if method in _INFER:
        return "use a larger `batch_size`, or a smaller model, or cache the result"
    return "run it on less data, fewer times, or suppress it if the energy is well spent"
