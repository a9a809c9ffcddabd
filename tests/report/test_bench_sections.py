"""bench/report.py rewrites only its own section of docs/benchmarks.md."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SUMMARIES = "project summaries (their own walk)"  # bench/cold_breakdown.py's step

BENCH_REPORT = Path(__file__).resolve().parents[2] / "bench" / "report.py"


def _module():
    spec = importlib.util.spec_from_file_location("bench_report", BENCH_REPORT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_write_section_replaces_only_its_own(tmp_path):
    report = _module()
    doc = tmp_path / "benchmarks.md"
    report.write_section("Linter", "first", doc)
    assert doc.read_text().startswith("# Benchmarks\n")
    doc.write_text(doc.read_text() + "\n## Catalog load\n\nsomeone else's\n")
    report.write_section("Import", "imports", doc)
    report.write_section("Linter", "second\n\n| a |\n", doc)
    text = doc.read_text()
    assert "first" not in text and text.count("## Linter") == 1
    assert text.index("## Linter\n\nsecond\n\n| a |\n") < text.index("## Catalog load\n\nsomeone else's\n") < text.index(
        "## Import\n\nimports\n")
    assert text.endswith("imports\n")


def _bench_linter(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH_REPORT.parent))
    import bench_linter

    return bench_linter


def _result(parse_s: float, cold_s: float, warm_s: float) -> dict:
    def run(s: float) -> dict:
        return {"wall_s": s, "all_wall_s": [s], "maxrss_mib": 100.0, "tree_peak_mib": 150.0}

    return {
        "commit": "abc1234", "cache_entries": ((10, 1), (10, 1)), "files": 5, "mention_tf": 4, "lines": 1000, "jobs": 2,
        "repeat": 1, "load": (0.5, 0.7), "parse_failures": 0, "diagnostics": {"cold": 3, "warm": 3},
        "runs": {"parse": run(parse_s), "cold": run(cold_s), "warm": run(warm_s)},
    }


def test_linter_goals_are_judged_from_the_measurements(monkeypatch):
    bench = _bench_linter(monkeypatch)
    met = bench.markdown(_result(10.0, 12.0, 1.0))
    assert "1.20× — **met**" in met and "8.3% — **met**" in met
    missed = bench.markdown(_result(10.0, 14.0, 2.0))
    assert "1.40× — **missed**" in missed and "14.3% — **missed**" in missed
    assert "| 10.0 | 100 |" in missed  # lines/s of parse-only: 1000 lines in 10 s


def test_linter_versus_a_commit_shows_both_rows_and_cpu_ratios(monkeypatch):
    bench = _bench_linter(monkeypatch)
    result = _result(10.0, 12.0, 1.0)
    runs = result["runs"]
    for key, cpu in (("cold", 20.0), ("warm", 1.0)):
        runs[key]["cpu_s"] = cpu
    runs["cold_versus"] = {**runs["cold"], "wall_s": 13.0, "cpu_s": 25.0}
    runs["warm_versus"] = {**runs["warm"], "cpu_s": 2.0}
    text = bench.markdown({**result, "versus": "0ld0ld0"})
    assert "--versus 0ld0ld0" in text and "| `greenlint check` at 0ld0ld0, cold | 13.0 |" in text
    assert "cold 20.0 s against 25.0 s (0.80×); warm 1.0 s against 2.0 s (0.50×)" in text
    assert "0ld0ld0" not in bench.markdown(_result(10.0, 12.0, 1.0))


def test_linter_counts_the_files_the_analysis_parses(tmp_path, monkeypatch):
    from greenlint.analysis.analyse import analyse_file

    bench = _bench_linter(monkeypatch)
    (tmp_path / "loader.py").write_text("import numpy as np\n\n\ndef load():\n    return np.zeros(3)\n")
    (tmp_path / "train.py").write_text("import tensorflow as tf\nfrom loader import load\n")
    (tmp_path / "notes.py").write_text("print('no TF here')\n")
    for name, parsed in [("loader.py", True), ("train.py", True), ("notes.py", False)]:  # a loader of a TF script counts
        assert bench._parsed(tmp_path / name) is parsed is analyse_file(tmp_path / name).parsed


def test_linter_reports_the_median_cpu_time_not_the_median_wall_runs(monkeypatch):
    bench = _bench_linter(monkeypatch)
    runs = [{"wall_s": w, "cpu_s": c, "maxrss_mib": m, "tree_peak_mib": m} for w, c, m in
            ((10.0, 30.0, 100.0), (11.0, 19.0, 90.0), (12.0, 20.0, 80.0))]
    median = bench._median_run(runs)
    assert median["wall_s"] == 11.0 and median["cpu_s"] == 20.0  # the median-wall run's CPU is 19.0
    assert median["all_cpu_s"] == [30.0, 19.0, 20.0] and median["maxrss_mib"] == 100.0


def _warm_result(cpu_ms: dict[str, float], wall_ms: dict[str, float] | None = None) -> dict:
    def run(name: str) -> dict:
        wall = (wall_ms or {}).get(name, cpu_ms[name]) / 1000
        return {"wall_s": wall, "cpu_s": cpu_ms[name] / 1000, "maxrss_mib": 50.0, "all_wall_s": [wall]}

    big = {"bytes": 4_000_000, "maxrss_mib": 20.0, "wall_s": 0.2, "refused": True}
    return {
        "files": 204, "lines": 61_000, "repeat": 1, "workers": [2], "load": (0.2, 0.3),
        "runs": {k: run(k) for k in cpu_ms}, "diagnostics": {"cold1": 0, "cold2": 0, "coldauto": 0, "warm": 0},
        "big": {"4 MB": big, "limit": {**big, "bytes": 700_000, "refused": False}},
        "breakdown": {
            "total_cpu_s": 1.5,
            "steps": {"parse": 0.5, "resolver walk of the checked files": 0.4, SUMMARIES: 0.3, "rules": 0.1,
                      "other (imports, reading, keys, output)": 0.2},
            "counts": {"parse": 12, SUMMARIES: 4},
        },
    }


def test_warm_path_goals_are_judged_in_cpu_time_and_the_wheel_install(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH_REPORT.parent))
    import bench_warm

    base = {"pass": 20, "version": 30, "ast": 300, "wheel_pass": 10, "coldauto": 1100, "cold2": 1200}
    met = bench_warm.markdown(_warm_result({**base, "cold1": 1100, "warm": 50, "one": 80, "wheel_one": 30,
                                            "wheel_imports": 25}, {"cold2": 800, "coldauto": 1000, "cold1": 1100}))
    assert "3.67× — **met**" in met  # cold -j 1: 1,100 ms of CPU against 300 of ast.parse
    assert "2.67× — **met**" in met  # cold -j 2 in wall time
    assert "4.5% — **met**" in met and "3.0× — **met**" in met  # warm; one file in the wheel install
    assert "nothing else, takes 2.5× start-up." in met
    missed = bench_warm.markdown(_warm_result({**base, "cold1": 1500, "warm": 90, "one": 80, "wheel_one": 40,
                                               "wheel_imports": 35}))
    assert "5.00× — **missed**" in missed and "6.0% — **missed**" in missed and "4.0× — **missed**" in missed
    assert "takes 3.5× start-up: those imports alone" in missed  # the floor itself misses the goal
    own_work = bench_warm.markdown(_warm_result({**base, "cold1": 1500, "warm": 90, "one": 80, "wheel_one": 40,
                                                 "wheel_imports": 20}))
    assert "takes 2.0× start-up: the rest is the check's own work" in own_work
    # a missed goal says why: the cold run's largest steps, what one walk per module would save, and why not
    assert "the largest steps are parse 33%, resolver walk of the checked files 27%, project summaries" in missed
    assert "the project summaries' own walks are 20% of the cold run (4 summaries" in missed
    assert "largest steps" not in met and "a warm run still reads and hashes" not in met
    assert "a warm run still reads and hashes" in missed


def test_trace_paths_counts_switches_and_entries_in_first_run_order(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH_REPORT.parent))
    import trace_paths

    order = [["cli/__init__.py", 1, "main", False], ["check/runner.py", 5, "check_files", False],
             ["check/cache.py", 9, "Cache", True], ["analysis/analyse.py", 3, "analyse_file", False],
             ["paths.py", 2, "cache_dir", False], ["check/noqa.py", 7, "parse", False]]
    crossings = [["check/runner.py", "check_files", "analysis/analyse.py", "analyse_file"],  # down
                 ["rules/beside.py", "stamp", "check/cache.py", "Cache.get"],  # up: a callback
                 ["paths.py", "cache_dir", "cli/__init__.py", "main"]]  # from the bottom line to the top
    summary = trace_paths.summarise(order, crossings)
    assert summary == {"functions": 6, "class_bodies": 1, "files": 6, "switches": 4,
                       "entries": {"check": 2, "cli": 1, "analysis": 1, "greenlint": 1},
                       "upward": ["rules/beside.py:stamp -> check/cache.py:Cache.get",
                                  "paths.py:cache_dir -> cli/__init__.py:main"]}
    ranks = trace_paths.layer_ranks()
    assert ranks["cli"] == 0 and ranks["greenlint"] == ranks["paths"] > ranks["catalog"] > ranks["analysis"]
    assert trace_paths.package_of("lsp_server/features/code_action.py") == "lsp_server"
    row = trace_paths.markdown({"this checkout": {"check": summary | {"reached": True},
                                                  "fix": summary | {"reached": True},
                                                  "diff": summary | {"reached": False}}})
    assert "| 6 | 1 | 6 | 4 | check 2, cli 1, analysis 1, greenlint 1 | `rules/beside.py:stamp -> check/cache.py:Cache.get`;" in row
    assert row.count("no such message") == 1 and "quick fix" in row
