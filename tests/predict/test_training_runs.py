"""Whole training runs at run time: the online projection (the meter's callback) and the FLOP table."""

from __future__ import annotations

import numpy as np
import pytest

from greenlint.predict.training_runs import arch_spec, forward_flops, memory_bytes, named_work, project_run_energy

# ------------------------------------------------------------------ online projection


def test_constant_power_is_projected_exactly():
    energies, times = [200.0 * 30] * 20, [30.0] * 20  # 200 W, 30 s epochs
    for n in (1, 5, 12, 15, 19):
        p = project_run_energy(energies[:n], times[:n], total_epochs=80)
        assert p.epoch_based_j == pytest.approx(200 * 30 * 80)
        assert p.power_based_j == pytest.approx(200 * 30 * 80)
        assert p.expected_time_s == pytest.approx(30 * 80)
        assert p.interval_j[0] <= p.energy_j <= p.interval_j[1]


def test_no_epoch_gives_none():
    assert project_run_energy([], [], total_epochs=50) is None


def test_warm_up_epochs_are_left_out_of_the_window():
    # 10 unstable epochs at 100 W, then stable at 300 W; 10 s epochs.
    energies = [1000.0] * 10 + [3000.0] * 5
    p = project_run_energy(energies, [10.0] * 15, total_epochs=40)
    assert not p.provisional
    assert p.window_epochs == (10, 14)
    assert p.epoch_based_j == pytest.approx(10 * 1000 + 30 * 3000)  # E_u + E_w * s / w
    assert p.power_based_j == pytest.approx(300 * 400)  # P_w * t over the whole run, as in the paper


def test_window_not_full_is_provisional_and_wider():
    energies = [1000.0] * 10 + [3000.0] * 3
    rng = np.random.default_rng(0)
    noisy = list(np.array(energies) * (1 + 0.01 * rng.standard_normal(len(energies))))
    partial = project_run_energy(noisy, [10.0] * 13, total_epochs=40)
    assert partial.provisional
    assert partial.window_epochs == (10, 12)  # only stable epochs, fewer than the window
    full = project_run_energy(noisy + [3000.0, 3000.0], [10.0] * 15, total_epochs=40)
    assert not full.provisional
    width = lambda p: (p.interval_j[1] - p.interval_j[0]) / p.energy_j  # noqa: E731
    assert width(partial) > width(full)


def test_during_warm_up_the_latest_epochs_stand_in():
    p = project_run_energy([100.0, 500.0, 500.0, 500.0], [1.0] * 4, total_epochs=20, window=3)
    assert p.provisional
    assert p.window_epochs == (1, 3)
    assert p.epoch_based_j == pytest.approx(1600 + 16 * 500)


def test_later_windows_slide_and_measured_epochs_count():
    energies = [1.0] * 10 + [2.0] * 5 + [4.0] * 5
    p = project_run_energy(energies, [1.0] * 20, total_epochs=30)
    assert p.window_epochs == (15, 19)
    assert p.epoch_based_j == pytest.approx(sum(energies) + 10 * 4.0)


def test_finished_run_is_exact_and_not_provisional():
    energies = [5.0, 6.0, 7.0]
    p = project_run_energy(energies, [1.0] * 3, total_epochs=3)
    assert not p.provisional
    assert p.epoch_based_j == pytest.approx(18.0)
    assert p.interval_j == pytest.approx((18.0, 18.0))


def test_mismatched_series_are_rejected():
    with pytest.raises(ValueError, match="shape"):
        project_run_energy([1.0, 2.0], [1.0], total_epochs=5)



def test_arch_lookups():
    assert arch_spec("tensorflow.keras.applications.VGG16").gflops == pytest.approx(10.02877)
    assert arch_spec("mobilenet_v2").name == "MobileNetV2"
    assert arch_spec("ResNet152") is None


def test_forward_flops_scale_by_pixels_and_take_a_stated_count():
    at_128, _ = forward_flops({"architecture": "VGG16", "input_shape": (128, 128, 3)})
    at_256, _ = forward_flops({"architecture": "VGG16", "input_shape": (256, 256, 3)})
    assert at_128 == pytest.approx(10.02877e9) and at_256 == pytest.approx(4 * at_128)
    assert forward_flops({"gflops": 2.0})[0] == pytest.approx(2e9)
    assert forward_flops({"architecture": "MyNet"}) is None


def test_memory_bound_bytes_of_an_architecture_scale_by_pixels():
    at_128 = memory_bytes({"architecture": "Xception", "input_shape": (128, 128, 3)})
    assert at_128 == pytest.approx(arch_spec("Xception").memory_mb * 1e6)
    assert memory_bytes({"architecture": "Xception", "input_shape": (256, 256, 3)}) == pytest.approx(4 * at_128)
    assert memory_bytes({"architecture": "Xception"}) == pytest.approx(at_128 * (299 / 128) ** 2)  # its default
    # VGG16's 13 dense convolutions and 5 poolings move far less outside its convolutions than
    # MobileNetV2's depthwise steps, normalisations and activations do, per FLOP
    per_flop = {a: memory_bytes({"architecture": a}) / forward_flops({"architecture": a})[0] for a in ("VGG16", "MobileNetV2")}
    assert per_flop["MobileNetV2"] > 10 * per_flop["VGG16"]
    assert memory_bytes({"gflops": 2.0}) is None  # no architecture named: nothing priced by bytes


def test_a_named_models_work_replaces_its_name():
    """`named_work`: the FLOPs, layers, FLOP layers and bytes a told device prices, without the name."""
    work, how = named_work({"architecture": "ResNet50", "epochs": 3, "input_shape": (128, 128, 3)})
    spec = arch_spec("ResNet50")
    assert "architecture" not in work and work["epochs"] == 3 and "ResNet50" in how
    assert (work["n_layers"], work["flop_layers"]) == (spec.layers, spec.flop_layers)
    assert work["flops_per_sample"] == pytest.approx(spec.gflops * 1e9)
    assert named_work({"architecture": "ResNet50", "n_layers": 500})[0]["n_layers"] == 500  # a head around the base
    assert named_work({"gflops": 1.5})[0] == {"flops_per_sample": 1.5e9}
    assert named_work({"architecture": "MyNet"}) is None


def test_projection_as_a_callback_would_use_it():
    """Epoch by epoch on a run with a cheap warm-up, a power step at epoch 10 and noise."""
    rng = np.random.default_rng(3)
    total = 60
    times = np.where(np.arange(total) < 10, 12.0, 20.0) * (1 + 0.02 * rng.standard_normal(total))
    power = np.where(np.arange(total) < 10, 150.0, 250.0) * (1 + 0.02 * rng.standard_normal(total))
    energies = power * times
    truth = energies.sum()
    seen = []
    for n in range(1, total + 1):
        p = project_run_energy(energies[:n], times[:n], total)
        seen.append(p)
        assert p.completed_epochs == n
        assert p.provisional == (n < 15)
    warm = seen[8]  # still in the warm-up: extrapolates the cheap epochs, so far too low
    assert warm.energy_j < 0.8 * truth
    for p in seen[14:]:
        assert abs(p.energy_j / truth - 1) < 0.03
    covered = np.mean([p.interval_j[0] <= truth <= p.interval_j[1] for p in seen[14:-1]])
    assert covered >= 0.6  # an 80% interval, projections from successive epochs are correlated
    assert seen[-1].energy_j == pytest.approx(truth)
