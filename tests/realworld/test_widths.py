"""Issue 27's width goal on real code (`python -m bench.realworld widths`): the point figures' widths per
corpus and pooled, and a kept-apart folder's by its name (read from a copy, never written: test_isolation)."""

from __future__ import annotations

from pathlib import Path

from bench.realworld import widths as widths_module
from bench.realworld.widths import collect, measure, summary

POINT_10 = {"energy_j": 1.0, "interval_j": [1.0, 10.0]}
POINT_5000 = {"energy_j": 1.0, "interval_j": [1.0, 5000.0]}
FLOOR = {"energy_j": 3.0, "interval_j": [1.0, 1e6], "floor": True}
BOUND = {"energy_j": 2.0, "interval_j": [0.0, 2.0]}


def test_points_are_pooled_per_side_and_over_both_bounds_and_floors_apart():
    results = measure({"r1": [POINT_10, FLOOR], "r2": [POINT_10, BOUND]}, {"dev": [POINT_5000, POINT_5000]})
    assert results["research"]["r1"]["figured"] == 1 and results["research"]["r1"]["floors"] == 1
    research, apart, both = (results["total"][k] for k in ("research", "apart", "all"))
    assert (research["figured"], research["median_width"], research["wider_1000x"]) == (2, 10.0, 0.0)
    assert (apart["figured"], apart["median_width"], apart["wider_1000x"]) == (2, 5000.0, 1.0)
    assert (both["figured"], both["sites"], both["wider_1000x"]) == (4, 6, 0.5)
    assert results["command"] == "python -m bench.realworld widths dev"
    lines = summary(results).splitlines()
    assert lines[0].startswith("research: 2 point figures of 4 call sites, median width 10×, 0.0% wider")
    assert "50.0% wider than 1000×" in lines[2]


def test_a_pool_without_points_says_so():
    assert summary(measure({"r": [FLOOR]}, {})).splitlines()[1] == "apart: no point figure (0 call sites)"


def test_a_named_folder_is_measured_under_its_name(tmp_path, monkeypatch):
    apart = tmp_path / "apart" / "dev"
    apart.mkdir(parents=True)
    seen: list[Path] = []

    def fake_greenlint(args, cwd, cache):
        seen.append(Path(cwd))
        return {"call_sites": [POINT_10]}

    monkeypatch.setattr(widths_module, "read_readings", lambda: [])
    monkeypatch.setattr(widths_module, "greenlint", fake_greenlint)
    research, named = collect([apart])
    assert research == {} and named == {"dev": [POINT_10]} and seen == [apart]
