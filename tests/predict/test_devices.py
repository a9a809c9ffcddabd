"""A told GPU (`--device`, greenlint/predict/devices.py): its table, its figures, the physics of its step time."""

from __future__ import annotations

import dataclasses
import json
import statistics

import pytest

from greenlint.predict.devices import (
    GPU_SPECS,
    IDLE_SHARE,
    REFERENCE_DEVICE,
    REFERENCE_GPU_IDLE_W,
    UNKNOWN_LAYERS,
    DeviceModel,
    batch_saving,
    device_joules,
    device_names,
    device_seconds,
    gpu_spec,
    kb_device_model,
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


def _seconds(reference, features, gpu="RTX 3090", model=None):
    work = reference.model["work"]
    return device_seconds(work, "training", features, gpu_spec(gpu), model or reference.device_model, False)


def test_float32_products_run_at_the_tf32_peak_from_ampere_on(reference):
    """TensorFlow runs float32 matrix products and convolutions on TF32 tensor cores from compute
    capability 8.0: an A100's FLOPs go at 156 TFLOPS, not its 19.5 FP32; a V100 (7.0) stays at FP32,
    and GeForce Ampere boards have equal peaks."""
    a100, v100, rtx = gpu_spec("A100-SXM4"), gpu_spec("V100-SXM2"), gpu_spec("RTX 3090")
    assert a100.matmul_tflops == 156.0 and v100.matmul_tflops == v100.fp32_tflops == 15.7
    assert rtx.matmul_tflops == rtx.fp32_tflops
    assert all(s.tf32_tflops is None or (s.compute_capability >= 8.0 and s.tf32_tflops >= s.fp32_tflops)
               for s in GPU_SPECS)
    f = {"flops_per_sample": 1e10, "samples": 3200, "epochs": 1, "batch_size": 32, "n_layers": 2}
    assert _seconds(reference, f, "A100-SXM4")[2] == pytest.approx((3 * 1e10 * 3200 + 1e9 * 100 * 2 * 3) / 156e12)


def test_flops_go_at_the_base_clock_where_the_spec_lists_one(reference):
    """A peak is the boost clock's; a long run at the board's power limit holds it near its base
    clock: the FLOPs are priced at peak x base / boost where the spec page lists both clocks, at the
    peak where it lists no base clock (the datacenter datasheets), and the note says which."""
    rtx, t4 = gpu_spec("RTX 3090"), gpu_spec("T4")
    assert rtx.sustained_tflops == pytest.approx(35.6 * 1.40 / 1.70) and rtx.matmul_tflops == 35.6
    assert t4.base_ghz is None and t4.sustained_tflops == t4.matmul_tflops
    assert all(s.sustained_tflops <= s.matmul_tflops and (s.base_ghz is None) == (s.boost_ghz is None)
               for s in GPU_SPECS)
    assert all(s.base_ghz < s.boost_ghz for s in GPU_SPECS if s.base_ghz)
    f = {"flops_per_sample": 1e11, "samples": 3200, "epochs": 1, "batch_size": 32, "n_layers": 2}
    boost = dataclasses.replace(rtx, base_ghz=None, boost_ghz=None)
    work = reference.model["work"]
    at_base = device_seconds(work, "training", f, rtx, reference.device_model, False)[2]
    at_boost = device_seconds(work, "training", f, boost, reference.device_model, False)[2]
    assert at_base / at_boost == pytest.approx(1.70 / 1.40)  # compute-bound: the clocks' ratio
    note = Predictor(reference.model, device=rtx).predict(FIT, VGG).evidence.note
    assert "29.3 TFLOPS FP32 (its 35.6 TFLOPS peak at the 1.7 GHz boost clock, scaled to its 1.4 GHz base clock)" in note
    assert "base clock" not in Predictor(reference.model, device=t4).predict(FIT, VGG).evidence.note


def test_the_constants_are_the_work_models_and_the_kbs(reference):
    """Nothing fitted on a device: the dispatch and n-half of the work model, the waiting draw from
    the KB's reference board (its training power x fit's GPU share, over its idle draw / IDLE_SHARE)."""
    from greenlint.paths import DATA_DIR
    from greenlint.predict.work_energy import DISPATCH_S, HALF_PEAK_FLOPS

    model = kb_device_model(reference.model)
    assert model.layer_s == DISPATCH_S and model.half_flops == HALF_PEAK_FLOPS
    watts = reference.model["work"]["power"]["training"]["steady_w"]
    gpu = reference.model["apis"]["tensorflow.keras.Model.fit"]["shares"]["gpu"]
    assert model.wait_share == pytest.approx(watts * gpu / (REFERENCE_GPU_IDLE_W / IDLE_SHARE), abs=1e-3)
    assert 0 < model.wait_share < 1 - IDLE_SHARE
    meta = json.loads((DATA_DIR / "kb" / "meta.json").read_text())
    idle = statistics.median(d["idle_baseline_w"]["gpu"] for d in meta["datasets"].values() if d.get("idle_baseline_w"))
    assert REFERENCE_GPU_IDLE_W == pytest.approx(idle, abs=0.01)
    assert kb_device_model({"work": {}, "apis": {}}).wait_share == 0.0


def test_flops_at_saturation_scale_the_time(reference):
    """Layers of 10^11 FLOPs a step run at the device's sustained throughput (its peak at the base
    clock): x10 the FLOPs, x10 the GPU's seconds, and the step time follows once the GPU's work
    outweighs the host's."""
    f = {"flops_per_sample": 1e10, "samples": 3200, "epochs": 1, "batch_size": 32, "n_layers": 2}
    host, dispatch, gpu = _seconds(reference, f)
    host10, dispatch10, gpu10 = _seconds(reference, {**f, "flops_per_sample": 1e11})
    assert host10 == host and dispatch10 == dispatch and gpu10 / gpu == pytest.approx(10, rel=0.01)
    assert gpu == pytest.approx((3 * 1e10 * 3200 + 1e9 * 100 * 2 * 3) / (35.6e12 * 1.40 / 1.70))
    assert (host10 + gpu10) / (host + gpu) > 8
    told = Predictor(reference.model, device=gpu_spec("RTX 3090"))
    big = [told.predict(FIT, {**f, "flops_per_sample": x, "epochs": 100}).energy_j for x in (1e10, 1e11)]
    assert big[1] / big[0] > 8


def test_small_layers_run_far_below_peak(reference):
    """Hockney's n-half: the same FLOPs split over 100x the layers take longer on the GPU."""
    f = {"flops_per_sample": 1e9, "samples": 3200, "epochs": 1, "batch_size": 32}
    few = _seconds(reference, {**f, "n_layers": 5})[2]
    many = _seconds(reference, {**f, "n_layers": 500})[2]
    assert many > 2 * few
    # only the layers that do FLOPs fill the GPU: a named architecture's FLOP layers where known
    assert _seconds(reference, {**f, "n_layers": 500, "flop_layers": 5})[2] == pytest.approx(few)


def test_layers_add_launch_overhead(reference):
    """Each layer's kernels are dispatched by the host every step: a step waits on them when the
    GPU's work is shorter, whatever the FLOPs."""
    f = {"flops_per_sample": 1e6, "samples": 3200, "epochs": 1, "batch_size": 32}
    model = reference.device_model
    _, d10, _ = _seconds(reference, {**f, "n_layers": 10})
    _, d500, g500 = _seconds(reference, {**f, "n_layers": 500, "flop_layers": 10})
    assert d10 == pytest.approx(model.layer_s * 10 * 100) and d500 == pytest.approx(50 * d10)
    assert d500 > g500  # the host's launches set the step time
    gpu = gpu_spec("RTX 3090")
    assert device_joules(_seconds(reference, {**f, "n_layers": 500}), gpu, model) > device_joules(
        _seconds(reference, {**f, "n_layers": 10}), gpu, model)
    _, du, _ = _seconds(reference, f)
    assert du == pytest.approx(model.layer_s * UNKNOWN_LAYERS * 100)  # unknown layers: the stated assumption


def test_memory_bound_bytes_go_at_the_bandwidth(reference):
    """Memory-bound layers' bytes (x 3 in a training pass, like FLOPs) add GPU seconds at the
    device's spec-sheet bandwidth, whatever their FLOPs; a weight is read and written 10 times a step."""
    f = {"flops_per_sample": 1e9, "samples": 3200, "epochs": 2, "batch_size": 32, "n_layers": 10}
    for name, bandwidth, peak in (("RTX 3090", 936e9, 35.6e12 * 1.40 / 1.70), ("RTX 3070", 448e9, 20.3e12 * 1.50 / 1.73)):
        _, _, g = _seconds(reference, f, name)
        _, _, gm = _seconds(reference, {**f, "memory_bytes_per_sample": 1e7}, name)
        _, _, gw = _seconds(reference, {**f, "params": 1e6}, name)
        assert gm - g == pytest.approx(2 * 3 * 1e7 * 3200 / bandwidth)
        # and the optimizer's update FLOPs (10 a weight, work_energy.derive) at the base clock's throughput
        assert gw - g == pytest.approx(2 * 100 * 1e6 * 4 * 10 / bandwidth + 2 * 100 * 10 * 1e6 / peak)


def test_a_memory_bound_network_costs_more_per_flop_than_a_compute_bound_one(reference):
    """On the same device, MobileNetV2 (small and depthwise layers) costs far more per FLOP than
    VGG16 (19 layers of big dense convolutions), and Xception's depthwise traffic makes it costlier
    per FLOP than VGG16. (GAISSA's runs also have Xception above ResNet50, which the model no longer
    reproduces since it counts ResNet50's bias adds: docs/accuracy.md shows each one's ratio.)"""
    from greenlint.predict.training_runs import forward_flops

    told = Predictor(reference.model, device=gpu_spec("RTX 3070"))

    def per_flop(arch):
        return told.predict(FIT, {**VGG, "architecture": arch}).energy_j / forward_flops({**VGG, "architecture": arch})[0]

    assert per_flop("MobileNetV2") > 5 * per_flop("VGG16")
    assert per_flop("NASNetMobile") > 2 * per_flop("ResNet50")
    assert per_flop("Xception") > 1.5 * per_flop("VGG16")


def test_untold_a_named_architecture_is_priced_by_its_layers_on_the_reference_gpu(reference):
    """Without --device a named architecture's fit goes through the same roofline on the reference GPU,
    whose figures are the work model's own (ops' peak and bandwidth, the board `wait_share` is of):
    MobileNetV2's small and depthwise layers cost more per FLOP than VGG16's big convolutions."""
    from greenlint.predict.training_runs import forward_flops
    from greenlint.predict.work_energy import BANDWIDTH_B_PER_S, DENSE_FLOPS_PER_S

    assert REFERENCE_DEVICE.sustained_tflops * 1e12 == DENSE_FLOPS_PER_S
    assert REFERENCE_DEVICE.bandwidth_gb_s * 1e9 == BANDWIDTH_B_PER_S
    assert REFERENCE_DEVICE.tdp_w == pytest.approx(REFERENCE_GPU_IDLE_W / IDLE_SHARE)
    assert all(gpu_spec(name) is not REFERENCE_DEVICE for name in ("reference", REFERENCE_DEVICE.name))

    def per_flop(arch):
        p = reference.predict(FIT, {**VGG, "architecture": arch})
        assert "on the reference machine's GPU: " in p.evidence.note and "(told)" not in p.evidence.note
        return p.energy_j / forward_flops({**VGG, "architecture": arch})[0]

    assert per_flop("MobileNetV2") > 5 * per_flop("VGG16")
    assert per_flop("NASNetMobile") > 2 * per_flop("ResNet50")


def test_untold_a_model_without_its_layers_traffic_keeps_the_fitted_time(reference):
    """A model whose layers' bytes are unknown (a hand-built one) is not put on the reference GPU."""
    p = reference.predict(FIT, {"flops_per_sample": 1e9, "n_layers": 30, "samples": 3200, "epochs": 2,
                                "batch_size": 32})
    assert "power" in p.evidence.note and "reference machine's GPU" not in p.evidence.note


def test_a_step_waits_on_its_layers_not_only_its_flops(reference):
    """A named architecture's fit is priced with its own layers (the note says so)."""
    told = Predictor(reference.model, device=gpu_spec("RTX 3090"))
    mobile = told.predict(FIT, {**VGG, "architecture": "MobileNetV2"})
    nasnet = told.predict(FIT, {**VGG, "architecture": "NASNetMobile"})
    assert "154 layers" in mobile.evidence.note and "769 layers" in nasnet.evidence.note
    assert nasnet.energy_j > 1.5 * mobile.energy_j  # 6x the FLOPs alone would be a few percent more
    unknown = told.predict(FIT, {"flops_per_sample": 1e9, "samples": 3200, "epochs": 2, "batch_size": 32})
    assert f"{UNKNOWN_LAYERS} assumed" in unknown.evidence.note


def test_an_idle_board_while_waiting_draws_nothing_net(reference):
    """The energy splits as the time does: the GPU's seconds at TDP less idle, the rest at the wait share."""
    gpu = gpu_spec("RTX 3090")
    none = DeviceModel(1e-3, 1e9, 0.0)
    half = DeviceModel(1e-3, 1e9, 0.5)
    assert device_joules((2.0, 1.0, 0.5), gpu, none) == pytest.approx(315 * 0.5)
    assert device_joules((2.0, 1.0, 0.5), gpu, half) == pytest.approx(315 * 0.5 + 0.5 * 350 * 2.5)
    assert device_joules((2.0, 0.5, 1.0), gpu, half) == pytest.approx(315 * 1.0 + 0.5 * 350 * 2.0)


def test_a_larger_batch_saves_where_the_layer_passes_are_small(reference):
    """The same samples in fewer steps: each step's host time, launches and per-layer GPU fill are
    paid fewer times. Small layer passes (a batch of 1 through a few 64-channel convolutions at
    64x64) leave most of that to save; passes that fill the GPU (a U-Net's at 256x256) almost none."""
    work, model, t4 = reference.model["work"], reference.device_model, gpu_spec("Tesla T4")
    small = batch_saving(work, "training", {"flops_per_sample": 1.2e9, "n_layers": 4}, 1, 8, t4, model)
    large = batch_saving(work, "training", {"flops_per_sample": 2.1e11, "n_layers": 24}, 2, 16, t4, model)
    assert small is not None and large is not None
    assert 0.25 < small[0] <= small[1] <= 1 - 1 / 8  # never more than the steps saved
    assert large[1] < 0.25
    # the ends span the device model's constants: its point, with them as they are, lies between
    seconds = [device_seconds(work, "training", {"flops_per_sample": 1.2e9, "n_layers": 4, "epochs": 1,
                                                 "samples": 8, "batch_size": b}, t4, model, start=False) for b in (1, 8)]
    point = 1 - device_joules(seconds[1], t4, model) / device_joules(seconds[0], t4, model)
    assert small[0] <= point <= small[1]


def test_a_batch_saving_prices_unknown_layers_as_one(reference):
    """The layers unknown: priced as one, the least fixed cost a step has, so the least saving."""
    work, model, t4 = reference.model["work"], reference.device_model, gpu_spec("Tesla T4")
    f = {"flops_per_sample": 3e9}
    unknown = batch_saving(work, "training", f, 1, 8, t4, model)
    assert unknown == batch_saving(work, "training", {**f, "n_layers": 1}, 1, 8, t4, model)
    assert unknown[0] < batch_saving(work, "training", {**f, "n_layers": 40}, 1, 8, t4, model)[0]
    assert batch_saving(work, "training", {}, 1, 8, t4, model) is None  # FLOPs unknown: nothing priced
