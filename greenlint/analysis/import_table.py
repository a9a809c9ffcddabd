"""A module's import table: each name its module-scope absolute imports bind, to the dotted path
of what Python binds it to. The one table the analysis' quick reads of a script and the rules ask
(`FileFacts.imported`); the resolver binds imports as values of its own walk.

Python's bindings: `import a.b.c` binds `a` (to `a`), `import a.b as c` binds `c` to `a.b`, `from
a.b import c as d` binds `d` to `a.b.c`. A relative import or `from a import *` names no absolute
path and is left out; an import in a function or class body binds in that scope, not the
module's, and is left out too; one under `if`, `try` (`except ImportError:`), `with` or a loop at
module level binds in the module's, and is in. Where several bind a name, the last written wins,
as the last to run does in straight-line code."""

from __future__ import annotations

import ast
from collections.abc import Iterator

#: Statements whose bodies run in the scope that holds them (a `def` or `class` body does not).
_BLOCKS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.Match,
           getattr(ast, "TryStar", ast.Try))  # `except*`: Python 3.11 on


def imported(module: ast.Module) -> dict[str, str]:
    """Name -> the dotted path the module-scope absolute imports of *module* bind it to."""
    found: dict[str, str] = {}
    for node in _module_scope(module.body):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    found[alias.asname] = alias.name
                else:
                    root = alias.name.partition(".")[0]
                    found[root] = root
        elif not node.level and node.module:
            found.update((a.asname or a.name, f"{node.module}.{a.name}") for a in node.names if a.name != "*")
    return found


def _module_scope(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements of *body* and of the blocks in it that run in its scope, in order."""
    for node in body:
        if type(node) is ast.Import or type(node) is ast.ImportFrom:
            yield node
        elif isinstance(node, _BLOCKS):
            for field in ("body", "orelse", "finalbody"):
                yield from _module_scope(getattr(node, field, []))
            for inner in getattr(node, "handlers", ()) or getattr(node, "cases", ()):
                yield from _module_scope(inner.body)
