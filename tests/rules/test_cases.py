"""Every rule x every VALID/INVALID case, through the real resolver and the whole per-file pipeline.

An INVALID case carrying `expected_replacement` is the test of the rule's fix: applying the
fixes (safe and unsafe) gives exactly that source, which parses, and fixing again changes nothing;
an `expected_replacement` equal to the code says the finding comes without a fix.

Predictions come from the fixed fake predictor (500 J for `fit`, 1 J otherwise) so that the
cases pin rule logic, not the shipped model's numbers; tests/check/test_examples.py runs the
real predictor.
"""

from __future__ import annotations

import ast
from dataclasses import replace

import pytest

from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from greenlint.fix.engine import attach_fixes, fix_text
from greenlint.rules.registry import all_rules

CASES = [
    pytest.param(rule, kind, case, id=f"{code}-{kind}-{i}")
    for code, rule in all_rules().items()
    for kind, cases in (("valid", rule.VALID), ("invalid", rule.INVALID))
    for i, case in enumerate(cases)
]


@pytest.mark.parametrize(("rule", "kind", "case"), CASES)
def test_case(rule, kind, case, predictor):
    config = Config(select=("ALL",), options=dict(case.options), no_cache=True, device=case.device)
    found = [d for d in check_source(case.code, case.filename, config, predictor) if d.code == rule.code]
    if kind == "valid":
        assert found == [], f"{rule.code} fired on a VALID case: {[d.message for d in found]}"
        return
    assert found, f"{rule.code} did not fire on an INVALID case"
    if case.line is not None:
        assert case.line in [d.span.line for d in found], [d.span for d in found]
    if case.message_contains is not None:
        assert any(case.message_contains in d.message for d in found), [d.message for d in found]
    if case.help_contains is not None:
        helps = [d.data.get("help", rule.FIX_TITLE) for d in found]
        assert any(case.help_contains in h for h in helps), helps
    if rule.FIX is None:
        assert all(d.fix is None for d in found)
        return
    # the editor's fix of one finding, from its statement alone, is the one the whole file gives
    assert [attach_fixes([replace(d, fix=None)], case.code, config.line_length)[0] for d in found] == found
    own = Config(select=(rule.code,), options=dict(case.options), no_cache=True, device=case.device)

    def check(text):
        return check_source(text, case.filename, own, predictor)

    fixed, applied, left = fix_text(case.code, check, unsafe=True)
    if case.expected_replacement is not None:
        assert fixed == case.expected_replacement
        if case.expected_replacement == case.code:  # reported, but no fix applies here
            assert not applied and all(d.fix is None for d in found)
        else:
            assert applied and all(d.fix.safe == rule.FIX.safe for d in applied)
    if fixed != case.code:
        ast.parse(fixed)  # a fix leaves code that parses
        assert fix_text(fixed, check, unsafe=True)[0] == fixed  # and fixing again changes nothing
