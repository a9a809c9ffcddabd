"""keras-rl's agents, which step the Keras models they are given (the `rl` package of keras-rl and
keras-rl2): a small table of its API, never imported.

`DQNAgent(model=model, ...)` then `dqn.fit(env, nb_steps=50000)`: `Agent.fit` (rl/core.py) runs
`nb_steps` environment steps, each a forward pass of one observation and, after the warm-up,
every `train_interval` steps (1 by default), a training step on a batch of `batch_size` (32 by
default) transitions sampled from the replay memory: `train_on_batch` of the network, beside
target-network predictions on the same batch (rl/agents/dqn.py, rl/agents/ddpg.py). So each model
given is listed at the `fit` call as one `train_on_batch` of `batch_size` rows, run at most
`nb_steps` times (`features.receiver` "driver", as a library that calls what it is given:
drivers.py). Only the agents below, whose constructors take the models by these parameters, and
a `fit` that states `nb_steps`; any other class of the package gives nothing. An import of one
of these names from `rl.agents` is read as keras-rl's even where the project holds a package `rl`
(keras-rl's own examples): the table stands for the classes it defines. Light on purpose
(no catalog): the rules read `trained_by_agent` on a fully cached run.
"""

from __future__ import annotations

from greenlint.analysis.drivers import DRIVER
from greenlint.analysis.runs import UNKNOWN, UPPER, Local
from greenlint.analysis.values import Const, Inst

PACKAGE = "rl"
AGENT = "rl.core.Agent"
FIT = "rl.core.Agent.fit"
#: Agent class -> its constructor's parameters, in order, that it may be given a model by, and
#: the position of each (a `model` passed by position); `batch_size` is a keyword of every one.
AGENTS: dict[str, tuple[tuple[str, int | None], ...]] = {
    "DQNAgent": (("model", 0),),
    "DDPGAgent": (("actor", 1), ("critic", 2)),
    "NAFAgent": (("V_model", 0), ("L_model", 1), ("mu_model", 2)),
}
#: keras-rl's default replay batch (`AbstractDQNAgent`, `DDPGAgent`, `NAFAgent`).
BATCH = 32
#: `Agent.fit`'s parameters a call may pass by position (after `self`), in order.
FIT_PARAMETERS = ("env", "nb_steps")
#: What each model given is listed as at the agent's `fit`.
STEP = "tensorflow.keras.Model.train_on_batch"
VIA = "keras-rl's "


def agent_path(path: str) -> bool:
    """`rl.agents.dqn.DQNAgent`, `rl.agents.DDPGAgent`: an agent class of keras-rl's table."""
    return path.startswith(PACKAGE + ".agents.") and path.rpartition(".")[2] in AGENTS


def make(path: str, args: list, keywords: list) -> Inst | None:
    """The agent `DQNAgent(model=model, ...)` builds: what it is given for its models (the resolver
    keeps the Keras models among them) and its batch."""
    positional = [value for starred, value in args if not starred]
    named = {name: value for name, value in keywords if name}
    models = tuple(
        named.get(name, positional[position] if position is not None and position < len(positional) else None)
        for name, position in AGENTS[path.rpartition(".")[2]]
    )
    batch = named.get("batch_size", Const(BATCH))
    rows = batch.value if type(batch) is Const and type(batch.value) is int and batch.value > 0 else None
    return Inst(AGENT, "constructor", {"models": models, "batch": rows, "name": path.rpartition(".")[2]})


def attribute(owner: Inst, attr: str) -> Inst | None:
    """`agent.fit`: the method that steps the agent's models."""
    return Inst(FIT, "attribute", {"agent": owner}) if attr == "fit" else None


def fit_steps(args: list, keywords: list) -> tuple[Local, str] | None:
    """How often `agent.fit(env, nb_steps=...)` runs a training step, and why; None where the
    call does not state `nb_steps` (not keras-rl's `fit`, or a count not known here: unknown)."""
    positional = [value for starred, value in args if not starred]
    named = {name: value for name, value in keywords if name}
    given = named.get("nb_steps", positional[1] if len(positional) > 1 else None)
    if given is None:
        return None
    if type(given) is Const and type(given.value) is int and given.value > 0:
        return Local(given.value, UPPER), f"at most one training step per environment step (nb_steps={given.value})"
    return Local(None, UNKNOWN), "one training step per environment step, nb_steps not known here"


def batch_note(rows: int | None) -> str:
    """What the replay batch one training step of the agent's models is given is, for its shape's note."""
    return f"keras-rl's replay batch (batch_size={rows})" if rows else "keras-rl's replay batch, its size not known"


def via(agent: str) -> str:
    """`features.via` of an agent's training step listed at its `fit`."""
    return f"{VIA}{agent}.fit"


def trained_by_agent(features: dict) -> bool:
    """The call site is a model's training step a keras-rl agent's `fit` runs once per environment
    step (each answering the environment's last state: `agent_fit` of the resolver)."""
    return features.get("receiver") == DRIVER and str(features.get("via", "")).startswith(VIA)


def note(agent: str, why: str) -> str:
    """The basis note of an agent's training step listed at its `fit`."""
    return f"keras-rl's {agent}.fit trains the model it was given on replay batches: {why}"
