"""Reads the energy sources at a fixed, fast interval (default 20 ms) on a background thread.

Readings are cumulative; `series()` turns them into FECoM's series: for "cpu"/"ram" the energy
of each interval in J at the interval's end time (what `perf stat -I` prints), for "gpu" the mean
power of each interval in W. Times are seconds since the sampler's first reading (`epoch0_ns`).
A failed read stops the sampler and is kept in `error`; samples already taken stay valid.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from greenlint.meter.counters.base import Reading, SourceError

DEFAULT_INTERVAL_S = 0.02


@dataclass(frozen=True)
class Rows:
    """One component's series: row times (s on the sampler axis), values, and per-row temperatures."""

    times: list[float]
    values: list[float]
    temperatures: list[float | None]


class Sampler:
    def __init__(self, read: Callable[[], Reading], interval_s: float = DEFAULT_INTERVAL_S):
        self._read = read
        self.interval_s = interval_s
        self.samples: list[Reading] = []
        self.error: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- sampling ---------------------------------------------------------------------------
    def sample_once(self) -> Reading | None:
        """Take one reading now (the thread's step; tests call it directly with a fake clock)."""
        try:
            reading = self._read()
        except SourceError as exc:
            self.error = str(exc)
            self._stop.set()
            return None
        self.samples.append(reading)
        return reading

    def _run(self) -> None:
        next_t = time.monotonic()
        while not self._stop.is_set():
            self.sample_once()
            next_t += self.interval_s
            delay = next_t - time.monotonic()
            if delay < 0:  # fell behind (suspended, overloaded): restart the grid, never burst
                next_t, delay = time.monotonic(), 0
            self._stop.wait(delay)

    def start(self) -> Sampler:
        self.sample_once()
        self._thread = threading.Thread(target=self._run, name="greenlint-sampler", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.sample_once()

    # -- views ------------------------------------------------------------------------------
    @property
    def epoch0_ns(self) -> int:
        return self.samples[0].epoch_ns

    def axis(self, epoch_ns: int) -> float:
        """An epoch time on the sampler's time axis (seconds since the first reading)."""
        return (epoch_ns - self.epoch0_ns) / 1e9

    def index_at(self, epoch_ns: int) -> int:
        """Index of the last reading taken at or before *epoch_ns* (0 if none)."""
        lo, hi = 0, len(self.samples)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.samples[mid].epoch_ns <= epoch_ns:
                lo = mid + 1
            else:
                hi = mid
        return max(lo - 1, 0)

    def real_interval_s(self, lo: int = 0, hi: int | None = None) -> float:
        """The median time between readings lo..hi-1: what the sampler achieved, which a slow
        source (many GPUs, 4 ms each) can push well past `interval_s`."""
        times = [s.time_s for s in self.samples[lo:hi]]
        gaps = sorted(b - a for a, b in zip(times, times[1:]))
        return gaps[len(gaps) // 2] if gaps else self.interval_s

    def components(self) -> tuple[str, ...]:
        return tuple(c for c in ("cpu", "ram", "gpu") if self.samples and c in self.samples[0].energy_j)

    def rows(self, comp: str, lo: int = 0, hi: int | None = None) -> Rows:
        """Rows for readings lo+1..hi-1 (each row is the interval ending at that reading)."""
        samples = self.samples[lo:hi]
        times, values, temps = [], [], []
        for prev, cur in zip(samples, samples[1:]):
            if comp not in cur.energy_j or comp not in prev.energy_j:
                continue
            joules = cur.energy_j[comp] - prev.energy_j[comp]
            dt = (cur.epoch_ns - prev.epoch_ns) / 1e9
            times.append(self.axis(cur.epoch_ns))
            values.append(joules / dt if comp == "gpu" and dt > 0 else joules)
            temps.append(cur.temperature_c.get(comp))
        return Rows(times, values, temps)

    def recent_power(self, n: int, bin_s: float) -> dict[str, list[float]]:
        """Mean power (W) over each of the last *n* bins of at least *bin_s* seconds, per component.

        Bins are spans between readings chosen backwards from the newest, each at least *bin_s*
        apart (FECoM checked 0.5 s perf intervals; the fast counters are averaged the same way).
        """
        picks = []
        i = len(self.samples) - 1
        while i >= 0 and len(picks) <= n:
            if not picks or self.samples[picks[-1]].time_s - self.samples[i].time_s >= bin_s - 1e-9:
                picks.append(i)
            i -= 1
        picks.reverse()
        out = {}
        for comp in self.components():
            powers = []
            for a, b in zip(picks, picks[1:]):
                prev, cur = self.samples[a], self.samples[b]
                dt = cur.time_s - prev.time_s
                if dt > 0:
                    powers.append((cur.energy_j[comp] - prev.energy_j[comp]) / dt)
            out[comp] = powers
        return out

    def index_since(self, seconds: float) -> int:
        """Index of the newest reading at least *seconds* before the newest one (0 if none)."""
        last = self.samples[-1].time_s
        for i in range(len(self.samples) - 1, -1, -1):
            if last - self.samples[i].time_s >= seconds - 1e-9:
                return i
        return 0
