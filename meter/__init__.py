"""The meter: measure TF/Keras calls' energy on this machine with FECoM's method.

- `meter.sources`: energy counters (rapl, perf, nvml, replay, estimated) behind one interface;
- `meter.sampler`, `meter.stability`: fast sampling, stable-state wait and idle baseline;
- `meter.window` (shared with the KB), `meter.energy`: gross / baseline / net arithmetic;
- `meter.records`, `meter.hardware`: measurement files in the public datasets' format;
- `meter.instrument`, `meter.runtime`, `meter.measure`: `greenlint measure`;
- `meter.calibrate`, `meter.workloads`: `greenlint calibrate`;
- `meter.callback`: the Keras `EnergyCallback` (also `greenlint.meter.EnergyCallback`).

Only `meter.callback` and the workloads import TensorFlow.
"""
