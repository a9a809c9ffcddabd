"""`greenlint diff`'s formats (json contract, GitHub annotations, Markdown, SARIF against its schema)
and profiles from `greenlint measure` on either side."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from greenlint.check.config import Config
from greenlint.hardware import hardware_id
from greenlint.profile import store
from greenlint.profile.lookup import statement_hash
from greenlint.review import gitfs
from greenlint.review.budget import Budget, check
from greenlint.review.diff import diff_revisions
from greenlint.review.formats import SCHEMA_VERSION, render
from tests.review.history import build

SARIF_SCHEMA = json.loads((Path(__file__).parents[1] / "report" / "sarif-schema-2.1.0.json").read_text())


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def branch(tmp_path_factory):
    root = tmp_path_factory.mktemp("formats") / "repo"
    build(root)
    diff = diff_revisions(root, gitfs.commit_side(root, "main"), gitfs.commit_side(root, "change"), [""], Config(root=root))
    budget = Budget(fail_above=5.0)
    return diff, check(diff, budget), budget


def test_json_contract(branch):
    diff, violations, budget = branch
    data = json.loads(render("json", diff, violations, budget))
    assert data["schema_version"] == SCHEMA_VERSION
    assert set(data) == {"schema_version", "base", "head", "total", "files", "programs", "budget", "errors"}
    (program,) = [p for p in data["programs"] if p["path"] == "train.py"]
    assert program["files"] == ["train.py", "models.py"] and program["after_j"] > program["before_j"]
    (train,) = [f for f in data["files"] if f["path"] == "train.py"]
    (change,) = train["changes"]
    assert set(change) >= {"status", "path", "line", "column", "api", "scope", "old", "before", "after", "ratio",
                           "ratio_interval", "reasons", "intended"}
    assert change["reasons"] == [{"kind": "work", "quantity": "epochs", "before": 10, "after": 100, "text": "epochs 10 → 100"}]
    assert change["after"]["joules"] / change["before"]["joules"] == pytest.approx(change["ratio"])
    assert {v["path"] for v in data["budget"]["violations"]} == {v.path for v in violations} != set()


def test_github_annotations(branch):
    diff, violations, _ = branch
    lines = render("github", diff, violations).splitlines()
    assert lines[0].startswith("::warning file=train.py,line=10,col=1,") and "epochs 10 → 100" in lines[0]
    assert sum(line.startswith("::error file=") for line in lines) == len(violations)


def test_markdown_largest_first_with_a_file_table(branch):
    diff, violations, _ = branch
    text = render("markdown", diff, violations)
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    sites = [r for r in rows if ".py:" in r.split("|")[1]]
    assert "train.py:10:1" in sites[0] and "prefetch" in sites[-1]
    assert "| **all files** |" in text and "**Over budget:**" in text


def test_sarif_is_valid(branch):
    diff, violations, _ = branch
    log = json.loads(render("sarif", diff, violations))
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    levels = [r["level"] for r in log["runs"][0]["results"]]
    assert levels.count("error") == len(violations) and "warning" in levels


def _profile(root: Path, path: str, needle: str, median: float, api: str = "tensorflow.keras.Sequential.fit") -> None:
    lines = (root / path).read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if needle in text)
    column = lines[line - 1].index(needle.split("(")[0].split(".")[0]) + 1
    site = {"api": api, "line": line, "column": column, "end_line": line,
            "end_column": len(lines[line - 1]) + 1, "cell": None, "statement": statement_hash(lines, line, line),
            "executions": 3, "median_j": median, "iqr_j": [median * 0.9, median * 1.1],
            "interval_j": [median * 0.8, median * 1.2], "time_s": 1.0, "cpu_j": median, "gpu_j": None, "ram_j": None,
            "counter": "estimated", "estimated": True, "resolved": True, "hardware_id": hardware_id(),
            "date": "2026-11-25T00:00:00+00:00", "note": None}
    store.record(root / ".greenlint" / "profiles.json", root / path, [site], hardware_id())


def test_a_profile_anchors_the_figures_and_the_forecasts_give_the_ratio(tmp_path):
    root = tmp_path / "repo"
    build(root)
    sides = gitfs.commit_side(root, "main"), gitfs.WORKTREE
    unprofiled = diff_revisions(root, *sides, [""], Config(root=root))
    plain = {c.path: c for c in unprofiled.changes}
    _profile(root, "train.py", "model.fit(", 500.0)  # the working tree's statement (epochs=100)
    _profile(root, "scoring.py", "model.predict(", 1.0, "tensorflow.keras.Model.predict")  # unchanged since main
    diff = diff_revisions(root, *sides, [""], Config(root=root))
    changes = {c.path: c for c in diff.changes}
    assert set(changes) == set(plain)  # the unchanged, profiled site is still unchanged
    # scoring.py was evaluate.py on main; its predict() is profiled in the working tree only: the same
    # statement, so both sides take the measured figure
    (scoring,) = [f for f in diff.files if f.path == "scoring.py"]
    (forecast,) = [f for f in unprofiled.files if f.path == "scoring.py"]
    assert scoring.old_path == "evaluate.py" and scoring.after_j == scoring.before_j != forecast.before_j
    train = changes["train.py"]
    assert train.ratio == pytest.approx(plain["train.py"].ratio)
    assert train.after.joules == pytest.approx(500.0) and train.after.label == "measured here, estimated"
    assert train.before.joules == pytest.approx(500.0 / train.ratio)
    assert train.before.label == "measured here, estimated ÷ forecast ratio"
