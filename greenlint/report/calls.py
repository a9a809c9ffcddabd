"""`greenlint calls`: resolved call sites with their predicted energy, as the versioned JSON
contract documented in docs/calls-json.md, or as a table for people; and what a program pays
beside its calls (start-up, the held device), in one sentence each or as the contract's fields."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from greenlint.report.escape import leading_path, visible

if TYPE_CHECKING:
    from greenlint.analysis.callsite import CallSite
    from greenlint.predict.prediction import Prediction

#: Bump on any change that can break a reader (a field removed, renamed or retyped); adding a
#: field does not bump it. Documented in docs/calls-json.md.
CALLS_SCHEMA_VERSION = 4


def _key(pair) -> tuple:
    site = pair[0]
    return (site.path, site.span.cell or 0, site.span.line, site.span.column, site.api)


def callsite_json(site, prediction) -> dict:
    """One call site and its Prediction (None: unknown) as a contract object."""
    from greenlint.analysis.callsite import work_json
    from greenlint.predict.prediction import Prediction

    span = site.span
    return {
        "schema_version": CALLS_SCHEMA_VERSION,
        "path": site.path,
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
        "cell": span.cell,
        "api": site.api,
        "features": site.features,
        "work": work_json(site.work),
        "runs": site.runs.to_json(),
        "scope": site.scope,
        "shape": site.shape,
        **(prediction or Prediction.unknown("no prediction")).to_json(),
    }


def callsite_from_json(obj: object) -> tuple[CallSite, Prediction]:
    """The call site and Prediction `callsite_json` wrote; ValueError for anything else (a field
    missing or of another type: it is read from untrusted files). The contract's version must be
    this greenlint's."""
    from greenlint.analysis.callsite import CallSite, Runs, Span, work_from_json
    from greenlint.predict.prediction import Prediction

    if type(obj) is not dict or obj.get("schema_version") != CALLS_SCHEMA_VERSION:
        raise ValueError("not a call site of this schema version")
    line, column, end_line, end_column, cell = (obj.get(k) for k in ("line", "column", "end_line", "end_column", "cell"))
    if not (type(line) is type(column) is type(end_line) is type(end_column) is int) or type(cell) not in (int, type(None)):
        raise ValueError("a call site's position is whole numbers")
    path, api, features, work, runs = (obj.get(k) for k in ("path", "api", "features", "work", "runs"))
    if not (type(path) is type(api) is str and type(features) is type(work) is type(runs) is dict):
        raise ValueError("a call site's path and api are strings, its features, work and runs objects")
    scope, shape = obj.get("scope"), obj.get("shape")
    if not type(scope) is type(shape) is str:
        raise ValueError("a call site's scope and shape are strings")
    span = Span(line, column, end_line, end_column, cell)
    site = CallSite(path, span, api, features, work_from_json(work), Runs.from_json(runs), scope, shape)
    return site, Prediction.from_json(obj)


def calls_json(callsites_with_predictions: Iterable[tuple], calibration: dict | None = None) -> list[dict]:
    """(CallSite, Prediction | None) pairs -> contract objects, ordered by path, cell, line, column;
    each names the calibration overlay the figures applied (`calibration`, null without one)."""
    return [{**callsite_json(site, pred), "calibration": calibration}
            for site, pred in sorted(callsites_with_predictions, key=_key)]


def calls_document(
    callsites_with_predictions: Iterable[tuple],
    calibration: dict | None = None,
    startup: Prediction | None = None,
    held: Prediction | None = None,
) -> dict:
    """What `calls --format json` prints: the call sites (`calls_json`), and beside them what a
    program pays once at start-up and the device it holds between its calls (null where there is no
    figure)."""
    return {
        "schema_version": CALLS_SCHEMA_VERSION,
        "call_sites": calls_json(callsites_with_predictions, calibration),
        "startup": startup.to_json() if startup is not None else None,
        "held": held.to_json() if held is not None else None,
    }


def startup_line(start: Prediction | None) -> str:
    """What a program pays once beside its calls (`Predictor.startup`), in one sentence."""
    from greenlint.units import fmt_j, fmt_range

    if start is None or start.energy_j is None or start.interval_j is None:
        return "A program's start-up (`import tensorflow`, paid once outside every call): no figure in this model."
    return (f"Beside its calls, a program pays its start-up once at `import tensorflow`: {fmt_j(start.energy_j)} "
            f"({fmt_range(*start.interval_j)}; {start.label}: {start.evidence.note}).")


def held_line(held: Prediction | None, sites: int) -> str:
    """What a program of *sites* call sites draws beyond its calls' figures and start-up
    (`Predictor.held`), in one sentence."""
    from greenlint.units import fmt_j, fmt_range

    if held is None or held.energy_j is None or held.interval_j is None:
        return "The device a program holds between its calls: no figure in this model."
    return (f"While it runs, a program also holds the device between its calls: {fmt_j(held.energy_j)} for these "
            f"{sites} call site{'s' if sites != 1 else ''} ({fmt_range(*held.interval_j)}; {held.label}: "
            f"{held.evidence.note}).")


def calls_table(callsites_with_predictions: Iterable[tuple]):
    """A rich Table: location, api, energy per execution (the range when the 80 % interval is wider
    than 100x; a floor's from its 'at least'), how often it runs per program run and the total, each
    read as `greenlint.report.total` reads one site (as the editor and the energy report do), the
    interval, and the basis in the shared vocabulary."""
    from rich.table import Table
    from rich.text import Text

    from greenlint.predict.prediction import Prediction
    from greenlint.report.total import shown_interval
    from greenlint.rules.site import Site
    from greenlint.units import TIMES, fmt_range

    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column("location", overflow="fold")
    table.add_column("api", overflow="fold")
    table.add_column("energy", justify="right", no_wrap=True)
    table.add_column("runs", justify="right", no_wrap=True)
    table.add_column("total", justify="right", no_wrap=True)
    table.add_column("80% interval", justify="right", no_wrap=True)
    table.add_column("basis", no_wrap=True)
    for site, prediction in sorted(callsites_with_predictions, key=_key):
        p = prediction or Prediction.unknown("no prediction")
        span = site.span
        where = f"{span.line}:{span.column}" if span.cell is None else f"cell {span.cell}:{span.line}:{span.column}"
        runs = Site(site, p)
        loops = runs.program_runs
        counted = site.counted  # else unknown: no count, no total
        known = p.energy_j is not None
        shown = None if p.energy_j is None else shown_interval(p.energy_j, p.interval_j, p.floor)
        table.add_row(
            Text(visible(f"{leading_path(site.path)}:{where}")),  # Text: a name is never read as rich markup
            Text(visible(site.api)),
            _figure(p, 1) if known else "-",
            _runs_cell(runs, loops) if counted else f"{TIMES} ?",
            _figure(p, loops) if counted and known and loops > 1 else "",
            fmt_range(*shown) if shown and shown[1] > shown[0] else "-",
            p.label,
        )
    return table


def _figure(p, runs: int) -> str:
    """A site's figure times `runs`, as `greenlint.report.total` reads it (a floor from its 'at least')."""
    from greenlint.report.total import file_total

    return file_total([(p.energy_j, p.interval_j, runs, p.floor, True)]).figure()


def _runs_cell(runs, loops: int) -> str:
    """`× 8`, `× ≤8` for a counted site run more than once; "" for once."""
    from greenlint.units import TIMES

    if loops <= 1:
        return ""
    return f"{TIMES} ≤{loops}" if runs.runs_bound == "upper" else f"{TIMES} {loops}"
