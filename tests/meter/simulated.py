"""A simulated machine for calibration tests: a CPU-package and DRAM energy counter (the meter's
`EnergySource` interface, read by the real sampler) that runs at an idle draw and advances by the
joules each simulated call spends, so a calibration measures known per-call energies without
hardware counters. It has no GPU counter.

Its idle energy advances per reading (one sampler interval's worth each), not with the wall clock:
the FECoM baseline subtracts the mean joules per row, so rows of uneven length (a sampler thread
that falls behind on a loaded machine) would otherwise shift the idle share between the baseline
and the window and could turn a small component's net negative."""

from __future__ import annotations

import threading
import time

from greenlint.meter.counters import SourceSet
from greenlint.meter.counters.base import CUMULATIVE_COUNTER, Availability, EnergySource, Reading, now
from greenlint.meter.workloads import Call, Workload


class SimulatedCounter(EnergySource):
    """Cumulative joules: `idle_w` x `interval_s` per component for every reading taken, plus what
    `spend` added."""

    name = "simulated"
    measures = ("cpu", "ram")
    capabilities = frozenset({CUMULATIVE_COUNTER})
    resolution_j = 1e-6
    update_period_s = 0.001

    @classmethod
    def probe(cls, **_options) -> Availability:
        return Availability.yes("simulated")

    def __init__(self, idle_w: float = 2.0, interval_s: float = 0.01):
        self.idle_j = idle_w * interval_s  # per reading: the sampler's interval at idle_w
        self.readings = 0
        self.spent = {c: 0.0 for c in self.measures}
        self.lock = threading.Lock()

    def spend(self, cpu_j: float, ram_j: float = 0.0) -> None:
        with self.lock:
            self.spent["cpu"] += cpu_j
            self.spent["ram"] += ram_j

    def _read(self) -> Reading:
        t, epoch = now()
        with self.lock:
            self.readings += 1
            return Reading(t, epoch, {c: round(self.idle_j * self.readings + j, 6) for c, j in self.spent.items()})

    def source_set(self) -> SourceSet:
        """The meter's sources on this machine: this counter for CPU and DRAM, no GPU counter."""
        return SourceSet(sources=[self], covers={"cpu": self, "ram": self},
                         not_measured={"gpu": "no GPU counter on the simulated machine"},
                         tried={"simulated": "in use"})

    def workload(self, name: str, api: str, cpu_j: float, ram_j: float = 0.0, seconds: float = 0.002,
                 features: dict | None = None) -> Workload:
        """A workload whose every call lasts about *seconds* and spends *cpu_j* + *ram_j* joules."""

        def call():
            end = time.perf_counter() + seconds
            while time.perf_counter() < end:
                pass
            self.spend(cpu_j, ram_j)

        return Workload(name, api, lambda: Call(call), features=features or {})
