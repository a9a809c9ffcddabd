"""Counters read at call boundaries, on constructed counters: per-execution energy, resolution."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from greenlint.meter.boundary import Collector, Counter, aggregate, baseline_power, detect_update_period, missed_tail_s
from greenlint.meter.counters.base import Reading

BASE_W, EXTRA_W = 20.0, 30.0


class Timeline:
    """Energy E(t) of a machine idling at BASE_W, plus EXTRA_W while a call runs; a counter that
    changes every `period` s (at a random phase) by what accumulated since, in `resolution` steps."""

    def __init__(self, period: float, resolution: float = 1e-6, phase: float = 0.0):
        self.period, self.resolution, self.phase = period, resolution, phase
        self.calls: list[tuple[float, float]] = []
        self._busy_before: list[float] = [0.0]

    def add_call(self, start: float, end: float) -> None:
        self.calls.append((start, end))
        self._busy_before.append(self._busy_before[-1] + end - start)

    def energy(self, t: float) -> float:
        import bisect

        i = bisect.bisect_right(self.calls, (t, math.inf))
        busy = self._busy_before[i]
        if i and self.calls[i - 1][1] > t:  # inside the last call started
            busy -= self.calls[i - 1][1] - t
        return BASE_W * t + EXTRA_W * busy

    def counter(self, t: float) -> float:
        last_update = math.floor((t - self.phase) / self.period) * self.period + self.phase
        e = self.energy(last_update)
        return math.floor(e / self.resolution) * self.resolution

    def reading(self, t: float) -> Reading:
        return Reading(t, int(t * 1e9), {"cpu": self.counter(t)})


def run(timeline: Timeline, duration: float, n: int, gap: float, rng: random.Random, t0: float = 100.0):
    """*n* executions of one site, *gap* s apart; the windows the collector makes of them."""
    col = Collector()
    t = t0 + rng.random() * timeline.period
    for _ in range(n):
        start, end = t, t + duration
        timeline.add_call(start, end)
        col.add(0, timeline.reading(start), timeline.reading(end), int(start * 1e9), int(end * 1e9))
        t = end + gap * (0.5 + rng.random())
    col.close()
    return col.windows[0]


def measure(period: float, duration: float, gap_fraction: float, seed: int):
    """Measure once; if the meter says the executions do not resolve the call, run as many as it asks."""
    rng = random.Random(seed)
    counter = {"cpu": Counter(period, 1e-6)}
    base = {"cpu": BASE_W}
    n = 1
    for _ in range(5):
        windows = run(Timeline(period, phase=rng.random() * period), duration, n, gap_fraction * duration, rng)
        result = aggregate(windows, base, counter)
        if result.resolved:
            return result
        assert result.needed_executions > n
        n = result.needed_executions
    return result


@pytest.mark.parametrize("duration", [0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0])
@pytest.mark.parametrize("gap_fraction", [0.002, 3.0])  # a tight loop (one window), calls far apart
def test_one_ms_counter_within_two_percent(duration, gap_fraction):
    for seed in range(3):
        r = measure(0.001, duration, gap_fraction, seed)
        assert r.resolved
        assert r.median_j == pytest.approx(EXTRA_W * duration, rel=0.02)


@pytest.mark.parametrize("duration", [0.02, 0.3, 1.0, 10.0])
def test_500_ms_counter_within_five_percent_in_a_loop(duration):
    for seed in range(3):
        r = measure(0.5, duration, 0.002, seed)
        assert r.resolved
        assert r.median_j == pytest.approx(EXTRA_W * duration, rel=0.05)


def test_short_calls_far_apart_on_a_slow_counter_ask_for_many_executions_and_give_no_figure():
    rng = random.Random(1)
    tl = Timeline(0.5, phase=0.1)
    r = aggregate(run(tl, 0.02, 20, 1.0, rng), {"cpu": BASE_W}, {"cpu": Counter(0.5, 1e-6)})
    assert not r.resolved and r.median_j is None
    assert r.needed_executions > 20 and "below the counter's resolution over 20 executions" in r.note
    assert r.upper_bound_j >= EXTRA_W * 0.02  # an upper bound, never "<= 0 J"


def test_no_counter_means_not_measured():
    from greenlint.meter.boundary import Window

    r = aggregate([Window(0.1, {}, 1)], {}, {})
    assert r.median_j is None and r.note.startswith("not measured")
    assert r.time_s == pytest.approx(0.1)


def test_spread_per_execution_when_each_is_resolved():
    rng = random.Random(2)
    tl = Timeline(0.001)
    r = aggregate(run(tl, 1.0, 8, 2.0, rng), {"cpu": BASE_W}, {"cpu": Counter(0.001, 1e-6)})
    assert r.resolved and r.executions == 8
    low, high = r.iqr_j
    assert low <= r.median_j <= high and high - low < 0.01 * r.median_j
    assert r.components_j["cpu"] == pytest.approx(r.median_j)


def test_update_period_is_detected_from_idle_readings():
    tl = Timeline(0.5, phase=0.013)
    samples = [tl.reading(i * 0.02) for i in range(1, 200)]
    assert detect_update_period(samples, "cpu", 0.001) == pytest.approx(0.5, abs=0.021)
    fast = Timeline(0.001)
    samples = [fast.reading(i * 0.02) for i in range(1, 200)]
    assert detect_update_period(samples, "cpu", 0.001) == 0.001


def test_baseline_power_is_the_stable_windows_mean():
    tl = Timeline(0.001)
    samples = [tl.reading(i * 0.02) for i in range(1, 101)]
    assert baseline_power(samples, (10, 90))["cpu"] == pytest.approx(BASE_W, rel=1e-3)


def test_hardware_counters_have_their_period_detected_and_estimates_keep_theirs():
    from greenlint.meter.boundary import counters
    from greenlint.meter.counters.base import CUMULATIVE_COUNTER, ESTIMATED

    class Src:
        def __init__(self, caps, period):
            self.capabilities, self.update_period_s, self.resolution_j = frozenset(caps), period, 1e-6

    tl = Timeline(0.5, phase=0.013)
    samples = [tl.reading(i * 0.02) for i in range(1, 200)]
    hw = counters(samples, {"cpu": Src({CUMULATIVE_COUNTER}, 0.001)})["cpu"]
    assert hw.detected and hw.update_period_s == pytest.approx(0.5, abs=0.021)
    est = counters(samples, {"cpu": Src({ESTIMATED}, 1e-9)})["cpu"]
    assert not est.detected and est.update_period_s == 1e-9


def test_a_loop_is_cut_into_windows_of_enough_updates_which_give_the_spread():
    from greenlint.meter.boundary import min_span_s

    rng = random.Random(4)
    tl = Timeline(0.001)
    counter = {"cpu": Counter(0.001, 1e-6)}
    col = Collector(min_span_s=min_span_s(counter))  # 200 ms
    t = 10.0
    for _ in range(1000):  # 2 ms calls back to back: 2 s
        tl.add_call(t, t + 0.002)
        col.add(0, tl.reading(t), tl.reading(t + 0.002), int(t * 1e9), int((t + 0.002) * 1e9))
        t += 0.002 + 1e-6 * rng.random()
    col.close()
    windows = col.windows[0]
    assert 9 <= len(windows) <= 10 and all(w.count >= 100 for w in windows)
    r = aggregate(windows, {"cpu": BASE_W}, counter)
    assert r.resolved and r.executions == 1000 and r.iqr_j is not None and "each resolved alone" in r.note
    assert r.median_j == pytest.approx(EXTRA_W * 0.002, rel=0.02)


@pytest.mark.parametrize("read_s", [0.0, 0.004, 0.02, 0.032, 0.1])
def test_a_slow_closing_reading_misses_less_of_the_window(read_s):
    """Devices read evenly over the closing reading each miss max(0, U - δ) of the window, U the
    counter's age (uniform over its 20 ms period): the mean over a fine grid of U and δ."""
    period, n = 0.02, 400
    ages = (np.arange(n) + 0.5) / n * period
    delays = (np.arange(n) + 0.5) / n * read_s
    grid = np.maximum(0.0, ages[:, None] - delays[None, :]).mean()
    assert missed_tail_s(period, read_s) == pytest.approx(grid, rel=1e-3)
    assert missed_tail_s(period, read_s) <= period / 2
