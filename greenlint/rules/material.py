"""Whether a finding's saving is material: large enough for a careful engineer to act on.

A finding may be right and still not worth a change: a tensor converted again on each of a
test's three dtypes costs a few hundred microseconds in all. Rules that can price what their
change saves report it only where the saving is a meaningful share of the work it is part of
(MIN_SHARE: of the training steps between two saves, of the layer's own pass) or adds up to a
meaningful figure over a run of the program (MIN_SAVING_S, where the run count is known), and
their messages say the figure. Rules whose change touches a whole work (a training, a loop of
predictions) price it as a share of that work's figure (`saving_j`: the predictor's 80 % interval
and its point, times the counted runs) and report it only where the most it saves at the point
figure, the predictor's median, reaches MIN_SAVING_J over a run of the program: a saving that
reaches it only towards the high end of the interval is more likely than not under it. Their
messages state it as that share of the figure GL101 states for the same work (`saving_clause`: one price
of a call, read by both), not of the interval's high end. A work of
unknown size (a floor, runs not counted) is not negligible, and keeps its finding without a
figure, unless it is a Keras model's step whose stated most (the largest data and model its
floor allows) stays under MIN_SAVING_J. Test code is not material either: a test runs once on
tiny inputs to exercise the code, and the cost it repeats is paid by no user.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from greenlint.predict.prediction import Basis
from greenlint.rules.base import FileFacts, Option
from greenlint.rules.deliberate import in_test_code, test_module
from greenlint.rules.site import Site, is_keras_model_method
from greenlint.units import fmt_count, fmt_energy, fmt_j, fmt_range, fmt_s, shown_as_range

#: The least share of the work a saving is part of (the steps between two saves, the layer's
#: own pass) for a finding: under a tenth, a change is not worth its edit and review.
MIN_SHARE = 0.1
#: The least seconds a repeated cost must add up to over one run of the program, where its run
#: count is known: under a second is below the run-to-run spread of any program long enough to
#: be worth optimising (start-up, imports and data loading vary by more).
MIN_SAVING_S = 1.0
#: The least joules a finding's change can save, over one run of the program: under it, the
#: work the finding is about (the predictor's point figure for it, its median) saves below 10 kJ,
#: about 2.8 Wh, some 30 s of a 300 W GPU. From the judged findings: the totals two blind judges
#: called negligible (tutorials' 5- to 25-epoch MNIST MLPs, ten `predict` calls of a textbook
#: forecast) reach at most 28.5 kJ at their point and 7.9 kJ at the low end of their interval
#: (GL101, whose claim is the figure itself, holds it to that low end), and the least one called
#: worth a change (a notebook's 10,000 U-Net steps) is 450 kJ at its point.
MIN_SAVING_J = 10_000.0
#: The option that sets it, for the rules that read it.
SAVING_OPTION = Option(
    "material-saving-j",
    float,
    MIN_SAVING_J,
    "Joules (point figure x runs, where the runs are counted) the saving a finding claims must"
    " reach over one run of the program (GL101, GL201, GL207, GL302, GL503: the whole work; GL301, GL308, GL602:"
    " their share of the training; GL201, GL302: also the overhead they remove): under it, the change saves no"
    " material amount.",
)
#: The methods that run a Keras model's steps: a floor's top there is the largest data and model it allows.
MODEL_STEPS = ("fit", "evaluate", "predict", "train_on_batch", "test_on_batch", "predict_on_batch",
               "fit_generator", "evaluate_generator", "predict_generator")
#: The share of a work a change saves where it may save all of it (GL101's, GL201's whole figure).
WHOLE = (1.0, 1.0)


def known_runs(site: Site) -> int | None:
    """How often the site runs per program run where the analysis counted it (exactly, or at
    most: `runs.count` with its bound), else None."""
    count = site.callsite.runs.count
    if site.runs_bound in ("exact", "upper") and isinstance(count, int) and not isinstance(count, bool) and count > 0:
        return count
    return None


def least_runs(site: Site) -> int | None:
    """The fewest runs certain where the analysis could not count them (`runs.least`: its counted
    loops' trips, each loop of unknown length once), else None."""
    least = site.callsite.runs.least
    return least if known_runs(site) is None and isinstance(least, int) and least > 1 else None


def in_tests(facts: FileFacts, site: Site) -> bool:
    """The call is test code: in a test module (`test_*.py`, `*_test.py`), a test, a fixture, a
    test class, or a helper only such code calls."""
    return test_module(facts.path) or in_test_code(facts, site)


def immaterial(facts: FileFacts, site: Site, each_s: float) -> bool:
    """A repeated cost of *each_s* seconds per run at the site is not worth a change: the call
    is test code, or its known runs add up to less than MIN_SAVING_S."""
    runs = known_runs(site)
    return (runs is not None and runs * each_s < MIN_SAVING_S) or in_tests(facts, site)


def immaterial_overhead(
    facts: FileFacts, site: Site, each_s: float, each_j: float | None, options: Mapping[str, Any],
    runs: int | None = None,
) -> bool:
    """A repeated overhead of *each_s* seconds (*each_j* joules, None where not priced) per run
    that a change removes is not worth it: the call is test code, or over the site's counted
    runs it adds up to under MIN_SAVING_S or under `material-saving-j` (the saving itself, not
    the work it is part of); *runs* instead of the counted ones (a floor: `least_runs`). Runs not
    counted say nothing."""
    if in_tests(facts, site):
        return True
    runs = known_runs(site) if runs is None else runs
    return runs is not None and (
        runs * each_s < MIN_SAVING_S or (each_j is not None and runs * each_j < least_saving_j(options))
    )


class Joules(NamedTuple):
    """Joules over one run of the program: the low and high ends of the 80 % interval, and the
    point (the predictor's median) between them."""

    low: float
    point: float
    high: float


def work_j(sites: Iterable[Site]) -> Joules | None:
    """The joules the sites' work costs over one run of the program: each site's 80 % interval and
    point figure times its counted runs (exactly, or at most), summed; None where any is unknown (no
    interval, a floor of unknown data size, runs not counted, a call that only builds a graph whose
    work runs elsewhere) or there is no site."""
    low = point = high = 0.0
    found = False
    for site in sites:
        runs, p = known_runs(site), site.prediction
        interval = p.interval_j
        if runs is None or interval is None or p.floor or p.basis is Basis.SYMBOLIC:
            return None
        middle = interval[1] if p.energy_j is None else p.energy_j
        low, point, high = low + interval[0] * runs, point + middle * runs, high + interval[1] * runs
        found = True
    return Joules(low, point, high) if found else None


def saving_j(sites: Iterable[Site], share: tuple[float, float]) -> Joules | None:
    """What a change saving *share* (least, most: fractions) of the sites' work saves over one run
    of the program, in joules of their figure (`work_j`): the least share of its low end, the most
    share of its point and of its high end; None where that work is unknown."""
    return share_of(work_j(sites), share)


def share_of(work: Joules | None, share: tuple[float, float]) -> Joules | None:
    """*share* (least, most) of *work*: the least share of its low end, the most share of its point and of
    its high end; None where the work is unknown (None)."""
    return None if work is None else Joules(share[0] * work.low, share[1] * work.point, share[1] * work.high)


def least_saving_j(options: Mapping[str, Any]) -> float:
    """The joules a saving must reach over one run of the program: `material-saving-j`."""
    return float(options.get(SAVING_OPTION.key, SAVING_OPTION.default))


def immaterial_saving(saving: Joules | None, options: Mapping[str, Any]) -> bool:
    """A priced saving whose most at the point figure stays under `material-saving-j`
    (MIN_SAVING_J by default): it reaches that only towards the high end of its interval, if at
    all. An unknown one (None) is not negligible."""
    return saving is not None and saving.point < least_saving_j(options)


def saving_clause(work: Joules, share: tuple[float, float], basis: str, kind: str = "training") -> str:
    """A saving of *share* (least, most) of the sites' *work* (`work_j`) as a message says it: its joules over
    one run of the program, the share, and the figure it is a share of as GL101 states that figure
    (`fmt_energy`: the point, or the 80 % interval where that is wide), with its basis (`predicted`,
    `calibrated here`: the machine it is for), so that both messages read one price of the call."""
    low, high = round(100 * share[0]), round(100 * share[1])
    part = f"up to {high}%" if low == 0 else f"{low}%" if low == high else f"{low}-{high}%"
    ranged = shown_as_range((work.low, work.high))
    least, most = (work.low, work.high) if ranged else (work.point, work.point)
    joules = fmt_range(share[0] * least, share[1] * most)
    if share[0] == 0:
        joules = f"{'at most' if ranged else 'up to'} {fmt_j(share[1] * most)}"
    elif fmt_j(share[0] * least) == fmt_j(share[1] * most):
        joules = fmt_j(share[1] * most)
    figure = fmt_energy(work.point, (work.low, work.high))
    return f"{joules} over a run of the program ({part} of the {kind}'s {figure}, {basis})"


def immaterial_work(facts: FileFacts, site: Site, options: Mapping[str, Any]) -> bool:
    """No change to the site's work can save a material amount: it is test code, or its whole
    point figure over one run of the program is under `material-saving-j` (MIN_SAVING_J by
    default), its runs counted (exactly, or at most). A Keras model's step of unknown size (a
    floor) is judged by its stated most, the top of its interval (the largest data and model it
    allows: two steps of 64 rows stay under 3 kJ whatever the model); another floor's top (an op's,
    a session's: its API's figure on other programs' tensors) bounds nothing, and runs not counted
    say nothing."""
    if in_tests(facts, site):
        return True
    runs, p = known_runs(site), site.prediction
    if p.floor:
        top = p.interval_j[1] if p.interval_j is not None and is_keras_model_method(site.api, MODEL_STEPS) else None
        return top is not None and runs is not None and top * runs < least_saving_j(options)
    return immaterial_saving(saving_j([site], WHOLE), options)


def repeated_cost(site: Site, each_s: float, what: str) -> str:
    """A repeated cost in words, for a message: `about 50 µs of eager dispatch each`, and where the
    site's runs are counted what they add up to (`, 1,000 times: 50 ms`; `at most` for a bound), or
    where only their floor is, what that adds up to (`, at least 50 times: at least 2.5 ms`)."""
    each = f"about {fmt_s(each_s)} {what} each"
    runs, least = known_runs(site), least_runs(site)
    if runs is not None:
        most = "at most " if site.runs_bound == "upper" else ""
        return f"{each}, {most}{fmt_count(runs)} times: {fmt_s(runs * each_s)}"
    if least is not None:
        return f"{each}, at least {fmt_count(least)} times: at least {fmt_s(least * each_s)}"
    return each
