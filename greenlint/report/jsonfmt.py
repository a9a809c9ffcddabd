"""`json` (one array) and `json-lines` (one object per line) forms of diagnostics.

Each object: `schema_version`, `filename`, `code`, `name`, `message`, `severity`
(error|warning|info), `location` and `end_location` (`{"row", "column"}`, 1-based, columns in
characters, the end exclusive), `cell` (1-based code-cell index in a notebook, rows then relative
to the cell; null otherwise), `fix` (null, or `message`, `applicability` safe|unsafe and `edits`
with `content`, `location`, `end_location`), `energy_j` (predicted joules behind the finding, or
null), `data` (rule-specific facts) and `calibration` (the calibration overlay the figures applied,
`{"path", "hardware_id"}`, or null). Adding a field keeps the version; removing, renaming or
retyping one bumps it.
"""

from __future__ import annotations

import json

DIAGNOSTICS_SCHEMA_VERSION = 1


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
        "schema_version": DIAGNOSTICS_SCHEMA_VERSION,
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


def render(diagnostics, *, lines: bool, calibration: dict | None = None) -> str:
    objects = [{**diagnostic_json(d), "calibration": calibration} for d in diagnostics]
    if lines:
        return "".join(json.dumps(o, sort_keys=True, default=str) + "\n" for o in objects)
    return json.dumps(objects, indent=2, sort_keys=True, default=str) + "\n"
