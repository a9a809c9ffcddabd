"""Whether a parsed module may hold an error only Python's compiler reports (GL001): a cheap walk
of its tree that admits every tree the compiler could refuse, so that `compile()` (about four times
the walk's cost) runs on those alone.

The compiler's own errors, after the parser's, come from a few constructs; a tree holding one of
them, or one it cannot rule out at a glance, is compiled:

- scope rules (its symbol table): `global` and `nonlocal`, `import *` below module level, a
  duplicate parameter (`def f(a, a)`), a type parameter (Python 3.12);
- where a statement may stand: `from __future__` imports after the module's opening (or of a
  feature the compiler does not know), `return` outside a function, `break` and `continue` outside a
  loop's body, a bare `except:` before another handler, blocks nested too deeply;
- expressions: `yield`, `await`, `async`, `:=` (comprehension rules), a keyword given twice
  (`f(a=1, a=2)`), a starred expression other than a call's argument or a list, tuple or set
  element read, `__debug__` as a name (a mention of it in the text), a tree too deep for the
  compiler's recursion;
- `match` (its patterns' rules).
"""

from __future__ import annotations
import __future__

import ast
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

from greenlint.analysis.trees import CHILD_FIELDS, child_fields

#: Node types the walk does not judge itself: any of them sends the tree to the compiler.
_COMPILED = frozenset(
    getattr(ast, name)
    for name in (
        "Yield",
        "YieldFrom",
        "Await",
        "AsyncFunctionDef",
        "AsyncFor",
        "AsyncWith",
        "Global",
        "Nonlocal",
        "NamedExpr",
        "Match",
        "TryStar",
        "TypeAlias",
    )
    if hasattr(ast, name)
)
#: Blocks a statement may be nested in before the walk sends the tree to the compiler: half the
#: compiler's limit (20), each construct counted at the most blocks it opens for its body.
MAX_BLOCKS = 10
#: Levels of the tree beyond which the compiler's recursion may give out where the parser's did not.
MAX_DEPTH = 200


def may_not_compile(tree: ast.Module, text: str) -> bool:
    """Whether compiling *tree* (parsed from *text*) may raise an error the parser did not: False
    only where none of the compiler's own errors can occur."""
    if "__debug__" in (text if text.isascii() else unicodedata.normalize("NFKC", text)):  # names read as NFKC
        return True
    return _expressions(tree, _leading_futures(tree)) or _statements(tree.body, False, False, False, 0)


def _leading_futures(tree: ast.Module) -> set[int]:
    """The ids of the `from __future__ import` statements the compiler accepts: those opening the
    module (after its docstring), of features it knows."""
    found: set[int] = set()
    for at, node in enumerate(tree.body):
        if at == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            if isinstance(node.value.value, str):
                continue
        if not (isinstance(node, ast.ImportFrom) and node.module == "__future__" and not node.level):
            break
        if all(alias.name in __future__.all_feature_names for alias in node.names):
            found.add(id(node))
    return found


def _expressions(tree: ast.Module, read: set[int]) -> bool:
    """Any node of the compiled types, a keyword or parameter named twice, a starred expression
    out of the places it is read in, a `__future__` import but those opening the module, a type
    parameter or a tree deeper than `MAX_DEPTH`: one breadth-first walk of every node, most of
    them only passed through. *read* holds the ids of the nodes accepted before their turn (the
    opening `__future__` imports; the walk adds the starred expressions of calls and displays)."""
    walked: list[ast.AST] = [tree]
    append, node_type, fields, judged = walked.append, ast.AST, CHILD_FIELDS, _JUDGED
    depth, level_end = 0, 1
    for at, node in enumerate(walked):
        if at == level_end:
            depth, level_end = depth + 1, len(walked)
            if depth > MAX_DEPTH:
                return True
        kind = type(node)
        judge = judged.get(kind)
        if judge is not None and judge(node, read):
            return True
        names = fields.get(kind)
        if names is None:
            names = child_fields(kind)
        for name in names:
            value = getattr(node, name, None)
            if type(value) is list:
                for child in value:
                    if isinstance(child, node_type):
                        append(child)
            elif isinstance(value, node_type):
                append(value)
    return False


def _call(node: ast.Call, read: set[int]) -> bool:
    if node.keywords and len(node.keywords) > 1 and _twice(k.arg for k in node.keywords if k.arg is not None):
        return True
    read.update(id(a) for a in node.args if type(a) is ast.Starred)
    return False


def _function(node: ast.FunctionDef | ast.Lambda, read: set[int]) -> bool:
    return _twice(_parameters(node.args)) or bool(getattr(node, "type_params", None))


def _class(node: ast.ClassDef, read: set[int]) -> bool:
    return _twice(k.arg for k in node.keywords if k.arg is not None) or bool(getattr(node, "type_params", None))


def _starred(node: ast.Starred, read: set[int]) -> bool:
    return id(node) not in read


def _sequence(node: ast.List | ast.Tuple | ast.Set, read: set[int]) -> bool:
    if type(getattr(node, "ctx", None)) is not ast.Store:
        read.update(id(e) for e in node.elts if type(e) is ast.Starred)
    return False


def _import_from(node: ast.ImportFrom, read: set[int]) -> bool:
    return node.module == "__future__" and not node.level and id(node) not in read


def _comprehension(node: ast.comprehension, read: set[int]) -> bool:
    return bool(node.is_async)


def _compiled(node: ast.AST, read: set[int]) -> bool:
    return True


#: What the walk asks of a node of each type it judges (true: the tree is compiled); other nodes pass.
_JUDGED: dict[type[ast.AST], Callable[[Any, set[int]], bool]] = {
    ast.Call: _call,
    ast.FunctionDef: _function,
    ast.Lambda: _function,
    ast.ClassDef: _class,
    ast.Starred: _starred,
    ast.List: _sequence,
    ast.Tuple: _sequence,
    ast.Set: _sequence,
    ast.comprehension: _comprehension,
    ast.ImportFrom: _import_from,
    **dict.fromkeys(_COMPILED, _compiled),
}


def _parameters(args: ast.arguments) -> list[str]:
    named = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    return named + [a.arg for a in (args.vararg, args.kwarg) if a is not None]


def _twice(names: Iterable[str | None]) -> bool:
    seen: set[str | None] = set()
    for name in names:
        if name in seen:
            return True
        seen.add(name)
    return False


def _statements(body: list[ast.stmt], function: bool, loop: bool, nested: bool, blocks: int) -> bool:
    """Whether a statement of *body* (and of the bodies in it) may stand where the compiler refuses
    it: `return` outside a *function*, `break`/`continue` outside a *loop*'s body, `import *`
    *nested* in a function or class, a bare `except:` before another handler, or more than
    `MAX_BLOCKS` *blocks* around it."""
    if blocks > MAX_BLOCKS:
        return True
    for node in body:
        if isinstance(node, ast.Return):
            if not function:
                return True
        elif isinstance(node, (ast.Break, ast.Continue)):
            if not loop:
                return True
        elif isinstance(node, ast.ImportFrom):
            if nested and any(alias.name == "*" for alias in node.names):
                return True
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            if _statements(node.body, isinstance(node, ast.FunctionDef), False, True, 0):
                return True
        elif isinstance(node, (ast.For, ast.While)):
            if _statements(node.body, function, True, nested, blocks + 1):
                return True
            if _statements(node.orelse, function, loop, nested, blocks):
                return True
        elif isinstance(node, ast.If):
            if _statements(node.body, function, loop, nested, blocks):
                return True
            if _statements(node.orelse, function, loop, nested, blocks):
                return True
        elif isinstance(node, ast.With):
            if _statements(node.body, function, loop, nested, blocks + len(node.items)):
                return True
        elif isinstance(node, ast.Try):
            if any(handler.type is None for handler in node.handlers[:-1]):
                return True
            inner = blocks + 3  # a `finally` around the handlers around the body, and a handler's cleanup
            parts = [node.body, node.orelse, node.finalbody, *(handler.body for handler in node.handlers)]
            if any(_statements(part, function, loop, nested, inner) for part in parts):
                return True
    return False
