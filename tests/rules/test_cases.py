"""Every rule x every VALID/INVALID case, through the real resolver and the whole per-file pipeline.

Predictions come from the fixed fake predictor (500 J for `fit`, 1 J otherwise) so that the
cases pin rule logic, not the shipped model's numbers; tests/check/test_examples.py runs the
real predictor.
"""

from __future__ import annotations

import pytest

from greenlint.check import Config, check_source
from greenlint.rules.registry import all_rules

CASES = [
    pytest.param(rule, kind, case, id=f"{code}-{kind}-{i}")
    for code, rule in all_rules().items()
    for kind, cases in (("valid", rule.VALID), ("invalid", rule.INVALID))
    for i, case in enumerate(cases)
]


@pytest.mark.parametrize(("rule", "kind", "case"), CASES)
def test_case(rule, kind, case, predictor):
    config = Config(select=("ALL",), options=dict(case.options), no_cache=True)
    found = [d for d in check_source(case.code, case.filename, config, predictor) if d.code == rule.code]
    if kind == "valid":
        assert found == [], f"{rule.code} fired on a VALID case: {[d.message for d in found]}"
        return
    assert found, f"{rule.code} did not fire on an INVALID case"
    if case.line is not None:
        assert case.line in [d.span.line for d in found], [d.span for d in found]
    if case.message_contains is not None:
        assert any(case.message_contains in d.message for d in found), [d.message for d in found]
