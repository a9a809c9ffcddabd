"""Where a call stands in its module: the qualified name of the functions and classes around it,
and its argument shape (what `greenlint diff` matches a call site by, docs/calls-json.md)."""

from __future__ import annotations

import ast
import bisect

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
#: The fields that hold statements (or clauses holding them), in source order: where a definition can be.
_BLOCK_FIELDS = ("body", "handlers", "cases", "orelse", "finalbody")
#: Node type -> those of _BLOCK_FIELDS it has, filled as types are met.
_fields: dict[type, tuple[str, ...]] = {}


class Enclosing:
    """The definitions of a parsed module, to name the scope of any call node in it.

    Only statements are walked (a definition is one); a call lies in a definition when its
    extent does, decorators included, as it lies below it in the tree."""

    def __init__(self, tree: ast.Module):
        self.starts: list[tuple[int, int]] = []
        self.ends: list[tuple[int, int]] = []
        self.names: list[str] = []
        self.parents: list[int] = []  # index of the enclosing definition, -1 at module level
        stack: list[tuple[ast.AST, str, int]] = [(tree, "", -1)]
        while stack:  # pre-order, children in source order
            node, scope, parent = stack.pop()
            if isinstance(node, _DEFS):
                first = node.decorator_list[0] if node.decorator_list else node
                scope = f"{scope}.{node.name}" if scope else node.name
                self.starts.append((first.lineno, first.col_offset))
                self.ends.append((node.end_lineno or node.lineno, node.end_col_offset or 0))
                self.names.append(scope)
                self.parents.append(parent)
                parent = len(self.names) - 1
            fields = _fields.get(type(node))
            if fields is None:
                fields = _fields[type(node)] = tuple(name for name in _BLOCK_FIELDS if name in type(node)._fields)
            if fields:  # a compound statement (most are simple: nothing to look into)
                children = [c for name in fields for c in getattr(node, name, ())]
                stack.extend([(child, scope, parent) for child in reversed(children)])

    def scope(self, call: ast.Call) -> str:
        """The qualified name of the functions and classes around *call* ("" at module level)."""
        start, end = (call.lineno, call.col_offset), (call.end_lineno or call.lineno, call.end_col_offset or 0)
        index = bisect.bisect_right(self.starts, start) - 1
        while index >= 0 and not end <= self.ends[index]:
            index = self.parents[index]
        return self.names[index] if index >= 0 else ""


def shape(call: ast.Call) -> str:
    """Its positional argument count (`*` with a starred one) and sorted keyword names (`**`
    for a `**kwargs`): `2:epochs,validation_data`."""
    positional = "*" if any(isinstance(a, ast.Starred) for a in call.args) else str(len(call.args))
    return f"{positional}:{','.join(sorted(k.arg or '**' for k in call.keywords))}"
