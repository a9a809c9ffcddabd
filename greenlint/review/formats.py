"""`greenlint diff` output: text, json (docs/diff-json.md), github annotations, markdown, sarif."""

from __future__ import annotations

import json
import math

from greenlint import __version__
from greenlint.report.escape import code_span, leading_path, md_text, visible
from greenlint.report.location import position
from greenlint.review.budget import Violation
from greenlint.review.compare import Change, Diff, Figure, FileDiff, ProgramDiff
from greenlint.review.sides import INTENDED
from greenlint.units import TIMES, fmt_energy, fmt_j

SCHEMA_VERSION = 1
#: SARIF rules (and noqa codes): a call site's energy changed; the change is over budget.
CHANGE_CODE, BUDGET_CODE = INTENDED, "GLD101"


def fmt_ratio(ratio: float | None) -> str:
    if ratio is None:
        return "?"
    if math.isinf(ratio):
        return "new"
    return f"{TIMES}{ratio:.3g}" if ratio < 1000 else f"{TIMES}{ratio:,.0f}"


def fmt_interval(interval: tuple[float, float] | None) -> str:
    return "" if interval is None else f"{fmt_ratio(interval[0])} – {fmt_ratio(interval[1])}"


def _joules(figure: Figure | None) -> str:
    if figure is None:
        return "–"
    return fmt_energy(figure.joules, figure.interval)  # a range where the interval is over 100× wide


def where(c: Change) -> str:
    return f"{c.path}:{position(c.site.callsite.span)}"


def why(c: Change) -> str:
    text = "; ".join(r.text for r in c.reasons)
    return text + (f" (intended: noqa {CHANGE_CODE})" if c.intended else "")


def _ratio_text(ratio: float | None, interval: tuple[float, float] | None) -> str:
    if ratio is None:
        return "ratio unknown"
    return fmt_ratio(ratio) + (f" (80% interval {fmt_interval(interval)})" if interval else "")


def _was(f: FileDiff, name=str) -> str:
    """` (was old.py)` for a renamed file, ` (added)` / ` (deleted)`, else nothing; *name* renders
    a path (`code_span` in Markdown)."""
    if f.old_path:
        return f" (was {name(f.old_path)})"
    return f" ({f.status})" if f.status in ("added", "deleted") else ""


def _imports(p: ProgramDiff, name=str) -> str:
    """` (with a.py, b.py)`: the project modules one run of a script reads besides itself."""
    return f" (with {', '.join(name(f) for f in p.files[1:])})" if len(p.files) > 1 else ""


def _sides(diff: Diff) -> str:
    return f"{diff.base.label} → {diff.head.label}"


# -- text ---------------------------------------------------------------------------------------


def text(diff: Diff, violations: list[Violation]) -> str:
    if not diff.changes:
        lines = [f"greenlint diff {_sides(diff)}: no call site changed its energy"]
    else:
        lines = [f"greenlint diff {_sides(diff)}: joules per program run"]
        for f in diff.changed_files:
            totals = f"{fmt_j(f.before_j)} → {fmt_j(f.after_j)}, {_ratio_text(f.ratio, f.ratio_interval)}"
            lines.append(f"{leading_path(f.path)}{_was(f)}: {totals}")
            for c in f.changes:
                figures = f"{_joules(c.before)} → {_joules(c.after)}"
                ratio = f", {_ratio_text(c.ratio, c.ratio_interval)}" if c.status == "changed" else ""
                lines.append(f"  {leading_path(where(c))}: {c.site.api}: {figures}{ratio}: {why(c)}")
        for p in diff.programs:
            totals = f"{fmt_j(p.before_j)} → {fmt_j(p.after_j)}, {_ratio_text(p.ratio, p.ratio_interval)}"
            lines.append(f"program {p.path}{_imports(p)}: {totals}")
        lines.append(f"total: {fmt_j(diff.before_j)} → {fmt_j(diff.after_j)}, {_ratio_text(diff.ratio, diff.ratio_interval)}")
    lines += [f"over budget: {v.path + ': ' if v.path else ''}{v.message}" for v in violations]
    return "".join(visible(line) + "\n" for line in lines)


# -- json ---------------------------------------------------------------------------------------


def _figure_json(figure: Figure | None) -> dict | None:
    if figure is None:
        return None
    return {"joules": figure.joules, "interval_j": list(figure.interval) if figure.interval else None,
            "runs": figure.runs, "runs_bound": figure.runs_bound, "label": figure.label}


def _change_json(c: Change) -> dict:
    span = c.site.callsite.span
    old = None
    if c.old is not None:
        o = c.old.callsite.span
        old = {"path": c.old.path, "line": o.line, "column": o.column, "cell": o.cell}
    return {
        "status": c.status, "path": c.path, "line": span.line, "column": span.column, "end_line": span.end_line,
        "end_column": span.end_column, "cell": span.cell, "api": c.site.api, "scope": c.site.callsite.scope, "old": old,
        "before": _figure_json(c.before), "after": _figure_json(c.after), "ratio": c.ratio,
        "ratio_interval": list(c.ratio_interval) if c.ratio_interval else None,
        "reasons": [
            {"kind": r.kind, "quantity": r.quantity, "before": r.before, "after": r.after, "text": r.text} for r in c.reasons
        ],
        "intended": c.intended,
    }


def _file_json(f: FileDiff) -> dict:
    return {"path": f.path, "old_path": f.old_path, "status": f.status, "before_j": f.before_j, "after_j": f.after_j,
            "ratio": f.ratio, "ratio_interval": list(f.ratio_interval) if f.ratio_interval else None,
            "unknown_sites": f.unknown, "changes": [_change_json(c) for c in f.changes]}


def to_json(diff: Diff, violations: list[Violation], budget=None) -> dict:
    side = lambda s: {"label": s.label, "kind": s.kind, "commit": s.commit}  # noqa: E731
    return {
        "schema_version": SCHEMA_VERSION,
        "base": side(diff.base),
        "head": side(diff.head),
        "total": {"before_j": diff.before_j, "after_j": diff.after_j, "ratio": diff.ratio,
                  "ratio_interval": list(diff.ratio_interval) if diff.ratio_interval else None},
        "files": [_file_json(f) for f in diff.changed_files],
        "programs": [
            {"path": p.path, "files": list(p.files), "before_j": p.before_j, "after_j": p.after_j, "ratio": p.ratio,
             "ratio_interval": list(p.ratio_interval) if p.ratio_interval else None, "unknown_sites": p.unknown}
            for p in diff.programs
        ],
        "budget": {
            "fail_above": budget.fail_above if budget else None,
            "max_file_j": budget.max_file_j if budget else None,
            "max_added_j": budget.max_added_j if budget else None,
            "max_program_j": budget.max_program_j if budget else None,
            "allow": dict(budget.allow) if budget else {},
            "violations": [{"path": v.path, "message": v.message} for v in violations],
        },
        "errors": [{"path": e.path, "line": e.span.line, "code": e.code, "message": e.message} for e in diff.errors],
    }


def json_text(diff: Diff, violations: list[Violation], budget=None) -> str:
    return json.dumps(to_json(diff, violations, budget), indent=2, default=str) + "\n"


# -- github -------------------------------------------------------------------------------------


def github(diff: Diff, violations: list[Violation]) -> str:
    from greenlint.report.github import annotation  # each format's module on first use, as `report.render` does

    out = []
    for c in diff.changes:
        level = "warning" if c.added_j > 0 or (c.ratio or 0) > 1 else "notice"
        message = f"{c.site.api}: {_joules(c.before)} → {_joules(c.after)} per program run"
        message += f", {_ratio_text(c.ratio, c.ratio_interval)}" if c.status == "changed" else ""
        message += f" since {diff.base.label}: {why(c)}"
        out.append(annotation(level, c.path, c.site.callsite.span, f"{CHANGE_CODE} energy change", message))
    for v in violations:
        out.append(annotation("error", v.path, None, f"{BUDGET_CODE} over the energy budget", v.message))
    return "".join(line + "\n" for line in out)


# -- markdown -----------------------------------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(diff: Diff, violations: list[Violation], top: int = 20) -> str:
    """A pull-request comment or `$GITHUB_STEP_SUMMARY`: the totals, the largest changes first, a table per file."""
    lines = [f"### greenlint: energy of this change ({_cell(md_text(_sides(diff)))})", ""]
    if not diff.changes:
        return "\n".join([*lines, "No call site changed its energy.", ""])
    interval = f"; 80 % interval {fmt_interval(diff.ratio_interval)}" if diff.ratio_interval else ""
    lines += [f"**{fmt_ratio(diff.ratio)}** over all files analysed, in joules per program run: {fmt_j(diff.before_j)} → "
              f"{fmt_j(diff.after_j)}{interval}.", ""]
    if violations:
        over = [f"- {_cell(code_span(v.path) + ': ' if v.path else '')}{_cell(md_text(v.message))}" for v in violations]
        lines += ["**Over budget:**", "", *over, ""]
    changes = diff.changes
    lines += ["| call site | API | before | after | ratio | why |", "|---|---|---:|---:|---:|---|"]
    for c in changes[:top]:
        ratio = fmt_ratio(c.ratio) if c.status == "changed" else c.status
        if c.ratio_interval:
            ratio += f" ({fmt_interval(c.ratio_interval)})"
        figures = f"{_joules(c.before)} | {_joules(c.after)}"
        lines.append(f"| {_cell(code_span(where(c)))} | {_cell(code_span(c.site.api))} | {figures} | {ratio} | {_cell(md_text(why(c)))} |")
    if len(changes) > top:
        lines.append(f"| … {len(changes) - top} more | | | | | |")
    files = [(_cell(f"{code_span(f.path)}{_was(f, code_span)}"), f) for f in diff.changed_files] + [("**all files**", diff)]
    lines += ["", "Per file, joules per program run:", "", *_table(files)]
    if diff.programs:
        programs = [(_cell(f"{code_span(p.path)}{_imports(p, code_span)}"), p) for p in diff.programs]
        lines += ["", "Per program run (a script and the project modules it imports):", "", *_table(programs)]
    return "\n".join([*lines, ""])


def _table(rows: list[tuple[str, FileDiff | ProgramDiff | Diff]]) -> list[str]:
    out = ["| | before | after | ratio | 80 % interval |", "|---|---:|---:|---:|---|"]
    for name, t in rows:
        out.append(f"| {name} | {fmt_j(t.before_j)} | {fmt_j(t.after_j)} | {fmt_ratio(t.ratio)} | {fmt_interval(t.ratio_interval)} |")
    return out


# -- sarif --------------------------------------------------------------------------------------


def _location(path: str, span=None) -> dict:
    from greenlint.report.sarif import artifact_uri, region

    physical: dict = {"artifactLocation": {"uri": artifact_uri(path), "uriBaseId": "%SRCROOT%"}}
    if span is not None and span.cell is None:
        physical["region"] = region(span)
    location: dict = {"physicalLocation": physical}
    if span is not None and span.cell is not None:
        location["properties"] = {"cell": span.cell, "cellLine": span.line, "cellColumn": span.column}
    return location


def sarif(diff: Diff, violations: list[Violation]) -> str:
    from greenlint.report.sarif import SCHEMA

    rules = [
        {"id": CHANGE_CODE, "name": "energy-change", "shortDescription": {"text": "A call site's joules per program run changed"},
         "defaultConfiguration": {"level": "warning"}},
        {"id": BUDGET_CODE, "name": "energy-budget", "shortDescription": {"text": "A change exceeds the energy budget"},
         "defaultConfiguration": {"level": "error"}},
    ]
    results = []
    for c in diff.changes:
        message = f"{c.site.api}: {_joules(c.before)} → {_joules(c.after)} per program run"
        message += f", {_ratio_text(c.ratio, c.ratio_interval)}" if c.status == "changed" else ""
        results.append({"ruleId": CHANGE_CODE, "ruleIndex": 0, "level": "warning" if c.added_j > 0 else "note",
                        "message": {"text": f"{message} since {diff.base.label}: {why(c)}"},
                        "locations": [_location(c.path, c.site.callsite.span)],
                        "properties": {"ratio": c.ratio, "before_j": c.before.joules if c.before else None,
                                       "after_j": c.after.joules if c.after else None, "intended": c.intended}})
    for v in violations:
        result = {"ruleId": BUDGET_CODE, "ruleIndex": 1, "level": "error", "message": {"text": v.message}}
        if v.path:
            result["locations"] = [_location(v.path)]
        results.append(result)
    log = {"$schema": SCHEMA, "version": "2.1.0", "runs": [{
        "tool": {"driver": {"name": "greenlint", "version": __version__,
                            "rules": rules}},
        "columnKind": "unicodeCodePoints",
        "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "the repository root"}}},
        "results": results,
    }]}
    return json.dumps(log, indent=2) + "\n"


def render(fmt: str, diff: Diff, violations: list[Violation], budget=None) -> str:
    if fmt == "json":
        return json_text(diff, violations, budget)
    return {"text": text, "github": github, "markdown": markdown, "sarif": sarif}[fmt](diff, violations)
