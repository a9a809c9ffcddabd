"""A model call whose FLOPs per sample the analysis could not find is priced at the least the code
allows (no model FLOPs; a training step's optimizer update of known weights), a floor up to a stated
large model's FLOPs: never a typical (tutorial) model's FLOPs per step (issue 27). Uses the shipped
model, and the resolver where the call comes from code."""

from __future__ import annotations

import copy
import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.predict import load_predictor
from greenlint.predict.predictor import Predictor
from greenlint.predict.site_predictions import with_work
from greenlint.predict.work_energy import HIGH_FLOPS_PER_SAMPLE

FIT = "tensorflow.keras.Sequential.fit"
ON_BATCH = "tensorflow.keras.Model.predict_on_batch"
WORK = {"samples": 8192, "batch_size": 32, "epochs": 5}


@pytest.fixture(scope="module")
def shipped():
    return load_predictor(overlay=False)


def test_a_fit_of_unknown_flops_is_a_floor_at_no_model_flops_up_to_a_stated_large_model(shipped):
    p = shipped.predict(FIT, WORK)
    assert p.floor and p.energy_j is not None
    assert "model FLOPs unknown: the figure is the least the code allows (no model FLOPs" in p.evidence.note
    assert "EfficientNet-B7" in p.evidence.note and "stated, not inferred" in p.evidence.note
    assert "median" not in p.evidence.note  # no fitted calls' FLOPs per step borrowed
    # the figure: the same work with (almost) no FLOPs per sample, which is a point
    tiny = shipped.predict(FIT, {**WORK, "flops_per_sample": 1e-6})
    assert not tiny.floor and p.energy_j == pytest.approx(tiny.energy_j, rel=1e-6)
    # any model's FLOPs the code allows lie in the interval, up to the stated large one
    for fps in (1e4, 1e7, 1e9, HIGH_FLOPS_PER_SAMPLE):
        known = shipped.predict(FIT, {**WORK, "flops_per_sample": fps})
        assert p.energy_j <= known.energy_j <= p.interval_j[1]


def test_the_floor_does_not_grow_with_a_typical_models_flops(shipped):
    model = copy.deepcopy(shipped.model)
    for group in model["work"]["time"].values():
        group["flops_per_step"] *= 1000  # a typical fitted call 1000x bigger: the floor must not notice
    bigger = Predictor(model, hierarchy=shipped.hierarchy)
    for api, work in ((FIT, WORK), ("tensorflow.keras.Model.predict", {"samples": 640, "batch_size": 32}),
                      (ON_BATCH, {"samples": 1})):
        assert bigger.predict(api, work).energy_j == pytest.approx(shipped.predict(api, work).energy_j, rel=1e-9)


def test_predict_on_batch_of_one_image_of_unknown_flops_is_a_floor_not_a_toy_models_point(shipped):
    p = shipped.predict(ON_BATCH, {"samples": 1})
    assert p.floor and "model FLOPs unknown" in p.evidence.note and "one batch" not in p.evidence.note
    large = shipped.predict(ON_BATCH, {"samples": 1, "flops_per_sample": HIGH_FLOPS_PER_SAMPLE})
    assert p.energy_j < large.energy_j <= p.interval_j[1]


def test_a_training_step_of_known_weights_costs_at_least_their_update(shipped):
    without, updated = shipped.predict(FIT, WORK), shipped.predict(FIT, {**WORK, "params": 1e8})
    assert updated.floor and updated.energy_j > without.energy_j
    assert "the optimizer's update of its 100,000,000 weights" in updated.evidence.note


def test_a_call_of_known_flops_is_a_point_as_before(shipped):
    p = shipped.predict(FIT, {**WORK, "flops_per_sample": 1e6})
    assert not p.floor and "FLOPs unknown" not in p.evidence.note and "FLOPs" in p.evidence.note


def test_a_loaded_model_whose_flops_the_analysis_cannot_find_is_a_floor(shipped):
    code = textwrap.dedent("""
        import numpy as np
        from tensorflow import keras
        model = keras.models.load_model("model.keras")
        model.predict(np.zeros((64, 224, 224, 3)), batch_size=32)
    """)
    result = analyse_source(code, "snippet.py")
    s = [c for c in result.callsites if c.api.endswith(".predict")][-1]
    features = with_work(s.features, s.work)
    assert "flops_per_sample" not in features
    p = shipped.predict(s.api, features)
    assert p.floor and "model FLOPs unknown" in p.evidence.note


def test_a_tf1_graph_run_is_priced_from_the_step_the_analysis_gives_it_never_from_its_measured_runs(shipped):
    run = "tensorflow.compat.v1.Session.run"
    assert shipped.model["apis"][run]["records"] > 0  # measured on other programs' graphs: not this one's
    train = shipped.predict(run, {"graph_mode": True, "step": "training", "samples": 64})
    once = shipped.predict(run, {"graph_mode": True, "step": "inference"})
    for p in (train, once):
        assert p.floor and p.energy_j is not None and p.evidence.level == "work" and p.evidence.records == 0
        assert "model FLOPs unknown: the figure is the least the code allows" in p.evidence.note
    assert train.energy_j > once.energy_j  # a training step's overhead is a training step's
    # the same step with FLOPs and weights known is a point that grows with them
    known = shipped.predict(run, {"graph_mode": True, "step": "training", "samples": 64, "flops_per_sample": 1e9,
                                  "params": 1e6})
    assert not known.floor and known.energy_j > 10 * train.energy_j
    assert train.energy_j <= known.energy_j <= train.interval_j[1]
    # FLOPs of some ops alone (a lower bound): a floor, those FLOPs at their least time (`work_energy.flop_s`),
    # above the step of FLOPs unknown, under the point; its high end where FLOPs are unknown
    lower = shipped.predict(run, {"graph_mode": True, "step": "training", "samples": 64, "flops_per_sample": 1e9,
                                  "params": 1e6, "flops_per_sample_bound": "lower"})
    assert lower.floor and train.energy_j < lower.energy_j < known.energy_j and "known work alone" in lower.evidence.note
    assert lower.interval_j[1] >= train.interval_j[1] > known.interval_j[1]
    # FLOPs known on a batch the code does not size: one sample's work, a floor
    unsized = shipped.predict(run, {"graph_mode": True, "step": "training", "flops_per_sample": 1e9, "params": 1e6})
    assert unsized.floor and "the batch fed is not known" in unsized.evidence.note
    assert train.energy_j < unsized.energy_j < known.energy_j <= unsized.interval_j[1]
    # without a step (nothing said of what it runs) it stays unknown
    assert shipped.predict(run, {"graph_mode": True}).energy_j is None


@pytest.mark.parametrize("api", ["tensorflow.Tensor.eval", "tensorflow.Variable.eval", "tensorflow.Operation.run"])
def test_every_tf1_graph_run_is_priced_by_its_step_whatever_its_catalog_kind(shipped, api):
    # `loss.eval(feed)` runs the graph its tensor depends on: its catalog kind (the tensor's op) does not
    # decide its figure, the step does, as for Session.run
    once = shipped.predict(api, {"graph_mode": True, "step": "inference"})
    run = shipped.predict("tensorflow.compat.v1.Session.run", {"graph_mode": True, "step": "inference"})
    assert once.floor and once.energy_j is not None and once.evidence.level == "work"
    assert once.energy_j == pytest.approx(run.energy_j, rel=0.5)
    assert shipped.predict(api, {"graph_mode": True}).energy_j is None  # no step: unknown


def test_an_estimators_train_steps_are_its_work_a_floor_that_grows_with_them(shipped):
    train = "tensorflow.estimator.DNNClassifier.train"
    few, many = (shipped.predict(train, {"steps": n, "init": {"hidden_units": [30, 10]}}) for n in (10, 5000))
    for p in (few, many):
        assert p.floor and "the least the code allows" in p.evidence.note
        assert "epochs" not in p.evidence.note and "samples per epoch" not in p.evidence.note  # steps, not epochs
    assert "5e+03 steps" in many.evidence.note
    # past the start-up, time (and energy) follows the steps: 500x the steps, far more than 10x the joules
    assert many.energy_j > 10 * few.energy_j
    assert many.interval_j[0] <= many.energy_j <= many.interval_j[1]
    # a Keras fit's `steps` (epochs x steps_per_epoch) is not read as an estimator's
    fit = {**WORK, "flops_per_sample": 1e6}
    assert shipped.predict(FIT, {**fit, "steps": 1280}).energy_j == pytest.approx(shipped.predict(FIT, fit).energy_j)


def test_an_estimators_max_steps_is_the_most_steps_one_step_the_least(shipped):
    train = "tensorflow.estimator.DNNClassifier.train"
    few, many = (shipped.predict(train, {"max_steps": n}) for n in (10, 5000))
    one = shipped.predict(train, {"steps": 1})
    for p in (few, many):  # a model_dir restored from a checkpoint runs fewer steps than max_steps: a floor
        assert p.floor and "one step (max_steps the most)" in p.evidence.note and "epochs" not in p.evidence.note
        assert p.energy_j == pytest.approx(one.energy_j)
    assert "5,000 steps (max_steps)" in many.evidence.note
    assert many.interval_j[1] > 10 * few.interval_j[1]  # the high end follows max_steps
    endless = shipped.predict(train, {"samples_unknown": True, "epochs_unknown": True})  # no stop: until the data ends
    assert endless.floor and few.interval_j[1] < endless.interval_j[1]
