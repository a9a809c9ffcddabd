"""Name bindings with Python's scoping rules, and merging them where control flow joins."""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress, repeat
from operator import is_not
from typing import Any

from greenlint.analysis.values import MISSING, merge


class Scope:
    """One namespace: module, class, function (lambdas too) or comprehension; or `pinned`, the
    globals a function's calls gave it, between its scope and the one it was defined in.

    Names are bound flow-sensitively while the scope's own code is walked; functions run later
    (`Resolver` walks their bodies after the enclosing scope), so their free names see the
    enclosing scope's final bindings, unless a `pinned` layer holds the value its calls saw
    (`Resolver.pinned`: a global the module rebinds).
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


def merge_names(branches: list[dict[str, Any]], join: Callable[[list], Any] | None = None,
                first_join: Callable[[list], Any] | None = None) -> dict[str, Any]:
    """Bindings after several alternative paths (if/else, try/except, loop or not).

    A name bound to the same object on every path keeps it; only the names that differ are
    merged (found at C speed), so a module of thousands of names and many loops stays linear
    in what its branches change. *join*, given the values of a name that merged to None,
    may offer something better; *first_join*, given the values of a name that differs, answers
    in place of the merge where it answers (not None).
    """
    first = branches[0]
    merged = dict(first)
    differ: dict[str, None] = {}
    for branch in branches[1:]:
        differ.update(dict.fromkeys(compress(branch, map(is_not, map(first.get, branch, repeat(MISSING)), branch.values()))))
    for key in differ:
        found = first_join([branch.get(key, MISSING) for branch in branches]) if first_join is not None else None
        if found is not None:
            merged[key] = found
            continue
        value = first.get(key, MISSING)
        for branch in branches[1:]:
            value = merge(value, branch.get(key, MISSING))
        if value is None and join is not None:
            value = join([branch.get(key) for branch in branches])
        merged[key] = value
    return merged
