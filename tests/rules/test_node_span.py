"""The span of a syntax node, or of a loop's header (greenlint.rules.base.node_span)."""

from __future__ import annotations

import ast

from greenlint.analysis.callsite import Span
from greenlint.rules.base import FileFacts, node_span


def test_a_node() -> None:
    call = ast.parse("x = 1\ny = f(a,\n      b)\n").body[1].value
    assert node_span(call, None) == Span(2, 5, 3, 9, None)
    assert node_span(call, 3) == Span(2, 5, 3, 9, 3)  # in a notebook's third cell


def test_a_loop_header() -> None:
    loop = ast.parse("for i in range(\n        10):\n    step(i)\n").body[0]
    assert node_span(loop, None, through=loop.iter) == Span(1, 1, 2, 12, None)
    assert node_span(loop, None) == Span(1, 1, 3, 12, None)  # the whole loop


def test_a_node_after_wide_characters_counts_characters() -> None:
    text = 'x = "é😀"; step = 1\nfor batch in ["é"]:\n    train(batch)\n'
    facts = FileFacts("a.py", (), text)
    module = facts.module()
    assign, loop = module.body[1], module.body[2]
    assert facts.span(assign) == Span(1, text.index("step") + 1, 1, len('x = "é😀"; step = 1') + 1, None)
    assert facts.span(loop, through=loop.iter) == Span(2, 1, 2, len('for batch in ["é"]') + 1, None)
