"""The span of a syntax node, or of a loop's header (greenlint.rules.base.node_span)."""

from __future__ import annotations

import ast

from greenlint.analysis.callsite import Span
from greenlint.rules.base import node_span


def test_a_node() -> None:
    call = ast.parse("x = 1\ny = f(a,\n      b)\n").body[1].value
    assert node_span(call, None) == Span(2, 5, 3, 9, None)
    assert node_span(call, 3) == Span(2, 5, 3, 9, 3)  # in a notebook's third cell


def test_a_loop_header() -> None:
    loop = ast.parse("for i in range(\n        10):\n    step(i)\n").body[0]
    assert node_span(loop, None, through=loop.iter) == Span(1, 1, 2, 12, None)
    assert node_span(loop, None) == Span(1, 1, 3, 12, None)  # the whole loop
