"""keras-rl's training entry point, as its code and documentation state it (the `rl` package of
keras-rl and keras-rl2): an agent (`DQNAgent`, `DDPGAgent`, ...: a subclass of `rl.core.Agent`)
trains with `agent.fit(env, nb_steps, action_repetition=1, callbacks=None, verbose=1,
visualize=False, ...)`, and `visualize=True` adds its `Visualizer` callback, which calls
`env.render(mode='human')` after every action. Read from the file's imports, never imported."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from greenlint.rules.base import FileFacts, argument
from greenlint.rules.syntax import cell_units

#: The package keras-rl (and keras-rl2) installs.
PACKAGE = "rl"
#: `Agent.fit`'s parameters a call may pass by position (after `self`), in order.
FIT_PARAMETERS = ("env", "nb_steps", "action_repetition", "callbacks", "verbose", "visualize")


def agent_fits(facts: FileFacts) -> Iterator[tuple[int | None, ast.Call]]:
    """The `fit(...)` calls the file makes on a keras-rl agent it builds: on a name or attribute
    it assigns a call of an agent class of keras-rl's package, as the imports visible there bind
    it (`dqn = DQNAgent(...)` after `from rl.agents.dqn import DQNAgent`, then `dqn.fit(...)`)."""
    agents = {
        ast.unparse(target)
        for cell, _ in cell_units(facts)
        for node in facts.nodes(cell, ast.Assign)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and _is_agent(facts, node.value.func, cell)
        for target in node.targets
    }
    for cell, _ in cell_units(facts) if agents else ():
        for call in facts.calls_named(cell, "fit"):
            if isinstance(call.func, ast.Attribute) and ast.unparse(call.func.value) in agents:
                yield cell, call


def _is_agent(facts: FileFacts, func: ast.expr, cell: int | None) -> bool:
    """*func* names an agent class of keras-rl's package (`rl.agents.dqn.DQNAgent`)."""
    path = facts.imported_path(func, cell) or ""  # the name it is called by may be any (`as D`)
    return path.partition(".")[0] == PACKAGE and path.rpartition(".")[2].endswith("Agent")


def fit_argument(call: ast.Call, name: str) -> ast.expr | None:
    """What an `Agent.fit` call passes its parameter *name*, by keyword or position."""
    return argument(call, name, FIT_PARAMETERS.index(name))
