"""Each tests/fixtures/rules/<CODE>.py marks its positives with a trailing `# <CODE>` comment.

With every rule on, the rule must fire on exactly the marked lines, through the real
resolver and the fixed fake predictor (500 J per `fit`, 1 J otherwise; GL101 at its default
threshold). Its findings rendered in the `full` format are compared with `<CODE>.full.txt`
(tests/rules/snapshots.py); rewrite those snapshots only on purpose, with `python -m tools.generate_all`.
"""

from __future__ import annotations

import re

import pytest

from tests.rules import snapshots

FILES = snapshots.fixtures()


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_fixture(path, predictor):
    code = path.stem
    marked = {i for i, line in enumerate(path.read_text().splitlines(), 1) if re.search(rf"#\s*{code}\b\s*$", line)}
    assert marked, f"{path.name} marks no positive"
    found = snapshots.findings(path, predictor)
    assert sorted(marked) == sorted(d.span.line for d in found)
    snapshot = snapshots.snapshot(path)
    assert snapshot.is_file(), f"no snapshot {snapshot.name}: run `python -m tools.generate_all`"
    assert snapshots.rendered(path, found) == snapshot.read_text(), f"{snapshot.name}: run `python -m tools.generate_all`"


def test_every_rule_with_call_site_logic_has_a_fixture():
    from greenlint.rules.registry import all_rules

    pipeline_level = {"GL001", "GL002", "GL004"}
    assert {p.stem for p in FILES} == set(all_rules()) - pipeline_level
