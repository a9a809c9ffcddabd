"""NVIDIA GPU energy through nvidia-ml-py (`pynvml`), summed over all visible GPUs.

Volta and newer GPUs have a total-energy counter (`nvmlDeviceGetTotalEnergyConsumption`, mJ since
the driver loaded); older ones only report board power (`nvmlDeviceGetPowerUsage`, mW), which is
integrated between reads with the trapezoid rule. Each device uses the best it supports; `zones`
says which. `CUDA_VISIBLE_DEVICES` (indices or GPU UUIDs) limits the devices, as for TensorFlow.
The library module is injectable so tests can stand in for it at the nvidia-ml-py boundary.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from greenlint.meter.counters.base import (
    CUMULATIVE_COUNTER,
    PER_DEVICE,
    POWER_SAMPLES,
    TEMPERATURE,
    Availability,
    EnergySource,
    Reading,
    SourceError,
    SourcePermissionError,
    SourceReadError,
    SourceUnavailable,
    SourceUnsupported,
    now,
)
from greenlint.paths import install_extra


def _load_nvml():
    try:
        import pynvml
    except ImportError as exc:
        raise SourceUnavailable("nvml", f"nvidia-ml-py is not installed ({install_extra('meter')})") from exc
    return pynvml


def _translate(nvml, exc: Exception, what: str) -> SourceError:
    """Map an NVMLError onto one of the four source errors."""
    def is_(name: str) -> bool:
        cls = getattr(nvml, name, None)
        return isinstance(cls, type) and isinstance(exc, cls)

    if is_("NVMLError_LibraryNotFound") or is_("NVMLError_DriverNotLoaded"):
        return SourceUnavailable("nvml", f"{what}: no NVIDIA driver ({exc}); install the driver or use a GPU machine")
    if is_("NVMLError_NoPermission"):
        return SourcePermissionError("nvml", f"{what}: {exc}; run as a user in the video group or as root")
    if is_("NVMLError_NotSupported"):
        return SourceUnsupported("nvml", f"{what}: not supported by this GPU/driver ({exc})")
    return SourceReadError("nvml", f"{what}: {exc}")


@dataclass
class _Device:
    index: int
    handle: object
    name: str
    has_counter: bool
    last_power_w: float = 0.0
    last_t: float = 0.0
    integrated_j: float = 0.0


def _visible(nvml) -> list[tuple[int, object]]:
    count = nvml.nvmlDeviceGetCount()
    env = os.environ.get("CUDA_VISIBLE_DEVICES")
    if env is None:
        return [(i, nvml.nvmlDeviceGetHandleByIndex(i)) for i in range(count)]
    out = []
    for item in (x.strip() for x in env.split(",") if x.strip()):
        if item.isdigit() and int(item) < count:
            out.append((int(item), nvml.nvmlDeviceGetHandleByIndex(int(item))))
        elif item.startswith("GPU-"):
            out.append((len(out), nvml.nvmlDeviceGetHandleByUUID(item)))
    return out


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class NvmlSource(EnergySource):
    name = "nvml"
    measures = ("gpu",)
    capabilities = frozenset({CUMULATIVE_COUNTER, PER_DEVICE, TEMPERATURE})
    resolution_j = 1e-3
    update_period_s = 0.02

    @classmethod
    def probe(cls, nvml=None) -> Availability:
        try:
            nvml = nvml or _load_nvml()
            nvml.nvmlInit()
            try:
                n = len(_visible(nvml))
            finally:
                nvml.nvmlShutdown()
        except SourceError as exc:
            return Availability.no(type(exc), exc.detail)
        except Exception as exc:  # noqa: BLE001 - any NVML failure is a reason, never a crash
            err = _translate(nvml, exc, "nvmlInit")
            return Availability.no(type(err), err.detail)
        if n == 0:
            return Availability.no(SourceUnavailable, "no visible NVIDIA GPU (check CUDA_VISIBLE_DEVICES)")
        return Availability.yes(f"{n} visible GPU(s)")

    def __init__(self, nvml=None):
        self._nvml = nvml or _load_nvml()
        try:
            self._nvml.nvmlInit()
            handles = _visible(self._nvml)
        except Exception as exc:  # noqa: BLE001
            raise _translate(self._nvml, exc, "nvmlInit") from exc
        if not handles:
            self._nvml.nvmlShutdown()
            raise SourceUnavailable(self.name, "no visible NVIDIA GPU (check CUDA_VISIBLE_DEVICES)")
        self._devices = [self._device(i, h) for i, h in handles]
        caps = set(self.capabilities)
        if not all(d.has_counter for d in self._devices):
            caps.add(POWER_SAMPLES)
            self.update_period_s = 0.1
        if not any(d.has_counter for d in self._devices):
            caps.discard(CUMULATIVE_COUNTER)
        self.capabilities = frozenset(caps)

    def _device(self, index: int, handle) -> _Device:
        nvml = self._nvml
        name = _text(nvml.nvmlDeviceGetName(handle))
        try:
            nvml.nvmlDeviceGetTotalEnergyConsumption(handle)
            return _Device(index, handle, name, True)
        except Exception as exc:  # noqa: BLE001
            err = _translate(nvml, exc, f"GPU {index} energy counter")
            if not isinstance(err, SourceUnsupported):
                raise err from exc
        dev = _Device(index, handle, name, False)
        try:
            dev.last_power_w = nvml.nvmlDeviceGetPowerUsage(handle) / 1000
        except Exception as exc:  # noqa: BLE001
            raise _translate(nvml, exc, f"GPU {index} power") from exc
        dev.last_t = now()[0]
        return dev

    @property
    def zones(self) -> tuple[str, ...]:
        return tuple(
            f"GPU {d.index} {d.name} ({'energy counter' if d.has_counter else 'integrated power'})" for d in self._devices
        )

    @property
    def device_names(self) -> list[str]:
        return [d.name for d in self._devices]

    def _read(self) -> Reading:
        nvml = self._nvml
        t, epoch = now()
        total = 0.0
        temps = []
        for d in self._devices:
            try:
                if d.has_counter:
                    total += nvml.nvmlDeviceGetTotalEnergyConsumption(d.handle) / 1000
                else:
                    p = nvml.nvmlDeviceGetPowerUsage(d.handle) / 1000
                    d.integrated_j += (p + d.last_power_w) / 2 * (t - d.last_t)
                    d.last_power_w, d.last_t = p, t
                    total += d.integrated_j
                temps.append(float(nvml.nvmlDeviceGetTemperature(d.handle, getattr(nvml, "NVML_TEMPERATURE_GPU", 0))))
            except Exception as exc:  # noqa: BLE001
                raise _translate(nvml, exc, f"GPU {d.index} read") from exc
        return Reading(t, epoch, {"gpu": total}, {"gpu": max(temps)} if temps else {})

    def close(self) -> None:
        try:
            self._nvml.nvmlShutdown()
        except Exception:  # noqa: BLE001, S110 - shutting down a library we no longer need
            pass
