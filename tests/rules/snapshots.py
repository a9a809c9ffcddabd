"""The rule fixtures' snapshots: tests/fixtures/rules/<CODE>.full.txt is the `full` rendering of the
rule's findings on <CODE>.py, with every rule on and the fixed fake predictor (500 J per `fit`, 1 J
otherwise). tests/rules/test_fixtures.py compares them; `python -m tools.generate_all` rewrites them.
"""

from __future__ import annotations

from pathlib import Path

from greenlint.atomic import atomic_write_text
from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from greenlint.report import render
from greenlint.rules.diagnostic import Diagnostic
from tests.check.fakes import Predictor

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "rules"
#: The TensorFlow the fixtures are checked as targeting: 2.6, before tf.data prefetched and
#: parallelised maps by itself (greenlint.rules.tf_data_defaults), so that the input-pipeline
#: rules' fixtures do not depend on the project the tests run in.
OPTIONS = {"tensorflow-version": "2.6"}


def fixtures() -> list[Path]:
    return sorted(FIXTURES.glob("GL*.py"))


def findings(path: Path, predictor=None) -> list[Diagnostic]:
    """The findings of the rule a fixture is named after."""
    config = Config(select=("ALL",), options=OPTIONS, no_cache=True)
    return [d for d in check_source(path.read_text(), path.name, config, predictor or Predictor()) if d.code == path.stem]


def snapshot(path: Path) -> Path:
    return path.with_name(f"{path.stem}.full.txt")


def rendered(path: Path, found: list[Diagnostic]) -> str:
    return render("full", found, sources={path.name: path.read_text()})


def stale() -> list[str]:
    """The snapshots missing, different or left without a fixture."""
    want = {snapshot(p): rendered(p, findings(p)) for p in fixtures()}
    bad = [s for s, text in want.items() if not s.is_file() or s.read_text() != text]
    bad += [s for s in FIXTURES.glob("*.full.txt") if s not in want]
    return sorted(str(s.relative_to(FIXTURES.parents[2])) for s in bad)


def write() -> None:
    want = {snapshot(p): rendered(p, findings(p)) for p in fixtures()}
    for path, text in want.items():
        atomic_write_text(path, text)
    for leftover in set(FIXTURES.glob("*.full.txt")) - set(want):
        leftover.unlink()
