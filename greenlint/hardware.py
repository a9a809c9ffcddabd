"""Which machine this is: a hardware block for measurement files and a stable hardware id.

No TensorFlow import: the predictor calls `hardware_id()` to find this machine's calibration
overlay. The id hashes what decides energy per call (CPU model, logical cores, GPU names), not
software versions, so upgrading TF keeps the id; versions are recorded beside it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from pathlib import Path


def cpu_model(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    try:
        for line in cpuinfo.read_text(errors="replace").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or platform.machine() or "unknown CPU"


@functools.lru_cache(maxsize=1)
def gpus() -> tuple[tuple[str, ...], str | None]:
    """(GPU names, driver version) through NVML, or ((), None) where there is none."""
    try:
        import pynvml

        pynvml.nvmlInit()
    except Exception:  # noqa: BLE001 - no library, no driver or no GPU: all mean "no GPU"
        return (), None
    try:
        n = pynvml.nvmlDeviceGetCount()
        names = tuple(
            (lambda v: v.decode() if isinstance(v, bytes) else str(v))(
                pynvml.nvmlDeviceGetName(pynvml.nvmlDeviceGetHandleByIndex(i))
            )
            for i in range(n)
        )
        driver = pynvml.nvmlSystemGetDriverVersion()
        return names, driver.decode() if isinstance(driver, bytes) else str(driver)
    except Exception:  # noqa: BLE001
        return (), None
    finally:
        pynvml.nvmlShutdown()


def _version(dist: str) -> str | None:
    import importlib.metadata

    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _slug(text: str) -> str:
    text = re.sub(r"\(r\)|\(tm\)|cpu|processor|@.*$", " ", text.lower())
    return "-".join(re.findall(r"[a-z0-9]+", text))[:40] or "cpu"


def hardware_id(cpu: str | None = None, cores: int | None = None, gpu_names: tuple[str, ...] | None = None) -> str:
    """A readable, stable id: `<cpu slug>-<cores>c[-<gpu slug>]-<8 hex of a hash of all three>`."""
    cpu = cpu if cpu is not None else cpu_model()
    cores = cores if cores is not None else (os.cpu_count() or 1)
    gpu_names = gpu_names if gpu_names is not None else gpus()[0]
    digest = hashlib.sha256("|".join([cpu, str(cores), *gpu_names]).encode()).hexdigest()[:8]
    parts = [_slug(cpu), f"{cores}c"]
    if gpu_names:
        parts.append(f"{len(gpu_names)}x" + _slug(gpu_names[0]).replace("nvidia-", ""))
    return "-".join(parts + [digest])


def hardware_block() -> dict:
    """The `hardware` block of a measurement file."""
    import platform

    names, driver = gpus()
    tf = _version("tensorflow") or _version("tensorflow-cpu")
    return {
        "hardware_id": hardware_id(gpu_names=names),
        "cpu_model": cpu_model(),
        "logical_cores": os.cpu_count(),
        "gpus": list(names),
        "gpu_driver": driver,
        "tensorflow": tf,
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def calibration_overlay(root: Path) -> Path | None:
    """This machine's calibration overlay in the folder of overlays *root*, if `greenlint calibrate`
    wrote one. The hardware id (which may ask the GPU driver) is only worked out where *root* holds any."""
    try:
        if not any(not p.name.startswith(".") for p in root.iterdir()):
            return None
        d = root / hardware_id()
    except FileNotFoundError:  # the usual case: never calibrated here
        return None
    except Exception as exc:  # no folder, no meter package or no hardware id: no overlay, not an error
        import logging

        logging.getLogger(__name__).debug("no calibration overlay: %s", exc)
        return None
    return d if d.is_dir() and any(d.iterdir()) else None
