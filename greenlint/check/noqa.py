"""Suppression comments: `# noqa`, `# noqa: GL101, GL201` on a line; `# greenlint: noqa` per file."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from greenlint.rules.diagnostic import Diagnostic

_CODES = r"(?::\s*(?P<codes>[A-Za-z]+[0-9]+(?:\s*,?\s*[A-Za-z]+[0-9]+)*))?"
LINE_NOQA = re.compile(r"#\s*noqa" + _CODES, re.I)
FILE_NOQA = re.compile(r"^\s*#\s*greenlint\s*:\s*noqa" + _CODES + r"\s*$", re.I | re.M)
ALL = None  # a bare noqa suppresses every code


def _codes(match: re.Match) -> frozenset[str] | None:
    codes = match.group("codes")
    return frozenset(c.upper() for c in re.findall(r"[A-Za-z]+[0-9]+", codes)) if codes else ALL


@dataclass(frozen=True)
class Suppressions:
    """Where a file's suppression comments are. Keys are (cell or None, 1-based line)."""

    file_codes: frozenset[str] | None | bool = False  # False: no file-level noqa; ALL (None): everything
    lines: dict[tuple[int | None, int], frozenset[str] | None] = field(default_factory=dict)

    def suppressed(self, d: Diagnostic) -> tuple[int | None, int] | bool:
        """False if `d` stands; True if suppressed file-wide; else the (cell, line) key that did it."""
        if self.file_codes is ALL or (self.file_codes and d.code in self.file_codes):
            return True
        for line in {d.span.line, d.span.end_line}:
            key = (d.span.cell, line)
            if key in self.lines and (self.lines[key] is ALL or d.code in self.lines[key]):
                return key
        return False


def parse(source: str | Sequence[str]) -> Suppressions:
    """Suppressions of a file (text) or a notebook (its code cells' texts, in order)."""
    cells: Iterable[tuple[int | None, str]] = (
        [(None, source)] if isinstance(source, str) else enumerate(source, start=1)
    )
    file_codes: frozenset[str] | None | bool = False
    lines: dict[tuple[int | None, int], frozenset[str] | None] = {}
    for cell, text in cells:
        if "noqa" not in text.lower():
            continue
        for m in FILE_NOQA.finditer(text):
            codes = _codes(m)
            file_codes = ALL if codes is ALL or file_codes is ALL else (file_codes or frozenset()) | codes
        for number, line in enumerate(text.splitlines(), start=1):
            if "#" in line and not FILE_NOQA.search(line):
                m = LINE_NOQA.search(line)
                if m:
                    lines[(cell, number)] = _codes(m)
    return Suppressions(file_codes, lines)


def apply(
    diagnostics: Iterable[Diagnostic], suppressions: Suppressions
) -> tuple[list[Diagnostic], dict[tuple[int | None, int], set[str]]]:
    """The diagnostics that stand, and the codes each line's noqa actually suppressed."""
    kept: list[Diagnostic] = []
    used: dict[tuple[int | None, int], set[str]] = {}
    for d in diagnostics:
        hit = suppressions.suppressed(d)
        if hit is False:
            kept.append(d)
        elif hit is not True:
            used.setdefault(hit, set()).add(d.code)
    return kept, used


def unused(
    suppressions: Suppressions, used: dict[tuple[int | None, int], set[str]], known: Iterable[str]
) -> list[tuple[tuple[int | None, int], list[str]]]:
    """(line key, greenlint codes named but unused) for each noqa naming codes nothing matched."""
    known = set(known)
    out = []
    for key, codes in suppressions.lines.items():
        if codes is ALL:
            continue
        stale = sorted(c for c in codes if c in known and c not in used.get(key, ()))
        if stale:
            out.append((key, stale))
    return out
