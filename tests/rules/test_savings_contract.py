"""A rule on by default tells every user that its change saves energy: its measured pair must show a saving
above 0 on the device it was measured on (the lowest of the pair's side-by-side rounds, bench/rules/run.py),
or the rule says why it cannot be measured here; a rule whose pair shows no saving there is opt-in and its
documentation says why (issue 28)."""

from __future__ import annotations

from pathlib import Path

import pytest

from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from greenlint.rules.docs import measured
from greenlint.rules.registry import all_rules

RULES = all_rules()
#: GL0xx report on the input itself (a file that cannot be read or parsed, a stale `noqa`), not a change.
ADVICE = {c: r for c, r in RULES.items() if not c.startswith("GL0")}


@pytest.mark.parametrize("code", [c for c, r in ADVICE.items() if r.DEFAULT_ENABLED])
def test_a_default_rule_saves_on_its_measured_device_or_says_why_it_cannot_be_measured(code):
    pair = measured()["pairs"].get(code)
    if pair is None:
        assert measured()["reasons"].get(code), f"{code}: on by default with neither a measured pair nor a reason"
        return
    low = pair["energy_saving"]["low"]
    assert low > 0, (f"{code} is on by default, but its measured saving reaches {low:+.0%} on "
                     f"{pair['hardware']}: make its pair measure its claim, or make it opt-in and say why")


@pytest.mark.parametrize("code", [c for c, r in ADVICE.items() if not r.DEFAULT_ENABLED and c in measured()["pairs"]])
def test_an_opt_in_rule_with_a_measured_pair_says_why_it_is_opt_in(code):
    doc = (RULES[code].__doc__ or "").lower()
    assert "opt-in" in doc or "off by default" in doc, f"{code}: off by default without saying why"


BENCH = Path(__file__).resolve().parents[2] / "bench" / "rules"


@pytest.mark.parametrize("code", sorted(measured()["pairs"]))
def test_a_measured_pair_is_the_rules_case_before_and_not_after(code, predictor):
    """A pair measures the rule's claim only where the rule reports its `before` (and not its `after`):
    a pair the rule stays silent on (a TensorFlow whose defaults already do the change, an in-memory
    pipeline the rule leaves alone) measures something else."""
    found = {}
    for side in ("before", "after"):
        path = BENCH / code / f"{side}.py"
        config = Config(select=(code,), no_cache=True)
        found[side] = [d for d in check_source(path.read_text(encoding="utf-8"), str(path), config, predictor)
                       if d.code == code]
    assert found["before"], f"{code} does not report its own pair's before.py"
    assert not found["after"], f"{code} still reports its pair's after.py: {[d.message for d in found['after']]}"
