"""SARIF output is valid against the official SARIF 2.1.0 schema (vendored, see SARIF_SCHEMA_NOTICE.md)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import jsonschema
import pytest

from greenlint.analysis.callsite import Span
from greenlint.report import render
from greenlint.rules.registry import all_rules
from tests.report.fixtures import DIAGNOSTICS, NOTEBOOK, RULES, SOURCES

SCHEMA = json.loads((Path(__file__).parent / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def _sarif(diagnostics=DIAGNOSTICS, rules=RULES) -> dict:
    return json.loads(render("sarif", diagnostics, sources=SOURCES, rules=rules))


@pytest.mark.parametrize("diagnostics", [DIAGNOSTICS, []], ids=["fixture", "empty"])
def test_valid_against_the_schema(diagnostics):
    VALIDATOR.validate(_sarif(diagnostics))


def test_the_schema_rejects_a_broken_log():
    log = _sarif()
    log["runs"][0]["results"][0]["level"] = "warn"
    assert not VALIDATOR.is_valid(log)


def test_rules_results_and_regions():
    run = _sarif()["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["GL001", "GL101", "GL301"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    levels = {r["ruleId"]: r["level"] for r in run["results"]}
    assert levels == {"GL001": "error", "GL301": "note", "GL101": "warning"}
    multiline = run["results"][-1]["locations"][0]["physicalLocation"]
    assert multiline["artifactLocation"]["uri"] == "src/train.py"
    assert multiline["region"] == {"startLine": 10, "startColumn": 1, "endLine": 14, "endColumn": 2}
    broken = run["results"][1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert broken == "src/broken%2C%20100%25.py"


def test_notebook_cell_is_kept():
    nb = _sarif()["runs"][0]["results"][0]["locations"][0]
    assert nb["physicalLocation"]["properties"] == {"cell": 3, "cellLine": 3, "cellColumn": 9}
    assert nb["logicalLocations"] == [{"name": "cell 3", "kind": "notebookCell"}]
    assert "region" not in nb["physicalLocation"]  # the fixture's notebook is not on disk: no JSON line


@pytest.mark.parametrize("as_list", [True, False], ids=["source-list", "source-string"])
def test_notebook_results_point_at_the_line_of_the_json(tmp_path, monkeypatch, as_list):
    """Code scanning shows the .ipynb as JSON: the region is the JSON line holding the code line."""
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# fit\n", "text"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "source": ["import tensorflow as tf\n", "x = 1"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "source": ["y = 2\n", "\n", "model.fit(x, y)  # é\n", "z = 3"]},
    ]
    if not as_list:
        for cell in cells:
            cell["source"] = "".join(cell["source"])
    text = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}, indent=1)
    (tmp_path / "nb.ipynb").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    d = dataclasses.replace(NOTEBOOK, path="nb.ipynb", span=Span(3, 1, 3, 16, cell=2))
    log = _sarif([d])
    VALIDATOR.validate(log)
    physical = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    json_line = text.splitlines()[physical["region"]["startLine"] - 1]
    assert ("model.fit(x, y)" in json_line) and (json_line.count("\\n") == 1 if as_list else True)
    assert physical["region"]["endLine"] == physical["region"]["startLine"]
    assert physical["properties"] == {"cell": 2, "cellLine": 3, "cellColumn": 1}


def test_rule_metadata_from_the_caller():
    rules = _sarif()["runs"][0]["tool"]["driver"]["rules"]
    hotspot = next(r for r in rules if r["id"] == "GL101")
    assert hotspot["shortDescription"]["text"] == RULES["GL101"].short
    assert hotspot["fullDescription"]["text"] == RULES["GL101"].full
    assert hotspot["help"]["markdown"].startswith("## What it does")
    unknown = next(r for r in rules if r["id"] == "GL301")  # not in RULES: described by its name
    assert unknown == {"id": "GL301", "name": "small-batch-size", "shortDescription": {"text": "small-batch-size"}}


def test_rule_metadata_from_the_registry():
    log = _sarif(rules=None)
    VALIDATOR.validate(log)
    registry = all_rules()
    for rule in log["runs"][0]["tool"]["driver"]["rules"]:
        if rule["id"] in registry:
            cls = registry[rule["id"]]
            assert rule["name"] == cls.name
            assert rule["shortDescription"]["text"] == (cls.summary() or cls.name)
            assert rule["help"]["markdown"] == cls.doc()
    assert "GL101" in registry and registry["GL101"].doc(), "the energy-hotspot rule documents itself"


def test_greenlint_check_sarif_is_valid(tmp_path, monkeypatch, capsys):
    """The real pipeline's SARIF (resolver, predictor, rules registry) validates too."""
    from greenlint.cli import main
    from tests.report.fixtures import TRAIN

    monkeypatch.chdir(tmp_path)
    sized = "import numpy as np\nx = np.zeros((5000, 32))\ny = np.zeros((5000, 1))\n"  # known work: hotspots
    (tmp_path / "train.py").write_text(sized + TRAIN)
    (tmp_path / "broken.py").write_text("import tensorflow as tf\ndef f(:\n")
    code = main(["check", ".", "--isolated", "--no-cache", "-j", "1", "--format", "sarif"])
    log = json.loads(capsys.readouterr().out)
    assert code == 1
    VALIDATOR.validate(log)
    run = log["runs"][0]
    ids = {r["ruleId"] for r in run["results"]}
    assert {"GL001", "GL101"} <= ids
    assert {r["id"] for r in run["tool"]["driver"]["rules"]} == ids
