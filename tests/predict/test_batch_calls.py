"""A one-batch call after `greenlint calibrate` (greenlint/predict/batch_calls.py): its own overhead as
measured on this machine (an eager training step dispatches op by op; `train_on_batch` converts the
batch on every call) plus its step's compute by this machine's fitted time model, not a `fit` step's
cost alone and not the workload's figure moved by the reference GPU's ratio."""

from __future__ import annotations

import pytest

from greenlint.catalog.kinds import TRACED_CALL
from greenlint.kb.record import SCHEMA_VERSION
from greenlint.kb.store import write_kb
from greenlint.predict import Basis
from greenlint.predict.loading import find_overlay
from greenlint.predict.predictor import Predictor
from greenlint.predict.work_energy import MAP_CALL_S, derive
from tests.predict.test_local_work import FIT, PER_FLOP, PER_STEP, SMALL, SWEEP, WATTS, seconds, shipped  # noqa: F401
from tests.predict.test_overlay import measured

CALL = "tensorflow.keras.Sequential.__call__"
ON_BATCH = "tensorflow.keras.Sequential.train_on_batch"
#: Joules per call of this machine's one-batch workloads (meter/workloads/models.py), well above a fit step's.
TAPE_J, ON_BATCH_J = 1.0, 0.2
#: The eager step's first call costs this much more (its variables' slots made by the optimizer, ...).
FIRST_J = 3.0
TAPE = {"samples": 32, "step": "training", "n_layers": 3, **SMALL}
BATCH = {"samples": 32, "batch_size": 32, "n_layers": 3, **SMALL}


def compute_j(work: dict) -> float:
    """The FLOPs of one training step of *work* at the fitted cost per FLOP."""
    _, flops = derive("training", {"batch_size": work["samples"], "epochs": 1, **work})
    return WATTS * PER_FLOP * flops


def step_j(work: dict) -> float:
    """A training step of *work* inside `fit` by the fitted constants (no start-up)."""
    return WATTS * PER_STEP + compute_j(work)


def predictor(tmp_path, shipped, extra=True) -> Predictor:  # noqa: F811
    d = tmp_path / "hw-cpu"
    recs = []
    for name, work in SWEEP.items():
        s = seconds(work)
        recs += [
            measured(FIT, WATTS * s, name, i, {**work, "first_call_s": seconds(work, True)}, time_s=s) for i in range(3)
        ]
    if extra:
        recs += [measured(CALL, TAPE_J, "mlp_tape_step_32", i, {**TAPE, "first_call_j": TAPE_J + FIRST_J},
                          time_s=TAPE_J / WATTS) for i in range(3)]
        recs += [
            measured(ON_BATCH, ON_BATCH_J, "mlp_train_on_batch_32", i, BATCH, time_s=ON_BATCH_J / WATTS)
            for i in range(3)
        ]
    write_kb(d, recs, {"schema_version": SCHEMA_VERSION}, "constructed overlay\n")
    return Predictor(shipped.model, overlay=find_overlay(shipped.model, d), hierarchy=shipped.hierarchy)


def test_train_on_batch_is_its_measured_overhead_plus_its_own_steps_compute(tmp_path, shipped):  # noqa: F811
    p = predictor(tmp_path, shipped)
    overhead = ON_BATCH_J - compute_j(BATCH)
    same = p.predict(ON_BATCH, dict(BATCH))
    assert same.basis is Basis.CALIBRATED and same.energy_j == pytest.approx(ON_BATCH_J, rel=1e-6)
    assert "mlp_train_on_batch_32" in same.evidence.note
    wide = {**BATCH, "samples": 64, "batch_size": 64, "flops_per_sample": 100 * SMALL["flops_per_sample"]}
    got = p.predict(ON_BATCH, wide)
    assert got.energy_j == pytest.approx(overhead + compute_j(wide), rel=1e-6)
    assert got.interval_j[0] < got.energy_j < got.interval_j[1]


def test_an_eager_training_step_costs_its_measured_dispatch_per_layer_plus_its_compute(tmp_path, shipped):  # noqa: F811
    p = predictor(tmp_path, shipped)
    overhead = TAPE_J - compute_j(TAPE)
    bigger = {**TAPE, "samples": 64, "n_layers": 4, "flops_per_sample": 40 * SMALL["flops_per_sample"]}
    got = p.predict(CALL, bigger)
    assert got.energy_j == pytest.approx(overhead * 4 / 3 + compute_j(bigger), rel=1e-6)
    assert "4 layers dispatched against its 3" in got.evidence.note
    # far above what the same step costs inside `fit` (a compiled step): the eager dispatch is the cost
    assert got.energy_j > 3 * step_j(bigger)
    # the call's layers unknown: the workload's overhead as measured, and a wider interval
    unsized = p.predict(CALL, {k: v for k, v in bigger.items() if k != "n_layers"})
    assert unsized.energy_j == pytest.approx(overhead + compute_j(bigger), rel=1e-6)
    assert "layers unknown" in unsized.evidence.note
    assert unsized.interval_j[1] / unsized.energy_j > got.interval_j[1] / got.energy_j
    # the first call's extra joules, metered by calibrate, are shared by the site's runs where known
    looped = p.predict(CALL, {**bigger, "runs_count": 300})
    assert looped.energy_j == pytest.approx(got.energy_j + FIRST_J / 300, rel=1e-6)
    assert "shared by its 300 runs" in looped.evidence.note


def test_without_such_a_workload_a_one_batch_call_is_not_priced_from_one(tmp_path, shipped):  # noqa: F811
    p = predictor(tmp_path, shipped, extra=False)
    on_batch = p.predict(ON_BATCH, dict(BATCH))  # a step of the fitted model, as before
    assert on_batch.energy_j == pytest.approx(step_j(BATCH), rel=1e-6)
    eager = p.predict(CALL, dict(TAPE))
    assert "one batch, priced on this machine" not in (eager.evidence.note or "")
    # a traced step's call: not a step inside `fit`'s loop either (the reference figure, rescaled)
    traced = p.predict(TRACED_CALL, {**TAPE, "samples": 64})
    assert traced.basis is Basis.CALIBRATED_RESCALED and "this machine's time model" not in traced.evidence.note


def test_a_traced_training_step_is_priced_like_train_on_batch_not_like_a_fit_step(tmp_path, shipped):  # noqa: F811
    """A `tf.function` whose body runs a training step, called from a Python loop, runs one traced step
    per call, as `train_on_batch` runs Keras' traced train step: the overhead measured for that call
    plus its own step's compute (3x the forward FLOPs and the optimizer's update), not the per-step
    cost of a step inside `fit`'s loop (a751404 priced tape_function ~9x above what the fit step gave)."""
    p = predictor(tmp_path, shipped)
    overhead = ON_BATCH_J - compute_j(BATCH)
    work = {"samples": 64, "step": "training", **SMALL}
    call = p.predict(TRACED_CALL, dict(work))
    assert call.basis is Basis.CALIBRATED and "mlp_train_on_batch_32" in call.evidence.note
    assert call.energy_j == pytest.approx(overhead + compute_j(work), rel=1e-6)
    assert call.energy_j > 1.5 * step_j(work)  # the fixture's train_on_batch costs twice a fit step
    # its figure follows its work: 100 times the FLOPs per sample at this machine's cost per FLOP
    wide = {**work, "flops_per_sample": 100 * SMALL["flops_per_sample"]}
    assert p.predict(TRACED_CALL, wide).energy_j == pytest.approx(overhead + compute_j(wide), rel=1e-6)
    # an inference step's stand-in is predict_on_batch, which this calibration did not time: no figure from train_on_batch
    infer = p.predict(TRACED_CALL, {**work, "step": "inference"})
    assert "mlp_train_on_batch_32" not in (infer.evidence.note or "")
    # a batch a loop drew from a pipeline whose map runs per element: the 64 calls of the map function on this host
    mapped = p.predict(TRACED_CALL, {**work, "map_per_sample": 1})
    assert mapped.energy_j == pytest.approx(call.energy_j + WATTS * 64 * MAP_CALL_S, rel=1e-6)
    assert "input pipeline" in mapped.evidence.note


LOOP = """
import numpy as np
import tensorflow as tf
x = np.random.rand(8192, 32).astype("float32")
y = np.random.randint(0, 10, size=(8192,))
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)
model = tf.keras.Sequential([tf.keras.Input(shape=(32,)), tf.keras.layers.Dense(10)])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
for epoch in range(4):
    for xb, yb in dataset:
        model.train_on_batch(xb, yb)
while input():
    model.train_on_batch(x[:64], y[:64])
"""


def test_the_predictor_is_told_a_sites_runs_where_the_analysis_knows_them_exactly():
    from greenlint.analysis.analyse import analyse_source
    from greenlint.check.file_result import from_analysis
    from greenlint.predict.site_predictions import with_work

    analysis = analyse_source(LOOP, "loop.py")
    seen: dict[int, dict] = {}

    def predict(api, features):
        from greenlint.predict.prediction import Prediction

        seen[len(seen)] = features
        return Prediction.unknown("stub")

    sites = [s for s in analysis.callsites if s.api.endswith("train_on_batch")]
    assert [s.runs.bound for s in sites] == ["exact", "unknown"]
    assert with_work(sites[0].features, sites[0].work, sites[0].runs)["runs_count"] == 4 * 128
    assert "runs_count" not in with_work(sites[1].features, sites[1].work, sites[1].runs)
    from_analysis(analysis, predict)
    assert 512 in {f.get("runs_count") for f in seen.values()}  # the check pipeline passes them on
