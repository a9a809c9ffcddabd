"""greenlint spans (1-based, columns in characters, end exclusive) as LSP ranges in the client's units."""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from greenlint.analysis.callsite import Span


def to_range(span: Span, lines: Sequence[str], codec: PositionCodec, *, widen_empty: bool = False) -> types.Range:
    """The LSP range of `span` in `lines`. With `widen_empty`, an empty span (a file- or line-level
    finding) covers the rest of its line, so that editors underline something."""
    start = types.Position(span.line - 1, span.column - 1)
    end = types.Position(span.end_line - 1, span.end_column - 1)
    if widen_empty and (start.line, start.character) >= (end.line, end.character) and start.line < len(lines):
        end = types.Position(start.line, len(lines[start.line].rstrip("\r\n")))
    return types.Range(codec.position_to_client_units(lines, start), codec.position_to_client_units(lines, end))


def contains(span: Span, line: int, character: int) -> bool:
    """Whether a 0-based server position (characters; in the span's file or cell) lies within `span`, ends included."""
    start = (span.line - 1, span.column - 1)
    end = (span.end_line - 1, span.end_column - 1)
    return start <= (line, character) <= end


def overlaps(a: types.Range, b: types.Range) -> bool:
    """Whether two ranges share a position (touching ends count)."""
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and (
        b.start.line,
        b.start.character,
    ) <= (a.end.line, a.end.character)
