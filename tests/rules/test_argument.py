"""The argument binding a parameter (greenlint.rules.base.argument) and whether a call binds it (binds)."""

from __future__ import annotations

import ast

import pytest

from greenlint.rules.base import argument, binds


def _call(code: str) -> ast.Call:
    node = ast.parse(code, mode="eval").body
    assert isinstance(node, ast.Call)
    return node


@pytest.mark.parametrize(
    ("code", "position", "expected"),
    [
        ("f(x, y, axis=2)", 1, "2"),  # by keyword
        ("f(x, 2)", 1, "2"),  # at its position
        ("f(x, 2, axis=3)", 1, "3"),  # the keyword wins over a (then invalid) position
        ("f(x)", 1, None),  # absent: left to its default
        ("f(x, 2)", None, None),  # keyword-only: a position does not bind it
        ("f(*xs, 2)", 1, None),  # a `*args` before the position: which argument binds it is unknown
        ("f(x, *rest)", 1, None),  # a `*args` at the position
        ("f(x, 2, *rest)", 1, "2"),  # a `*args` after the position leaves it known
        ("f(*xs, axis=2)", 1, "2"),  # a keyword is known whatever the `*args`
        ("f(x, **options)", 1, None),  # `**kwargs` may carry it: not known
        ("f(x, 2, **options)", 1, "2"),
    ],
)
def test_argument(code: str, position: int | None, expected: str | None) -> None:
    found = argument(_call(code), "axis", position)
    assert (ast.unparse(found) if found is not None else None) == expected


def test_argument_of_an_unknown_call() -> None:
    assert argument(None, "axis", 0) is None


@pytest.mark.parametrize(
    ("code", "position", "expected"),
    [
        ("f(x, axis=2)", 1, True),
        ("f(x, 2)", 1, True),
        ("f(x)", 1, False),  # left to its default
        ("f(x, 2)", None, False),
        ("f(*xs)", 1, True),  # maybe through `*args`
        ("f(x, **options)", 1, True),  # maybe through `**kwargs`
        ("f(*xs, 2)", 1, True),  # given, by an argument not known
    ],
)
def test_binds(code: str, position: int | None, expected: bool) -> None:
    assert binds(_call(code), "axis", position) is expected
    assert binds(None, "axis", position)  # an unknown call: a rule asking "is it missing?" stays silent
