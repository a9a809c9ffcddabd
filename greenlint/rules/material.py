"""Whether a finding's saving is material: large enough for a careful engineer to act on.

A finding may be right and still not worth a change: a tensor converted again on each of a
test's three dtypes costs a few hundred microseconds in all. Rules that can price what their
change saves report it only where the saving is a meaningful share of the work it is part of
(MIN_SHARE: of the training steps between two saves, of the layer's own pass) or adds up to a
meaningful figure over a run of the program (MIN_SAVING_S, where the run count is known), and
their messages say the figure. Test code is not material either: a test runs once on tiny
inputs to exercise the code, and the cost it repeats is paid by no user.
"""

from __future__ import annotations

from greenlint.rules.base import FileFacts, Site
from greenlint.rules.deliberate import in_test_code, test_module

#: The least share of the work a saving is part of (the steps between two saves, the layer's
#: own pass) for a finding: under a tenth, a change is not worth its edit and review.
MIN_SHARE = 0.1
#: The least seconds a repeated cost must add up to over one run of the program, where its run
#: count is known: under a second is below the run-to-run spread of any program long enough to
#: be worth optimising (start-up, imports and data loading vary by more).
MIN_SAVING_S = 1.0


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
