"""The NVML reader against a stand-in for the nvidia-ml-py module."""

from __future__ import annotations

import pytest

from greenlint.meter.counters import SourcePermissionError, SourceUnavailable
from greenlint.meter.counters.base import CUMULATIVE_COUNTER, POWER_SAMPLES
from greenlint.meter.counters.nvml import NvmlSource


class NVMLError(Exception):
    pass


class NVMLError_NotSupported(NVMLError):  # noqa: N801 - pynvml's names
    pass


class NVMLError_LibraryNotFound(NVMLError):  # noqa: N801
    pass


class NVMLError_NoPermission(NVMLError):  # noqa: N801
    pass


class FakeNvml:
    """Two GPUs: a Volta+ one with the energy counter (mJ) and an old one with power only (mW)."""

    NVMLError = NVMLError
    NVMLError_NotSupported = NVMLError_NotSupported
    NVMLError_LibraryNotFound = NVMLError_LibraryNotFound
    NVMLError_NoPermission = NVMLError_NoPermission
    NVMLError_DriverNotLoaded = type("NVMLError_DriverNotLoaded", (NVMLError,), {})
    NVML_TEMPERATURE_GPU = 0

    def __init__(self, devices=(("Tesla V100", True), ("Tesla K80", False)), init_error=None):
        self.devices = list(devices)
        self.energy_mj = [1000.0 for _ in devices]
        self.power_mw = [50_000.0 for _ in devices]
        self.init_error = init_error
        self.shutdowns = 0

    def nvmlInit(self):
        if self.init_error:
            raise self.init_error

    def nvmlShutdown(self):
        self.shutdowns += 1

    def nvmlDeviceGetCount(self):
        return len(self.devices)

    def nvmlDeviceGetHandleByIndex(self, i):
        return i

    def nvmlDeviceGetName(self, h):
        return self.devices[h][0].encode()

    def nvmlDeviceGetTotalEnergyConsumption(self, h):
        if not self.devices[h][1]:
            raise NVMLError_NotSupported("Not Supported")
        return self.energy_mj[h]

    def nvmlDeviceGetPowerUsage(self, h):
        return self.power_mw[h]

    def nvmlDeviceGetTemperature(self, h, kind):
        return 35 + h


def test_counter_and_integrated_power_are_summed(monkeypatch):
    nvml = FakeNvml()
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    clock = iter([10.0, 12.0, 14.0])
    monkeypatch.setattr("greenlint.meter.counters.nvml.now", lambda: (next(clock), 0))
    src = NvmlSource(nvml)
    assert POWER_SAMPLES in src.capabilities and CUMULATIVE_COUNTER in src.capabilities
    assert "counter" in src.zones[0] and "integrated power" in src.zones[1]
    a = src.read()  # t=12: V100 1 J; K80 2 s at 50 W = 100 J
    nvml.energy_mj[0] += 30_000  # +30 J
    nvml.power_mw[1] = 70_000  # trapezoid over 2 s: (50+70)/2*2 = 120 J
    b = src.read()
    assert a.energy_j["gpu"] == pytest.approx(1 + 100)
    assert b.energy_j["gpu"] - a.energy_j["gpu"] == pytest.approx(30 + 120)
    assert b.temperature_c["gpu"] == 36


def test_cuda_visible_devices_limits_gpus(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0")
    src = NvmlSource(FakeNvml())
    assert len(src.zones) == 1 and CUMULATIVE_COUNTER in src.capabilities
    assert POWER_SAMPLES not in src.capabilities


def test_no_driver_is_unavailable():
    avail = NvmlSource.probe(FakeNvml(init_error=NVMLError_LibraryNotFound("lib missing")))
    assert not avail.ok and avail.error is SourceUnavailable and "no NVIDIA driver" in avail.reason


def test_no_permission_names_the_fix():
    with pytest.raises(SourcePermissionError, match="video group"):
        NvmlSource(FakeNvml(init_error=NVMLError_NoPermission("Insufficient Permissions")))


def test_no_gpu_is_unavailable(monkeypatch):
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    avail = NvmlSource.probe(FakeNvml(devices=()))
    assert not avail.ok and "no visible" in avail.reason


def test_real_nvml_reader():
    avail = NvmlSource.probe()
    if not avail.ok:
        pytest.skip(f"no NVIDIA GPU readable here: {avail.reason}")
    src = NvmlSource()
    a, b = src.read(), src.read()
    assert b.energy_j["gpu"] >= a.energy_j["gpu"]
    src.close()
