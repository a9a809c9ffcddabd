"""Where a line of an analysed text is now: the line shifts of the incremental edits made since.

Requests answer from the last finished analysis (docs/design.md); its spans are moved through the
edits the client sent after the text it saw. Only lines move: a line an edit touched keeps its
old columns (and is marked touched, so that exact edits such as fixes are not offered on it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lsprotocol import types

from greenlint.analysis.callsite import Span
from greenlint.analysis.sources import split_lines


@dataclass(frozen=True)
class LineChange:
    """One incremental change: the replaced range (0-based lines; characters only matter at 0) and
    how many line breaks the new text holds. `start is None` is a whole-document replacement."""

    start: int | None
    start_character: int = 0
    end: int = 0
    end_character: int = 0
    added: int = 0

    @classmethod
    def of(cls, change: types.TextDocumentContentChangeEvent) -> LineChange:
        if not isinstance(change, types.TextDocumentContentChangePartial):
            return cls(None)
        r = change.range
        return cls(r.start.line, r.start.character, r.end.line, r.end.character, len(split_lines(change.text)) - 1)

    def map(self, line: int) -> tuple[int | None, bool]:
        """(where 0-based `line` is after this change or None if it is gone, whether the change touched it)."""
        if self.start is None:
            return None, True
        if line < self.start:
            return line, False
        if line > self.end:
            return line + self.added - (self.end - self.start), False
        if line == self.start and self.start_character > 0:
            return self.start, True  # its beginning stays where it was
        if line == self.end:
            return self.start + self.added, self.end_character > 0  # its end follows the new text
        return None, True  # wholly replaced

    def back(self, line: int) -> int | None:
        """Where 0-based `line` after this change was before it; None for a line of the new text."""
        if self.start is None:
            return None
        if line < self.start:
            return line
        if line > self.start + self.added:
            return line - self.added + (self.end - self.start)
        if line == self.start and self.start_character > 0:
            return self.start
        if line == self.start + self.added:
            return self.end
        return None


#: Changes kept per document; beyond, they count as one whole-text replacement.
MAX_CHANGES = 2000


class EditLog:
    """The line changes of each open document (file or notebook cell), tagged with the version they made."""

    def __init__(self):
        self._changes: dict[str, list[tuple[int | None, LineChange]]] = {}

    def record(self, uri: str, version: int | None, changes) -> None:
        log = self._changes.setdefault(uri, [])
        log.extend((version, LineChange.of(c)) for c in changes)
        if len(log) > MAX_CHANGES:  # no analysis landed for that long (the text does not parse):
            log[:] = [(version, LineChange(None))]  # the older findings' places are lost, not kept forever

    def since(self, uri: str, version: int | None) -> tuple[LineChange, ...]:
        """The changes made after `version` of `uri`."""
        return tuple(c for v, c in self._changes.get(uri, ()) if not _at_or_before(v, version))

    def trim(self, uri: str, version: int | None) -> None:
        """Forget the changes up to `version` (no analysis older than it is kept)."""
        if uri in self._changes:
            self._changes[uri] = [(v, c) for v, c in self._changes[uri] if not _at_or_before(v, version)]

    def forget(self, uri: str) -> None:
        self._changes.pop(uri, None)


def _at_or_before(v: int | None, version: int | None) -> bool:
    return v is not None and version is not None and v <= version


def with_span(obj, span: Span):
    """A copy of a frozen record (CallSite, Diagnostic) with another span; 5x cheaper than dataclasses.replace."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__["span"] = span
    return new


@dataclass(frozen=True)
class LineMap:
    """Old 0-based line -> current line (None: gone), through a sequence of changes."""

    changes: tuple[LineChange, ...] = ()
    #: Lines above this one are where they were, untouched (the first line any change reached).
    first_moved: float = field(init=False)

    def __post_init__(self):
        starts = [c.start for c in self.changes]
        object.__setattr__(self, "first_moved", -1 if None in starts else min(starts, default=float("inf")))

    def __bool__(self) -> bool:
        return bool(self.changes)

    def line(self, line: int) -> tuple[int | None, bool]:
        if line < self.first_moved:
            return line, False
        touched = False
        for change in self.changes:
            line, hit = change.map(line)
            touched |= hit
            if line is None:
                return None, True
        return line, touched

    def back(self, line: int) -> int | None:
        """The analysed line that current `line` was (None: a line typed since)."""
        if line < self.first_moved:
            return line
        for change in reversed(self.changes):
            line = change.back(line)
            if line is None:
                return None
        return line

    def span(self, span: Span) -> tuple[Span | None, bool]:
        """`span` (1-based lines) where it is now, or None when one of its ends is gone; and whether it was touched."""
        if span.end_line <= self.first_moved:
            return span, False
        start, touched_start = self.line(span.line - 1)
        end, touched_end = self.line(span.end_line - 1)
        if start is None or end is None or end < start:
            return None, True
        if (start, end) == (span.line - 1, span.end_line - 1):
            return span, touched_start or touched_end
        return Span(start + 1, span.column, end + 1, span.end_column, span.cell), touched_start or touched_end
