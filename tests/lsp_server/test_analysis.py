"""greenlint.lsp_server.analysis in-process: one analysis in flight per document, newer versions first; failures become diagnostics."""

from __future__ import annotations

import asyncio
import pickle
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from greenlint.check.config import Config
from greenlint.lsp_server import analysis as lsp_analysis
from greenlint.lsp_server.analysis import Analyses, Cancelled, ConfigLookup, Snapshot, analyse_text, file_config
from greenlint.predict import load_predictor
from tests.lsp_server.samples import MATERIAL_TRAIN, TRAIN

WAIT_S = 120.0  # for the other thread's step: generous for a loaded CI machine, reached only when broken


class CountingPredictor:
    """The shipped predictor, counting the call sites it is asked about."""

    def __init__(self):
        self.calls = 0

    def predict(self, api, features):
        self.calls += 1
        return load_predictor().predict(api, features)


def _snapshot(tmp_path: Path, version: int, text: str = TRAIN, name: str = "a.py") -> Snapshot:
    path = tmp_path / name
    return Snapshot(path.as_uri(), version, text, path, None, ((path.as_uri(), version),))


def _isolated(path: Path):
    return file_config(path, ConfigLookup(isolated=True))


def test_a_newer_version_supersedes_the_older(tmp_path: Path):
    predictor = CountingPredictor()
    analyses = Analyses(_isolated, predictor_loader=lambda: predictor)
    landed = []
    analyses.listeners.append(landed.append)
    edited = MATERIAL_TRAIN.replace("batch_size=2", "batch_size=64")  # GL101 alone, under the default settings

    async def scenario():
        uri = _snapshot(tmp_path, 1).uri
        first = analyses.schedule(uri, lambda: _snapshot(tmp_path, 1), delay=0.05)
        second = analyses.schedule(uri, lambda: _snapshot(tmp_path, 2, edited))
        await asyncio.gather(first, second, return_exceptions=True)
        return first, second

    first, second = asyncio.run(scenario())
    analyses.close()
    assert first.cancelled() and not second.cancelled()
    assert [a.version for a in landed] == [2]  # version 1 was dropped, not queued
    assert predictor.calls == 6  # one analysis: six call sites
    assert [d.code for d in analyses.latest[landed[0].uri].diagnostics] == ["GL101"]


def test_a_running_analysis_of_an_older_version_is_dropped(tmp_path: Path, monkeypatch):
    started, release = threading.Event(), threading.Event()
    rules_run = []
    apply_rules = lsp_analysis.apply_rules
    monkeypatch.setattr(lsp_analysis, "apply_rules", lambda *a: rules_run.append(1) or apply_rules(*a))

    class Blocking(CountingPredictor):
        def predict(self, api, features):
            started.set()
            assert release.wait(WAIT_S)  # version 1 is being analysed when version 2 comes
            return super().predict(api, features)

    predictor = Blocking()
    analyses = Analyses(_isolated, predictor_loader=lambda: predictor)
    landed = []
    analyses.listeners.append(landed.append)
    edited = TRAIN.replace("batch_size=2", "batch_size=64")

    async def scenario():
        uri = _snapshot(tmp_path, 1).uri
        first = analyses.schedule(uri, lambda: _snapshot(tmp_path, 1))
        assert await asyncio.get_running_loop().run_in_executor(None, started.wait, WAIT_S)
        second = analyses.schedule(uri, lambda: _snapshot(tmp_path, 2, edited))
        release.set()
        await asyncio.gather(first, second, return_exceptions=True)
        return first

    first = asyncio.run(scenario())
    analyses.close()
    assert first.cancelled()
    assert [a.version for a in landed] == [2]  # only the newer one landed
    assert len(rules_run) == 1  # the older one stopped before its rules ran


def test_a_newer_version_waits_for_the_stopped_analysis_to_end(tmp_path: Path):
    """One job per document at a time, even with room for two: the stopped one ends at its next
    checkpoint, and the newer one does not compete with it (nor start a second process)."""
    from concurrent.futures import ThreadPoolExecutor

    started, release = threading.Event(), threading.Event()
    running, most = [0], [0]

    class Blocking(CountingPredictor):
        def predict(self, api, features):
            started.set()
            assert release.wait(WAIT_S)
            return super().predict(api, features)

    analyses = Analyses(_isolated, predictor_loader=Blocking)
    analyses._executor = ThreadPoolExecutor(max_workers=2)
    analyse_here = analyses._analyse_here

    def counted(*args):
        running[0] += 1
        most[0] = max(most[0], running[0])
        try:
            return analyse_here(*args)
        finally:
            running[0] -= 1

    analyses._analyse_here = counted
    edited = TRAIN.replace("batch_size=2", "batch_size=64")

    async def scenario():
        uri = _snapshot(tmp_path, 1).uri
        first = analyses.schedule(uri, lambda: _snapshot(tmp_path, 1))
        assert await asyncio.get_running_loop().run_in_executor(None, started.wait, WAIT_S)
        second = analyses.schedule(uri, lambda: _snapshot(tmp_path, 2, edited))
        await asyncio.sleep(0.3)  # time enough for the second to start beside the first, if it could
        release.set()
        await asyncio.gather(first, second, return_exceptions=True)

    asyncio.run(scenario())
    analyses.close()
    assert most[0] == 1 and analyses.latest[_snapshot(tmp_path, 2).uri].version == 2


def test_the_same_text_is_not_analysed_again(tmp_path: Path):
    predictor = CountingPredictor()
    analyses = Analyses(_isolated, predictor_loader=lambda: predictor)

    async def scenario():
        uri = _snapshot(tmp_path, 1).uri
        await analyses.schedule(uri, lambda: _snapshot(tmp_path, 1))
        first = analyses.latest[uri]
        await analyses.schedule(uri, lambda: _snapshot(tmp_path, 2))  # an undo back to the same text
        return first, analyses.latest[uri]

    first, again = asyncio.run(scenario())
    analyses.close()
    result = analyse_text(TRAIN, str(tmp_path / "a.py"), Config(), load_predictor().predict)
    assert predictor.calls == len(result.sites) == 6
    assert again.version == 2 and again.diagnostics == first.diagnostics == result.diagnostics


def test_a_syntax_error_keeps_the_last_good_analysis(tmp_path: Path):
    analyses = Analyses(_isolated)
    broken = TRAIN + "model.evaluate(\n"

    async def scenario():
        uri = _snapshot(tmp_path, 1).uri
        await analyses.schedule(uri, lambda: _snapshot(tmp_path, 1))
        await analyses.schedule(uri, lambda: _snapshot(tmp_path, 2, broken))
        return analyses.good[uri], analyses.latest[uri]

    good, latest = asyncio.run(scenario())
    analyses.close()
    assert good.version == 1 and good.parsed and len(good.sites) == 6
    assert latest.version == 2 and not latest.parsed and [d.code for d in latest.diagnostics] == ["GL001"]


def test_cancelled_analysis_stops_between_steps(tmp_path: Path):
    with pytest.raises(Cancelled):
        analyse_text(TRAIN, str(tmp_path / "a.py"), Config(), load_predictor().predict, cancelled=lambda: True)


def test_a_stale_analysis_stops_within_the_resolvers_walk(tmp_path: Path, monkeypatch):
    """The stop flag is read before each statement the resolver walks, not only between steps: the
    walk ends at the first statement after the flag turns (here the fourth), and the rest never runs."""
    from greenlint.analysis.resolver import Resolver

    finished = []
    monkeypatch.setattr(Resolver, "rewalk_blind", lambda self: finished.append(1))
    asked = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) >= 5  # the first read follows the parse; the next ones precede statements

    with pytest.raises(Cancelled):
        analyse_text(TRAIN, str(tmp_path / "a.py"), Config(), load_predictor().predict, cancelled=cancelled)
    assert len(asked) == 5 and not finished


def test_stopping_one_job_does_not_forget_another_stopped_before(tmp_path: Path):
    analyses = Analyses(_isolated)
    try:
        analyses._stop_job(7)
        analyses._stop_job(8)  # another document's analysis, stopped right after
        assert {7, 8} <= set(analyses._stopped[:])
    finally:
        analyses.close()


def test_garbage_is_collected_after_the_diagnostics_are_handed_over(tmp_path: Path, monkeypatch):
    events = []
    monkeypatch.setattr(lsp_analysis, "_settle_garbage", lambda: events.append("collect"))
    analyses = Analyses(_isolated, predictor_loader=load_predictor)
    analyses.listeners.append(lambda analysis: events.append("publish"))

    async def scenario():
        await analyses.schedule(_snapshot(tmp_path, 1).uri, lambda: _snapshot(tmp_path, 1))

    asyncio.run(scenario())
    analyses.close()
    assert events == ["publish", "collect"]


def test_sites_cross_processes_whole_and_are_rebuilt_when_first_used(tmp_path: Path):
    result = analyse_text(TRAIN, str(tmp_path / "a.py"), Config(root=tmp_path), load_predictor().predict)
    sites = tuple(result.sites)
    sent = pickle.loads(pickle.dumps(lsp_analysis.PackedSites(sites)))
    assert len(sent) == 6 and sent._sites is None  # counted without rebuilding them
    assert sent == sites and list(sent) == list(sites) and sent[-1] == sites[-1]


def test_an_analysis_hands_over_the_tree_it_walked_for_freeing_later(tmp_path: Path):
    kept = []
    predict = load_predictor().predict
    done = lsp_analysis._analyse_unit(
        TRAIN, str(tmp_path / "a.py"), Config(root=tmp_path), None, None, 0, lambda: predict, lambda: False, kept.append
    )
    [made_from] = kept
    assert made_from.tree is not None and len(done.result.sites) == 6
    assert done.result.tree is None and isinstance(done.result.sites, lsp_analysis.PackedSites)  # what is sent


def test_an_internal_failure_is_a_diagnostic(tmp_path: Path):
    def broken():
        raise RuntimeError("model exploded")

    analyses = Analyses(_isolated, predictor_loader=broken)
    analysis = asyncio.run(analyses.analyse(_snapshot(tmp_path, 1, name="b.py")))
    analyses.close()
    [error] = analysis.diagnostics
    assert error.code == "GL002" and "RuntimeError: model exploded" in error.message
    assert analysis.sites == ()


def test_unknown_code_in_select_falls_back_to_defaults(tmp_path: Path):
    # the sample's batch-2 fit is a few hundred joules: GL301 reports it only under a zero floor of material savings
    config = '[tool.greenlint]\nselect = ["XY9"]\nmaterial-saving-j = 0.0\n'
    (tmp_path / "pyproject.toml").write_text(config, encoding="utf-8")
    analyses = Analyses()
    analysis = asyncio.run(analyses.analyse(_snapshot(tmp_path, 1, MATERIAL_TRAIN, name="c.py")))
    analyses.close()
    assert "`XY9` matches no greenlint rule code" in analysis.config_error
    assert [d.code for d in analysis.diagnostics] == ["GL101", "GL301"]


@pytest.mark.e2e
def test_the_server_side_never_imports_tensorflow():
    probe = (
        "import sys; from greenlint.lsp_server.build import build_server; from greenlint.lsp_server.analysis import analyse_text; "
        "from greenlint.check.config import Config; from greenlint.predict import load_predictor; "
        "from tests.lsp_server.samples import TRAIN; build_server(); "
        "analyse_text(TRAIN, 'x.py', Config(), load_predictor().predict); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('tensorflow', 'keras')))"
    )
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
