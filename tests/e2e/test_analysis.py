"""lsp_server.analysis in-process: one check per document text, shared; failures become diagnostics."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from greenlint.check import Config
from greenlint.predict import load_predictor
from lsp_server.analysis import Analyses, Settings, analyse_text
from tests.e2e.samples import TRAIN


class CountingPredictor:
    """The shipped predictor, counting the call sites it is asked about."""

    def __init__(self):
        self.calls = 0

    def predict(self, api, features):
        self.calls += 1
        return load_predictor().predict(api, features)


def test_concurrent_requests_share_one_check(tmp_path: Path):
    predictor = CountingPredictor()
    analyses = Analyses(Settings(isolated=True), predictor_loader=lambda: predictor)
    path = tmp_path / "a.py"

    async def scenario():
        first, second = await asyncio.gather(
            analyses.get("file:///a.py", 1, TRAIN, path), analyses.get("file:///a.py", 1, TRAIN, path)
        )
        again = await analyses.get("file:///a.py", 2, TRAIN, path)  # same text, newer version: no new check
        return first, second, again

    first, second, again = asyncio.run(scenario())
    analyses.close()
    sites, diagnostics = analyse_text(TRAIN, str(path), Config(), load_predictor().predict)
    assert predictor.calls == len(sites) == 6
    assert first is second and again.version == 2 and again.diagnostics == first.diagnostics
    assert list(first.diagnostics) == diagnostics


def test_an_internal_failure_is_a_diagnostic(tmp_path: Path):
    def broken():
        raise RuntimeError("model exploded")

    analyses = Analyses(Settings(isolated=True), predictor_loader=broken)
    analysis = asyncio.run(analyses.get("file:///b.py", 1, TRAIN, tmp_path / "b.py"))
    analyses.close()
    [error] = analysis.diagnostics
    assert error.code == "GL002" and "RuntimeError: model exploded" in error.message
    assert analysis.sites == ()


def test_unknown_code_in_select_falls_back_to_defaults(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text('[tool.greenlint]\nselect = ["XY9"]\n', encoding="utf-8")
    analyses = Analyses()
    analysis = asyncio.run(analyses.get("file:///c.py", 1, TRAIN, tmp_path / "c.py"))
    analyses.close()
    assert "`XY9` matches no greenlint rule code" in analysis.config_error
    assert [d.code for d in analysis.diagnostics] == ["GL101", "GL301"]


@pytest.mark.e2e
def test_the_server_side_never_imports_tensorflow():
    probe = (
        "import sys; from lsp_server import build_server; from lsp_server.analysis import analyse_text; "
        "from greenlint.check import Config; from greenlint.predict import load_predictor; "
        "from tests.e2e.samples import TRAIN; build_server(); "
        "analyse_text(TRAIN, 'x.py', Config(), load_predictor().predict); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('tensorflow', 'keras')))"
    )
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
