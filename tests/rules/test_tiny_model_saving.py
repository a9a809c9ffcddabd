"""GL603's stated saving (its "Energy evidence" and bench/rules/not_measurable.json) is what greenlint's
device model gives: a named GPU's draw while a tiny model's steps wait on the host, beside the host work
that a CPU-only run spends as well, plus the step's arithmetic on one CPU core."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from greenlint.predict import load_predictor
from greenlint.predict.devices import DEVICE_HALF, gpu_spec
from greenlint.predict.work_energy import power_for
from greenlint.rules.tiny_model_on_gpu import TinyModelOnGpu
from greenlint.rules.tiny_steps import CPU_CORE_FLOPS, TINY_STEP_FLOPS

FIT = "tensorflow.keras.Model.fit"
REASONS = Path(__file__).resolve().parents[2] / "bench" / "rules" / "not_measurable.json"


def _saving(device: str) -> tuple[float, float, float]:
    """(point, low, high) of 1 - CPU-only energy / GPU-run energy on *device* with the shipped
    predictor's constants, its wait draw within the device model's factor either way."""
    predictor = load_predictor()
    model = predictor.model
    shares = model["apis"][FIT]["shares"]
    host = power_for(model["work"], "training")["steady_w"] * (shares["cpu"] + shares["ram"])
    per_step = min(model["work"]["time"][kind]["per_step"] for kind in ("training", "inference"))
    cpu_only = host * (1 + TINY_STEP_FLOPS / CPU_CORE_FLOPS / per_step)
    wait = predictor.device_model.wait_share * gpu_spec(device).tdp_w
    point, low, high = (1 - cpu_only / (host + wait * factor) for factor in (1, 10**-DEVICE_HALF, 10**DEVICE_HALF))
    return point, low, high


def _stated(saving: tuple[float, float, float]) -> str:
    return "+{:.0f} % (+{:.0f} % to +{:.0f} %)".format(*(100 * s for s in saving))


@pytest.mark.parametrize("device", ["NVIDIA Tesla T4", "NVIDIA A100-SXM4-40GB"])
def test_the_documented_saving_is_the_device_models(device):
    saving = _saving(device)
    assert saving[1] > 0, f"GL603 is on by default, but the device model's saving on {device} reaches {saving[1]:+.0%}"
    assert _stated(saving) in " ".join((TinyModelOnGpu.__doc__ or "").split())


def test_the_reason_in_the_measured_table_states_the_same_saving():
    assert _stated(_saving("NVIDIA Tesla T4")) in json.loads(REASONS.read_text())["GL603"]
