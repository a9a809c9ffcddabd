"""`full`: each diagnostic with its source context, a caret under the span and a help line
(the fix's title, else the finding's own `data["help"]`, else the rule's FIX_TITLE)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from greenlint.analysis.sources import text_lines
from greenlint.report.concise import line as header
from greenlint.report.escape import visible
from greenlint.report.location import summary
from greenlint.report.rulemeta import RuleMeta

CONTEXT = 2  # lines shown before and after the span
MAX_SPAN_LINES = 8  # longer spans are cut after this many lines
TAB = 4
#: Characters of a source line shown: a longer one (minified code, a literal of data) is shown from
#: LEAD characters before the span, `…` marking each cut (a 700 KB line printed 2.8 MB per finding).
MAX_SHOWN, LEAD = 200, 40


def source_lines(sources: Mapping[str, str | Sequence[str]], path: str, cell: int | None) -> list[str] | None:
    """The lines the span's line numbers refer to: the file's, or the notebook cell's."""
    text = sources.get(path)
    if text is None:
        return None
    if cell is not None:
        if isinstance(text, str) or not 1 <= cell <= len(text):
            return None
        text = text[cell - 1]
    elif not isinstance(text, str):
        return None
    return text_lines(text)


def _shown(text: str) -> str:
    """A source line as printed: controls escaped (`visible`), tabs expanded."""
    return visible(text).expandtabs(TAB)


def _underline(text: str, start: int, end: int) -> tuple[int, int]:
    """Display offset and width of characters [start, end) (0-based) once controls are escaped
    and tabs expanded."""
    offset = len(_shown(text[:start]))
    return offset, max(1, len(_shown(text[:end])) - offset)


def _window(text: str, start: int) -> tuple[int, int]:
    """The characters [lo, hi) of *text* shown: all of a line up to MAX_SHOWN long, else MAX_SHOWN
    of them from LEAD before the 0-based column *start*."""
    if len(text) <= MAX_SHOWN:
        return 0, len(text)
    lo = max(0, min(start - LEAD, len(text) - MAX_SHOWN))
    return lo, lo + MAX_SHOWN


def _snippet(lines: list[str], d) -> list[str]:
    span = d.span
    if not 1 <= span.line <= len(lines):
        return []
    last = min(max(span.end_line, span.line), len(lines), span.line + MAX_SPAN_LINES - 1)
    first_shown = max(1, span.line - CONTEXT)
    last_shown = min(len(lines), last + CONTEXT)
    gutter = len(str(last_shown))
    pad = " " * gutter
    out = [f"{pad} |"]
    for number in range(first_shown, last_shown + 1):
        text = lines[number - 1]
        marked = span.line <= number <= last
        body_start = len(text) - len(text.lstrip())
        start = (span.column - 1 if number == span.line else body_start) if marked else 0
        lo, hi = _window(text, start)
        head, tail = "…" if lo else "", "…" if hi < len(text) else ""
        out.append(f"{number:>{gutter}} | {head}{_shown(text[lo:hi])}{tail}".rstrip())
        if marked:
            end = span.end_column - 1 if number == span.end_line else len(text)
            first, stop = min(max(start, lo), hi), min(max(end, start + 1), hi)
            offset, width = _underline(text[lo:hi], first - lo, max(stop, first + 1) - lo)
            marks = f"{' ' * (len(head) + offset)}{'^' * width}"
            out.append(f"{pad} | {marks} {d.code}" if number == last else f"{pad} | {marks}")
    out.append(f"{pad} |")
    return out


def render(diagnostics, sources: Mapping[str, str | Sequence[str]], rules: Mapping[str, RuleMeta]) -> str:
    blocks = []
    for d in diagnostics:
        lines = source_lines(sources, d.path, d.span.cell)
        block = [header(d), *(_snippet(lines, d) if lines else [])]
        meta = rules.get(d.code)
        help_text = d.fix.title if d.fix is not None else d.data.get("help") or (meta.fix_title if meta else None)
        if help_text:
            block.append(visible(f"  = help: {help_text}"))
        blocks.append("\n".join(block) + "\n")
    return "\n".join([*blocks, summary(diagnostics) + "\n"])
