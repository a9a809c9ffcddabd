"""A simulated machine for calibration tests: its clock (`SimulatedTime`: time passes only as calls
and waits spend it, the sampler reading on the way), and a CPU-package and DRAM energy counter (the
meter's `EnergySource` interface, read by the real sampler) that runs at an idle draw and advances
by the joules each simulated call spends, so a calibration measures known per-call energies and
durations without hardware counters or real time: the same numbers on every run, however loaded
the machine. It has no GPU counter.

Its idle energy advances per reading (one sampler interval's worth each), not with the wall clock:
the FECoM baseline subtracts the mean joules per row, so rows of uneven length (a sampler thread
that falls behind on a loaded machine) would otherwise shift the idle share between the baseline
and the window and could turn a small component's net negative."""

from __future__ import annotations

import math
import threading

from greenlint.meter.counters import SourceSet
from greenlint.meter.counters.base import CUMULATIVE_COUNTER, ESTIMATED, Availability, EnergySource, Reading
from greenlint.meter.session import Clock
from greenlint.meter.workloads import Call, Workload

EPOCH0_NS = 1_700_000_000 * 10**9


class SimulatedTime:
    """The one clock of the simulated machine: time passes only when something takes time (a device
    query, a call's work, a wait), and whenever it passes a tick of the sampler's grid the sampler
    "thread" takes its reading then (late, and from there, when a reading overran)."""

    def __init__(self):
        self.t = 0.0
        self.sampler = None
        self._tick = 0.0

    def now(self) -> tuple[float, int]:
        return self.t, self.epoch_ns()

    def epoch_ns(self) -> int:
        return EPOCH0_NS + round(self.t * 1e9)

    def take(self, seconds: float) -> None:
        """*seconds* pass for the caller; the sampler reads at each tick on the way."""
        end = self.t + seconds
        while self.sampler is not None and self._tick <= end:
            self.t = max(self.t, self._tick)
            self.sampler.sample_once()  # its device queries move the clock on
            self._tick += self.sampler.interval_s
            if self._tick < self.t:  # fell behind: the grid restarts, as Sampler._run does
                self._tick = self.t
        self.t = max(self.t, end)

    def drive(self, sampler) -> None:
        self.sampler, self._tick = sampler, self.t

    def clock(self) -> Clock:
        """This machine's clock for a meter session (`Calibrator(clock=...)`)."""
        return Clock(seconds=lambda: self.t, epoch_ns=self.epoch_ns, sleep=self.take, drive=self.drive)


class SimulatedCounter(EnergySource):
    """Cumulative joules: `idle_w` x `interval_s` per component for every reading taken, plus what
    `spend` added; its readings stamped with *time* (`estimated`: labelled as the process-time
    model's estimates are)."""

    name = "simulated"
    measures = ("cpu", "ram")
    capabilities = frozenset({CUMULATIVE_COUNTER})
    resolution_j = 1e-6
    update_period_s = 0.001

    @classmethod
    def probe(cls, **_options) -> Availability:
        return Availability.yes("simulated")

    def __init__(self, time: SimulatedTime, idle_w: float = 2.0, interval_s: float = 0.01, estimated: bool = False):
        self.time = time
        self.capabilities = self.capabilities | ({ESTIMATED} if estimated else set())
        self.idle_j = idle_w * interval_s  # per reading: the sampler's interval at idle_w
        self.readings = 0
        self.spent = {c: 0.0 for c in self.measures}
        self.lock = threading.Lock()

    def spend(self, cpu_j: float, ram_j: float = 0.0) -> None:
        with self.lock:
            self.spent["cpu"] += cpu_j
            self.spent["ram"] += ram_j

    def _read(self) -> Reading:
        t, epoch = self.time.now()
        with self.lock:
            self.readings += 1
            return Reading(t, epoch, {c: round(self.idle_j * self.readings + j, 6) for c, j in self.spent.items()})

    def source_set(self) -> SourceSet:
        """The meter's sources on this machine: this counter for CPU and DRAM, no GPU counter."""
        return SourceSet(sources=[self], covers={"cpu": self, "ram": self},
                         not_measured={"gpu": "no GPU counter on the simulated machine"},
                         tried={"simulated": "in use"})

    def call(self, seconds: float, cpu_j: float, ram_j: float = 0.0) -> None:
        """One call: *seconds* of the machine's time, spending *cpu_j* + *ram_j* joules evenly over
        them (each sampler interval's share in its middle), as a real counter would see them."""
        interval = self.time.sampler.interval_s if self.time.sampler is not None else seconds
        steps = max(1, math.ceil(seconds / interval - 1e-9))
        for _ in range(steps):
            self.time.take(seconds / steps / 2)
            self.spend(cpu_j / steps, ram_j / steps)
            self.time.take(seconds / steps / 2)

    def workload(self, name: str, api: str, cpu_j: float, ram_j: float = 0.0, seconds: float = 0.002,
                 features: dict | None = None) -> Workload:
        """A workload whose every call lasts *seconds* and spends *cpu_j* + *ram_j* joules."""
        return Workload(name, api, lambda: Call(self.call, (seconds, cpu_j, ram_j)), features=features or {})
