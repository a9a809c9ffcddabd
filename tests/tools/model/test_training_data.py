"""GAISSA raw-file parsing (both nvidia-smi header variants) and the 309 recorded runs."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from tests.environment import SHARED
from tools.model.training_data import (
    GpuTrace,
    RawFileError,
    equal_edges,
    parse_cpu_csv,
    parse_gpu_csv,
    ram_energy_j,
    read_runs_csv,
    regime_change_s,
    slice_energies,
    trapezoid,
    trimmed,
    two_phase_edges,
    write_runs_csv,
)

NVSMI = """timestamp, name, utilization.gpu [%], utilization.memory [%], memory.total [MiB], memory.used [MiB], power.draw [W], power.max_limit [W], temperature.gpu
2023/03/08 13:11:36.000, NVIDIA GeForce RTX 3090, 10 %, 5 %, 24268 MiB, 11051 MiB, 100.00 W, 350.00 W, 40
2023/03/08 13:11:37.000, NVIDIA GeForce RTX 3090, 20 %, 5 %, 24268 MiB, 11051 MiB, 200.50 W, 350.00 W, 41
2023/03/08 13:11:39.000, NVIDIA GeForce RTX 3090, 30 %, 5 %, 24268 MiB, 11051 MiB, 300.00 W, 350.00 W, 42
"""
RENAMED = """timestamp,gpu_name,gpu_usage,gpu_memory_usage,gpu_total_memory,gpu_memory_used,gpu_power_draw,gpu_max_power,gpu_temperature
2022-12-05 09:55:42.000,NVIDIA GeForce RTX 3090,10 %,0 %,24268 MiB,23573 MiB,100.00 W,350.00 W,55
2022-12-05 09:55:43.000,NVIDIA GeForce RTX 3090,20 %,0 %,24268 MiB,23573 MiB,200.50 W,350.00 W,55
2022-12-05 09:55:45.000,NVIDIA GeForce RTX 3090,30 %,0 %,24268 MiB,23573 MiB,300.00 W,350.00 W,55
2022-12-05 09:55:46.000,NVIDIA GeForce RTX 309"""
CPU = """timestamp,cpu usage (%),memory usage (MB),temperature (Celsius)
2023-03-09T13:27:53.000000,0.0,1000.0,25.75
2023-03-09T13:27:54.000000,2.1,3000.0,26.0
"""


@pytest.mark.parametrize("text", [NVSMI, RENAMED], ids=["nvidia-smi-header", "renamed-header"])
def test_both_header_variants_parse_alike(text):
    tr = parse_gpu_csv(text, "g.csv")
    assert tr.time_s.tolist() == [0.0, 1.0, 3.0]  # the cut-off last row of RENAMED is dropped
    assert tr.power_w.tolist() == [100.0, 200.5, 300.0]  # decimals kept
    assert tr.util.tolist() == pytest.approx([0.1, 0.2, 0.3])
    assert tr.gpu_name == "NVIDIA GeForce RTX 3090" and tr.max_power_w == 350.0
    # trapezoid over real timestamps: (100+200.5)/2*1 + (200.5+300)/2*2
    assert trapezoid(tr.power_w, tr.time_s) == pytest.approx(150.25 + 500.5)


def test_bad_files_name_the_file_and_line():
    with pytest.raises(RawFileError, match="g.csv"):
        parse_gpu_csv("a,b\n1,2\n", "g.csv")
    broken = NVSMI.replace("200.50 W", "n/a W")
    with pytest.raises(RawFileError, match=r"g.csv:3: expected a number"):
        parse_gpu_csv(broken, "g.csv")
    with pytest.raises(RawFileError, match=r"g.csv:2: bad timestamp"):
        parse_gpu_csv(NVSMI.replace("2023/03/08 13:11:36.000", "yesterday"), "g.csv")


def test_cpu_file_and_ram_energy():
    t, rss = parse_cpu_csv(CPU, "c.csv")
    assert t.tolist() == [0.0, 1.0] and rss.tolist() == [1000.0, 3000.0]
    assert ram_energy_j(t, rss) == pytest.approx(2000.0 * 3.75e-4)


def test_trim_and_even_epoch_slices_conserve_energy():
    n = 40
    text = NVSMI.splitlines()[0] + "\n" + "".join(
        f"2023/03/08 13:12:{i:02d}.000, X, 50 %, 5 %, 1 MiB, 1 MiB, {100 + i}.0 W, 350.00 W, 40\n" for i in range(n))
    tr = trimmed(parse_gpu_csv(text))
    assert len(tr.time_s) == n - 6 and tr.time_s[0] == 0.0 and tr.power_w[0] == 103.0
    e, t = slice_energies(tr, equal_edges(tr.time_s[-1], 7), ram_power_w=2.0)
    assert t.sum() == pytest.approx(tr.time_s[-1]) and np.allclose(t, t[0])
    assert e.sum() == pytest.approx(trapezoid(tr.power_w, tr.time_s) + 2.0 * tr.time_s[-1])
    assert np.all(np.diff(e) > 0)  # power rises, so later slices cost more


def test_two_phase_edges():
    edges = two_phase_edges(100.0, 14, 20.0, first_epochs=10)
    assert len(edges) == 15 and edges[0] == 0 and edges[-1] == 100
    assert np.allclose(np.diff(edges)[:10], 2.0) and np.allclose(np.diff(edges)[10:], 20.0)
    with pytest.raises(ValueError, match="no two phases"):
        two_phase_edges(100.0, 14, 150.0)


def _trace(util: np.ndarray) -> GpuTrace:
    t = np.arange(len(util), dtype=float)
    return GpuTrace(t, 100 + 200 * util, util, "X", 350.0)


def test_regime_change_is_found_and_a_short_dip_is_not_taken_for_it():
    util = np.where(np.arange(3000) < 250, 0.5, 0.9)
    util[1200:1225] = 0.05  # a 25-s dip much later, as in some recorded runs
    assert abs(regime_change_s(_trace(util), max_s=2000.0) - 250) <= 10
    # the search stops at max_s: a later change is not found
    late = np.where(np.arange(3000) < 900, 0.5, 0.9)
    assert regime_change_s(_trace(late), max_s=600.0) <= 600
    with pytest.raises(ValueError, match="too short"):
        regime_change_s(_trace(np.full(70, 0.5)), max_s=60.0)


@pytest.mark.shared
def test_the_309_runs_load_with_the_readme_counts(tmp_path, tmp_path_factory, monkeypatch):
    from tools.model.training_data import load_processed, load_runs

    cache = tmp_path_factory.getbasetemp() / "greenlint-training-cache"  # shared with the evaluation test
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(cache))
    runs = load_runs(SHARED)
    assert Counter(r.summary.env for r in runs) == {"cloud": 150, "local-v2": 159}
    assert Counter((r.summary.env, r.summary.architecture) for r in runs)[("local-v2", "mobilenet_v2")] == 37
    # README: the recomputation matches processed `energy (MJ)` within 0.43% on every run.
    proc = load_processed(SHARED).set_index(["training environment", "architecture", "run"])["energy (MJ)"]
    label = {"cloud": "Cloud", "local-v2": "Local ML Engineer/Gamer"}
    rel = [abs(r.summary.energy_gpu_j / 1e6 / proc[(label[r.summary.env], r.summary.architecture, r.summary.run)] - 1)
           for r in runs]
    assert max(rel) < 0.0045
    for r in runs[::30]:
        for series in (r.equal, r.two_phase):
            assert len(series.energy_j) == r.summary.trained_epochs
            assert series.energy_j.sum() == pytest.approx(r.summary.energy_j, rel=1e-6)
            assert series.time_s.sum() == pytest.approx(r.summary.duration_s)
        # frozen epochs are no longer than the fine-tuning ones (the search bound), and start after a minute
        assert 60 <= r.summary.unfreeze_s <= 1.1 * 10 * r.summary.duration_s / r.summary.trained_epochs
    # Written and read back through the derived table, and the cache gives the same runs.
    write_runs_csv(runs, tmp_path / "runs.csv")
    assert [s.energy_j for s in read_runs_csv(tmp_path / "runs.csv")] == pytest.approx(
        [r.summary.energy_j for r in runs], rel=1e-5)
    assert list(cache.glob("training/gaissa-*.json.xz"))
    cached = load_runs(SHARED)
    assert [r.summary for r in cached] == [r.summary for r in runs]
    assert np.allclose(cached[0].two_phase.energy_j, runs[0].two_phase.energy_j)
    # A damaged cache is rebuilt, not raised: shown on three runs (the same path, not a second parse of 309).
    from tools.model import training_data

    few = training_data.run_files(SHARED)[:3]
    monkeypatch.setattr(training_data, "run_files", lambda shared_dir: few)
    assert [r.summary for r in load_runs(SHARED)] == [r.summary for r in runs[:3]]
    damaged = cache / "training" / f"gaissa-{training_data._cache_key(few)}.json.xz"
    damaged.write_bytes(b"damaged")
    assert [r.summary for r in load_runs(SHARED)] == [r.summary for r in runs[:3]]
    assert damaged.read_bytes() != b"damaged"  # and written again


def test_shipped_runs_table_matches_its_header():
    from greenlint.paths import DATA_DIR

    rows = read_runs_csv(DATA_DIR / "training" / "runs.csv")
    assert Counter(r.env for r in rows) == {"cloud": 150, "local-v2": 159}
    assert all(r.energy_j > 0 and r.trained_epochs >= 10 for r in rows)
