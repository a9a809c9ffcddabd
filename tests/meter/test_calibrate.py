"""The calibrator on a simulated machine (no TF, no real time: tests/meter/simulated.py): looping,
resume after interruption, atomic overlay. Its calls take simulated seconds and spend known joules,
so every run measures the same numbers, however loaded the machine running the tests."""

from __future__ import annotations

import json

import pytest

from greenlint.meter.calibrate import Calibrator, Plan, overlay_dir, partial_dir, spread, status
from greenlint.meter.session import MeterConfig
from greenlint.meter.stability import StabilitySettings
from greenlint.meter.workloads import Call, Workload, select
from tests.meter.simulated import SimulatedCounter, SimulatedTime

CONFIG = MeterConfig(interval_s=0.01, stability=StabilitySettings(check_last_n_points=5, check_bin_s=0.02, max_wait_s=2,
                                                                   check_interval_s=0.01),
                     after_s=0.02, sources=("estimated",))
PLAN = Plan("quick", 3, 0.15)
IDLE_W, BUSY_W = 2.0, 10.0  # the simulated machine's draw at idle, and above it while a call runs


def machine() -> SimulatedCounter:
    """A simulated machine whose counter is labelled estimated, as the process-time model's are."""
    return SimulatedCounter(SimulatedTime(), IDLE_W, CONFIG.interval_s, estimated=True)


def busy(sim: SimulatedCounter, seconds: float) -> None:
    """A call keeping a core busy for *seconds* of the machine's time."""
    sim.call(seconds, BUSY_W * seconds)


def workloads(sim: SimulatedCounter, scale: float = 1.0) -> list[Workload]:
    """Two APIs: two blocks, measured one after the other (a block's repeats are interleaved)."""
    return [sim.workload("busy_small", "builtins.sum", BUSY_W * 0.002 * scale, seconds=0.002, features={"n": 2_000}),
            sim.workload("busy_large", "builtins.max", BUSY_W * 0.02 * scale, seconds=0.02, features={"n": 20_000})]


def calibrator(sim: SimulatedCounter, works: list[Workload], plan: Plan = PLAN, **options) -> Calibrator:
    return Calibrator(plan, works, CONFIG, sim.source_set(), clock=sim.time.clock(), **options)


def test_spread_is_iqr_over_median():
    assert spread([1.0, 1.0, 1.0]) == 0.0
    assert spread([0.9, 1.0, 1.1]) == pytest.approx(0.1)
    assert spread([1.0]) is None


def test_interrupted_run_resumes_and_installs_the_overlay_atomically(tmp_path, monkeypatch):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path))
    sim = machine()
    cal = calibrator(sim, workloads(sim))
    started = []

    def stop_at_second(wl):
        started.append(wl.name)
        if len(started) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        cal.run(stop_at_second, lambda: None)
    assert not overlay_dir(cal.hw_id).exists()  # nothing half-written where the predictor looks
    assert [w.name for w in cal.pending()] == ["busy_large"]
    assert status(cal.hw_id)["in_progress"] == {"quick": ["busy_small"]}

    started.clear()
    repeats = []
    result = calibrator(sim, workloads(sim)).run(lambda wl: started.append(wl.name), lambda: repeats.append(1))
    assert started == ["busy_large"]  # the finished workload was not measured again
    assert len(repeats) == PLAN.repeats + 1
    assert not partial_dir(cal.hw_id, "quick").exists()
    target = overlay_dir(cal.hw_id)
    saved = json.loads((target / "calibration.json").read_text())
    assert saved == json.loads(json.dumps(result))
    assert saved["basis"] == "calibrated-estimated"
    for name in ("busy_small", "busy_large"):
        w = saved["workloads"][name]
        assert w["repeats"] == PLAN.repeats and w["executions"] >= 1
        for s, n in zip(w["per_repeat_s"], w["executions_per_repeat"]):
            assert s * n >= PLAN.min_window_s  # looped until the window is long enough
        assert w["per_execution_j"] is not None and w["per_execution_j"] > 0
        records = json.loads((target / "measurements" / name / "experiment-1.json").read_text())
        assert len(records) == PLAN.repeats
        (body,) = records[0].values()
        assert [next(iter(r.values()))["meter"]["executions"] for r in records] == w["executions_per_repeat"]
        assert body["meter"]["basis"] == "estimated"
    small, large = saved["workloads"]["busy_small"], saved["workloads"]["busy_large"]
    assert large["per_execution_s"] == pytest.approx(0.02) and small["per_execution_s"] == pytest.approx(0.002)
    # the call's own joules, idle left out (a window's edges miss part of a sampler interval: 6 % here)
    assert large["per_execution_j"] == pytest.approx(BUSY_W * 0.02, rel=0.1)
    assert saved["apis"]["builtins.sum"]["workloads"] == ["busy_small"]
    assert saved["apis"]["builtins.max"]["workloads"] == ["busy_large"]
    # the machine's load over every window, kept with the overlay
    assert saved["load"]["windows"] == 2 * PLAN.repeats  # the resumed run's windows with this run's
    assert all(isinstance(x["others_busy_cores"], float) for x in saved["workloads"]["busy_large"]["load_per_repeat"])
    assert saved["time_model"] is None  # no fit or predict workloads: no time model fitted, none stored
    assert status(cal.hw_id)["overlay"]["mode"] == "quick"
    from greenlint.kb.store import load_kb

    kb = load_kb(target)  # the overlay is a KB the predictor can load, one record per repeat
    assert saved["kb"] == {"records": 2 * PLAN.repeats, "problems": []} and len(kb) == 2 * PLAN.repeats
    rec = next(r for r in kb if r.script == "busy_large")
    w = saved["workloads"]["busy_large"]
    assert rec.hardware_id == cal.hw_id and rec.features["estimated"] is True
    assert rec.execution_time_s == pytest.approx(w["per_repeat_s"][rec.index], rel=1e-3)  # per execution


def test_a_blocks_repeats_are_interleaved_so_a_load_change_falls_on_every_workload(tmp_path, monkeypatch):
    from greenlint.meter.calibrate import blocks

    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path))
    sim = machine()
    order = []

    def named(name):
        def call():
            if order[-1:] != [name]:
                order.append(name)
            busy(sim, 0.002)

        return lambda: Call(call)

    sweep = [Workload(n, api, named(n)) for n, api in (("a", "x.fit"), ("b", "x.fit"), ("other", "x.predict"), ("c", "x.fit"))]
    assert [[w.name for w in b] for b in blocks(sweep)] == [["a", "b", "c"], ["other"]]
    # a sweep fitted together across APIs (predict and evaluate: one pass model) is one block
    passes = [Workload(n, api, named(n), sweep=s) for n, api, s in (("p", "x.predict", "pass"), ("m", "x.matmul", None),
                                                                   ("e", "x.evaluate", "pass"))]
    assert [[w.name for w in b] for b in blocks(passes)] == [["p", "e"], ["m"]]
    result = calibrator(sim, sweep).run(lambda wl: None, lambda: None)
    # each set up and warmed up, then A B C A B C A B C: never one workload's repeats back to back
    assert order == ["a", "b", "c"] * (1 + PLAN.repeats) + ["other"]
    assert all(len(result["workloads"][n]["load_per_repeat"]) == PLAN.repeats for n in "abc")
    assert result["load"]["windows"] == 4 * PLAN.repeats and result["load"]["cores"] >= 1


def test_quick_suite_is_a_subset_with_unique_names():
    quick, full = select(True), select(False)
    assert {w.name for w in quick} < {w.name for w in full}
    assert len({w.name for w in full}) == len(full)
    with pytest.raises(KeyError, match="nope"):
        select(False, ["nope"])


def test_only_merges_into_the_overlay_and_the_switch_is_one_rename(tmp_path, monkeypatch):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path))
    sim = machine()
    calibrator(sim, workloads(sim)).run(lambda wl: None, lambda: None)
    target = overlay_dir(calibrator(sim, []).hw_id)
    first = json.loads((target / "calibration.json").read_text())
    assert target.is_symlink()
    renames = []
    real_replace = __import__("os").replace

    def spy(a, b):
        if str(b) == str(target):
            renames.append((a, b))
        return real_replace(a, b)

    monkeypatch.setattr("greenlint.meter.calibrate.os.replace", spy)
    # as `--only busy_large`, on a machine where it now costs twice as much: measured again, not kept
    result = calibrator(sim, workloads(sim, scale=2.0)[1:]).run(lambda wl: None, lambda: None)
    assert len(renames) == 1  # the overlay switched in one rename: never absent
    saved = json.loads((target / "calibration.json").read_text())
    assert set(saved["workloads"]) == {"busy_small", "busy_large"} == set(result["workloads"])
    assert saved["workloads"]["busy_small"]["per_repeat_j"] == first["workloads"]["busy_small"]["per_repeat_j"]
    assert saved["workloads"]["busy_small"]["kept_from"] == first["finished_at"]
    assert saved["workloads"]["busy_large"]["per_execution_j"] == pytest.approx(
        2 * first["workloads"]["busy_large"]["per_execution_j"], rel=0.05)
    assert saved["kb"]["records"] == 2 * PLAN.repeats
    assert (target / "measurements" / "busy_small" / "experiment-1.json").is_file()
    assert len(list(target.parent.glob(f".{target.name}.v*"))) == 1  # the replaced version is gone


def test_windows_span_forty_updates_of_the_slowest_counter():
    from greenlint.meter.boundary import Counter
    from greenlint.meter.calibrate import window_seconds

    assert window_seconds(PLAN, {}) == PLAN.min_window_s
    assert window_seconds(PLAN, {"cpu": Counter(0.001, 1e-6)}) == PLAN.min_window_s
    assert window_seconds(PLAN, {"cpu": Counter(0.001, 1e-6), "gpu": Counter(0.5, 1e-3)}) == pytest.approx(20.0)


def test_the_first_call_is_timed_apart_and_kept_in_the_records(tmp_path, monkeypatch):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path))
    sim = machine()
    calls = []

    def traced():  # the first call pays a one-off cost, like tracing a tf.function
        if not calls:
            busy(sim, 0.2)
        calls.append(1)
        busy(sim, 0.002)

    wl = Workload("traced", "builtins.sum", lambda: Call(traced), features={"n": 2_000})
    result = calibrator(sim, [wl]).run(lambda wl: None, lambda: None)
    w = result["workloads"]["traced"]
    assert w["first_call_s"] == pytest.approx(0.202) and w["per_execution_s"] == pytest.approx(0.002)
    from greenlint.kb.store import load_kb

    kb = load_kb(overlay_dir(calibrator(sim, [wl]).hw_id))
    assert {r.features["first_call_s"] for r in kb} == {w["first_call_s"]}


def test_the_first_calls_energy_is_metered_apart_not_its_wall_time_at_the_warm_power(tmp_path, monkeypatch):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path))
    sim = machine()

    def first_costs(extra):
        calls = []

        def call():  # the first call pays a one-off cost: waiting (time only, at idle) or computing
            if not calls:
                sim.time.take(0.3) if extra == "wait" else busy(sim, 0.3)
            calls.append(1)
            busy(sim, 0.002)

        return call

    wls = [Workload(f"first_{extra}", "builtins.sum", lambda extra=extra: Call(first_costs(extra)),
                    features={"n": 2_000}) for extra in ("wait", "compute")]
    result = calibrator(sim, wls).run(lambda wl: None, lambda: None)
    waits, computes = result["workloads"]["first_wait"], result["workloads"]["first_compute"]
    assert waits["first_call_s"] == pytest.approx(0.302) == computes["first_call_s"]
    # waiting costs nothing above idle: its first call's joules are a warm call's, whatever its wall time
    assert waits.get("first_call_j", 0.0) < 0.1 * BUSY_W * waits["first_call_s"]
    # computing does: its first call's joules are its 0.3 s busy, 150 warm calls'
    assert computes["first_call_j"] == pytest.approx(BUSY_W * 0.302, rel=0.1)
    assert computes["first_call_j"] > 20 * computes["per_execution_j"]
    from greenlint.kb.store import load_kb

    kb = load_kb(overlay_dir(calibrator(sim, wls).hw_id))
    assert {r.features.get("first_call_j") for r in kb if r.features["workload"] == "first_compute"} == {
        computes["first_call_j"]}


def test_the_quick_suite_holds_the_sweeps_this_machines_models_are_fitted_on():
    from greenlint.predict.local_work import identified
    from greenlint.predict.work_energy import derive

    quick = select(True)
    fit = [w.features for w in quick if w.api.endswith(".fit")]
    fits = {(f["epochs"], *derive("training", f)) for f in fit}
    passes = {derive("inference", w.features) for w in quick if w.api.endswith((".predict", ".evaluate"))}
    ops = {w.features["flops"] for w in quick if "flops" in w.features}
    # over-determined: more workloads of distinct work than constants (four for fit, three for a pass, two for ops)
    assert len(fits) >= 6 and len(passes) >= 4 and len(ops) >= 3
    assert all(n and flops for _, n, flops in fits) and all(n and flops for n, flops in passes)
    # fit at two epoch counts or more (the same steps at both) and three step counts or more, one model wider
    assert len({e for e, _, _ in fits}) >= 2 and len({n for _, n, _ in fits}) >= 3
    assert len({n for e, n, _ in fits if e == 1} & {n for e, n, _ in fits if e > 1}) >= 1
    assert len({f["flops_per_sample"] for f in fit}) >= 2
    epochs, steps, flops = zip(*fits)
    assert max(steps) >= 4 * min(steps) and max(flops) >= 50 * min(flops) and max(steps) >= 384
    assert identified([((1.0, e, n, f), 1.0) for e, n, f in fits]) is None  # the work separates every constant
    # a pass of one batch: its call's own cost measured, not left to the fit's intercept
    assert min(n for n, _ in passes) == 1
    # each model's workloads are one sweep: measured together, their repeats interleaved
    from greenlint.meter.calibrate import blocks

    fitted = [{w.name for w in quick if w.api.endswith(".fit")},
              {w.name for w in quick if w.api.endswith((".predict", ".evaluate"))}, {w.name for w in quick if "flops" in w.features}]
    assert all({w.name for w in b} in fitted for b in blocks(quick) if {w.name for w in b} & set().union(*fitted))


def test_the_quick_suite_times_each_kind_of_one_batch_call_with_its_layers():
    from greenlint.predict.work_energy import one_batch

    quick = [w for w in select(True) if one_batch(w.api, w.features) is not w.features]
    kinds = {(w.api.rpartition(".")[2], w.features.get("step")) for w in quick}
    assert {("__call__", "inference"), ("__call__", "training"), ("train_on_batch", None)} <= kinds
    # the overhead per call follows the layers dispatched: each states them as the analysis counts them
    assert all(isinstance(w.features.get("n_layers"), int) and w.features.get("flops_per_sample") for w in quick)


def test_the_fitted_time_model_and_its_residuals_are_stored_with_the_overlay(tmp_path, monkeypatch):
    """A sweep of `fit` work (pure-Python calls whose cost follows the work) fits this machine's
    time model at install time; its constants and residuals go into `calibration.json`."""
    from greenlint.meter.workloads.models import FIT_SWEEP, dense_work

    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path))
    sim = machine()
    sweep = []
    for name, n, epochs, batch, hidden in FIT_SWEEP:
        work = {"samples": n, "batch_size": batch, "epochs": epochs, **dense_work(hidden)}
        seconds = 1e-5 * (n // batch) + 1e-4 * epochs + 1e-9 * work["flops_per_sample"]
        sweep.append(Workload(name, "tensorflow.keras.Sequential.fit", lambda s=seconds: Call(busy, (sim, s)),
                              features=work))
    plan = Plan("quick", 2, 0.05)
    saved = calibrator(sim, sweep, plan).run(lambda wl: None, lambda: None)
    stored = json.loads((overlay_dir(calibrator(sim, sweep, plan).hw_id) / "calibration.json").read_text())
    model = stored["time_model"]["time"]["training"]
    assert model == saved["time_model"]["time"]["training"]
    assert set(model["workloads"]) == {name for name, *_ in FIT_SWEEP} == set(model["residuals"])
    assert model["terms"] == ["call_s", "per_epoch", "per_step", "per_flop"] and isinstance(model["poor"], bool)
    assert model["sd"] >= model["resid_sd"] >= 0 and stored["time_model"]["refused"] == {}


def test_a_predictor_model_that_cannot_be_loaded_keeps_the_measurements_and_says_why(tmp_path, monkeypatch):
    from greenlint.predict.tables import ModelError

    def broken(**_):
        raise ModelError("data/model/model.json: missing: reinstall greenlint")

    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr("greenlint.predict.load_predictor", broken)
    sim = machine()
    result = calibrator(sim, workloads(sim)[:1]).run(lambda wl: None, lambda: None)
    assert result["time_model"] == {"error": "data/model/model.json: missing: reinstall greenlint"}
    assert result["workloads"]["busy_small"]["per_execution_j"] is not None  # measured and installed all the same
    assert (overlay_dir(calibrator(sim, []).hw_id) / "calibration.json").is_file()


def test_the_start_up_measured_is_kept_in_the_overlay_and_an_only_run_keeps_the_last_one(tmp_path, monkeypatch):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path))
    measured = {"statement": "import tensorflow", "runs": 3, "cpu_s": 4.0, "energy_j": 40.0, "interval_j": [38.0, 45.0],
                "power_model": "assumed 10 W per busy logical core"}
    sim = machine()
    first = calibrator(sim, workloads(sim), startup=lambda: dict(measured)).run(lambda wl: None, lambda: None)
    assert first["startup"] == measured
    target = overlay_dir(calibrator(sim, []).hw_id)
    again = calibrator(sim, workloads(sim)[1:]).run(lambda wl: None, lambda: None)  # as `--only busy_large`
    assert again["startup"] == {**measured, "kept_from": first["finished_at"]}
    assert json.loads((target / "calibration.json").read_text())["startup"] == again["startup"]
