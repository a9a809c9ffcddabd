"""A module's import table: each name its module-scope absolute imports bind, to the dotted path
of what Python binds it to (`imported`), and a function's or class's own (`own`). The one table
the analysis' quick reads of a script and the rules ask (`FileFacts.imported`, and
`FileFacts.imported_path`: the path a name names where it is); the resolver binds imports as
values of its own walk.

Python's bindings: `import a.b.c` binds `a` (to `a`), `import a.b as c` binds `c` to `a.b`, `from
a.b import c as d` binds `d` to `a.b.c`. A relative import or `from a import *` names no absolute
path and is left out (a relative one hides the name's earlier binding); an import in a function or class body binds in that scope, not the
module's (`own` of that scope); one under `if`, `try` (`except ImportError:`), `with` or a loop at
module level binds in the module's, and is in. Where several bind a name, the last written wins,
as the last to run does in straight-line code."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator

from greenlint.analysis.trees import dotted

#: Statements whose bodies run in the scope that holds them (a `def` or `class` body does not).
_BLOCKS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.Match,
           getattr(ast, "TryStar", ast.Try))  # `except*`: Python 3.11 on


#: Nodes with a scope of their own whose body binds names (a lambda's or a comprehension's holds no statement).
SCOPES = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def imported(module: ast.Module) -> dict[str, str]:
    """Name -> the dotted path the module-scope absolute imports of *module* bind it to."""
    return {name: dotted for name, dotted in own(module).items() if dotted is not None}


def own(scope: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> dict[str, str | None]:
    """Name -> dotted path each import in *scope*'s own body binds (None: a relative import's)."""
    return dict(bindings(_in_scope(scope.body)))


def bindings(statements: Iterable[ast.Import | ast.ImportFrom]) -> Iterator[tuple[str, str | None]]:
    """Each (name, dotted path) the import *statements* bind, in order; the path None where a
    relative import binds the name (to a module of the package, no absolute path)."""
    for node in statements:
        if isinstance(node, ast.Import):
            for alias in node.names:
                root = alias.name.partition(".")[0]
                yield (alias.asname, alias.name) if alias.asname else (root, root)
        else:
            module = None if node.level else node.module
            for alias in node.names:
                if alias.name != "*":
                    yield alias.asname or alias.name, f"{module}.{alias.name}" if module else None


def _in_scope(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements of *body* and of the blocks in it that run in the same scope, in order."""
    for node in body:
        if type(node) is ast.Import or type(node) is ast.ImportFrom:
            yield node
        elif isinstance(node, _BLOCKS):
            for field in ("body", "orelse", "finalbody"):
                yield from _in_scope(getattr(node, field, []))
            for inner in getattr(node, "handlers", ()) or getattr(node, "cases", ()):
                yield from _in_scope(inner.body)


def resolver(module: ast.Module, scope: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
             ) -> Callable[[ast.expr], str | None]:
    """The dotted path a name or attribute chain of *scope* names through the imports of *module* and
    *scope*'s own (`tf.summary.histogram` -> `tensorflow.summary.histogram`); None where none binds it:
    a project module's tree read without its analysis."""
    table = {**imported(module), **{k: v for k, v in own(scope).items() if v is not None}}

    def resolve(expr: ast.expr) -> str | None:
        parts = dotted(expr)
        return ".".join((table[parts[0]], *parts[1:])) if parts and parts[0] in table else None

    return resolve
