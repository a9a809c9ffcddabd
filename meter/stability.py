"""Wait for a stable state before measuring, as FECoM does (see ../shared/fecom/README.md).

Stable means: over the last `check_last_n_points` sample intervals, std/mean of each measured
component's power is within its tolerance (FECoM: 0.03 CPU, 0.03 DRAM, 0.01 GPU), and the CPU
and GPU temperatures are at or under their bounds (55 and 40 degrees C). The check repeats every
`check_interval_s` until it passes or `max_wait_s` runs out; then the measurement goes on and is
marked unstable. The accepted window is the baseline that `meter.window` subtracts, so the
number of points equals its `BASELINE_SAMPLES`. Clock and sleep are injected for tests.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from meter.sampler import DEFAULT_INTERVAL_S, Sampler
from meter.temperature import cpu_temperature
from meter.window import BASELINE_SAMPLES


@dataclass(frozen=True)
class StabilitySettings:
    check_last_n_points: int = BASELINE_SAMPLES
    cpu_std_to_mean: float = 0.03
    ram_std_to_mean: float = 0.03
    gpu_std_to_mean: float = 0.01
    cpu_max_temp: float = 55.0
    gpu_max_temp: float = 40.0
    max_wait_s: float = 120.0
    check_interval_s: float = 0.5

    def fecom_settings(self, interval_s: float = DEFAULT_INTERVAL_S, wait_after_run_s: float = 0.0) -> dict:
        """The measurement file's `settings` block, with FECoM's keys, for these values."""
        return {
            "max_wait_s": self.max_wait_s,
            "wait_after_run_s": wait_after_run_s,
            "wait_per_stable_check_loop_s": self.check_last_n_points * interval_s,
            "tolerance": 0,
            "measurement_interval_s": interval_s,
            "cpu_std_to_mean": self.cpu_std_to_mean,
            "ram_std_to_mean": self.ram_std_to_mean,
            "gpu_std_to_mean": self.gpu_std_to_mean,
            "check_last_n_points": self.check_last_n_points,
            "cpu_max_temp": self.cpu_max_temp,
            "gpu_max_temp": self.gpu_max_temp,
            "cpu_temperature_interval_s": self.check_interval_s,
        }


@dataclass
class StableState:
    """Outcome of one wait: whether it was stable, how long it took, and the accepted window."""

    stable: bool
    waited_s: float
    begin_epoch_ns: int
    window: tuple[int, int]  # sampler indices [lo, hi) of the accepted readings
    reasons: list[str] = field(default_factory=list)  # why the last check failed (empty if stable)
    cpu_temperatures: list[tuple[float, float, int]] = field(default_factory=list)  # (axis s, C, epoch ns)

    def to_json(self) -> dict:
        d = asdict(self)
        d.pop("cpu_temperatures")
        return d


def unstable_reasons(
    powers: dict[str, list[float]], temps: dict[str, float | None], s: StabilitySettings
) -> list[str]:
    """Why this window is not stable (empty list: stable). A 0 W mean with 0 spread is stable."""
    reasons = []
    for comp, values in powers.items():
        if len(values) < s.check_last_n_points:
            reasons.append(f"{comp}: {len(values)} of {s.check_last_n_points} samples so far")
            continue
        mean = statistics.fmean(values)
        std = statistics.pstdev(values)
        limit = getattr(s, f"{comp}_std_to_mean")
        if std == 0:
            continue
        if mean <= 0 or std / mean > limit:
            ratio = "inf" if mean <= 0 else f"{std / mean:.3f}"
            reasons.append(f"{comp}: std/mean {ratio} > {limit}")
    for comp, t in temps.items():
        bound = getattr(s, f"{comp}_max_temp")
        if t is not None and t > bound:
            reasons.append(f"{comp} temperature {t:.1f} C > {bound:g} C")
    return reasons


def wait_until_stable(
    sampler: Sampler,
    settings: StabilitySettings,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    read_cpu_temperature: Callable[[], float | None] = cpu_temperature,
    components: tuple[str, ...] | None = None,
) -> StableState:
    """Block until stable or `max_wait_s`; the sampler must be running (or be stepped by *sleep*).

    *components* limits the power check (default: all sampled). Estimated components are left out
    by the caller: a process's own CPU time says nothing about whether the machine is quiet.
    """
    t0 = clock()
    begin = time.time_ns()
    first = len(sampler.samples)  # the accepted window holds only readings taken during this wait
    temps_seen: list[tuple[float, float, int]] = []
    while True:
        cpu_t = read_cpu_temperature()
        if cpu_t is not None and sampler.samples:
            now_ns = time.time_ns()
            temps_seen.append((sampler.axis(now_ns), cpu_t, now_ns))
        temps = {"cpu": cpu_t}
        if sampler.samples and "gpu" in sampler.samples[-1].temperature_c:
            temps["gpu"] = sampler.samples[-1].temperature_c["gpu"]
        powers = sampler.recent_power(settings.check_last_n_points)
        if components is not None:
            powers = {c: v for c, v in powers.items() if c in components}
        reasons = unstable_reasons(powers, temps, settings)
        have = len(sampler.samples) - max(first, 1)
        if have < settings.check_last_n_points and not reasons:
            reasons.append(f"baseline: {max(have, 0)} of {settings.check_last_n_points} sample intervals so far")
        if sampler.error:
            reasons.append(f"sampler stopped: {sampler.error}")
        waited = clock() - t0
        if not reasons or waited >= settings.max_wait_s or sampler.error:
            hi = len(sampler.samples)
            lo = max(0, hi - settings.check_last_n_points - 1)
            return StableState(not reasons, waited, begin, (lo, hi), reasons, temps_seen)
        sleep(settings.check_interval_s)
