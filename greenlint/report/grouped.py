"""`grouped`: diagnostics under a header per file, positions aligned (like ruff's grouped)."""

from __future__ import annotations

from itertools import groupby

from greenlint.report.escape import leading_path, visible
from greenlint.report.location import one_line, position, summary


def render(diagnostics) -> str:
    out = []
    for path, group in groupby(diagnostics, key=lambda d: d.path):
        group = list(group)
        positions = [position(d.span) for d in group]
        width = max(map(len, positions))
        code_width = max(len(d.code) for d in group)
        out.append(visible(f"{leading_path(path)}:"))
        out.extend(visible(f"  {pos:<{width}}  {d.code:<{code_width}}  {one_line(d.message)}") for pos, d in zip(positions, group))
        out.append("")
    out.append(summary(diagnostics))
    return "\n".join(out) + "\n"
