"""The meter: measure TF/Keras calls' energy on this machine with FECoM's method.

- `greenlint.meter.counters`: energy counters (rapl, perf, nvml, replay, estimated) behind one interface;
- `greenlint.meter.sampler`, `greenlint.meter.stability`: fast sampling, stable-state wait and idle baseline;
- `greenlint.meter.records`: measurement files in the public datasets' format;
- `greenlint.meter.instrument`, `greenlint.meter.runtime`, `greenlint.meter.measure`: `greenlint measure`;
- `greenlint.meter.calibrate`, `greenlint.meter.workloads`: `greenlint calibrate`;
- `greenlint.meter.callback`: the Keras `EnergyCallback` (`from greenlint.meter import EnergyCallback`).

The gross / baseline / net arithmetic (`greenlint.window`) and the hardware id
(`greenlint.hardware`) live below the meter, shared with the KB and the predictor.

Only `greenlint.meter.callback` and the workloads import TensorFlow.

Installed as `greenlint.meter` (the folder stays at the repository's top level). The names below are
lazy re-exports: nothing here imports TensorFlow until a name that needs it is used.
"""

from __future__ import annotations

_EXPORTS = {
    "EnergyCallback": "greenlint.meter.callback",
    "MeterSession": "greenlint.meter.session",
    "MeterConfig": "greenlint.meter.session",
    "StabilitySettings": "greenlint.meter.stability",
    "build_sources": "greenlint.meter.counters",
    "hardware_id": "greenlint.hardware",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'greenlint.meter' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_EXPORTS[name]), name)
