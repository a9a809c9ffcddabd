"""Plays back a recorded series (e.g. a record of the public datasets) as if it were a counter.

Each component is a series of sample times and values: energy per interval in J (perf/RAPL,
`kind="energy"`) or power in W (nvidia-smi, `kind="power"`, rectangle rule: value x interval).
A reading at time t holds the sum of every sample at or before t, so subtracting two readings
gives what FECoM's arithmetic would give over the same samples. The clock is injected: tests
drive it by hand, and the stability wait runs against it.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from greenlint.meter.counters.base import CUMULATIVE_COUNTER, TEMPERATURE, Availability, EnergySource, Reading


@dataclass(frozen=True)
class Series:
    times: Sequence[float]
    values: Sequence[float]
    kind: str = "energy"  # "energy" (J per interval) or "power" (W)
    temperatures: Sequence[float] | None = None


def _split(text_or_obj) -> dict:
    return json.loads(text_or_obj) if isinstance(text_or_obj, str) else text_or_obj


def series_from_record(record: Mapping) -> dict[str, Series]:
    """The cpu/ram/gpu series of one measurement record (FECoM format, split-orient strings)."""
    out = {}
    for comp in ("cpu", "ram", "gpu"):
        raw = record["energy_data"].get(comp)
        if raw is None:
            continue
        split = _split(raw)
        if not split.get("data"):
            continue  # an empty series means "not measured"
        cols = split["columns"]
        rows = split["data"]
        t = [r[cols.index("time_elapsed")] for r in rows]
        if comp == "gpu":
            temps = [r[cols.index("temperature")] for r in rows] if "temperature" in cols else None
            out[comp] = Series(t, [r[cols.index("power_draw (W)")] for r in rows], "power", temps)
        else:
            out[comp] = Series(t, [r[cols.index("energy (J)")] for r in rows], "energy")
    return out


class ReplaySource(EnergySource):
    name = "replay"
    capabilities = frozenset({CUMULATIVE_COUNTER, TEMPERATURE})

    @classmethod
    def probe(cls, **_options) -> Availability:
        return Availability.yes("replays a recorded series")

    def __init__(
        self,
        series: Mapping[str, Series],
        clock: Callable[[], float],
        interval_s: float = 0.5,
        epoch0_ns: int = 0,
    ):
        self._clock = clock
        self._epoch0 = epoch0_ns
        self.measures = tuple(c for c in ("cpu", "ram", "gpu") if c in series)
        self.update_period_s = interval_s
        self._times = {c: np.asarray(s.times, float) for c, s in series.items()}
        self._cum = {
            c: np.cumsum(np.asarray(s.values, float) * (interval_s if s.kind == "power" else 1.0))
            for c, s in series.items()
        }
        self._temps = {c: list(s.temperatures) for c, s in series.items() if s.temperatures is not None}

    def _read(self) -> Reading:
        t = float(self._clock())
        energy, temps = {}, {}
        for comp, times in self._times.items():
            i = bisect.bisect_right(times, t)
            energy[comp] = float(self._cum[comp][i - 1]) if i else 0.0
            if comp in self._temps and i:
                temps[comp] = float(self._temps[comp][i - 1])
        return Reading(t, self._epoch0 + int(t * 1e9), energy, temps)
