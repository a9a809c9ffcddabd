"""This machine's own time model (greenlint.predict.local_work), fitted on a calibration's sweep of
`fit` work and applied by the predictor: figures that follow this machine's constants, not the
reference GPU's shape moved by one ratio."""

from __future__ import annotations

import pytest

from greenlint.kb.record import SCHEMA_VERSION
from greenlint.kb.store import write_kb
from greenlint.meter.workloads import models
from greenlint.meter.workloads.models import dense_work
from greenlint.predict import Basis, batch_calls, load_predictor
from greenlint.predict.loading import find_overlay
from greenlint.predict.local_work import POOR_FIT_SD, describe, identified, local_work, nonnegative_fit
from greenlint.predict.predictor import Predictor
from greenlint.predict.work_energy import (
    HIGH_FLOPS_PER_SAMPLE,
    UPDATE_FLOPS_PER_PARAM,
    compute_s,
    derive,
    one_batch,
    time_of,
    traffic,
)
from tests.predict.test_overlay import measured

FIT = "tensorflow.keras.Sequential.fit"
CALL = "tensorflow.keras.Sequential.__call__"
PREDICT_ON_BATCH = "tensorflow.keras.Sequential.predict_on_batch"
#: A CPU machine's constants: a call's fixed cost, each epoch's set-up, each step's dispatch, each FLOP,
#: the first call's tracing, and power (10 W per busy core, two cores).
CALL_S, PER_EPOCH, PER_STEP, PER_FLOP, TRACE_S, WATTS = 0.03, 0.05, 5e-3, 2e-10, 0.6, 20.0
SMALL = dense_work(models.SMALL)
WIDE = dense_work(models.WIDE)
#: meter/workloads/models.py's quick training workloads, as the calibration records their work
SWEEP = {name: {"samples": n, "batch_size": batch, "epochs": epochs, **dense_work(hidden)}
         for name, n, epochs, batch, hidden in models.FIT_SWEEP}


def seconds(work: dict, first: bool = False) -> float:
    n, flops = derive("training", work)
    return CALL_S + PER_EPOCH * work["epochs"] + PER_STEP * n + PER_FLOP * flops + (TRACE_S if first else 0.0)


def timings(sweep: dict, noise: dict | None = None) -> tuple[dict, dict, dict]:
    """(timed, joules, first-call seconds) of a calibration that measured *sweep* by the constants
    above, each workload's seconds times its *noise* factor."""
    noise = noise or {}
    timed = {FIT: tuple((name, work, seconds(work) * noise.get(name, 1.0)) for name, work in sweep.items())}
    joules = {name: WATTS * s for name, _, s in timed[FIT]}
    first = {name: s + TRACE_S for name, _, s in timed[FIT]}
    return timed, joules, first


@pytest.fixture(scope="module")
def shipped():
    return load_predictor(overlay=False)


def calibrated(tmp_path, shipped, sweep=SWEEP, noise=None) -> Predictor:
    d = tmp_path / "hw-cpu"
    recs = []
    for name, work in sweep.items():
        s = seconds(work) * (noise or {}).get(name, 1.0)
        recs += [measured(FIT, WATTS * s * k, name, i, {**work, "first_call_s": seconds(work, True)}, time_s=s * k)
                 for i, k in enumerate((0.99, 1.0, 1.01))]
    write_kb(d, recs, {"schema_version": SCHEMA_VERSION}, "constructed overlay\n")
    return Predictor(shipped.model, overlay=find_overlay(shipped.model, d), hierarchy=shipped.hierarchy)


def test_the_nonnegative_fit_recovers_three_constants_and_never_goes_negative():
    rows = [((1.0, n, f), 0.03 + 5e-3 * n + 2e-10 * f) for n, f in ((32, 1e7), (128, 1e7), (32, 3e9))]
    (c0, step, flop), sse = nonnegative_fit(rows)
    assert (c0, step, flop) == pytest.approx((0.03, 5e-3, 2e-10), rel=1e-6) and sse < 1e-12
    # more steps taking less time: no negative per-step cost, the best fit without that term instead
    coef, _ = nonnegative_fit([((1.0, 32, 1e7), 0.2), ((1.0, 128, 1e7), 0.1), ((1.0, 32, 3e9), 0.8)])
    assert min(coef) >= 0 and coef[1] == 0


def test_local_work_fits_this_machines_constants_its_tracing_and_power():
    timed, joules, first = timings(SWEEP)
    local = local_work(timed, joules, first, lambda api, f: "training")
    model = local["time"]["training"]
    assert model["call_s"] == pytest.approx(CALL_S, rel=1e-6) and model["per_epoch"] == pytest.approx(PER_EPOCH, rel=1e-6)
    assert (model["per_step"], model["per_flop"]) == pytest.approx((PER_STEP, PER_FLOP), rel=1e-6)
    # the workloads state their layers (3, the median): the tracing is per layer, out of the start-up
    assert model["trace_s"] == pytest.approx(TRACE_S) and model["t0"] == pytest.approx(CALL_S)
    assert model["per_layer_start"] == pytest.approx(TRACE_S / 3)
    assert local["power"]["training"]["steady_w"] == pytest.approx(WATTS)
    # over-determined: six workloads for four constants, every one's residual reported (here none)
    assert model["terms"] == ["call_s", "per_epoch", "per_step", "per_flop"] and model["epochs"] == [1, 3]
    assert set(model["residuals"]) == set(SWEEP) and model["resid_sd"] < 1e-6 and not model["poor"]
    assert local["refused"] == {}


def test_without_two_epoch_counts_the_epochs_set_up_is_not_a_term():
    """All at one epoch, an epoch's set-up cannot be told from the call's: it stays in `call_s`."""
    one = {name: work for name, work in SWEEP.items() if work["epochs"] == 1}
    timed, joules, first = timings(one)
    model = local_work(timed, joules, first, lambda api, f: "training")["time"]["training"]
    assert model["terms"] == ["call_s", "per_step", "per_flop"] and model["per_epoch"] == 0
    assert model["call_s"] == pytest.approx(CALL_S + PER_EPOCH, rel=1e-6)


def test_a_noisy_calibration_fits_with_a_wider_spread_and_says_its_fit_is_poor(tmp_path, shipped):
    timed, joules, first = timings(SWEEP)
    exact = local_work(timed, joules, first, lambda api, f: "training")["time"]["training"]
    factors = dict(zip(SWEEP, (1.6, 0.6, 1.5, 0.7, 1.6, 0.6)))  # a loaded machine: x1.6 either way
    timed, joules, first = timings(SWEEP, factors)
    noisy = local_work(timed, joules, first, lambda api, f: "training")
    model = noisy["time"]["training"]
    assert model["resid_sd"] > POOR_FIT_SD and model["poor"] and model["sd"] >= model["resid_sd"] > 3 * exact["sd"]
    (line,) = describe(noisy)
    assert "POOR FIT" in line and "residuals rms" in line
    # mildly noisy (a few per cent): a spread just over the noise, no alarm
    mild = local_work(*timings(SWEEP, dict(zip(SWEEP, (1.03, 0.97, 1.02, 0.98, 1.03, 0.97)))),
                      lambda api, f: "training")["time"]["training"]
    assert not mild["poor"] and exact["sd"] <= mild["sd"] < model["sd"]
    # the figures carry the spread: the noisy calibration's interval is the wider
    script = {"samples": 8192, "batch_size": 64, "epochs": 4, "params": 150794, "flops_per_sample": 300810}
    quiet, loud = calibrated(tmp_path / "quiet", shipped), calibrated(tmp_path / "loud", shipped, noise=factors)
    assert loud.predict(FIT, script).interval_ratio > 2 * quiet.predict(FIT, script).interval_ratio
    assert "a poor fit" in loud.predict(FIT, script).evidence.note


def test_a_degenerate_sweep_is_refused_not_fitted_through_its_points():
    # as many workloads of distinct work as constants: no residual to check the fit by
    four = dict(list(SWEEP.items())[2:])
    local = local_work(*timings(four), lambda api, f: "training")
    assert local["time"] == {} and "4 workloads of distinct work for 4 constants" in local["refused"]["training"]
    assert describe(local) == [f"training: not fitted: {local['refused']['training']}; its calls keep the "
                               "measured figures and the time ratio"]
    # every workload at the same steps per epoch: an epoch's set-up is not told from its steps
    same = {f"e{e}_{w}": {"samples": 4096, "batch_size": 32, "epochs": e, **(WIDE if w else SMALL)}
            for e in (1, 2, 3) for w in (0, 1)}
    local = local_work(*timings(same), lambda api, f: "training")
    assert local["time"] == {} and "does not separate the constants" in local["refused"]["training"]
    # the check itself: a fifth point of distinct work over-determines four constants
    rows = [((1.0, e, n, f), 1.0) for e, n, f in ((1, 32, 1e7), (1, 256, 8e7), (3, 384, 1e8), (1, 384, 1e8))]
    assert "at least 5 needed" in identified(rows)
    assert identified([*rows, ((1.0, 1, 128, 1e10), 1.0)]) is None


def test_the_first_calls_metered_joules_set_its_tracing_not_its_wall_time():
    """Tracing is Python on one core: a first call that waits on a busy machine (wall time) but burns
    little is priced by its metered extra joules, in seconds at the group's power."""
    timed = {FIT: tuple((name, work, seconds(work)) for name, work in SWEEP.items())}
    joules = {name: WATTS * seconds(work) for name, work in SWEEP.items()}
    first_s = {name: seconds(work) + 5.0 for name, work in SWEEP.items()}  # 5 s of waiting on other processes
    first_j = {name: joules[name] + 4.0 for name in SWEEP}  # the tracing's own 4 J
    wall = local_work(timed, joules, first_s, lambda api, f: "training")["time"]["training"]
    metered = local_work(timed, joules, first_s, lambda api, f: "training", first_j=first_j)["time"]["training"]
    assert wall["trace_s"] == pytest.approx(5.0)
    assert metered["trace_s"] == pytest.approx(4.0 / WATTS) and metered["per_layer_start"] == pytest.approx(4.0 / WATTS / 3)


def test_a_calibrated_fit_follows_this_machines_time_model_not_the_reference_ratio(tmp_path, shipped):
    p = calibrated(tmp_path, shipped)
    script = {"samples": 8192, "batch_size": 64, "epochs": 4, "params": 150794, "flops_per_sample": 300810,
              "traces_step": True, "n_layers": 3}  # the first fit of a model of the workloads' layers
    truth = WATTS * seconds(script, first=True)  # a program's fit: its first call, tracing included
    fit = p.predict(FIT, script)
    assert fit.basis is Basis.CALIBRATED and fit.energy_j == pytest.approx(truth, rel=1e-6)
    assert fit.interval_j[0] < truth < fit.interval_j[1]
    assert "this machine's time model" in fit.evidence.note
    # the epochs the analysis gives pay this machine's per-epoch set-up, said in the note
    assert f"{PER_EPOCH * 4:.3g} s the set-up of 4 epochs" in fit.evidence.note and "0.05 s per epoch" in fit.evidence.note
    # the FLOPs count at this machine's cost: ten times the width's FLOPs is several times the joules
    wide = p.predict(FIT, {**script, "flops_per_sample": 10 * script["flops_per_sample"]})
    assert wide.energy_j / fit.energy_j > 4
    # ten times the epochs of a multi-second fit: ten times the joules past the start-up
    ten = p.predict(FIT, {**script, "epochs": 40})
    start = WATTS * (CALL_S + TRACE_S)
    assert (ten.energy_j - start) / (fit.energy_j - start) == pytest.approx(10, rel=1e-6)


def test_a_calibrated_first_fit_traces_each_layer_of_its_model(tmp_path, shipped):
    """The calibration's MLPs (3 layers, the median) trace in TRACE_S: a model of 150 layers traces 147
    layers more at TRACE_S / 3 each; a later fit of the model traces none; workloads that do not
    state their layers keep the one start-up."""
    p = calibrated(tmp_path, shipped)
    each = TRACE_S / 3
    assert p.overlay.local["time"]["training"]["per_layer_start"] == pytest.approx(each)
    script = {"samples": 8192, "batch_size": 64, "epochs": 4, "params": 150794, "flops_per_sample": 300810,
              "traces_step": True}
    small, deep = (p.predict(FIT, {**script, "n_layers": n}) for n in (3, 150))
    assert deep.energy_j - small.energy_j == pytest.approx(WATTS * each * 147, rel=1e-6)
    later = p.predict(FIT, {**script, "n_layers": 150, "traces_step": False})
    assert small.energy_j - later.energy_j == pytest.approx(WATTS * TRACE_S, rel=1e-6)
    unstated = {name: {k: v for k, v in work.items() if k != "n_layers"} for name, work in SWEEP.items()}
    old = calibrated(tmp_path / "old", shipped, unstated).overlay.local["time"]["training"]
    assert "per_layer_start" not in old and old["t0"] == pytest.approx(CALL_S + TRACE_S)


def test_a_tf1_session_step_of_known_work_follows_this_machines_time_model(tmp_path, shipped):
    """`Session.run` of a training step (TF1): one step of the fitted loop on this machine, not the
    reference GPU's step rescaled; a batch the code does not size stays a floor (one sample)."""
    p = calibrated(tmp_path, shipped)
    run = "tensorflow.compat.v1.Session.run"
    step = {"step": "training", "samples": 256, "flops_per_sample": 33796, "graph_mode": True, "runs_count": 1000}
    here = p.predict(run, step)
    assert here.basis is Basis.CALIBRATED and "this machine's time model" in here.evidence.note and not here.floor
    _, flops = derive("training", {"samples": 256, "batch_size": 256, "epochs": 1, "flops_per_sample": 33796})
    assert here.energy_j == pytest.approx(WATTS * (PER_STEP + PER_FLOP * flops + TRACE_S / 1000), rel=1e-6)
    assert shipped.predict(run, step).basis is Basis.PREDICTED
    unsized = p.predict(run, {k: v for k, v in step.items() if k != "samples"})
    assert unsized.floor and "one sample priced" in unsized.evidence.note and unsized.energy_j < here.energy_j


def test_a_tf1_session_step_is_one_call_of_the_graph_runtime_where_the_op_model_was_fitted(tmp_path, shipped):
    """With this machine's op model fitted too, a `Session.run` training step is one dispatch plus its
    FLOPs at the op model's cost (the graph's raw ops), not a step of the fitted `fit` loop: here that
    loop's step costs 10x an op's dispatch and its FLOPs 10x the matmuls'; an unsized batch stays a floor."""
    dispatch, op_flop, op_w = 5e-4, 2e-11, 10.0
    ops = {"matmul_256": ("tensorflow.matmul", 2 * 256**3), "matmul_1024": ("tensorflow.matmul", 2 * 1024**3),
           "reduce_sum": ("tensorflow.reduce_sum", 1 << 20)}
    d = tmp_path / "hw-cpu"
    recs = [measured(api, op_w * (dispatch + op_flop * f), name, i, {"flops": f}, time_s=dispatch + op_flop * f)
            for name, (api, f) in ops.items() for i in range(3)]
    for name, work in SWEEP.items():
        s = seconds(work)
        recs += [measured(FIT, WATTS * s, name, i, {**work, "first_call_s": seconds(work, True)}, time_s=s)
                 for i in range(3)]
    write_kb(d, recs, {"schema_version": SCHEMA_VERSION}, "constructed overlay\n")
    p = Predictor(shipped.model, overlay=find_overlay(shipped.model, d), hierarchy=shipped.hierarchy)
    run = "tensorflow.compat.v1.Session.run"
    step = {"step": "training", "samples": 256, "flops_per_sample": 33796, "graph_mode": True, "runs_count": 1000}
    _, flops = derive("training", {"samples": 256, "batch_size": 256, "epochs": 1, "flops_per_sample": 33796})
    here = p.predict(run, step)
    assert here.energy_j == pytest.approx(op_w * (dispatch + op_flop * flops), rel=1e-6)
    assert "this machine's op model" in here.evidence.note and "graph run of 1 training step" in here.evidence.note
    assert here.energy_j < WATTS * (PER_STEP + PER_FLOP * flops) / 5  # the fitted loop's step: far more
    assert here.interval_j[0] < here.energy_j < here.interval_j[1] and not here.floor
    unsized = p.predict(run, {k: v for k, v in step.items() if k != "samples"})
    assert unsized.floor and "one sample priced" in unsized.evidence.note and unsized.energy_j < here.energy_j
    unknown = p.predict(run, {k: v for k, v in step.items() if k != "flops_per_sample"})
    assert unknown.floor and "this machine's op model" not in (unknown.evidence.note or "")


def test_with_the_op_models_cost_per_flop_a_group_fits_a_roofline_that_prices_a_cnn_by_its_traffic():
    """A machine whose steps cost the op model's price per FLOP plus a price per element moved (weights
    read, layer outputs written and read back): the sweep's MLPs fit that `roofline` exactly, and a CNN
    (far more FLOPs per element moved than the batch-32 Dense layers) is priced by it, where the one
    cost per FLOP fitted on the same MLPs prices it several times high; a call not stating its layers'
    outputs keeps that one cost per FLOP, and without an op model no roofline is fitted."""
    op_flop, per_element = 2e-11, 3e-8

    def truth(work: dict) -> float:
        n, flops = derive("training", work)
        return CALL_S + PER_EPOCH * work["epochs"] + PER_STEP * n + op_flop * flops + per_element * traffic(n, work)

    timed = {FIT: tuple((name, work, truth(work)) for name, work in SWEEP.items())}
    joules = {name: WATTS * s for name, _, s in timed[FIT]}
    first = {name: s + TRACE_S for name, _, s in timed[FIT]}
    model = local_work(timed, joules, first, lambda api, f: "training", op_flop=op_flop)["time"]["training"]
    roof = model["roofline"]
    assert (roof["call_s"], roof["per_epoch"], roof["per_step"], roof["per_element"]) == pytest.approx(
        (CALL_S, PER_EPOCH, PER_STEP, per_element), rel=1e-6)
    assert roof["per_flop"] == op_flop
    said = describe({"time": {"training": model}, "power": {"training": {"steady_w": WATTS}}})
    assert any("where a call's layers' outputs are known" in line and "per element moved" in line for line in said)
    cnn = {"samples": 4096, "batch_size": 64, "epochs": 3, "params": 271786, "flops_per_sample": 29200394,
           "activations_per_sample": 79114}
    n, flops = derive("training", cnn)
    assert time_of(model, n, flops, epochs=3, features=cnn) == pytest.approx(truth(cnn), rel=1e-6)
    unstated = {k: v for k, v in cnn.items() if k != "activations_per_sample"}
    assert time_of(model, n, flops, epochs=3, features=unstated) > 2 * truth(cnn)
    # a step's work past its per-step cost (what a one-batch call adds to its measured overhead): the same two
    assert compute_s(model, n, flops, cnn) == pytest.approx(op_flop * flops + per_element * traffic(n, cnn), rel=1e-9)
    assert compute_s(model, n, flops, unstated) == pytest.approx(model["per_flop"] * flops, rel=1e-9)
    assert "roofline" not in local_work(timed, joules, first, lambda api, f: "training")["time"]["training"]
    bare = {FIT: tuple((w, {k: v for k, v in f.items() if k != "activations_per_sample"}, s) for w, f, s in timed[FIT])}
    assert "roofline" not in local_work(bare, joules, first, lambda api, f: "training", op_flop=op_flop)["time"]["training"]


def test_a_forward_pass_moves_its_elements_at_a_third_of_the_training_sweeps_cost_per_element():
    """The inference sweep's MLPs move elements in step with their steps, so its own roofline cannot tell
    what an element costs; the training sweep's (batch 8 and 32, narrow and wide) can. Beside it, the
    inference roofline prices an element at a third of the training one's joules (a forward pass of a
    training step's three), converted at its own power, and fits its other constants on what is left;
    without the training sweep it fits its own."""
    op_flop, per_element, inference_w, own_element = 2e-11, 3e-8, 10.0, 5e-9
    shared = per_element * WATTS / 3 / inference_w  # the training sweep's joules per element, a third, as seconds here

    def truth(group: str, work: dict, element: float) -> float:
        n, flops = derive(group, work)
        epochs = PER_EPOCH * work["epochs"] if group == "training" else 0.0
        return CALL_S + epochs + PER_STEP * n + op_flop * flops + element * traffic(n, work)

    passes = {f"mlp_predict_{n}": {"samples": n, "batch_size": 32, "epochs": 1, **SMALL} for n in (32, 1024, 8192)}
    passes["wide_mlp_predict_4096"] = {"samples": 4096, "batch_size": 32, "epochs": 1, **WIDE}
    predict = "tensorflow.keras.Sequential.predict"

    def fitted(sweep: dict, element: float) -> dict:
        timed = {predict: tuple((w, f, truth("inference", f, element)) for w, f in passes.items())}
        joules = {w: inference_w * s for w, _, s in timed[predict]}
        if sweep:
            timed[FIT] = tuple((w, f, truth("training", f, per_element)) for w, f in sweep.items())
            joules.update({w: WATTS * s for w, _, s in timed[FIT]})
        first = {w: s for ws in timed.values() for w, _, s in ws}
        local = local_work(timed, joules, first, lambda api, f: "training" if api == FIT else "inference", op_flop=op_flop)
        return local["time"]["inference"]["roofline"]

    beside = fitted(SWEEP, shared)
    assert (beside["call_s"], beside["per_step"], beside["per_element"]) == pytest.approx((CALL_S, PER_STEP, shared), rel=1e-6)
    assert fitted(SWEEP, own_element)["per_element"] == pytest.approx(shared, rel=1e-9)  # not its own sweep's
    alone = fitted({}, own_element)
    assert (alone["call_s"], alone["per_step"], alone["per_element"]) == pytest.approx((CALL_S, PER_STEP, own_element), rel=1e-6)
    # an eager model(x) runs its layers' ops unfused: its elements at the training step's whole cost, a traced
    # one-batch call (predict_on_batch) at the forward pass's third
    assert beside["unfused_per_element"] == pytest.approx(3 * shared, rel=1e-9) and "unfused_per_element" not in alone
    model = {"per_flop": 1e-10, "roofline": beside}
    work = {"samples": 64, "step": "inference", **WIDE}
    n, flops = derive("inference", one_batch(CALL, work))
    moved = traffic(n, one_batch(CALL, work))
    eager, traced = (batch_calls._compute_s(model, "inference", api, work) for api in (CALL, PREDICT_ON_BATCH))
    assert eager == pytest.approx((op_flop * flops + 3 * shared * moved, flops), rel=1e-9)
    assert traced == pytest.approx((op_flop * flops + shared * moved, flops), rel=1e-9)


def test_without_the_sweep_calibration_falls_back_to_the_measured_figure(tmp_path, shipped):
    one = {"mlp_fit_1024": SWEEP["mlp_fit_1024"]}
    p = calibrated(tmp_path, shipped, one)
    assert p.overlay.local["time"] == {} and "1 workload of distinct work" in p.overlay.local["refused"]["training"]
    fit = p.predict(FIT, dict(SWEEP["mlp_fit_1024"]))
    assert fit.energy_j == pytest.approx(WATTS * seconds(SWEEP["mlp_fit_1024"]))
    assert "this machine's time model" not in (fit.evidence.note or "")


def test_a_floor_stays_a_floor_and_an_eager_model_call_is_not_a_fitted_step(tmp_path, shipped):
    p = calibrated(tmp_path, shipped)
    unsized = {"epochs": 8, "batch_size": 32, "samples_unknown": True, **SMALL}
    here = p.predict(FIT, unsized)
    assert here.floor and "data size unknown" in here.evidence.note
    assert here.interval_j[1] > 100 * here.energy_j
    call = "tensorflow.keras.Sequential.__call__"
    eager = p.predict(call, {"samples": 32, "step": "inference", **SMALL})
    assert "this machine's time model" not in (eager.evidence.note or "")
    traced = p.predict(call, {"samples": 64, "step": "training", "in_tf_function": True, **SMALL})
    n, flops = derive("training", {"samples": 64, "batch_size": 64, "epochs": 1, **SMALL})
    assert n == 1 and traced.energy_j == pytest.approx(WATTS * (PER_STEP + PER_FLOP * flops), rel=1e-6)


def test_a_call_in_a_loop_shares_the_first_calls_tracing_with_the_loops_runs(tmp_path, shipped):
    p = calibrated(tmp_path, shipped)
    work = {**SWEEP["mlp_fit_1024"], "traces_step": True}  # its model's first fit
    once = p.predict(FIT, work)
    looped = p.predict(FIT, {**work, "loop_multiplier": 300})
    assert once.energy_j == pytest.approx(WATTS * seconds(work, first=True), rel=1e-6)
    assert looped.energy_j == pytest.approx(WATTS * (seconds(work) + TRACE_S / 300), rel=1e-6)
    assert "shared by the 300 runs of its loop" in looped.evidence.note


def test_after_calibrate_a_no_work_call_is_under_this_machines_measured_bound(tmp_path, shipped):
    d = tmp_path / "hw-cpu"
    write_kb(d, [measured("tensorflow.keras.layers.Dense", j, "dense_constructor", i, {"units": 64}, time_s=1e-4)
                 for i, j in enumerate((1.0e-3, 1.1e-3, 1.2e-3))], {"schema_version": SCHEMA_VERSION}, "constructed\n")
    p = Predictor(shipped.model, overlay=find_overlay(shipped.model, d), hierarchy=shipped.hierarchy)
    ref, here = shipped.predict("tensorflow.GradientTape", {}), p.predict("tensorflow.GradientTape", {})
    assert ref.basis is Basis.NEGLIGIBLE and here.basis is Basis.NEGLIGIBLE
    assert 1.1e-3 < here.energy_j < 2e-3 < ref.energy_j / 100  # this machine's bound, not the reference's rescaled
    assert here.interval_j == (0.0, here.energy_j) and "dense_constructor" in here.evidence.note


def test_after_calibrate_a_tensor_op_follows_this_machines_dispatch_and_flop_cost(tmp_path, shipped):
    dispatch, per_flop, watts = 5e-4, 2e-11, 10.0  # a CPU: half a millisecond per op, 50 GFLOP/s
    sweep = {"matmul_256": ("tensorflow.matmul", 2 * 256**3), "matmul_1024": ("tensorflow.matmul", 2 * 1024**3),
             "reduce_sum": ("tensorflow.reduce_sum", 1 << 20)}
    d = tmp_path / "hw-cpu"
    write_kb(d, [measured(api, watts * (dispatch + per_flop * f), name, i, {"flops": f},
                          time_s=dispatch + per_flop * f) for name, (api, f) in sweep.items() for i in range(3)],
             {"schema_version": SCHEMA_VERSION}, "constructed\n")
    p = Predictor(shipped.model, overlay=find_overlay(shipped.model, d), hierarchy=shipped.hierarchy)
    assert p.overlay.local["ops"]["per_flop"] == pytest.approx(per_flop, rel=1e-6)
    for api, flops in (("tensorflow.nn.conv2d", 3e8), ("tensorflow.reduce_max", 6.5e4), ("tensorflow.matmul", 2e9)):
        pred = p.predict(api, {"flops": flops})
        truth = watts * (dispatch + per_flop * flops)
        assert pred.energy_j == pytest.approx(truth, rel=1e-6) and pred.interval_j[0] < truth < pred.interval_j[1]
        assert "this machine's op model" in pred.evidence.note
    # a hundred times the FLOPs, past the dispatch: about a hundred times the joules (the GPU's would not move)
    big, small = p.predict("tensorflow.matmul", {"flops": 2e10}), p.predict("tensorflow.matmul", {"flops": 2e8})
    assert big.energy_j / small.energy_j > 50
    # wider beyond the FLOPs the calibration fitted
    assert big.interval_ratio > p.predict("tensorflow.matmul", {"flops": 2e8}).interval_ratio


def test_where_the_flops_are_unknown_the_figure_is_the_least_not_a_typical_models(tmp_path, shipped):
    p = calibrated(tmp_path, shipped)
    typical = shipped.model["work"]["time"]["training"]["flops_per_step"]
    assert p.overlay.local["time"]["training"]["flops_per_step"] == typical  # a data pass's, not the sweep's median
    first = {"traces_step": True, "n_layers": 3}  # its model's first fit, of the workloads' layers
    unknown = p.predict(FIT, {"samples": 8192, "batch_size": 32, "epochs": 1, **first})
    # no model FLOPs: this machine's start-up and 256 steps, nothing borrowed from a typical model
    assert unknown.floor and unknown.basis is Basis.CALIBRATED
    assert unknown.energy_j == pytest.approx(WATTS * (CALL_S + TRACE_S + PER_EPOCH + 256 * PER_STEP), rel=1e-6)
    assert "model FLOPs unknown" in unknown.evidence.note and "EfficientNet-B7" in unknown.evidence.note
    # the high end: a stated large model's FLOPs per sample, x3 for training (backward + update)
    high = WATTS * (CALL_S + TRACE_S + PER_EPOCH + 256 * PER_STEP + PER_FLOP * 3 * 8192 * HIGH_FLOPS_PER_SAMPLE)
    assert unknown.interval_j[1] >= high
    # known weights: the optimizer's update is the least the code allows, and nothing more
    params = p.predict(FIT, {"samples": 8192, "batch_size": 32, "epochs": 1, "params": 1e6, **first})
    update = 256 * UPDATE_FLOPS_PER_PARAM * 1e6
    assert params.energy_j == pytest.approx(WATTS * (CALL_S + TRACE_S + PER_EPOCH + 256 * PER_STEP + PER_FLOP * update), rel=1e-6)
    # known FLOPs: a point figure, as before
    known = p.predict(FIT, {"samples": 8192, "batch_size": 32, "epochs": 1, "flops_per_sample": 1e6, **first})
    assert not known.floor
    assert known.energy_j == pytest.approx(WATTS * (CALL_S + TRACE_S + PER_EPOCH + 256 * PER_STEP + PER_FLOP * 3 * 8192e6), rel=1e-6)


def test_the_fitted_constants_are_described_for_greenlint_calibrate(tmp_path, shipped):
    lines = describe(calibrated(tmp_path, shipped).overlay.local)
    assert len(lines) == 1 and lines[0].startswith(
        "training: 0.03 s per call + 0.05 s per epoch + 0.005 s per step + 2e-10 s per FLOP")
    assert "the first call 0.6 s more, at 20 W" in lines[0] and "wide_mlp_fit_2048" in lines[0]
    assert "residuals rms ×1, worst" in lines[0] and "POOR" not in lines[0]
    assert describe(None) == []


def test_a_calibration_measured_on_a_busy_machine_says_so_in_its_figures(tmp_path, shipped):
    import json

    quiet = calibrated(tmp_path / "quiet", shipped)
    assert "busy machine" not in quiet.predict(FIT, dict(SWEEP["mlp_fit_8192"])).evidence.note
    calibrated(tmp_path / "busy", shipped)
    load = {"windows": 18, "cores": 2, "others_busy_cores": {"median": 1.6, "max": 1.8},
            "loadavg_1m": {"median": 8.4, "max": 9.3}, "loaded_windows": 18}
    d = tmp_path / "busy" / "hw-cpu"
    (d / "calibration.json").write_text(json.dumps({"load": load}))
    p = Predictor(shipped.model, overlay=find_overlay(shipped.model, d), hierarchy=shipped.hierarchy)
    note = p.predict(FIT, dict(SWEEP["mlp_fit_8192"])).evidence.note
    assert "measured on a busy machine (other processes kept 1.60 of 2 cores busy, 18 of 18 windows loaded)" in note
