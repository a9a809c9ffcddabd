"""Each tests/fixtures/rules/<CODE>.py marks its positives with a trailing `# <CODE>` comment.

With every rule on, the rule must fire on exactly the marked lines, through the real
resolver and the fixed fake predictor (500 J per `fit`, 1 J otherwise; GL101 at its default
threshold). Its findings rendered in the `full` format are compared with `<CODE>.full.txt`;
rewrite those snapshots only on purpose, with GREENLINT_UPDATE_SNAPSHOTS=1.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from greenlint.check import Config, check_source

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "rules"
FILES = sorted(FIXTURES.glob("GL*.py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_fixture(path, predictor):
    code = path.stem
    text = path.read_text()
    marked = {i for i, line in enumerate(text.splitlines(), 1) if re.search(rf"#\s*{code}\b\s*$", line)}
    assert marked, f"{path.name} marks no positive"
    config = Config(select=("ALL",), no_cache=True)
    found = [d for d in check_source(text, path.name, config, predictor) if d.code == code]
    assert sorted(marked) == sorted(d.span.line for d in found)

    from greenlint.report import render

    rendered = render("full", found, sources={path.name: text})
    snapshot = path.with_name(f"{code}.full.txt")
    if os.environ.get("GREENLINT_UPDATE_SNAPSHOTS") == "1":
        snapshot.write_text(rendered)
    assert snapshot.is_file(), f"no snapshot {snapshot.name}: run with GREENLINT_UPDATE_SNAPSHOTS=1"
    assert rendered == snapshot.read_text()


def test_every_rule_with_call_site_logic_has_a_fixture():
    from greenlint.rules.registry import all_rules

    pipeline_level = {"GL001", "GL002"}
    assert {p.stem for p in FILES} == set(all_rules()) - pipeline_level
