"""The CPU-timed suite (bench/timed): its committed results match the scripts, the report matches the
results, and the comparison's arithmetic. Nothing here times anything."""

from __future__ import annotations

import ast
import json
import math

import pytest

from bench.timed.compare import compare, script_prediction, site_runs
from bench.timed.suite import PREDICTIONS, RESULTS, RESULTS_VERSION, scripts, stamp
from bench.timed.timing import merge, script_result
from tools import REPO_DIR
from tools.model.timed_suite import BEGIN, END, block, rendered, replace_section


@pytest.fixture(scope="module")
def results() -> dict:
    return json.loads(RESULTS.read_text(encoding="utf-8"))


def test_the_suite_has_twenty_scripts_that_parse():
    found = scripts()
    assert len(found) >= 20
    for path in found:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert "tensorflow" in {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}, path


def test_every_script_has_a_result_for_its_current_text(results):
    assert results["version"] == RESULTS_VERSION
    names = {p.stem for p in scripts()}
    assert set(results["scripts"]) == names, "run `python -m bench.timed run`"
    stale = [p.stem for p in scripts() if results["scripts"][p.stem]["stamp"] != stamp(p)]
    assert not stale, f"scripts changed since they were timed: {stale}: run `python -m bench.timed run`"


def test_each_result_is_its_repeats_median_at_the_stated_power(results):
    assert results["tensorflow"] and results["machine"]["logical_cores"] >= 1
    w = results["power"]["w_per_core"]
    for name, r in results["scripts"].items():
        assert len(r["cpu_s"]) == results["repeats"] >= 2, name
        cpu = sorted(r["cpu_s"])
        median = (cpu[(len(cpu) - 1) // 2] + cpu[len(cpu) // 2]) / 2
        assert r["median_cpu_s"] == pytest.approx(median, abs=1e-3), name
        assert r["measured_j"] == pytest.approx(median * w, abs=0.01), name
        assert r["spread"] == pytest.approx((cpu[-1] - cpu[0]) / median, abs=1e-3), name


def test_the_stored_comparison_covers_every_script_and_its_arithmetic_holds(results):
    for mode in ("uncalibrated", "calibrated"):
        stored = results["compare"][mode]
        measured = {name: r["measured_j"] for name, r in results["scripts"].items()}
        assert set(stored["scripts"]) == set(measured), mode
        again = compare({name: {k: row[k] for k in ("predicted_j", "interval_j", "sites", "unpriced",
                                                    "runs_unknown", "bases")}
                         for name, row in stored["scripts"].items()}, measured)
        for name, row in stored["scripts"].items():
            assert row["inside"] == again["scripts"][name]["inside"], (mode, name)
            if row["ratio"] is not None:
                assert row["ratio"] == pytest.approx(again["scripts"][name]["ratio"], rel=1e-3), (mode, name)
        assert stored["summary"]["inside"] == pytest.approx(again["summary"]["inside"], rel=1e-3)


def test_docs_accuracy_ends_with_the_committed_results_as_evaluate_renders_them():
    text = (REPO_DIR / "docs" / "accuracy.md").read_text(encoding="utf-8")
    assert BEGIN in text and END in text, "run `python -m bench.timed doc`"
    head = text.split(BEGIN, 1)[0]
    # `render` appends "\n" + rendered() to the report, which ends with a newline
    assert text == head[:-1] + "\n" + rendered(RESULTS), (
        "docs/accuracy.md's timed suite section is stale: run `python -m bench.timed doc`")


def _site(energy, interval, count=None, loop_multiplier=1, basis="from-data"):
    return {"energy_j": energy, "interval_j": interval, "basis": basis,
            "runs": {"count": count}, "features": {"loop_multiplier": loop_multiplier}}


def test_a_site_runs_its_count_or_else_its_literal_loop_factor():
    assert site_runs(_site(1.0, None, count=7, loop_multiplier=3)) == (7.0, True)
    assert site_runs(_site(1.0, None, count=None, loop_multiplier=3)) == (3.0, False)
    assert site_runs({"energy_j": 1.0}) == (1.0, False)


def test_a_script_sums_its_sites_times_their_runs():
    p = script_prediction([_site(2.0, [1.0, 4.0], count=10), _site(5.0, [5.0, 5.0], count=None, loop_multiplier=2),
                           _site(None, None, count=1), _site(0.5, None, count=2, basis="negligible")])
    assert p["predicted_j"] == 2.0 * 10 + 5.0 * 2 + 0.5 * 2
    assert p["interval_j"] == [1.0 * 10 + 5.0 * 2 + 0.5 * 2, 4.0 * 10 + 5.0 * 2 + 0.5 * 2]
    assert (p["sites"], p["unpriced"], p["runs_unknown"]) == (4, 1, 1)
    assert p["bases"] == {"from-data": 2, "negligible": 1}


def test_the_comparison_of_a_tiny_fake_suite():
    predictions = {
        "a": {"predicted_j": 20.0, "interval_j": [5.0, 40.0], "sites": 1, "unpriced": 0, "runs_unknown": 0, "bases": {}},
        "b": {"predicted_j": 10.0, "interval_j": [8.0, 12.0], "sites": 1, "unpriced": 0, "runs_unknown": 0, "bases": {}},
        "c": {"predicted_j": 90.0, "interval_j": [60.0, 120.0], "sites": 1, "unpriced": 0, "runs_unknown": 0, "bases": {}},
    }
    out = compare(predictions, {"a": 10.0, "b": 40.0, "c": 100.0})
    rows = out["scripts"]
    assert (rows["a"]["ratio"], rows["b"]["ratio"], rows["c"]["ratio"]) == (2.0, 0.25, 0.9)
    assert (rows["a"]["factor"], rows["b"]["factor"]) == (2.0, 4.0)
    assert math.isclose(rows["c"]["factor"], 1 / 0.9)
    assert [rows[k]["inside"] for k in "abc"] == [True, False, True]
    s = out["summary"]
    assert s["median_ratio"] == 0.9 and s["median_factor"] == 2.0 and s["worst_factor"] == 4.0
    assert s["inside"] == pytest.approx(2 / 3) and s["within_3x"] == 2


def test_a_script_without_a_prediction_is_off_by_an_unstated_factor():
    out = compare({}, {"a": 10.0})
    assert out["scripts"]["a"]["ratio"] is None and out["scripts"]["a"]["inside"] is False
    assert out["summary"]["worst_factor"] is None and out["summary"]["within_3x"] == 0


def test_the_section_is_replaced_in_place_or_appended():
    fake = {"power": {"w_per_core": 10.0, "model": "m"}, "repeats": 2, "tensorflow": "t", "keras": "k",
            "date": "d", "machine": {"cpu": "c", "logical_cores": 2, "system": "s"},
            "scripts": {"a": {"spread": 0.1, "median_cpu_s": 6.0}}}
    appended = replace_section("# Doc\n\nbody\n", fake)
    assert appended == "# Doc\n\nbody\n\n" + block(fake) + "\n"
    assert replace_section(appended, fake) == appended
    changed = replace_section(appended, {**fake, "tensorflow": "u"})
    assert "TensorFlow u" in changed and "TensorFlow t" not in changed and changed.startswith("# Doc\n\nbody\n")


def test_re_timed_scripts_replace_theirs_and_the_comparison_goes():
    head = {"power": {"w_per_core": 10.0, "model": "m"}, "tensorflow": "2", "repeats": 2}
    old = {**head, "date": "then", "compare": {"x": 1},
           "scripts": {"a": {"stamp": "1"}, "b": {"stamp": "2"}, "gone": {"stamp": "3"}}}
    new = {**head, "date": "now", "repeats": 2,
           "scripts": {"b": script_result("b", "9", [{"cpu_s": 6.0, "wall_s": 9.0}, {"cpu_s": 8.0, "wall_s": 9.0}],
                                          10.0)}}
    merged = merge(old, new, ["a", "b"])
    assert merged["date"] == "now" and "compare" not in merged
    assert merged["scripts"]["a"] == {"stamp": "1"} and set(merged["scripts"]) == {"a", "b"}
    assert merged["scripts"]["b"]["median_cpu_s"] == 7.0 and merged["scripts"]["b"]["measured_j"] == 70.0
    assert merged["scripts"]["b"]["spread"] == pytest.approx(2 / 7, abs=1e-4)
    with pytest.raises(SystemExit):
        merge(old, {**new, "power": {"w_per_core": 5.0, "model": "n"}}, ["a", "b"])


def test_each_recorded_prediction_was_made_for_the_text_timed_and_before_its_timing(results):
    """`python -m bench.timed predict` records greenlint's figures for scripts before they are timed:
    each is for the text the results measured (its stamp), made before the results' timing."""
    runs = json.loads(PREDICTIONS.read_text(encoding="utf-8"))["runs"]
    named = [name for run in runs for name in run["scripts"]]
    assert len(named) == len(set(named)) >= 8, "one recorded prediction per script"
    for run in runs:
        assert run["date"] < results["date"] and run["commit"] != "unknown"
        for name, row in run["scripts"].items():
            assert row["stamp"] == results["scripts"][name]["stamp"] == stamp(scripts()[0].parent / f"{name}.py"), name
            for mode in ("uncalibrated", "calibrated"):
                assert row[mode]["predicted_j"] > 0 and row[mode]["sites"] > 0, (name, mode)


def test_each_script_takes_8_to_60_cpu_seconds_here(results):
    """The suite's sizing (issue 27): at least 8 CPU seconds on a quiet machine (a loaded one only adds
    to that), at most 60 under load; read from the results."""
    outside = {name: r["median_cpu_s"] for name, r in results["scripts"].items() if not 8 <= r["median_cpu_s"] <= 60}
    assert not outside, f"resize these scripts: {outside}"


#: Issue 27's kinds of script, each by a call that only that kind's scripts make.
KINDS = {"dense": "layers.Dense(", "conv": "Conv2D(", "recurrent": "layers.LSTM(", "attention": "MultiHeadAttention(",
         "custom loop": "tf.GradientTape()", "traced": "@tf.function", "on_batch": ".train_on_batch(",
         "predict loop": ".predict(x[i", "tensor ops": "tf.matmul(", "file-fed": "np.load(",
         "eager model call": "model(x)"}


def test_the_suite_covers_every_kind_issue_27_lists_and_the_traced_loop_has_its_eager_twin():
    texts = {p.stem: p.read_text(encoding="utf-8") for p in scripts()}
    missing = [kind for kind, call in KINDS.items() if not any(call in t for t in texts.values())]
    assert not missing, missing
    eager, traced = texts["tape_eager"], texts["tape_function"]
    assert "@tf.function" in traced and "@tf.function" not in eager
    assert eager.split("def train_step")[1].split("for epoch")[0] == traced.split("def train_step")[1].split("for epoch")[0]


def _fake_pass(events: list):
    """A stub for `timing.measure_pass`: each pass's CPU seconds and load averages rise by one."""
    def measure(paths, progress):
        events.append(("pass", [p.stem for p in paths]))
        k = sum(e[0] == "pass" for e in events)
        return {p.stem: {"cpu_s": 10.0 + k, "wall_s": 20.0, "load": [1.0 * k, 1.5 * k], "tensorflow": "t",
                         "keras": "k"} for p in paths}
    return measure


def test_compare_retime_calibrates_between_its_timing_passes_and_keeps_each_load(tmp_path, monkeypatch):
    import bench.timed.timing as timing
    from bench.timed.compare import retime

    events: list = []
    monkeypatch.setattr(timing, "load_average", lambda: 3.25)
    results = retime(tmp_path, 2, progress=lambda m: None, measure=_fake_pass(events),
                     run_calibrate=lambda cache: events.append(("calibrate", cache)))
    names = [p.stem for p in scripts()]
    assert events == [("pass", names), ("calibrate", tmp_path), ("pass", names[::-1])]
    assert results["between"] == {"after_pass": 1, "calibrate": "greenlint calibrate --quick", "load": [3.25, 3.25]}
    first = results["scripts"][names[0]]
    assert first["cpu_s"] == [11.0, 12.0] and first["load"] == [[1.0, 1.5], [2.0, 3.0]]
    assert first["spread"] == pytest.approx(1 / 11.5, abs=1e-4)
    # four passes: two before the calibration, two after
    events.clear()
    four = retime(tmp_path, 4, progress=lambda m: None, measure=_fake_pass(events),
                  run_calibrate=lambda cache: events.append(("calibrate", cache)))
    assert [e[0] for e in events] == ["pass", "pass", "calibrate", "pass", "pass"] and four["between"]["after_pass"] == 2


def test_the_section_says_whether_timings_and_calibration_shared_one_load(tmp_path, monkeypatch):
    import bench.timed.timing as timing
    from bench.timed.compare import retime
    from tools.model.timed_suite import loads_note, protocol_note

    monkeypatch.setattr(timing, "load_average", lambda: 3.25)
    results = retime(tmp_path, 2, progress=lambda m: None, measure=_fake_pass([]), run_calibrate=lambda cache: None)
    same = protocol_note(results, {"same_run": True, "date": "now"})
    assert "Timed and calibrated in one run" in same and "passes 1 and 2" in same and "load average 3.25–3.25" in same
    assert "9 % at the median and 9 % at most" in same
    apart = protocol_note(results, {"same_run": False, "date": "later", "calibration": {"finished_at": "then"}})
    assert "different loads" in apart and "Timed and calibrated in one run" not in apart
    assert "(finished then)" in apart and "measured at load" not in apart
    loaded = protocol_note(results, {"same_run": False, "date": "later", "calibration": {
        "finished_at": "then", "load": {"loadavg_1m": 7.14, "others_busy_cores": 1.71, "cores": 2}}})
    assert "(finished then, measured at load average 7.14 (other processes kept 1.71 of 2 cores busy))" in loaded
    assert "1.00–3.00 on" in loads_note(results)
    assert "not recorded" in loads_note({**results, "scripts": {"a": {"load": None}}})


def test_the_comparison_keeps_the_load_its_calibration_was_measured_under(tmp_path):
    """The overlay's load (medians over its windows) travels with the calibrated comparison; an overlay
    that recorded none adds no load."""
    from bench.timed.compare import overlay_summary

    folder = tmp_path / "calibration" / "hw"
    folder.mkdir(parents=True)
    cal = {"hardware_id": "hw", "mode": "quick", "basis": "calibrated-estimated", "finished_at": "then",
           "load": {"windows": 81, "cores": 2, "loaded_windows": 81, "loadavg_1m": {"median": 7.1401, "max": 8.3},
                    "others_busy_cores": {"median": 1.7115, "max": 1.87}}}
    (folder / "calibration.json").write_text(json.dumps(cal), encoding="utf-8")
    assert overlay_summary(tmp_path)["load"] == {"loadavg_1m": 7.14, "others_busy_cores": 1.71, "cores": 2}
    (folder / "calibration.json").write_text(json.dumps({**cal, "load": {"windows": 0}}), encoding="utf-8")
    assert "load" not in overlay_summary(tmp_path)


def test_compare_retime_makes_its_own_calibration():
    from bench.timed.__main__ import main

    with pytest.raises(SystemExit, match="drop --calibrated-cache"):
        main(["compare", "--retime", "--calibrated-cache", "somewhere"])


def test_a_comparison_made_in_one_run_with_its_timings_says_at_which_load(results):
    """results.json keeps the load each figure was timed at, and a same-run comparison its calibration's."""
    for name, r in results["scripts"].items():
        assert r.get("load") is None or len(r["load"]) == len(r["cpu_s"]), name
    if results.get("compare", {}).get("same_run"):
        assert results["between"]["calibrate"] and len(results["between"]["load"]) == 2
        assert all(r.get("load") for r in results["scripts"].values())


def test_the_calibrated_heading_names_the_calibrate_run_it_applied():
    """A cache given with --calibrated-cache is not called "a fresh cache"; the source is the overlay's."""
    from tools.model.timed_suite import calibrated_title

    made_here = calibrated_title({"mode": "quick", "basis": "calibrated-estimated", "cache_given": False})
    given = calibrated_title({"mode": "full", "basis": "calibrated-rapl", "cache_given": True})
    assert "fresh cache" in made_here and "estimated source" in made_here
    assert "fresh cache" not in given and "--calibrated-cache" in given and "rapl source" in given
    assert "--full" in given
