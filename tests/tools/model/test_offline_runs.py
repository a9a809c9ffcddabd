"""The offline training-run estimator and its baselines (constructed inputs, and the shipped table)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tools.model.offline_runs import (
    OfflineModel,
    estimate_training_run,
    fit_offline,
    gpu_spec,
    green_algorithms_energy_j,
    load_offline,
    mlco2_energy_j,
)

FIT = "tensorflow.keras.Model.fit"

# ------------------------------------------------------------------ offline estimator

MODEL = OfflineModel(coef=(-5.0, 0.25, 0.8), log_residual_q=(-0.5, 0.3))


def _estimate(**features):
    base = {"architecture": "ResNet50", "epochs": 50, "samples": 20_000, "validation_samples": 5_000}
    return estimate_training_run(FIT, {**base, **features}, gpu="NVIDIA GeForce RTX 3090", model=MODEL)


def test_offline_scales_linearly_with_epochs_and_samples():
    one = _estimate()
    assert _estimate(epochs=100).energy_j == pytest.approx(2 * one.energy_j)
    assert _estimate(samples=40_000, validation_samples=10_000).energy_j == pytest.approx(2 * one.energy_j)


def test_offline_is_monotone_in_flops_input_size_and_tdp():
    assert _estimate(architecture="VGG16").energy_j > _estimate(architecture="MobileNetV2").energy_j
    assert _estimate(input_shape=(224, 224, 3)).energy_j > _estimate(input_shape=(128, 128, 3)).energy_j
    default = _estimate()  # no input_shape: ResNet50's Keras default, 224x224
    assert default.energy_j == pytest.approx(_estimate(input_shape=(224, 224, 3)).energy_j)
    assert any("default 224x224" in n for n in default.notes)
    assert default.gflops == pytest.approx(2.524383 * (224 / 128) ** 2)
    t4 = estimate_training_run(FIT, {"architecture": "ResNet50", "epochs": 50, "samples": 20_000}, gpu="Tesla T4",
                               model=MODEL)
    big = estimate_training_run(FIT, {"architecture": "ResNet50", "epochs": 50, "samples": 20_000},
                                gpu="RTX 3090", model=MODEL)
    assert t4.energy_j < big.energy_j
    assert any("extrapolated" in n for n in t4.notes)


def test_offline_interval_brackets_the_estimate():
    e = _estimate()
    lo, hi = e.interval_j
    assert lo == pytest.approx(e.energy_j * math.exp(-0.5))
    assert hi == pytest.approx(e.energy_j * math.exp(0.3))


def test_offline_estimate_as_prediction():
    from greenlint.predict.prediction import Basis

    p = _estimate().to_prediction()
    assert p.basis is Basis.PREDICTED and p.energy_j == _estimate().energy_j
    assert p.to_json()["interval_j"] == list(_estimate().interval_j)
    unknown = estimate_training_run(FIT, {"architecture": "MyNet", "epochs": 3}, model=MODEL).to_prediction()
    assert unknown.basis is Basis.UNKNOWN and "MyNet" in unknown.evidence.note


def test_offline_partial_answers():
    no_samples = estimate_training_run(FIT, {"architecture": "VGG16", "epochs": 3}, model=MODEL)
    assert no_samples.energy_j is None and no_samples.per_sample_epoch_j > 0
    no_epochs = estimate_training_run(FIT, {"architecture": "VGG16", "samples": 100}, model=MODEL)
    assert no_epochs.energy_j is None and no_epochs.per_epoch_j > 0
    unknown = estimate_training_run(FIT, {"architecture": "MyNet", "epochs": 3, "samples": 100}, model=MODEL)
    assert unknown.energy_j is None and any("MyNet" in n for n in unknown.notes)
    explicit = estimate_training_run(FIT, {"gflops": 1.0, "epochs": 3, "samples": 100}, model=MODEL)
    assert explicit.energy_j > 0
    # non-literal or nonsense values are not counts
    for bad in ({"epochs": True}, {"epochs": "n_epochs"}, {"epochs": -2}, {"samples": float("nan")}):
        e = estimate_training_run(FIT, {"gflops": 1.0, "epochs": 3, "samples": 100, **bad}, model=MODEL)
        assert e.energy_j is None and e.per_sample_epoch_j > 0


def test_steps_and_validation_split_give_samples():
    e = estimate_training_run(FIT, {"gflops": 1.0, "epochs": 1, "steps_per_epoch": 10, "batch_size": 32,
                                    "validation_split": 0.25}, model=MODEL)
    assert e.samples == pytest.approx(320 * 0.75 + 320 * 0.25 / 3)


def test_offline_rejects_non_training_apis_and_unknown_gpus():
    with pytest.raises(ValueError, match="not a training method"):
        estimate_training_run("tensorflow.keras.Model.predict", {}, model=MODEL)
    assert estimate_training_run(FIT, {"gflops": 1.0}, gpu="Voodoo 3", model=MODEL).notes == ("unknown GPU 'Voodoo 3'",)


def test_fit_recovers_a_constructed_power_law():
    rng = np.random.default_rng(1)
    gflops = np.repeat([0.1, 0.5, 2.0, 8.0], 20)
    tdp = np.tile([220.0, 350.0], 40)
    samples = np.full(80, 1000.0)
    noise = np.exp(0.01 * rng.standard_normal(80))
    per_epoch = samples * np.exp(-4.0 + 0.5 * np.log(gflops) + 0.6 * np.log(tdp)) * noise
    m = fit_offline(gflops, tdp, samples, per_epoch, groups=gflops)
    assert m.coef == pytest.approx((-4.0, 0.5, 0.6), abs=0.05)
    assert m.log_residual_q[0] < 0 < m.log_residual_q[1]


def test_shipped_model_loads():
    m = load_offline()
    assert m.runs == 309
    assert m.log_residual_q[0] < 0 < m.log_residual_q[1]



def test_gpu_lookups():
    assert gpu_spec("NVIDIA GeForce RTX 3090").tdp_w == 350
    assert gpu_spec("RTX 3070").cuda_cores == 5888
    assert gpu_spec("A100-SXM4-80GB").tdp_w == 400
    assert gpu_spec("") is None and gpu_spec("RTX 9999") is None


# ------------------------------------------------------------------ baselines


def test_baseline_formulas():
    assert mlco2_energy_j(350, 3600) == 1_260_000
    # 3600 s x (350 W x 0.5 + 0.3725 W/GB x 16 GB) = 3600 x 180.96
    assert green_algorithms_energy_j(350, 3600, 0.5, 16) == pytest.approx(651_456.0)
    assert green_algorithms_energy_j(220, 10, 0.0, 32) == pytest.approx(10 * 0.3725 * 32)


def test_shipped_model_is_reproducible_from_the_shipped_runs_table():
    from greenlint.paths import DATA_DIR
    from tools.model.offline_runs import fit_offline_runs
    from tools.model.training_data import read_runs_csv

    refit = fit_offline_runs(read_runs_csv(DATA_DIR / "training" / "runs.csv"))
    shipped = load_offline()
    assert refit.coef == pytest.approx(shipped.coef, rel=1e-4)
    assert refit.log_residual_q == pytest.approx(shipped.log_residual_q, rel=1e-3)



def test_a_recorded_architecture_uses_its_measured_cost_and_others_the_form():
    model = load_offline()
    assert model.table, "data/training/offline_model.json has no measured table: run `make data`"
    f = {"epochs": 10, "samples": 20000, "input_shape": (128, 128, 3)}
    known = estimate_training_run(features={**f, "architecture": "MobileNetV2"}, gpu="NVIDIA GeForce RTX 3070")
    assert any("measured J per sample-epoch on this GPU" in n for n in known.notes)
    assert known.per_sample_epoch_j == model.table["mobilenetv2|NVIDIA GeForce RTX 3070"]
    other_gpu = estimate_training_run(features={**f, "architecture": "MobileNetV2"}, gpu="NVIDIA H100 80GB HBM3")
    assert other_gpu.energy_j is None or any("scaled" in n for n in other_gpu.notes)
    form = estimate_training_run(features={**f, "gflops": 1.0}, gpu="NVIDIA GeForce RTX 3070")
    assert not any("measured" in n for n in form.notes)
