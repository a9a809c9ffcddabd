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


def agent_classes(facts: FileFacts) -> frozenset[str]:
    """The names the file imports from keras-rl's package that name an agent class (`DQNAgent`)."""
    return frozenset(
        alias.asname or alias.name
        for cell, _ in cell_units(facts)
        for node in facts.nodes(cell, ast.ImportFrom)
        if isinstance(node, ast.ImportFrom)
        and node.level == 0
        and (node.module == PACKAGE or (node.module or "").startswith(PACKAGE + "."))
        for alias in node.names
        if alias.name.endswith("Agent")
    )


def agent_fits(facts: FileFacts) -> Iterator[tuple[int | None, ast.Call]]:
    """The `fit(...)` calls the file makes on a keras-rl agent it builds: on a name or attribute
    it assigns a call of an imported agent class (`dqn = DQNAgent(...)`, then `dqn.fit(...)`)."""
    classes = agent_classes(facts)
    if not classes:
        return
    agents = {
        ast.unparse(target)
        for cell, _ in cell_units(facts)
        for node in facts.nodes(cell, ast.Assign)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id in classes
        for target in node.targets
    }
    for cell, _ in cell_units(facts):
        for call in facts.calls_named(cell, "fit"):
            if isinstance(call.func, ast.Attribute) and ast.unparse(call.func.value) in agents:
                yield cell, call


def fit_argument(call: ast.Call, name: str) -> ast.expr | None:
    """What an `Agent.fit` call passes its parameter *name*, by keyword or position."""
    return argument(call, name, FIT_PARAMETERS.index(name))
