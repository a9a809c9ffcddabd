"""Whether a callable runs a network: a model or layer the file makes, or a function of the file that runs one."""

from __future__ import annotations

import ast

from greenlint.rules.base import FileFacts
from greenlint.rules.callbacks import constructors
from greenlint.rules.syntax import definitions

#: Calls that make or run a network: their API's prefix.
NETWORKS = (
    "tensorflow.keras.applications.",
    "tensorflow.keras.layers.",
    "tensorflow.keras.models.load_model",
    "tensorflow.nn.conv",
)
#: Last names of the Keras classes that make a model.
NETWORK_NAMES = frozenset({"Model", "Sequential"})


def network(facts: FileFacts, func: ast.expr, cell: int | None, ops: tuple[str, ...] = NETWORKS) -> bool:
    """*func* is a network: a layer built in place (`Conv2D(64, 3)(x)`), a name every
    assignment of which makes a model or a layer, or a function of this file that runs one
    (a call whose API starts with one of *ops*, a Keras layer or model)."""
    functions = definitions(facts, func, cell) if isinstance(func, ast.Name) else []
    if functions:
        return any(
            isinstance(node, ast.Call) and makes_network(facts, node, cell, ops)
            for function in functions
            for node in ast.walk(function)
        )
    made = [func] if isinstance(func, ast.Call) else constructors(facts, func) if isinstance(func, ast.Name) else None
    return bool(made) and all(makes_network(facts, maker, cell, ops) for maker in made or ())


def makes_network(facts: FileFacts, call: ast.Call, cell: int | None, ops: tuple[str, ...] = NETWORKS) -> bool:
    """The call makes a model or a layer, or runs one of *ops* (a convolution by default)."""
    site = facts.site_at(call, cell)
    api = site.api if site is not None else ""
    return api.startswith(ops) or (api.startswith("tensorflow.keras.") and api.rsplit(".", 1)[-1] in NETWORK_NAMES)
