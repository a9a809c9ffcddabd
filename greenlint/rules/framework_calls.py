"""Functions a framework calls where the file never does: a command a CLI framework registers
(`@app.command()`, `@click.command()`), or a method Keras calls on a class deriving from one of its
catalogued classes (a layer's `call`, a model's `train_step`, a callback's `on_epoch_end`). Such a
function runs, with the defaults of the parameters the framework does not pass."""

from __future__ import annotations

import ast

from greenlint.analysis.options import last_name
from greenlint.analysis.trees import dotted
from greenlint.rules.base import FileFacts
from greenlint.rules.syntax import Function, cell_units

#: Decorators that hand the function back to its own callers (a method kind, a property, a cache, a
#: context manager, a graph trace), not to a framework that calls it: what they decorate is called only
#: where the file calls it.
WRAPPERS = frozenset(
    {"staticmethod", "classmethod", "abstractmethod", "property", "cached_property", "setter", "function", "wraps",
     "lru_cache", "cache", "contextmanager", "asynccontextmanager", "overload", "override", "deprecated"}
)
#: How many classes of the file a base is followed through (`class Base(Layer)`, then `class Mine(Base)`).
MAX_BASES = 4


def called_by_framework(facts: FileFacts, function: Function, cell: int | None) -> bool:
    """*function* is handed to a decorator other than `WRAPPERS` (which registers it: a command, a
    route, a task), or is a method overriding one that a catalogued TensorFlow/Keras class its class
    derives from (directly, or through classes of the file) defines or inherits."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    if any(last_name(d.func if isinstance(d, ast.Call) else d) not in WRAPPERS for d in function.decorator_list):
        return True
    owner = facts.parent(function, cell)
    return isinstance(owner, ast.ClassDef) and _overrides(facts, owner, function.name, MAX_BASES)


def _overrides(facts: FileFacts, owner: ast.ClassDef, name: str, depth: int) -> bool:
    """A base of *owner* is a catalogued TF/Keras class (as the file's imports name it) that has a
    method *name*, or a class of the file that has such a base (*depth* classes further)."""
    imported = facts.imported
    for base in owner.bases:
        parts = dotted(base)
        if parts and parts[0] in imported:
            from greenlint.catalog.catalog import load_catalog  # on first need: a warm run loads no catalog

            catalog = load_catalog()
            api = catalog.canonical(".".join([imported[parts[0]], *parts[1:]]))
            if api is not None and catalog.resolve_method(api, name) is not None:
                return True
        elif len(parts) == 1 and depth > 0:
            classes = [c for unit, _ in cell_units(facts) for c in facts.nodes(unit, ast.ClassDef) if c.name == parts[0]]
            if any(_overrides(facts, c, name, depth - 1) for c in classes if c is not owner):
                return True
    return False
