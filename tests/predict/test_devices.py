"""A told GPU (`--device`, greenlint/predict/devices.py): its table, its figures, its constants' fit."""

from __future__ import annotations

import math

import pytest

from greenlint.predict.devices import (
    GPU_SPECS,
    SHIPPED,
    UNKNOWN_LAYERS,
    DeviceModel,
    device_names,
    device_seconds,
    gpu_spec,
)
from greenlint.predict.predictor import Predictor

FIT = "tensorflow.keras.Model.fit"
VGG = {"architecture": "VGG16", "epochs": 81, "samples": 23807, "validation_samples": 10203, "batch_size": 32,
       "input_shape": (128, 128, 3)}


@pytest.fixture(scope="module")
def reference():
    from greenlint.predict import load_predictor

    return load_predictor(overlay=False)


def test_the_table_is_spec_sheet_figures_with_their_source():
    assert gpu_spec("RTX 3090").tdp_w == 350 and gpu_spec("NVIDIA GeForce RTX 3070").fp32_tflops == 20.3
    assert gpu_spec("A100-SXM4-80GB").tdp_w == 400 and gpu_spec("Tesla T4").name == "NVIDIA Tesla T4"
    assert gpu_spec("") is None and gpu_spec("RTX 9999") is None
    assert all(s.source and s.tdp_w > 0 and s.fp32_tflops > 0 and s.bandwidth_gb_s > 0 for s in GPU_SPECS)
    assert "RTX 3090" in device_names() and "H100-SXM5" in device_names()


def test_tensor_cores_from_volta_on():
    """Compute capability 7.0 (Volta) and later have tensor cores: what GL602's claim needs."""
    assert not gpu_spec("GTX 1080 Ti").tensor_cores and not gpu_spec("GTX 750 Ti").tensor_cores
    assert gpu_spec("V100-SXM2").compute_capability == 7.0 and gpu_spec("V100-SXM2").tensor_cores
    assert gpu_spec("T4").tensor_cores and gpu_spec("H200").compute_capability == 9.0
    assert all(5.0 <= s.compute_capability <= 9.0 for s in GPU_SPECS)


def test_a_told_gpu_prices_the_work_and_its_note_names_it(reference):
    told = Predictor(reference.model, device=gpu_spec("RTX 3090"))
    plain, on_gpu = reference.predict(FIT, VGG), told.predict(FIT, VGG)
    assert "RTX 3090 (told)" in on_gpu.evidence.note and "told" not in (plain.evidence.note or "")
    assert on_gpu.interval_j[0] < on_gpu.energy_j < on_gpu.interval_j[1]
    assert told.fingerprint != reference.fingerprint  # the lint cache keeps them apart
    # a slower GPU of lower power: longer compute, and the figure follows the work
    small = Predictor(reference.model, device=gpu_spec("T4")).predict(FIT, VGG)
    assert small.energy_j != on_gpu.energy_j
    twice = told.predict(FIT, {**VGG, "epochs": 162})
    assert twice.energy_j / on_gpu.energy_j == pytest.approx(2.0, rel=0.01)  # linear in the work


def test_without_flops_the_reference_figure_stands(reference):
    told = Predictor(reference.model, device=gpu_spec("RTX 3090"))
    f = {"epochs": 5, "samples": 1000, "batch_size": 32}  # the model's size unknown: no FLOPs
    assert told.predict(FIT, f).energy_j == reference.predict(FIT, f).energy_j


def test_device_seconds_is_linear_in_its_constants(reference):
    work = reference.model["work"]
    f = {"flops_per_sample": 1e9, "samples": 3200, "epochs": 2, "batch_size": 32}
    h1, c1 = device_seconds(work, "training", f, gpu_spec("RTX 3090"), False, DeviceModel(1.0, 0.0, 1.0, 0.5))
    h, c = device_seconds(work, "training", f, gpu_spec("RTX 3090"), False, DeviceModel(0.5, 0.0, 2.0, 0.5))
    assert h1 == 200 and h == 100 and c == pytest.approx(c1 / 2)
    assert c1 == pytest.approx(2 * 3 * 1e9 * 3200 / 35.6e12)
    per_layer = DeviceModel(0.0, 1.0, 1.0, 0.5)
    hl, _ = device_seconds(work, "training", {**f, "n_layers": 10}, gpu_spec("RTX 3090"), False, per_layer)
    hu, _ = device_seconds(work, "training", f, gpu_spec("RTX 3090"), False, per_layer)
    assert hl == 200 * 10 and hu == 200 * UNKNOWN_LAYERS  # unknown layers: the stated assumption


def test_depthwise_bytes_go_at_the_memory_bandwidth(reference):
    """Depthwise convolutions are memory-bound: their bytes (x 3 in a training pass, like FLOPs) add
    compute seconds at the device's spec-sheet bandwidth, whatever their FLOPs."""
    work = reference.model["work"]
    f = {"flops_per_sample": 1e9, "samples": 3200, "epochs": 2, "batch_size": 32}
    gpu = gpu_spec("RTX 3090")
    h, c = device_seconds(work, "training", f, gpu, False)
    hd, cd = device_seconds(work, "training", {**f, "depthwise_bytes_per_sample": 1e7}, gpu, False)
    assert hd == h and cd - c == pytest.approx(2 * 3 * 1e7 * 3200 / 936e9)
    slower = device_seconds(work, "training", {**f, "depthwise_bytes_per_sample": 1e7}, gpu_spec("RTX 3070"), False)
    assert slower[1] - device_seconds(work, "training", f, gpu_spec("RTX 3070"), False)[1] == pytest.approx(
        2 * 3 * 1e7 * 3200 / 448e9)


def test_a_named_architecture_with_depthwise_convolutions_is_priced_by_their_bytes(reference):
    told = Predictor(reference.model, device=gpu_spec("RTX 3070"))
    xception = told.predict(FIT, {**VGG, "architecture": "Xception"})
    resnet = told.predict(FIT, {**VGG, "architecture": "ResNet50"})
    assert "depthwise convolutions move" in xception.evidence.note
    assert "depthwise" not in resnet.evidence.note
    # Xception's FLOPs are 1.17x ResNet50's and it has fewer layers; its depthwise traffic makes it the costlier
    assert xception.energy_j > 1.2 * resnet.energy_j


def test_a_step_waits_on_its_layers_not_only_its_flops(reference):
    """MobileNetV2 (0.06 GFLOPs, 154 layers) and ResNet50 (2.5 GFLOPs, 175 layers) take about as long
    per step in GAISSA's runs: a named architecture's fit is priced with its own layers."""
    told = Predictor(reference.model, device=gpu_spec("RTX 3090"))
    mobile = told.predict(FIT, {**VGG, "architecture": "MobileNetV2"})
    nasnet = told.predict(FIT, {**VGG, "architecture": "NASNetMobile"})
    assert "154 layers" in mobile.evidence.note and "769 layers" in nasnet.evidence.note
    assert nasnet.energy_j > 1.5 * mobile.energy_j  # 6x the FLOPs alone would be a few percent more
    unknown = told.predict(FIT, {"flops_per_sample": 1e9, "samples": 3200, "epochs": 2, "batch_size": 32})
    assert f"{UNKNOWN_LAYERS} assumed" in unknown.evidence.note


@pytest.mark.slow
def test_the_shipped_constants_are_the_fit_on_gaissas_runs(reference):
    from greenlint.paths import DATA_DIR
    from tools.model.device_eval import fit_device_model
    from tools.model.training_data import read_runs_csv

    fitted = fit_device_model(reference.model["work"], read_runs_csv(DATA_DIR / "training" / "runs.csv"))
    assert math.isclose(fitted.step_s, SHIPPED.step_s) and math.isclose(fitted.efficiency, SHIPPED.efficiency)
    assert math.isclose(fitted.layer_s, SHIPPED.layer_s) and math.isclose(fitted.busy_share, SHIPPED.busy_share)


@pytest.mark.slow
@pytest.mark.parametrize("held_out", ["mobilenet_v2", "xception"])
def test_an_architecture_held_out_is_within_twice_its_recorded_energy(reference, held_out):
    """MobileNetV2 (a small model) and Xception (depthwise convolutions) held out (constants fitted on
    the other four architectures): within 2x on both GPUs."""
    import statistics

    import numpy as np

    from greenlint.paths import DATA_DIR
    from tools.model.device_eval import fit_device_model, greenlint_figures
    from tools.model.training_data import read_runs_csv

    runs = read_runs_csv(DATA_DIR / "training" / "runs.csv")
    model = fit_device_model(reference.model["work"], [r for r in runs if r.architecture != held_out])
    for gpu in ("NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 3070"):
        held = [r for r in runs if r.architecture == held_out and r.gpu_name == gpu]
        est, seconds = greenlint_figures(held, reference, model)
        gross = est[:, 0] + gpu_spec(gpu).idle_w * seconds.sum(axis=1)
        ratio = statistics.median(gross / np.array([r.energy_j for r in held]))
        assert 0.5 <= ratio <= 2.0, (gpu, ratio)
