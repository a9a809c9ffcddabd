"""Name bindings with Python's scoping rules, and merging them where control flow joins."""

from __future__ import annotations

from typing import Any

from greenlint.analysis.values import MISSING, merge


class Scope:
    """One namespace: module, class, function (lambdas too) or comprehension.

    Names are bound flow-sensitively while the scope's own code is walked; functions run later
    (`Resolver` walks their bodies after the enclosing scope), so their free names see the
    enclosing scope's final bindings, as they would at run time.
    """

    __slots__ = ("kind", "parent", "names", "globals", "nonlocals", "star_imports", "cls")

    def __init__(self, kind: str, parent: Scope | None, cls: Any = None):
        self.kind = kind
        self.parent = parent
        self.cls = cls  # the ClassInfo of a class body
        self.names: dict[str, Any] = {}
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        self.star_imports: list[str] = []

    def module(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def lookup(self, name: str) -> tuple[bool, Any]:
        """(found, value): the innermost binding visible from here; class scopes are skipped
        for code nested in them, as in Python."""
        scope: Scope | None = self
        first = True
        while scope is not None:
            if (first or scope.kind != "class") and name in scope.names:
                return True, scope.names[name]
            first = False
            scope = scope.parent
        return False, None

    def target(self, name: str) -> Scope:
        """The scope an assignment to *name* binds in (honours global/nonlocal)."""
        if name in self.globals:
            return self.module()
        if name in self.nonlocals:
            scope = self.parent
            while scope is not None and (scope.kind == "class" or name not in scope.names):
                scope = scope.parent
            return scope if scope is not None else self.module()
        return self


def merge_names(branches: list[dict[str, Any]]) -> dict[str, Any]:
    """Bindings after several alternative paths (if/else, try/except, loop or not)."""
    if len(branches) == 1:
        return dict(branches[0])
    keys: dict[str, None] = {}
    for branch in branches:
        keys.update(dict.fromkeys(branch))
    merged = {}
    for key in keys:
        value = branches[0].get(key, MISSING)
        for branch in branches[1:]:
            value = merge(value, branch.get(key, MISSING))
        merged[key] = value
    return merged
