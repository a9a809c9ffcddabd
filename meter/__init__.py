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

Installed as `greenlint.meter` (the folder stays at the repository's top level).

`EnergyCallback` is documented public API (`from greenlint.meter import EnergyCallback`,
docs/measurements.md) and its module imports TensorFlow, which only the `meter` extra installs: the
module `__getattr__` below imports it on first use, so that importing `greenlint.meter` or any other
meter module (`greenlint measure`, `calibrate`) does not import TensorFlow. Everything else is imported
from the module that defines it (`greenlint.meter.session:MeterSession`, `greenlint.hardware:hardware_id`).
"""

__all__ = ["EnergyCallback"]


def __getattr__(name: str):
    if name != "EnergyCallback":
        raise AttributeError(f"module 'greenlint.meter' has no attribute {name!r}")
    import importlib

    return importlib.import_module("greenlint.meter.callback").EnergyCallback
