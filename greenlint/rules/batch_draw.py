"""Where the batch a training step runs on is drawn, read from the syntax around the step: the
loop over a generator or the call that draws it (`next(gen)`, `[imread(f) for f in files]`) on the
line the analysis names (`input_drawn_above`), and whether it is drawn again before each step.
Shared by GL409 (a generator decoding on the training thread) and GL408 (files decoded on every epoch)."""

from __future__ import annotations

import ast

from greenlint.rules.base import FileFacts
from greenlint.rules.site import Site
from greenlint.rules.syntax import exclusive, own_loops


def each_step(facts: FileFacts, draw: ast.AST, step: Site) -> bool:
    """The batch drawn at *draw* is drawn again before each run of *step*: the draw is inside the
    loop directly around the step (or heads it), not in an outer loop that decodes once for a
    whole pass of steps (GL408's), and no two `if`s testing the same expression put them in
    opposite branches (`if dataset == 'mnist': ... else: batch = [imread(f) ...]` then, in the same
    order, the steps of each)."""
    call, cell = facts.node(step), step.callsite.span.cell
    if call is None:
        return True
    loops = own_loops(facts, call, cell)
    inside = set(facts.ancestors(draw, cell)) | {draw}
    return bool(loops) and loops[0] in inside and not exclusive(facts, draw, call, cell)


def draw_node(facts: FileFacts, step: Site, line: int) -> ast.AST | None:
    """Where the batch a step trains on is drawn, at *line* (the analysis's `input_drawn_above`):
    the loop over the generator whose header is on that line, else the outermost call or list
    comprehension starting on that line (`next(gen)`, the decoding function's, `[imread(f) for f in
    files]`); None where none is found (or *line* is the step's own)."""
    span = step.callsite.span
    call = facts.node(step)
    if call is None or line == span.line:
        return None
    for node in facts.ancestors(call, span.cell):
        if isinstance(node, (ast.For, ast.AsyncFor)) and node.lineno == line:
            return node
    starting: list[ast.expr] = [c for c in facts.calls(span.cell) if c.lineno == line]
    starting += [c for c in facts.nodes(span.cell, ast.ListComp) if c.lineno == line]
    if not starting:
        return None
    return min(starting, key=lambda c: (c.col_offset, -(c.end_lineno or line), -(c.end_col_offset or 0)))
