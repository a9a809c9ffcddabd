"""GL504's stated saving (its "Energy evidence" and bench/rules/not_measurable.json) is the arithmetic of
greenlint's device table: the bias's memory-bound pass (4 bytes fused, 12 unfused, per output element and
training step) at a GPU's bandwidth, against a 3x3 convolution's forward and backward FLOPs at its peak."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from greenlint.predict.devices import gpu_spec
from greenlint.rules.conv_bias_before_batch_norm import ConvBiasBeforeBatchNorm

REASONS = Path(__file__).resolve().parents[2] / "bench" / "rules" / "not_measurable.json"
#: Bytes the bias moves per output element and training step: the backward sum alone (the forward add
#: fused into the convolution), or also the forward add's read and write (float32).
BIAS_BYTES = (4, 12)


def _share(device: str, channels: int) -> tuple[float, float]:
    """(fused, unfused) time of the bias's pass as a share of a 3x3 convolution's over *channels* inputs."""
    spec = gpu_spec(device)
    assert spec is not None
    flops = 6 * 3 * 3 * channels  # forward, and the backward's data and filter gradients
    balance = spec.matmul_tflops * 1e12 / (spec.bandwidth_gb_s * 1e9)  # FLOPs per byte moved
    return tuple(b * balance / flops for b in BIAS_BYTES)  # type: ignore[return-value]


def _stated(share: tuple[float, float]) -> str:
    return "+{:.1f} % to +{:.1f} %".format(*(100 * s for s in share))


@pytest.mark.parametrize(("device", "channels"), [("NVIDIA A100-SXM4", 64), ("NVIDIA H200", 64), ("NVIDIA A100-SXM4", 256)])
def test_the_documented_share_is_the_device_tables(device, channels):
    share = _share(device, channels)
    assert share[0] > 0
    assert _stated(share) in " ".join((ConvBiasBeforeBatchNorm.__doc__ or "").split())


def test_the_reason_in_the_measured_table_states_the_same_share():
    assert _stated(_share("NVIDIA A100-SXM4", 64)) in json.loads(REASONS.read_text(encoding="utf-8"))["GL504"]


@pytest.mark.parametrize("channels", [64, 128, 512])
def test_the_documented_reference_share_is_the_device_tables(channels):
    """Why the rule is opt-in: its least share on the reference GPU, quoted in its docs."""
    from greenlint.rules.batch_price import REFERENCE_GPU

    stated = f"+{100 * _share(REFERENCE_GPU, channels)[0]:.1f} % over {channels}"
    assert stated in " ".join((ConvBiasBeforeBatchNorm.__doc__ or "").split())


@pytest.mark.parametrize(("device", "most"), [("NVIDIA Tesla T4", 18), ("NVIDIA A100-SXM4", 56)])
def test_the_documented_material_channels_are_the_device_tables(device, most):
    """The most input channels at which the least share still reaches MIN_SHARE, as the docs say."""
    from greenlint.rules.material import MIN_SHARE

    assert _share(device, most)[0] >= MIN_SHARE > _share(device, most + 1)[0]
    assert not ConvBiasBeforeBatchNorm.DEFAULT_ENABLED
