"""A decode that fills a dict kept between passes, on a miss only, runs once per key (`hostwork.kept_by_key`)."""

from __future__ import annotations

import ast

import pytest

from greenlint.analysis.hostwork import kept_by_key


def _first_if(source: str) -> tuple[ast.If, ast.AST, bool]:
    """The first `if` of *source*, the function around it (or the module) and whether a loop encloses it there."""
    tree = ast.parse(source)
    scope: ast.AST = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)), tree)
    for node in ast.walk(scope):
        for child in ast.iter_child_nodes(node):
            child.parent = node  # type: ignore[attr-defined]
    found = next(n for n in ast.walk(scope) if isinstance(n, ast.If))
    up, in_loop = getattr(found, "parent", None), False
    while up is not None and up is not scope:
        in_loop = in_loop or isinstance(up, (ast.For, ast.While))
        up = getattr(up, "parent", None)
    return found, scope, in_loop


@pytest.mark.parametrize(
    ("source", "kept"),
    [
        # an attribute: the dict lives as long as its object
        ("def get(self, p):\n    if p not in self.cache:\n        self.cache[p] = imread(p)\n    return self.cache[p]\n", True),
        # a global the function does not bind
        ("def get(p):\n    if p not in CACHE:\n        CACHE[p] = imread(p)\n    return CACHE[p]\n", True),
        # the miss is the `else` of an `in` test
        ("def get(p):\n    if p in CACHE:\n        x = CACHE[p]\n    else:\n        x = CACHE[p] = imread(p)\n    return x\n", True),
        # bound before the loop the lookup is in
        ("def gen(ps):\n    seen = {}\n    while True:\n        for p in ps:\n"
         "            if p not in seen:\n                seen[p] = imread(p)\n            yield seen[p]\n", True),
        # bound afresh on each pass of the loop
        ("def gen(ps):\n    while True:\n        seen = {}\n        for p in ps:\n"
         "            if p not in seen:\n                seen[p] = imread(p)\n            yield seen[p]\n", False),
        # bound on each call, looked up outside any loop: nothing outlives the call
        ("def get(p):\n    cache = {}\n    if p not in cache:\n        cache[p] = imread(p)\n    return cache[p]\n", False),
        # the miss branch stores nothing into the dict
        ("def get(self, p):\n    if p not in self.cache:\n        x = imread(p)\n    return x\n", False),
        # a membership test of a list, filled by `append`: no lookup by key
        ("def get(self, p):\n    if p not in self.seen:\n        self.seen.append(imread(p))\n", False),
    ],
)
def test_kept_by_key(source: str, kept: bool) -> None:
    node, scope, in_loop = _first_if(source)
    assert kept_by_key(node, scope, in_loop) is kept
