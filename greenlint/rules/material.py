"""Whether a finding's saving is material: large enough for a careful engineer to act on.

A finding may be right and still not worth a change: a tensor converted again on each of a
test's three dtypes costs a few hundred microseconds in all. Rules that can price what their
change saves report it only where the saving is a meaningful share of the work it is part of
(MIN_SHARE: of the training steps between two saves, of the layer's own pass) or adds up to a
meaningful figure over a run of the program (MIN_SAVING_S, where the run count is known), and
their messages say the figure. Rules whose figure is the energy of the work their change
touches report it only where that work can reach MIN_SAVING_J over a run of the program. Test
code is not material either: a test runs once on tiny inputs to exercise the code, and the cost
it repeats is paid by no user.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from greenlint.predict.prediction import Basis
from greenlint.rules.base import FileFacts, Option, Site
from greenlint.rules.deliberate import in_test_code, test_module
from greenlint.units import fmt_s

#: The least share of the work a saving is part of (the steps between two saves, the layer's
#: own pass) for a finding: under a tenth, a change is not worth its edit and review.
MIN_SHARE = 0.1
#: The least seconds a repeated cost must add up to over one run of the program, where its run
#: count is known: under a second is below the run-to-run spread of any program long enough to
#: be worth optimising (start-up, imports and data loading vary by more).
MIN_SAVING_S = 1.0
#: The least joules a finding's change can save, over one run of the program: under it, the whole
#: of the work the finding is about (the predictor's figure for it, at the high end of its 80 %
#: interval) is below 10 kJ, about 2.8 Wh, some 30 s of a 300 W GPU. From the judged findings:
#: the totals two blind judges called negligible (tutorials' 5- and 10-epoch MNIST MLPs, ten
#: `predict` calls of a textbook forecast) reach at most 8.1 kJ at that high end, and the least
#: one called worth a change (a notebook's 10,000 U-Net steps) is 2.6 MJ.
MIN_SAVING_J = 10_000.0
#: The option that sets it, for the rules that read it (GL101, GL201, and those `immaterial_run` judges).
SAVING_OPTION = Option(
    "material-saving-j",
    float,
    MIN_SAVING_J,
    "Joules (high end of the 80% interval x runs, where the runs are counted) the work a finding is about must"
    " reach over one run of the program: under it, no change to that work saves a material amount.",
)


def known_runs(site: Site) -> int | None:
    """How often the site runs per program run where the analysis counted it (exactly, or at
    most: `runs.count` with its bound), else None."""
    count = site.callsite.runs.get("count")
    if site.runs_bound in ("exact", "upper") and isinstance(count, int) and not isinstance(count, bool) and count > 0:
        return count
    return None


def in_tests(facts: FileFacts, site: Site) -> bool:
    """The call is test code: in a test module (`test_*.py`, `*_test.py`), a test, a fixture, a
    test class, or a helper only such code calls."""
    return test_module(facts.path) or in_test_code(facts, site)


def immaterial(facts: FileFacts, site: Site, each_s: float) -> bool:
    """A repeated cost of *each_s* seconds per run at the site is not worth a change: the call
    is test code, or its known runs add up to less than MIN_SAVING_S."""
    runs = known_runs(site)
    return (runs is not None and runs * each_s < MIN_SAVING_S) or in_tests(facts, site)


def immaterial_work(facts: FileFacts, site: Site, options: Mapping[str, Any]) -> bool:
    """No change to the site's work can save a material amount: it is test code, or its whole
    figure over one run of the program is under `material-saving-j` (MIN_SAVING_J by default)
    even at the high end of the predictor's 80 % interval, its runs counted (exactly, or at
    most). A figure whose data size is unknown (a floor) or whose runs are not counted says
    nothing."""
    runs, interval = known_runs(site), site.prediction.interval_j
    floor_j = float(options.get(SAVING_OPTION.key, SAVING_OPTION.default))
    negligible = runs is not None and interval is not None and not site.prediction.floor and interval[1] * runs < floor_j
    return negligible or in_tests(facts, site)


def repeated_cost(site: Site, each_s: float, what: str) -> str:
    """A repeated cost in words, for a message: `about 50 µs of eager dispatch each`, and where the
    site's runs are counted what they add up to (`, 1,000 times: 50 ms`; `at most` for a bound)."""
    each = f"about {fmt_s(each_s)} {what} each"
    runs = known_runs(site)
    if runs is None:
        return each
    most = "at most " if site.runs_bound == "upper" else ""
    return f"{each}, {most}{runs:,} times: {fmt_s(runs * each_s)}"


def immaterial_run(facts: FileFacts, site: Site, options: Mapping[str, Any]) -> bool:
    """`immaterial_work` for a change that saves part of the work the site runs (a step's feeding
    or dispatch, a decoder's recomputed prefix): at most all of it. A site that only builds a
    graph (0 J at its line, its work counted where the graph runs) says nothing of that work."""
    if site.prediction.basis is Basis.SYMBOLIC:
        return in_tests(facts, site)
    return immaterial_work(facts, site, options)
