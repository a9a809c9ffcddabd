"""What the predictor says one measured `run()` of a rule's before/after pair costs.

bench/rules/measure.py meters `run()` only (importing the program is setup), so the figure set
beside the measurement is the same work: each call site's per-execution figure times the number of
times one `run()` executes it. That count is read from the analysis itself, as the difference of
two analyses: the program with one `run()` call appended at module level, less the program as it
is (its setup; a function only `run` calls has no count there). A site reached from `run()` without
a figure or with an unknown count makes the total unknown rather than silently smaller.
"""

from __future__ import annotations

from pathlib import Path

from greenlint.analysis.analyse import analyse_source
from greenlint.analysis.callsite import Span
from greenlint.check.file_result import from_analysis
from greenlint.rules.site import Site

#: The function whose calls bench/rules/measure.py meters.
MEASURED_FUNCTION = "run"


def _counts(source: str, path: str, predict) -> dict[Span, tuple[int | None, Site]]:
    result = from_analysis(analyse_source(source, path=path), predict)
    return {s.callsite.span: (s.callsite.runs.count, s) for s in result.sites}


def run_prediction(program: Path, predict) -> dict:
    """{"energy_j": joules of one `run()` or None when unknown, "sites": how many call sites one run()
    executes, "unknown": how many of them have no figure or count, "bases": the bases seen}."""
    source = program.read_text(encoding="utf-8")
    setup = _counts(source, str(program), predict)
    measured = _counts(f"{source.rstrip()}\n{MEASURED_FUNCTION}()\n", str(program), predict)
    total, unknown, sites, bases = 0.0, 0, 0, set()
    for key, (count, site) in measured.items():
        before = setup[key][0] if key in setup else None
        if isinstance(count, int) and isinstance(before, int) and count == before:
            continue  # setup only: one run() does not reach it
        sites += 1
        energy = site.prediction.energy_j
        if energy is None or not isinstance(count, int):
            unknown += 1
            continue
        total += energy * (count - (before if isinstance(before, int) else 0))
        bases.add(site.prediction.basis.value)
    return {"energy_j": None if unknown else total, "sites": sites, "unknown": unknown, "bases": sorted(bases)}
