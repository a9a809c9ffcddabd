"""GL603 tiny-model-on-gpu: a Keras model whose every step is too small for a GPU, stepped again and again by a loop."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis.agents import trained_by_agent
from greenlint.analysis.callsite import Span
from greenlint.predict.devices import gpu_spec
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, last_name
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.devices import hides_gpus
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import Site, method
from greenlint.rules.syntax import enclosing, last_bindings
from greenlint.rules.tiny_steps import TINY_STEP_FLOPS, tiny_step

#: The constructors a stepped model is reported at.
MODELS = frozenset({"tensorflow.keras.Sequential", "tensorflow.keras.Model", "tensorflow.keras.models.clone_model"})
#: Fewest times a loop must run the call (or an unknown number): fewer steps of a tiny model last
#: seconds, not worth moving it.
MIN_STEPS = 1000

#: keras-rl's DQN on CartPole (4 observations, 2 actions): a 4-16-16-2 MLP trained on every environment step.
KERAS_RL = (
    "import gym\nfrom keras.models import Sequential\nfrom keras.layers import Dense, Flatten\n"
    "from rl.agents.dqn import DQNAgent\n"
    "env = gym.make('CartPole-v1')\n"
    "model = Sequential()\nmodel.add(Flatten(input_shape=(1,) + env.observation_space.shape))\n"
    "model.add(Dense(16, activation='relu'))\nmodel.add(Dense(16, activation='relu'))\n"
    "model.add(Dense(env.action_space.n))\n"
    "dqn = DQNAgent(model=model, nb_actions=env.action_space.n, memory=memory)\n"
    "dqn.compile('adam')\ndqn.fit(env, nb_steps=50000)\n"
)

#: A DQN agent's network: a 4-24-24-2 MLP (770 weights), one predict per environment step.
AGENT = (
    "import numpy as np\nimport tensorflow as tf\n\n\n"
    "class Agent:\n"
    "    def __init__(self):\n        self.model = self._build_model()\n\n"
    "    def _build_model(self):\n"
    "        model = tf.keras.Sequential()\n"
    "        model.add(tf.keras.layers.Dense(24, input_dim=4, activation='relu'))\n"
    "        model.add(tf.keras.layers.Dense(24, activation='relu'))\n"
    "        model.add(tf.keras.layers.Dense(2))\n"
    "        model.compile(loss='mse', optimizer='adam')\n"
    "        return model\n\n"
    "    def act(self, state):\n        return np.argmax(self.model.predict(state)[0])\n\n\n"
    "agent = Agent()\n"
    "for episode in range(1000):\n    state = env.reset()\n"
    "    for t in range(500):\n        state, reward, done, _ = env.step(agent.act(state))\n"
)


#: A model trained on 32 rows a step, its first layer frozen.
FROZEN_STEP = (
    "import numpy as np\nimport tensorflow as tf\n"
    "model = tf.keras.Sequential([tf.keras.Input((64,)), tf.keras.layers.Dense(128, trainable=False), "
    "tf.keras.layers.Dense(2)])\nmodel.compile(optimizer='adam', loss='mse')\n"
    "for step in range(100000):\n    model.train_on_batch(np.zeros((32, 64)), np.zeros((32, 2)))\n"
)


class TinyModelOnGpu(Rule):
    """
    ## What it does
    Flags a Keras model whose every step is too small for a GPU to do faster than one CPU core,
    called again and again by a Python loop (at least 1,000 times, or a number the code does not
    bound): `predict`, `fit`, `evaluate`, the `*_on_batch` methods or the model's own call, once per
    loop iteration (a reinforcement-learning agent's network, stepped once per environment step, is
    the common case). Fewer steps of such a model last seconds. Reported where the model is
    built (`model = Sequential()`, through an attribute and a builder function of the file such as
    `self.model = self._build_model()`), where the fix goes; at the loop's call where the file does
    not show it.

    Also flags keras-rl's training entry point, `agent.fit(env, nb_steps=...)` of an agent the
    file builds (`DQNAgent`, `DDPGAgent`, `NAFAgent`, imported from `rl.agents`) on Keras models
    whose FLOPs it shows: keras-rl runs `nb_steps` environment steps, each with a forward pass of
    one observation and, after the warm-up, a training step on a replay batch of `batch_size` rows
    (32 unless given) of each model (greenlint/analysis/agents.py). Reported at the `fit` call
    when the training steps of all the models given, summed (a DDPG actor's step runs through its
    critic), are too small.

    A step is too small when its FLOPs (the model's FLOPs per sample, read from its layers, x the
    rows of one step, x 3 for a training step's backward pass and update) are at most 10^6.
    greenlint's cost model (greenlint/predict/work_energy.py) runs an op of F FLOPs on a GPU at its
    peak x F / (F + n-half), with n-half = 10^9 FLOPs: at 10^6 FLOPs that is 10^10 FLOP/s, what one
    CPU core sustains on small products (a stated figure). The rows of a step are those of a
    `*_on_batch` call or the model's call (known from the arrays given), or at most the
    `batch_size` of `predict`/`fit`/`evaluate` (Keras' 32 where not given).

    Not reported where the claim cannot be shown: the model's FLOPs unknown (an input width read
    from an environment or a file at run time: unknown stays unknown), only a lower bound (a layer
    greenlint does not know), or the rows of a step unknown; where the loop does not repeat the
    call; in test code; and where the program already keeps the work off a GPU: it hides every GPU
    (`os.environ["CUDA_VISIBLE_DEVICES"] = "-1"`, `tf.config.set_visible_devices([], "GPU")`) or
    places work on the CPU (`with tf.device("/cpu:0")`). The claim is about GPUs: the message says
    so, and names the GPU and its power where one was stated (`--device`).

    ## Why is this bad?
    On a GPU, each step of a tiny model is host work: the ops' dispatch and kernel launches
    (forward and backward, layer by layer), a copy of the batch to the device and of the result
    back, and a synchronisation when the result is read, while the arithmetic itself takes
    microseconds. The GPU does not make such a step faster than the CPU, and its board stays powered
    throughout: greenlint's device model (greenlint/predict/devices.py) has a GPU drawing 22 % of
    its TDP above idle while its steps wait on the host (the KB's reference GPU training the
    tutorials' small models). Run on the CPU, the same steps take about as long and that draw disappears; over the hours
    a reinforcement-learning run lasts, it is most of the energy the GPU adds.

    ## Example
    ```python
    import numpy as np
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(24), tf.keras.layers.Dense(2)])
    for step in range(100_000):
        action = np.argmax(model.predict(state))
        state = env.step(action)
    ```

    ## Use instead
    ```python
    import numpy as np
    import tensorflow as tf

    with tf.device("/cpu:0"):
        model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(24), tf.keras.layers.Dense(2)])
    for step in range(100_000):
        action = np.argmax(model.predict(state))
        state = env.step(action)
    ```
    (or hide the GPUs from the whole program: `CUDA_VISIBLE_DEVICES=-1`).

    ## Energy evidence
    Not measurable on this machine: it has no GPU, and the saving is the GPU's draw while it waits
    on the host, which a CPU-only run does not have. Priced by greenlint's device model
    (greenlint/predict/devices.py) on an NVIDIA Tesla T4 against one CPU core, the saving is
    **+59 % (+41 % to +75 %)**. Both runs do the same host work a step: the KB reference machine's
    host drew 10.0 W net while its GPU trained the tutorials' small models (the training power
    model's 53.15 W x `fit`'s CPU and RAM shares). On the GPU the board adds its wait share
    (0.222 of its TDP, that reference board's net draw then) x 70 W = 15.5 W, within a factor 2
    either way (the device model's `DEVICE_HALF`: a device class's constants, not this board's
    measurement): 7.8 to 31 W. On the CPU the step's arithmetic adds at most 10^6 FLOPs at one
    core's 10^10 FLOP/s, 0.1 ms, to Keras' 2.3 ms of host work a step (the work model's
    shorter `per_step`, before its share per layer of the model): 4.4 % more. Saving = 1 - 10.0 x
    1.044 / (10.0 + GPU draw). A larger board draws more while it waits: +89 % (+81 % to +94 %) on an
    A100-SXM4 (400 W).

    ## Fix safety
    No automatic fix: where the model runs is the program's choice, and a model that grows past
    this size gains from the GPU again.

    ## Options
    None.
    """

    code = "GL603"
    name = "tiny-model-on-gpu"
    MESSAGE = (
        "this model ({flops:,.0f} FLOPs per sample) is stepped by a loop (`{method}` at {line}, at most"
        " {step:,.0f} FLOPs a step): on {device} such a step is launches and copies, no faster than one CPU core,"
        " while the board draws power; run the model on the CPU"
    )
    MESSAGE_AGENT = (
        "{via} steps the models it is given ({flops:,.0f} FLOPs per sample in all) once per environment step, a"
        " training step on {rows} rows at most {step:,.0f} FLOPs: on {device} such a step is launches and copies,"
        " no faster than one CPU core, while the board draws power; run the models on the CPU"
    )
    ANY_GPU = "a GPU"
    ON_DEVICE = "the stated {name} (its {tdp:.0f} W board above its idle {idle:.0f} W whenever a step keeps it awake)"
    FIX_TITLE = 'Build and run the model under `tf.device("/cpu:0")`, or hide the GPUs'
    VALID = (
        Valid(
            AGENT.replace(
                "import numpy as np\n", "import os\nimport numpy as np\nos.environ['CUDA_VISIBLE_DEVICES'] = '-1'\n"
            )
        ),
        Valid(  # the model placed on the CPU by the program
            AGENT.replace(
                "        model = tf.keras.Sequential()\n",
                "        with tf.device('/CPU:0'):\n            model = tf.keras.Sequential()\n",
            )
        ),
        Valid(AGENT.replace("input_dim=4", "input_dim=env.observation_space.shape[0]")),  # width unknown
        Valid(  # a step of 32 rows of a 4096-wide layer: 3.2 x 10^10 FLOPs, work for a GPU
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.Input((4096,)), tf.keras.layers.Dense(4096), tf.keras.layers.Dense(10)])\n"
            "for batch in batches:\n    model.train_on_batch(batch, labels)\n"
        ),
        Valid(  # stepped once: no loop
            "import numpy as np\nimport tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8), tf.keras.layers.Dense(2)])\n"
            "print(model.predict(np.zeros((1, 4))))\n"
        ),
        Valid(  # a layer greenlint does not know: its FLOPs are a lower bound
            "import numpy as np\nimport tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.Input((4,)), MyBlock(), tf.keras.layers.Dense(2)])\n"
            "for step in range(10000):\n    model.predict(np.zeros((1, 4)))\n"
        ),
        Valid(  # test code
            "import numpy as np\nimport tensorflow as tf\n\n\ndef test_policy():\n"
            "    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(2)])\n"
            "    for step in range(10000):\n        model.predict(np.zeros((1, 4)))\n"
        ),
        Valid(AGENT.replace("range(500)", "range(2)").replace("range(1000)", "range(3)")),  # 6 steps: seconds at most
        Valid(  # keras-rl on a network of 4096-wide layers: 32 rows a step are work for a GPU
            KERAS_RL.replace("Dense(16,", "Dense(4096,")
        ),
        Valid(KERAS_RL.replace("nb_steps=50000", "steps=50000")),  # not keras-rl's fit: its steps not stated
        Valid(FROZEN_STEP.replace(", trainable=False", "")),  # trained whole: 3 passes of 32 rows, 1.6 x 10^6 FLOPs
        Valid(KERAS_RL.replace("gym.make('CartPole-v1')", "make_env()")),  # the observation's width unknown
    )
    INVALID = (
        Invalid(AGENT, line=10, message_contains="stepped by a loop (`predict` at line 18"),
        Invalid(  # one finding per model, at the line that builds it
            "import numpy as np\nimport tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(16), tf.keras.layers.Dense(2)])\n"
            "for step in range(100000):\n"
            "    q = model.predict(np.zeros((1, 4)))\n"
            "    model.train_on_batch(np.zeros((32, 4)), np.zeros((32, 2)))\n",
            line=3,
            message_contains="on a GPU",
        ),
        Invalid(  # its first layer frozen: no backward pass below the head, 5.7 x 10^5 FLOPs a step
            FROZEN_STEP,
            line=3,
            message_contains="stepped by a loop (`train_on_batch` at line 6, at most 573,440 FLOPs a step)",
        ),
        Invalid(  # a loop of unknown length (an environment's episode)
            "import numpy as np\nimport tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(32), tf.keras.layers.Dense(4)])\n"
            "done = False\nwhile not done:\n"
            "    action = np.argmax(model(np.zeros((1, 8))))\n    done = env.step(action)\n",
            line=3,
            message_contains="stepped by a loop (`__call__` at line 6, at most 768 FLOPs a step)",
        ),
        Invalid(  # keras-rl trains the network it is given once per environment step, 50,000 times
            KERAS_RL,
            line=13,
            message_contains="keras-rl's DQNAgent.fit steps the models it is given",
        ),
        Invalid(  # a stated GPU: its draw while the steps wait
            AGENT,
            device="NVIDIA Tesla T4",
            line=10,
            message_contains="the stated NVIDIA Tesla T4 (its 70 W board",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        agents = _agent_steps(facts)
        steps = [
            (site, step)
            for site in facts.sites
            if ((step := tiny_step(site)) is not None and not trained_by_agent(site.features))
            or site.callsite.span in agents
        ]
        if not steps or hides_gpus(facts) or _placed_on_cpu(facts):
            return
        spec = gpu_spec(facts.device) if facts.device is not None else None
        device = (
            self.ANY_GPU
            if spec is None
            else self.ON_DEVICE.format(name=spec.name, tdp=spec.tdp_w, idle=spec.idle_w)
        )
        reported: set[Span] = set()
        for site, step in steps:
            loops = site.loop_runs
            if (
                (loops is not None and loops < MIN_STEPS)
                or not site.repeats(("receiver",))
                or in_test_code(facts, site)
            ):
                continue
            span = _built_at(facts, site) or site.callsite.span
            if span in reported:
                continue
            reported.add(span)
            if span in agents:
                flops, step = agents[span]
                message = self.MESSAGE_AGENT.format(
                    via=site.features.get("via"), flops=flops, rows=site.work_value("samples"), step=step, device=device
                )
                yield self.diagnostic(span, facts.path, message, data={"step_flops": step})
                continue
            message = self.MESSAGE.format(
                flops=site.work_value("flops_per_sample"),
                method=method(site.api),
                line=_where(site.callsite.span, span),
                step=step,
                device=device,
            )
            yield self.diagnostic(span, facts.path, message, data={"step_flops": step})


def _where(call: Span, built: Span) -> str:
    """`line 12`, or `cell 4 line 12` when the call is in another notebook cell than the model's build."""
    return f"line {call.line}" if call.cell == built.cell else f"cell {call.cell} line {call.line}"


def _agent_steps(facts: FileFacts) -> dict[Span, tuple[float, float]]:
    """Per library call that trains the models it was given (`trained_by_agent`: keras-rl's
    `agent.fit` running a model it was given, listed at that call), where every one's
    training step is known and tiny and so is their sum (an actor's training step runs through its
    critic): (their FLOPs per sample, the FLOPs of their steps), summed."""
    found: dict[Span, list[tuple[Site, float | None]]] = {}
    for site in facts.sites:
        if trained_by_agent(site.features):
            found.setdefault(site.callsite.span, []).append((site, tiny_step(site)))
    return {
        span: (sum(s.work_value("flops_per_sample") for s, _ in steps), total)
        for span, steps in found.items()
        if all(step is not None for _, step in steps)
        and (total := sum(step or 0.0 for _, step in steps)) <= TINY_STEP_FLOPS
    }


def _placed_on_cpu(facts: FileFacts) -> bool:
    """The file places work on the CPU itself: a `tf.device(...)` call whose literal names a CPU."""
    if not ("cpu" in facts.text or "CPU" in facts.text):
        return False
    return any(
        last_name(call.func) == "device"
        and call.args
        and isinstance(call.args[0], ast.Constant)
        and "cpu" in str(call.args[0].value).lower()
        for cell in facts.cells
        for call in facts.calls(cell)
    )


def _built_at(facts: FileFacts, site: Site) -> Span | None:
    """Where the file builds the stepped model: the `Sequential(...)`/`Model(...)`/`clone_model(...)`
    call its receiver (`model`, `self.model`) was last bound to, directly or as what a function of
    the file returns (`self.model = self._build_model()`); None where the file does not show it."""
    call, cell = facts.node(site), site.callsite.span.cell
    if call is None:
        return None
    receiver = call.func if method(site.api) == "__call__" else getattr(call.func, "value", None)
    bound = _bound(facts, receiver, call, cell) if isinstance(receiver, ast.expr) else None
    return _construction(facts, *bound, depth=3) if bound is not None else None


def _bound(facts: FileFacts, name: ast.expr, at: ast.AST, cell: int | None) -> tuple[ast.expr, int | None] | None:
    """The value (and its cell) a name was last bound to by a plain assignment: in the scope of *at*,
    else at the top level of its cell or of an earlier cell of a notebook; or that a
    `self.<attribute>` was bound to in a method of the class around *at*."""
    if isinstance(name, ast.Name):
        line = getattr(at, "lineno", 0)
        scopes = [(enclosing(facts, at, cell), cell, line), (facts.module(cell), cell, line)]
        if cell is not None:
            scopes += [(facts.module(earlier), earlier, 10**9) for earlier in range(cell - 1, 0, -1)]
        for scope, where, before in scopes:
            assign = last_bindings(scope, before).get(name.id) if scope is not None else None
            if assign is not None:
                return assign.value, where
        return None
    if not (isinstance(name, ast.Attribute) and isinstance(name.value, ast.Name) and name.value.id == "self"):
        return None
    cls = enclosing(facts, at, cell, (ast.ClassDef,))
    for node in ast.walk(cls) if cls is not None else ():
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Attribute)
            and isinstance(t.value, ast.Name)
            and t.value.id == "self"
            and t.attr == name.attr
            for t in node.targets
        ):
            return node.value, cell
    return None


def _construction(facts: FileFacts, value: ast.expr, cell: int | None, depth: int) -> Span | None:
    """The span of the model constructor *value* is, or that the function of the file it calls
    returns (followed *depth* calls deep)."""
    if not isinstance(value, ast.Call) or depth <= 0:
        return None
    site = facts.site_at(value, cell)
    if site is not None and site.api in MODELS:
        return site.callsite.span
    for where, function in facts.functions_named(last_name(value.func)):
        for node in ast.walk(function):
            if isinstance(node, ast.Return) and node.value is not None:
                returned = (
                    _bound(facts, node.value, node, where) if isinstance(node.value, ast.Name) else (node.value, where)
                )
                found = _construction(facts, *returned, depth=depth - 1) if returned is not None else None
                if found is not None:
                    return found
    return None
