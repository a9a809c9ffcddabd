"""greenlint.lsp_server.edits in-process: where an analysed line is after incremental edits, and back."""

from __future__ import annotations

import pytest
from lsprotocol import types

from greenlint.analysis.callsite import Span
from greenlint.lsp_server.edits import EditLog, LineChange, LineMap


def _change(start: tuple[int, int], end: tuple[int, int], text: str) -> types.TextDocumentContentChangePartial:
    return types.TextDocumentContentChangePartial(types.Range(types.Position(*start), types.Position(*end)), text)


def _map(*changes) -> LineMap:
    return LineMap(tuple(LineChange.of(c) for c in changes))


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (_change((2, 0), (2, 0), "new\n"), [(0, False), (1, False), (3, False), (4, False)]),  # a line inserted above line 2
        (_change((2, 5), (2, 5), "typed"), [(0, False), (1, False), (2, True), (3, False)]),  # typing within line 2
        (_change((1, 0), (3, 0), ""), [(0, False), (None, True), (None, True), (1, False)]),  # lines 1-2 deleted
        (_change((1, 4), (2, 3), "x"), [(0, False), (1, True), (1, True), (2, False)]),  # lines 1 and 2 joined
        (_change((2, 9), (2, 9), "\n\n"), [(0, False), (1, False), (2, True), (5, False)]),  # Enter twice at the end of line 2
    ],
)
def test_lines_move_with_each_change(change, expected):
    moved = _map(change)
    assert [moved.line(line) for line in range(4)] == expected
    for before, (after, _) in enumerate(expected):  # back() inverts line() wherever a line survives
        if after is not None and moved.line(before) == (after, False):
            assert moved.back(after) == before


def test_changes_compose_in_order_and_a_typed_line_maps_back_to_nothing():
    moved = _map(_change((0, 0), (0, 0), "a\n"), _change((0, 0), (0, 0), "b\n"), _change((5, 0), (6, 0), ""))
    assert moved.line(2) == (4, False)  # two lines inserted above it
    assert moved.line(3) == (None, True)  # the line the third change deleted (line 5 by then)
    assert moved.line(4) == (5, False)
    assert moved.back(0) is None and moved.back(1) is None and moved.back(2) == 0


def test_a_whole_document_replacement_loses_every_line():
    moved = _map(types.TextDocumentContentChangeWholeDocument("new text"))
    assert moved.line(0) == (None, True)
    assert moved.span(Span(1, 1, 1, 4)) == (None, True)


def test_spans_keep_columns_and_identity_when_untouched():
    moved = _map(_change((5, 0), (5, 0), "x = 1\n"))
    span = Span(2, 3, 2, 9)
    assert moved.span(span)[0] is span  # above the change: the same object, no copy
    assert moved.span(Span(6, 3, 7, 9)) == (Span(7, 3, 8, 9), False)  # below the inserted line: one line down
    typed = _map(_change((5, 2), (5, 2), "typed"))
    assert typed.span(Span(6, 3, 7, 9)) == (Span(6, 3, 7, 9), True)  # typed into: same lines, columns may be off


def test_the_log_keeps_only_changes_after_a_version():
    log = EditLog()
    log.record("u", 2, [_change((0, 0), (0, 0), "a\n")])
    log.record("u", 3, [_change((0, 0), (0, 0), "b\n"), _change((1, 0), (1, 0), "c\n")])
    assert len(log.since("u", 1)) == 3 and len(log.since("u", 2)) == 2 and log.since("u", 3) == ()
    log.trim("u", 2)
    assert len(log.since("u", 0)) == 2
    log.forget("u")
    assert log.since("u", 0) == ()
