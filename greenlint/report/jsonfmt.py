"""`json` (one array) and `json-lines` (one object per line) forms of diagnostics."""

from __future__ import annotations

import json


def _point(line: int, column: int) -> dict:
    return {"row": line, "column": column}


def fix_json(fix) -> dict | None:
    if fix is None:
        return None
    return {
        "message": fix.title,
        "applicability": "safe" if fix.safe else "unsafe",
        "edits": [
            {
                "content": e.content,
                "location": _point(e.span.line, e.span.column),
                "end_location": _point(e.span.end_line, e.span.end_column),
            }
            for e in fix.edits
        ],
    }


def diagnostic_json(d) -> dict:
    """One diagnostic as a JSON-ready dict (positions 1-based; `end_location` is exclusive)."""
    span = d.span
    return {
        "filename": d.path,
        "code": d.code,
        "name": d.name,
        "message": d.message,
        "severity": d.severity,
        "location": _point(span.line, span.column),
        "end_location": _point(span.end_line, span.end_column),
        "cell": span.cell,
        "fix": fix_json(d.fix),
        "energy_j": d.energy_j,
        "data": d.data,
    }


def render(diagnostics, *, lines: bool) -> str:
    objects = [diagnostic_json(d) for d in diagnostics]
    if lines:
        return "".join(json.dumps(o, sort_keys=True, default=str) + "\n" for o in objects)
    return json.dumps(objects, indent=2, sort_keys=True, default=str) + "\n"
