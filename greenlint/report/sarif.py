"""`sarif`: a SARIF 2.1.0 log with one run, its rules and results.

Columns are counted in Unicode code points (`run.columnKind`), regions end exclusively.
Notebook results keep cell-relative lines; the cell is in the location's property bag
(`cell`) and in a logical location named `cell N`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import PurePath
from urllib.parse import quote

from greenlint import __version__
from greenlint.report.rulemeta import RuleMeta

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def artifact_uri(path: str) -> str:
    """A relative URI for a relative path, a file:// URI for an absolute one."""
    pure = PurePath(path)
    if pure.is_absolute():
        return pure.as_uri()
    return quote(pure.as_posix())


def _region(span) -> dict:
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


def _location(d) -> dict:
    loc = {"physicalLocation": {"artifactLocation": {"uri": artifact_uri(d.path)}, "region": _region(d.span)}}
    if d.span.cell is not None:
        loc["physicalLocation"]["properties"] = {"cell": d.span.cell}
        loc["logicalLocations"] = [{"name": f"cell {d.span.cell}", "kind": "notebookCell"}]
    return loc


def _fix(d) -> dict:
    replacements = [
        {"deletedRegion": _region(e.span), "insertedContent": {"text": e.content}} for e in d.fix.edits
    ]
    return {
        "description": {"text": d.fix.title},
        "artifactChanges": [{"artifactLocation": {"uri": artifact_uri(d.path)}, "replacements": replacements}],
    }


def _result(d, index: int) -> dict:
    result = {
        "ruleId": d.code,
        "ruleIndex": index,
        "level": LEVELS.get(d.severity, "warning"),
        "message": {"text": d.message},
        "locations": [_location(d)],
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
    driver = {
        "name": "greenlint",
        "version": __version__,
        "rules": [_descriptor(code, metas[code]) for code in codes],
    }
    run = {
        "tool": {"driver": driver},
        "columnKind": "unicodeCodePoints",
        "results": [_result(d, index[d.code]) for d in diagnostics],
    }
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def render(diagnostics, rules: Mapping[str, RuleMeta]) -> str:
    return json.dumps(log(diagnostics, rules), indent=2) + "\n"
