"""Suppression comments: `# noqa`, `# noqa: GL101, GL201` on a line; `# greenlint: noqa` per file.

Read as ruff reads them: only from comments (the tokenizer's COMMENT tokens), so a `#noqa` inside
a string or docstring suppresses nothing, and `noqa` must end there (`# noqa_later` is no noqa).
A file's directive is a comment alone on its line.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from greenlint.analysis.sources import blank_magics
from greenlint.rules.diagnostic import Diagnostic

_CODE = r"[A-Za-z]+[0-9]+"
#: Codes part with commas and spaces between them in any number, as flake8 splits them (`GL101,,GL201`: both)
_CODES = rf"(?:\s*:\s*(?P<codes>{_CODE}(?:[\s,]+{_CODE})*))?(?![\w:-])"
#: A line's directive, searched in one comment's text: a bare noqa (every code), or one naming codes.
LINE_NOQA = re.compile(r"#\s*noqa" + _CODES, re.I)
#: A file's directive: the whole text of a comment alone on its line.
FILE_NOQA = re.compile(r"#\s*greenlint\s*:\s*noqa" + _CODES + r"\s*$", re.I)
ALL = None  # a bare noqa suppresses every code


def _codes(match: re.Match) -> frozenset[str] | None:
    codes = match.group("codes")
    return frozenset(c.upper() for c in re.findall(_CODE, codes)) if codes else ALL


def comments(text: str) -> Iterator[tokenize.TokenInfo]:
    """The COMMENT tokens of *text*, up to where it stops tokenizing (code that does not parse
    keeps the comments above the fault). Lines end where Python's own reading ends them: at
    `\n`, `\r\n` or a lone `\r` (universal newlines), so token lines are the diagnostics' lines."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(text, newline=None).readline):
            if token.type == tokenize.COMMENT:
                yield token
    except (tokenize.TokenError, SyntaxError):
        return


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
        for token in comments(text if cell is None else blank_magics(text)):  # a cell's magics do not tokenize
            number, column = token.start
            whole = FILE_NOQA.match(token.string)
            if whole and not token.line[:column].strip():
                codes = _codes(whole)
                file_codes = ALL if codes is ALL or file_codes is ALL else (file_codes or frozenset()) | codes
                continue
            m = LINE_NOQA.search(token.string)
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
