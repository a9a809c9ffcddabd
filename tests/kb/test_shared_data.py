"""A real build from ../shared: the counts its READMEs report, and the bundled data/kb is current."""

from __future__ import annotations

import pytest

from greenlint.kb import load_kb, load_meta
from greenlint.kb.build import build_kb
from greenlint.kb.measurement_files import default_dirs
from greenlint.kb.store import default_kb_dir

pytestmark = pytest.mark.shared


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("kb") / "kb"
    summary = build_kb(default_dirs(), out, jobs=2)
    return summary, out


def test_counts_match_the_shared_copy(built):
    summary, out = built
    meta = load_meta(out)
    ds = meta["datasets"]
    gl = ds["greenlight"]
    assert (gl["files"], gl["skipped_files"], gl["records"]) == (343, 0, 2129)
    assert gl["records_by_experiment"] == {"1": 1245, "2": 243, "3": 218, "4": 214, "5": 209}
    assert (gl["scripts"], gl["raw_signatures"]) == (104, 517)
    ml, pl, dsz = ds["fecom-method-level"], ds["fecom-project-level"], ds["fecom-data-size"]
    assert (ml["files"], ml["skipped_files"], ml["records"], ml["raw_signatures"]) == (630, 420, 4650, 182)
    assert (pl["files"], pl["skipped_files"], pl["records"]) == (630, 420, 210)
    assert (dsz["files"], dsz["skipped_files"], dsz["records"], dsz["raw_signatures"]) == (100, 0, 1000, 9)
    assert meta["skipped_files"] == 840
    assert meta["skipped_reasons"] == {"empty file (decompresses to 0 bytes)": 840}
    assert len(summary.problems) == 840 and all(p.index is None for p in summary.problems)
    # READMEs: 51 FECoM + 29 Greenlight records have a CPU series ending before end_time_perf
    assert (ml["series_cut_short"] + pl["series_cut_short"] + dsz["series_cut_short"], gl["series_cut_short"]) == (51, 29)


def test_empty_windows_match_fecoms_rule(built):
    """READMEs: FECoM's window is empty on CPU/RAM for part of the records; all are below resolution."""
    _, out = built
    records = load_kb(out)
    ml = [r for r in records if r.dataset == "fecom-method-level"]
    empty = [r for r in ml if r.window_samples == 0]
    assert all(r.below_resolution for r in empty)
    # every empty-window record counts in FECoM's 3,853 (empty on CPU, RAM or GPU)
    assert 0 < len(empty) <= 3853
    assert sum(r.window_samples < 2 for r in ml) <= 4180
    assert sum(r.below_resolution for r in ml) >= sum(r.window_samples < 2 for r in ml)
    # the upper bound never undercuts the net; it is infinite only where a series misses part of the call
    assert all(r.upper_bound_j >= r.net_j - 1e-6 for r in records if r.net_j is not None)
    unbounded = [r for r in records if r.upper_bound_j == float("inf")]
    assert all(r.series_cut_short or r.gpu_net_j is None or r.cpu_net_j is None for r in unbounded)
    sweep = [r for r in records if r.dataset == "fecom-data-size"]
    assert sorted({r.features["data_size_fraction"] for r in sweep}) == pytest.approx([k / 10 for k in range(1, 11)])


def test_bundled_kb_is_current(built):
    """data/kb must equal a fresh build (rebuild with `greenlint kb build --out data/kb` after changing ingestion or the catalog)."""
    _, out = built
    bundled = default_kb_dir()
    assert (bundled / "records.csv").read_text() == (out / "records.csv").read_text(), (
        "data/kb is stale: run `greenlint kb build --out data/kb`"
    )
    assert (bundled / "meta.json").read_text() == (out / "meta.json").read_text()


def _fecom_net(frame, column: str, start: float, end: float, scale: float) -> float:
    """FECoM's EnergyData arithmetic written with pandas as upstream does (idxmin, label slicing)."""
    si = (frame["time_elapsed"] - start).abs().idxmin()
    ei = (frame["time_elapsed"] - end).abs().idxmin()
    window = frame.loc[si : ei - 1] if ei > si else frame.iloc[0:0]
    stable = frame[frame["time_elapsed"] < start].iloc[-40:]
    return window[column].sum() * scale - len(window) * stable[column].mean() * scale


@pytest.mark.parametrize(
    "relpath",
    [
        "greenlight/raw/tensorflow_docs/classification/experiment-1.json.xz",
        "fecom/raw/method-level/keras/regression/experiment-3.json.xz",
        "fecom/raw/data-size/keras/regression_adapt/experiment-1.json.xz",
    ],
)
def test_net_energy_equals_fecoms_pandas_rule_on_real_files(built, relpath):
    import io
    import json
    import lzma

    from tests.environment import SHARED, require_module

    pd = require_module("pandas")
    _, out = built
    path = SHARED / relpath
    parts = relpath.split("/")
    dataset = "greenlight" if parts[0] == "greenlight" else f"fecom-{parts[2]}"
    experiment = int(path.name.split("-")[1].split(".")[0])
    by_index = {r.index: r for r in load_kb(out) if (r.dataset, r.script, r.experiment) == (dataset, parts[-2], experiment)}
    items = json.load(lzma.open(path, "rt"))
    assert len(by_index) == len(items) > 0
    for i, item in enumerate(items):
        ((_, body),) = item.items()
        t = body["times"]
        frames = {c: pd.read_json(io.StringIO(body["energy_data"][c]), orient="split") for c in ("cpu", "ram", "gpu")}
        rec = by_index[i]
        assert rec.cpu_net_j == pytest.approx(_fecom_net(frames["cpu"], "energy (J)", t["start_time_perf"], t["end_time_perf"], 1), rel=1e-6, abs=1e-3)
        assert rec.ram_net_j == pytest.approx(_fecom_net(frames["ram"], "energy (J)", t["start_time_perf"], t["end_time_perf"], 1), rel=1e-6, abs=1e-3)
        # GPU: same rule on the GPU's own clock (FECoM cuts its baseline at start_time_perf, a documented deviation)
        gpu = _fecom_net(frames["gpu"], "power_draw (W)", t["start_time_nvidia"], t["end_time_nvidia"], 0.5)
        assert rec.gpu_net_j == pytest.approx(gpu, rel=1e-6, abs=1e-3) if rec.gpu_net_j is not None else gpu != gpu
