"""`sarif`: a SARIF 2.1.0 log with one run, its rules and results.

Columns are counted in Unicode code points (`run.columnKind`), regions end exclusively.
A notebook result points at the line of the `.ipynb` file (JSON) that holds its code line, so
code scanning shows the right place; the cell and its own line and column are in the location's
property bag (`cell`, `cellLine`, `cellColumn`) and in a logical location named `cell N`.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import PurePath
from urllib.parse import quote

from greenlint import __version__
from greenlint.analysis.sources import cells_of
from greenlint.report.rulemeta import RuleMeta

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def artifact_uri(path: str) -> str:
    """A relative URI for a relative path, a file:// URI for an absolute one."""
    pure = PurePath(path)
    if pure.is_absolute():
        return pure.as_uri()
    return quote(os.fsencode(pure.as_posix()))  # a name that is not UTF-8: its bytes, %-encoded


def region(span) -> dict:
    """A SARIF region for a span (columns in characters)."""
    return {
        "startLine": span.line,
        "startColumn": span.column,
        "endLine": span.end_line,
        "endColumn": span.end_column,
    }


def _descriptor(code: str, meta: RuleMeta) -> dict:
    rule = {"id": code, "name": meta.name, "shortDescription": {"text": meta.short}}
    if meta.full:
        rule["fullDescription"] = {"text": meta.full}
    if meta.help_markdown:
        rule["help"] = {"text": meta.help_markdown, "markdown": meta.help_markdown}
    if meta.level:
        rule["defaultConfiguration"] = {"level": LEVELS.get(meta.level, "warning")}
    return rule


_WS = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")


class _At(str):
    """A JSON string with the offset of its opening quote in the document."""

    pos: int


def _json_at(text: str, i: int = 0):
    """Parse JSON at *i* like `json.loads`, keeping where each string value starts: (value, end)."""
    i = _WS.match(text, i).end()
    if text[i] == '"':
        value, end = json.decoder.scanstring(text, i + 1)
        at = _At(value)
        at.pos = i
        return at, end
    if text[i] in "[{":
        close, items, i = "]}"[text[i] == "{"], [], i + 1
        while True:
            i = _WS.match(text, i).end()
            if text[i] == close:
                return (dict(items) if close == "}" else items), i + 1
            if close == "}":
                key, i = _json_at(text, i)
                i = _WS.match(text, i).end() + 1  # the colon
                value, i = _json_at(text, i)
                items.append((str(key), value))
            else:
                value, i = _json_at(text, i)
                items.append(value)
            i = _WS.match(text, i).end()
            i += text[i] == ","
    m = _SCALAR.match(text, i)
    return json.loads(m.group()), m.end()


def notebook_lines(text: str) -> list[list[int]]:
    """For each code cell (in order), the 1-based line of the notebook JSON holding each of its lines."""
    nb, _ = _json_at(text)
    cells, key = cells_of(nb)
    out = []
    for cell in cells:
        if cell.get("cell_type") != "code":
            continue
        source = cell.get(key, "")
        pieces = source if isinstance(source, list) else [source]
        lines = []
        for piece in pieces:
            line = text.count("\n", 0, piece.pos) + 1 if isinstance(piece, _At) else 1
            lines += [line] * (piece.count("\n") + (not piece.endswith("\n")))
        out.append(lines)
    return out


def _notebook_lines(path: str, memo: dict) -> list[list[int]] | None:
    if path not in memo:
        try:
            with open(path, encoding="utf-8") as fh:
                memo[path] = notebook_lines(fh.read())
        except (OSError, ValueError, IndexError, AttributeError, TypeError):
            memo[path] = None  # gone or changed since the check: no line in the JSON to point at
    return memo[path]


def _location(d, memo: dict) -> dict:
    loc = {"physicalLocation": {"artifactLocation": {"uri": artifact_uri(d.path)}, "region": region(d.span)}}
    if d.span.cell is not None:
        physical = loc["physicalLocation"]
        physical["properties"] = {"cell": d.span.cell, "cellLine": d.span.line, "cellColumn": d.span.column}
        loc["logicalLocations"] = [{"name": f"cell {d.span.cell}", "kind": "notebookCell"}]
        cells = _notebook_lines(d.path, memo)
        try:
            lines = cells[d.span.cell - 1]
            start, end = lines[d.span.line - 1], lines[min(d.span.end_line, len(lines)) - 1]
        except (TypeError, IndexError):
            del physical["region"]
        else:
            physical["region"] = {"startLine": start, "endLine": max(start, end)}
    return loc


def _fix(d) -> dict:
    replacements = [
        {"deletedRegion": region(e.span), "insertedContent": {"text": e.content}} for e in d.fix.edits
    ]
    return {
        "description": {"text": d.fix.title},
        "artifactChanges": [{"artifactLocation": {"uri": artifact_uri(d.path)}, "replacements": replacements}],
    }


def _result(d, index: int, memo: dict) -> dict:
    result = {
        "ruleId": d.code,
        "ruleIndex": index,
        "level": LEVELS.get(d.severity, "warning"),
        "message": {"text": d.message},
        "locations": [_location(d, memo)],
    }
    if d.fix is not None and d.fix.edits:
        result["fixes"] = [_fix(d)]
    if d.energy_j is not None:
        result["properties"] = {"energy_j": d.energy_j}
    return result


def log(diagnostics, rules: Mapping[str, RuleMeta]) -> dict:
    """The SARIF log as a dict; a rule missing from `rules` is described by its name."""
    metas: dict[str, RuleMeta] = {}
    for d in diagnostics:
        metas.setdefault(d.code, rules.get(d.code) or RuleMeta(d.name, d.name))
    codes = sorted(metas)
    index = {code: i for i, code in enumerate(codes)}
    memo: dict[str, list[list[int]] | None] = {}  # notebook path -> JSON line of each cell line
    driver = {
        "name": "greenlint",
        "version": __version__,
        "rules": [_descriptor(code, metas[code]) for code in codes],
    }
    run = {
        "tool": {"driver": driver},
        "columnKind": "unicodeCodePoints",
        "results": [_result(d, index[d.code], memo) for d in diagnostics],
    }
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def render(diagnostics, rules: Mapping[str, RuleMeta], calibration: dict | None = None) -> str:
    """The SARIF log; *calibration* (the overlay the figures applied) goes into the run's properties."""
    sarif = log(diagnostics, rules)
    if calibration is not None:
        sarif["runs"][0]["properties"] = {"calibration": calibration}
    return json.dumps(sarif, indent=2) + "\n"
