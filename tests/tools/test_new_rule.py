"""`python -m tools.new_rule` writes a rule the registry finds, whose cases, fixture and docs pass.

The scaffold is written to a temporary folder added to `greenlint.rules`' search path for the test,
so the repository's rules are untouched.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import greenlint.rules as package
from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from greenlint.rules import codes
from greenlint.rules.base import SECTIONS
from greenlint.rules.registry import all_rules
from tests.check.fakes import Predictor
from tools import new_rule, rule_codes

SCAFFOLDS = [("GL598", "ones-called", "call", "tensorflow.ones"),
             ("GL599", "constant-repeated", "in-loop", "tensorflow.constant")]


@pytest.fixture
def scaffolded(tmp_path, monkeypatch):
    rules_dir, fixtures_dir = tmp_path / "rules", tmp_path / "fixtures"
    rules_dir.mkdir()
    fixtures_dir.mkdir()
    for code, name, kind, api in SCAFFOLDS:
        new_rule.scaffold(code, name, kind, api, rules_dir, fixtures_dir)
    monkeypatch.setattr(package, "__path__", [*package.__path__, str(rules_dir)])
    all_rules.cache_clear()
    listed = rule_codes.build()  # what `python -m tools.new_rule` writes to codes.json
    monkeypatch.setattr(codes, "table", lambda: listed)
    yield fixtures_dir
    all_rules.cache_clear()
    for _, name, _, _ in SCAFFOLDS:
        sys.modules.pop(f"greenlint.rules.{new_rule.snake(name)}", None)


def findings(rule, source: str) -> list[int]:
    config = Config(select=(rule.code,), no_cache=True)
    return [d.span.line for d in check_source(source, "example.py", config, Predictor()) if d.code == rule.code]


@pytest.mark.parametrize(("code", "name", "kind", "api"), SCAFFOLDS, ids=[s[2] for s in SCAFFOLDS])
def test_the_registry_finds_the_rule_and_its_cases_fixture_and_docs_pass(scaffolded, code, name, kind, api):
    rule = all_rules()[code]
    assert (rule.name, rule.__module__, rule.DEFAULT_ENABLED) == (name, f"greenlint.rules.{new_rule.snake(name)}", False)
    assert list(rule.sections()) == list(SECTIONS) and all(rule.sections().values())
    for case in rule.VALID:
        assert findings(rule, case.code) == [], case.code
    for case in rule.INVALID:
        assert case.line in findings(rule, case.code), case.code
    fixture = (scaffolded / f"{code}.py").read_text()
    marked = [i for i, line in enumerate(fixture.splitlines(), 1) if re.search(rf"#\s*{code}\s*$", line)]
    assert marked and findings(rule, fixture) == marked


def test_a_taken_code_name_or_file_is_refused_and_nothing_is_written(tmp_path):
    with pytest.raises(new_rule.ScaffoldError, match="GL201 is taken"):
        new_rule.scaffold("GL201", "something-new", "call", "tensorflow.ones", tmp_path, tmp_path)
    with pytest.raises(new_rule.ScaffoldError, match="taken by GL201"):
        new_rule.scaffold("GL597", "predict-in-loop", "call", "tensorflow.ones", tmp_path, tmp_path)
    (tmp_path / "GL597.py").write_text("mine\n")
    with pytest.raises(new_rule.ScaffoldError, match="exists"):
        new_rule.scaffold("GL597", "ones-everywhere", "call", "tensorflow.ones", tmp_path, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["GL597.py"] and (tmp_path / "GL597.py").read_text() == "mine\n"
    for bad in (("G597", "x-y"), ("GL597", "No_Caps"), ("GL597", "no-prefetch")):
        with pytest.raises(new_rule.ScaffoldError):
            new_rule.scaffold(*bad, "call", "tensorflow.ones", tmp_path, tmp_path)


def test_the_command_names_the_problem(capsys):
    assert new_rule.main(["GL201", "something-new", "--api", "tensorflow.ones"]) == 2
    assert "GL201 is taken by greenlint.rules.predict_in_loop" in capsys.readouterr().err


def test_the_scaffolded_module_passes_the_linter(tmp_path):
    module, _ = new_rule.scaffold("GL599", "constant-repeated", "in-loop", "tensorflow.constant", tmp_path, tmp_path)
    args = [sys.executable, "-m", "ruff", "check", "--config", str(new_rule.REPO_DIR / "pyproject.toml"), str(module)]
    proc = subprocess.run(args, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
