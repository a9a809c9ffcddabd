"""`concise`: one line per diagnostic, `path:line:col: CODE message` (`nb.ipynb:cell 3:2:5: ...`)."""

from __future__ import annotations

from greenlint.report.escape import leading_path, visible
from greenlint.report.location import one_line, position, summary


def line(d) -> str:
    return visible(f"{leading_path(d.path)}:{position(d.span)}: {d.code} {one_line(d.message)}")


def render(diagnostics) -> str:
    return "".join(line(d) + "\n" for d in diagnostics) + summary(diagnostics) + "\n"
