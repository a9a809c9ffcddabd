from __future__ import annotations

import json

from greenlint.cli import main
from greenlint.rules import docs
from greenlint.rules.registry import all_rules


def test_rule_prints_the_generated_doc(capsys):
    assert main(["rule", "GL101"]) == 0
    out = capsys.readouterr().out
    assert out == docs.render(all_rules()["GL101"])  # not a terminal: the Markdown itself
    assert "## Why is this bad?" in out and "hotspot-threshold-j" in out


def test_rule_by_name_and_json(capsys):
    assert main(["rule", "predict-in-loop", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["code"] == "GL201" and data["name"] == "predict-in-loop"
    assert data["doc"].startswith(docs.BANNER)


def test_all_lists_every_rule(capsys):
    assert main(["rule", "--all"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(all_rules())
    assert main(["rule", "--all", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {r["code"] for r in data} == set(all_rules())
    assert next(r for r in data if r["code"] == "GL101")["options"][0]["key"] == "hotspot-threshold-j"
    fixes = {r["code"]: r["fix"] for r in data}
    assert fixes == {code: rule.fix_availability() for code, rule in all_rules().items()}
    assert fixes["GL402"] == "safe" and fixes["GL303"] == "unsafe" and fixes["GL101"] == "none"


def test_unknown_rule_exits_2(capsys):
    assert main(["rule", "GL999"]) == 2
    assert "GL999" in capsys.readouterr().err
