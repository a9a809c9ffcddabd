"""Wait for a stable state before measuring, as FECoM does (see ../shared/fecom/README.md).

Stable means: over the last `check_last_n_points` bins of `check_bin_s` seconds, std/mean of each
measured component's mean power is within its tolerance (FECoM: 0.03 CPU, 0.03 DRAM, 0.01 GPU,
over 20 perf intervals of 0.5 s), and the CPU and GPU temperatures are at or under their bounds
(55 and 40 degrees C). Binning matters: single 20 ms counter samples are far noisier than FECoM's
0.5 s ones. The check repeats every `check_interval_s` until it passes or `max_wait_s` runs out;
then the measurement goes on and is marked unstable. Only readings taken during the wait count.
The accepted window (n x bin seconds) is the baseline that `greenlint.window` subtracts: the
measurement file's `wait_per_stable_check_loop_s` says how long it is, so the KB takes the same
rows. Clock and sleep are injected for tests.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from greenlint.meter.load import LoadProbe
from greenlint.meter.sampler import DEFAULT_INTERVAL_S, Sampler
from greenlint.meter.temperature import cpu_temperature

NOT_CHECKED = "not checked: no power counter or temperature sensor could be read (an estimate says nothing about other work)"


@dataclass(frozen=True)
class StabilitySettings:
    check_last_n_points: int = 20  # bins, as FECoM's 20 points
    check_bin_s: float = 0.1
    cpu_std_to_mean: float = 0.03
    ram_std_to_mean: float = 0.03
    gpu_std_to_mean: float = 0.01
    cpu_max_temp: float = 55.0
    gpu_max_temp: float = 40.0
    max_wait_s: float = 120.0
    check_interval_s: float = 0.5

    @property
    def window_s(self) -> float:
        return self.check_last_n_points * self.check_bin_s

    def fecom_settings(self, interval_s: float = DEFAULT_INTERVAL_S, wait_after_run_s: float = 0.0) -> dict:
        """The measurement file's `settings` block, with FECoM's keys, for these values."""
        return {
            "max_wait_s": self.max_wait_s,
            "wait_after_run_s": wait_after_run_s,
            "wait_per_stable_check_loop_s": self.window_s,
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
    #: False when nothing could be checked (no power counter, no temperature sensor): `stable`
    #: is then False too, and means "not checked", not "unstable".
    checked: bool = True
    load: dict = field(default_factory=dict)  # meter.load: other work on the machine during the wait

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
            reasons.append(f"{comp}: {len(values)} of {s.check_last_n_points} bins so far")
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
    epoch_ns: Callable[[], int] = time.time_ns,
) -> StableState:
    """Block until stable or `max_wait_s`; the sampler must be running (or be stepped by *sleep*).

    *components* limits the power check (default: all sampled). Estimated components are left out
    by the caller: a process's own CPU time says nothing about whether the machine is quiet.
    """
    t0 = clock()
    probe = LoadProbe()
    limit = max(settings.max_wait_s, settings.window_s + settings.check_interval_s)  # room to fill one window
    begin = epoch_ns()
    first = len(sampler.samples)  # the accepted window holds only readings taken during this wait
    temps_seen: list[tuple[float, float, int]] = []
    while True:
        cpu_t = read_cpu_temperature()
        if cpu_t is not None and sampler.samples:
            now_ns = epoch_ns()
            temps_seen.append((sampler.axis(now_ns), cpu_t, now_ns))
        temps = {"cpu": cpu_t}
        if sampler.samples and "gpu" in sampler.samples[-1].temperature_c:
            temps["gpu"] = sampler.samples[-1].temperature_c["gpu"]
        powers = sampler.recent_power(settings.check_last_n_points, settings.check_bin_s)
        if components is not None:
            powers = {c: v for c, v in powers.items() if c in components}
        reasons = unstable_reasons(powers, temps, settings)
        fresh = sampler.samples[-1].time_s - sampler.samples[min(first, len(sampler.samples) - 1)].time_s
        if fresh < settings.window_s - 1e-9 and not reasons:
            reasons.append(f"baseline: {fresh:.2f} of {settings.window_s:g} s of readings so far")
        if sampler.error:
            reasons.append(f"sampler stopped: {sampler.error}")
        waited = clock() - t0
        if not reasons or waited >= limit or sampler.error:
            hi = len(sampler.samples)
            lo = sampler.index_since(settings.window_s)
            checked = bool(powers) or any(t is not None for t in temps.values())
            if not checked:
                reasons = [*reasons, NOT_CHECKED]
            return StableState(not reasons, waited, begin, (lo, hi), reasons, temps_seen, checked, probe.result())
        sleep(settings.check_interval_s)
