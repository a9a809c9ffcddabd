"""Whether a notebook cell that does not parse is an exercise's placeholder: blanks left for the
student to fill in (`image_gen = `, `model.fit(x, epochs=)`, a `def` whose body is only
`# YOUR CODE HERE`), not broken code.

The test is the parser's own: the cell is repaired where the parser stops, only by filling a
blank (an `...` after an `=` that ends its line, an `...` body under a header with none), and
it is a placeholder when it then parses. Any other error leaves it a syntax error.
"""

from __future__ import annotations

import ast
import re
import warnings

from greenlint.analysis.sources import text_lines

#: Code that ends in an assignment's `=` (or a keyword argument's) where the parser stopped: its
#: right side is left blank. `==`, `<=`, `>=`, `!=` and augmented assignments are not.
_ENDS_IN_EQUALS = re.compile(r"[\w)\]}]\s*=\s*$")
_COMMENT = re.compile(r"#.*$")
#: The parser's message for a header with no body, naming the header's line.
_NO_BODY = re.compile(r"expected an indented block after .* on line (\d+)")


def blank(text: str) -> tuple[int, str] | None:
    """The first blank of *text* (its line number and its line, stripped) when filling its
    blanks makes it parse; None when it parses as it is, or when any error is not a blank."""
    lines = text_lines(text)
    first = None
    for _ in range(len(lines) + 1):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse("\n".join(lines))
            return first
        except SyntaxError as exc:
            filled = _fill(lines, exc)
        except (RecursionError, MemoryError, ValueError):
            return None
        if filled is None:
            return None
        at, repaired = filled
        first = first or (at, lines[at - 1].strip())
        lines = repaired
    return None


def _fill(lines: list[str], error: SyntaxError) -> tuple[int, list[str]] | None:
    """The line of the blank the parser stopped at, and the lines with it filled by `...`; None
    for an error that is not a blank."""
    header = _NO_BODY.match(error.msg or "")
    if header is not None:
        at = int(header.group(1))
        if not 1 <= at <= len(lines) or not _left_empty(lines[at:]):
            return None
        indent = len(lines[at - 1]) - len(lines[at - 1].lstrip())
        return at, [*lines[:at], " " * (indent + 4) + "...", *lines[at:]]
    at, column = error.lineno or 0, (error.offset or 1) - 1
    if not 1 <= at <= len(lines):
        return None
    if not lines[at - 1][:column].strip() and at > 1:  # stopped at the start of the line after the blank
        at -= 1
        column = len(_COMMENT.sub("", lines[at - 1]).rstrip())
    line = lines[at - 1]
    if not _ENDS_IN_EQUALS.search(line[:column]):
        return None
    return at, [*lines[: at - 1], line[:column] + " ... " + line[column:], *lines[at:]]


def _left_empty(after: list[str]) -> bool:
    """A header's body is left for the student: a comment stands where it would be (`# YOUR CODE
    HERE`), or no code follows in the cell."""
    for line in after:
        if line.strip():
            return line.lstrip().startswith("#")
    return True
