"""greenlint's own `fit` figure on a told GPU against GAISSA's recorded runs: what is compared, nothing fitted."""

from __future__ import annotations

import pytest

from greenlint.predict.devices import device_joules, device_seconds, gpu_spec
from greenlint.predict.predictor import Predictor
from greenlint.predict.training_runs import named_work
from tools.model.device_eval import greenlint_figures
from tools.model.training_data import RunSummary, fit_features, fit_phases


def _run(arch: str, gpu: str) -> RunSummary:
    return RunSummary(env="cloud", architecture=arch, run=1, start="", gpu_name=gpu, ram_gb=16.0, duration_s=2000.0,
                      energy_gpu_j=5e5, energy_ram_j=1e3, mean_util=0.5, max_power_limit_w=350.0, trained_epochs=80,
                      gflops=0.0, batch_size=32, training_size=23807, validation_size=10203, input_h=128, input_w=128,
                      unfreeze_s=200.0)


@pytest.fixture(scope="module")
def reference():
    from greenlint.predict import load_predictor

    return load_predictor(overlay=False)


def test_a_runs_figure_is_what_a_told_predictor_prints(reference):
    """Each run is the `fit` calls del Rey's code makes (10 frozen epochs, then the whole network),
    priced by the shipped predictor told the run's GPU; its seconds are the device model's host +
    max(dispatch, GPU) of the same work."""
    runs = [_run("mobilenet_v2", "NVIDIA GeForce RTX 3090"), _run("vgg16", "NVIDIA GeForce RTX 3070")]
    est, secs = greenlint_figures(runs, reference)
    for r, (figure, low, high), s in zip(runs, est, secs):
        told = Predictor(reference.model, device=gpu_spec(r.gpu_name))
        frozen, whole = fit_phases(r)
        assert (frozen["epochs"], whole["epochs"]) == (10, 70)
        assert told.predict("tensorflow.keras.Model.fit", frozen).energy_j + told.predict(
            "tensorflow.keras.Model.fit", whole).energy_j == pytest.approx(figure)
        assert low < figure < high
        found = [device_seconds(reference.model["work"], "training", named_work(f)[0], told.device,
                                told.device_model) for f in (frozen, whole)]
        assert s == pytest.approx(sum(f[0] + max(f[1], f[2]) for f in found))
        # the figure is the device model's net joules of those seconds: nothing else is added
        assert figure == pytest.approx(sum(device_joules(f, told.device, told.device_model) for f in found), rel=1e-6)
        # a frozen epoch (the base's forward pass) costs less than a fine-tuning one
        assert found[0][2] / 10 < found[1][2] / 70
    # VGG16's 19 layers of big convolutions: its steps wait on the GPU's work, not on their dispatch
    assert "the GPU's work" in Predictor(reference.model, device=gpu_spec("RTX 3070")).predict(
        "tensorflow.keras.Model.fit", fit_features(runs[1])).evidence.note


def test_each_architecture_gets_its_own_rmse_against_the_baselines():
    """One row an architecture: its runs' RMSE (kJ) for the figure and each baseline, and the better
    baseline's over the figure's (above 1: the figure beats both)."""
    import numpy as np

    from tools.model.device_eval import _per_architecture

    runs = [_run("vgg16", "NVIDIA GeForce RTX 3090"), _run("vgg16", "NVIDIA GeForce RTX 3070"),
            _run("xception", "NVIDIA GeForce RTX 3090")]
    ref = np.array([100e3, 200e3, 300e3])
    figure = np.array([110e3, 180e3, 300e3 + 40e3])
    mlco2, ga = np.array([100e3, 200e3, 320e3]), np.array([130e3, 170e3, 380e3])
    vgg, xception = _per_architecture(runs, figure, ref, [mlco2, ga])
    own = np.sqrt((10.0**2 + 20.0**2) / 2)
    assert vgg == f"| vgg16 | {own:.1f} | 0.0 | 30.0 | {0.0:.2f}× |"
    assert xception == "| xception | 40.0 | 20.0 | 80.0 | 0.50× |"
