"""A call's start-up (work_energy.start_up): the fitted fixed seconds plus, where the call traces its
model's step (`traces_step`), its model's layers, each at the measured seconds a first call spends
tracing one (tools/model/first_call.py)."""

from __future__ import annotations

import math

from greenlint.predict.work_energy import call_time, start_up

MODEL = {"t0": 0.4, "per_layer_start": 0.1, "per_step": 0.005, "per_flop": 1e-12, "flops_per_step": 1e6}


def test_each_layer_of_the_model_adds_its_traced_seconds():
    assert math.isclose(start_up(MODEL, {"n_layers": 6, "traces_step": True}), 0.4 + 6 * 0.1)


def test_a_model_of_unknown_layers_traces_one_the_least_it_has():
    assert math.isclose(start_up(MODEL, {"traces_step": True}), 0.5)
    assert math.isclose(start_up(MODEL, {"n_layers": None, "traces_step": True}), 0.5)


def test_without_a_measured_cost_per_layer_the_start_up_is_the_fitted_one():
    f = {"n_layers": 6, "traces_step": True}
    assert start_up({**MODEL, "per_layer_start": 0.0}, f) == 0.4
    assert start_up({k: v for k, v in MODEL.items() if k != "per_layer_start"}, f) == 0.4


def test_a_call_pays_it_once_and_a_step_of_a_loop_not_at_all():
    f = {"samples": 320.0, "batch_size": 32.0, "epochs": 1, "n_layers": 5, "traces_step": True}
    deeper = {**f, "n_layers": 15}
    assert math.isclose(call_time(MODEL, "training", deeper, 10, 0.0) - call_time(MODEL, "training", f, 10, 0.0), 1.0)
    assert call_time(MODEL, "training", deeper, 10, 0.0, start=False) == call_time(MODEL, "training", f, 10, 0.0, start=False)


def test_only_the_call_that_traces_pays_for_its_layers_once_over_its_loop():
    first = {"n_layers": 6, "traces_step": True}
    assert math.isclose(start_up(MODEL, first), 0.4 + 0.6)
    assert math.isclose(start_up(MODEL, {**first, "loop_multiplier": 3}), 0.4 + 0.2)
    assert math.isclose(start_up(MODEL, {**first, "loop_multiplier": 3, "traces_each_run": True}), 0.4 + 0.6)
    assert start_up(MODEL, {"n_layers": 6, "traces_step": False, "traced_at": 3}) == 0.4
    assert start_up(MODEL, {"n_layers": 6}) == 0.4  # not known whether it traces: none, the least


def test_the_runs_of_its_function_share_it_too():
    first = {"n_layers": 6, "traces_step": True, "loop_multiplier": 1, "runs_count": 6}
    assert math.isclose(start_up(MODEL, first), 0.4 + 0.1)
    assert math.isclose(start_up(MODEL, {**first, "traces_each_run": True}), 0.4 + 0.6)


def test_the_runs_of_each_build_of_the_model_share_its_tracing():
    rebuilt = {"n_layers": 6, "traces_step": True, "traces_each_run": True, "loop_multiplier": 600, "runs_count": 600}
    assert math.isclose(start_up(MODEL, {**rebuilt, "traces_shared_by": 200}), 0.4 + 0.6 / 200)
