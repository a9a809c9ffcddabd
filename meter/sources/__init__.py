"""Energy sources, probed then built in a documented order.

Order (first that builds wins for each component it measures):

1. `rapl` - powercap `energy_uj` (CPU package, DRAM): fastest and most direct;
2. `perf` - `perf stat` power events (CPU package, DRAM), for when perf may read RAPL but powercap may not;
3. `nvml` - NVIDIA energy counter or integrated power (GPU);
4. `estimated` - process CPU time x power model (CPU only, labelled estimated), only for a CPU
   that nothing above could measure, and only when estimates are allowed.

A component nothing could read is "not measured", with every source's reason, never 0 J.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from greenlint.meter.sources.base import (
    COMPONENTS,
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

__all__ = [
    "Availability",
    "EnergySource",
    "Reading",
    "SourceError",
    "SourcePermissionError",
    "SourceReadError",
    "SourceSet",
    "SourceUnavailable",
    "SourceUnsupported",
    "build_sources",
]

ORDER = ("rapl", "perf", "nvml", "estimated")


def source_class(name: str) -> type[EnergySource]:
    if name == "rapl":
        from greenlint.meter.sources.rapl import RaplSource as cls
    elif name == "perf":
        from greenlint.meter.sources.perf import PerfSource as cls
    elif name == "nvml":
        from greenlint.meter.sources.nvml import NvmlSource as cls
    elif name == "estimated":
        from greenlint.meter.sources.estimated import EstimatedSource as cls
    else:
        raise ValueError(f"unknown energy source {name!r}; choose from {', '.join(ORDER)}")
    return cls


@dataclass
class SourceSet:
    """The sources built here, which component each covers, and why the others are not measured."""

    sources: list[EnergySource] = field(default_factory=list)
    covers: dict[str, EnergySource] = field(default_factory=dict)
    not_measured: dict[str, str] = field(default_factory=dict)
    tried: dict[str, str] = field(default_factory=dict)  # source name -> probe/build outcome
    #: The sampler thread and the call-boundary reads share the sources (wrap-around state).
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def estimated(self) -> bool:
        """True when any measured component comes from an estimate, or nothing is measured."""
        return not self.covers or any(s.estimated for s in self.covers.values())

    def read_at(self, clock: Callable[[], int] = time.time_ns) -> tuple[int, Reading]:
        """(epoch ns on *clock* when the reading began, the reading): a window timed from such
        moments spans the same time as its readings, however long reading many devices takes or
        waiting for the sampler thread's read."""
        with self.lock:
            return clock(), self._read()

    def read(self) -> Reading:
        """One combined reading (each component from the source that covers it)."""
        with self.lock:
            return self._read()

    def _read(self) -> Reading:
        readings = {id(s): s.read() for s in self.sources}
        if not readings:  # nothing readable: readings carry time only, every component is absent
            t, epoch = now()
            return Reading(t, epoch, {})
        first = next(iter(readings.values()))
        energy = {c: readings[id(s)].energy_j[c] for c, s in self.covers.items() if c in readings[id(s)].energy_j}
        temps = {}
        for r in readings.values():
            temps.update(r.temperature_c)
        return Reading(first.time_s, first.epoch_ns, energy, temps)

    def describe(self) -> dict:
        return {
            "components": {
                c: (
                    {"measured_by": self.covers[c].name, **self.covers[c].describe()}
                    if c in self.covers
                    else {"measured_by": None, "basis": "not-measured", "reason": self.not_measured.get(c, "")}
                )
                for c in COMPONENTS
            },
            "basis": "not-measured" if not self.covers else "estimated" if self.estimated else "measured",
            "tried": dict(self.tried),
        }

    def close(self) -> None:
        for s in self.sources:
            s.close()


def build_sources(
    names: tuple[str, ...] = ORDER,
    *,
    allow_estimate: bool = True,
    options: dict[str, dict] | None = None,
) -> SourceSet:
    """Probe each named source in ORDER, build those available, and account for every component."""
    options = options or {}
    result = SourceSet()
    for name in ORDER:
        if name not in names or (name == "estimated" and not allow_estimate):
            continue
        cls = source_class(name)
        wanted = [c for c in cls.measures if c not in result.covers]
        if not wanted:
            result.tried[name] = "not needed: its components are already measured"
            continue
        opts = options.get(name, {})
        avail = cls.probe(**opts)
        if not avail.ok:
            result.tried[name] = avail.reason
            continue
        try:
            source = cls(**opts)
        except SourceError as exc:
            result.tried[name] = exc.detail
            continue
        result.sources.append(source)
        result.tried[name] = f"in use ({avail.reason})"
        for comp in source.measures:
            result.covers.setdefault(comp, source)
    for comp in COMPONENTS:
        if comp not in result.covers:
            reasons = [f"{n}: {r}" for n, r in result.tried.items() if comp in source_class(n).measures]
            result.not_measured[comp] = "; ".join(reasons) or "no source for this component was tried"
    return result
