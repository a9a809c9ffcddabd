"""Replay source, the sampler's series, FECoM stable-state waiting with a fake clock, and records."""

from __future__ import annotations

import json
import lzma

import pytest

from greenlint.meter.counters import SourceSet
from greenlint.meter.counters.replay import ReplaySource, Series, series_from_record
from greenlint.meter.sampler import Sampler
from greenlint.meter.session import Clock, MeterConfig, MeterSession
from greenlint.meter.stability import StabilitySettings, wait_until_stable
from tests.environment import SHARED

DT = 0.5


class FakeClock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def replay(values, clock, gpu=None):
    times = [DT * (i + 1) for i in range(len(values))]
    series = {"cpu": Series(times, values, "energy")}
    if gpu is not None:
        series["gpu"] = Series(times, gpu, "power", [30.0] * len(gpu))
    return ReplaySource(series, clock, interval_s=DT, epoch0_ns=1_000_000_000_000)


def stepping_sleep(clock, sampler):
    """A sleep that advances the fake clock and takes one reading per sample interval."""

    def sleep(seconds):
        for _ in range(max(1, round(seconds / DT))):
            clock.t += DT
            sampler.sample_once()

    return sleep


def test_replay_readings_difference_is_the_sum_of_samples():
    clock = FakeClock()
    src = replay([1.0, 2.0, 3.0, 4.0, 5.0], clock, gpu=[10.0, 10.0, 20.0, 20.0, 20.0])
    clock.t = 1.0
    a = src.read()
    clock.t = 2.5
    b = src.read()
    assert b.energy_j["cpu"] - a.energy_j["cpu"] == pytest.approx(3 + 4 + 5)
    assert b.energy_j["gpu"] - a.energy_j["gpu"] == pytest.approx((20 + 20 + 20) * DT)  # rectangle rule
    clock.t = 0.1
    assert src.read().energy_j["cpu"] == 0.0  # nothing sampled yet


def test_sampler_rows_turn_cumulative_readings_into_interval_energy_and_power():
    clock = FakeClock()
    src = replay([5.0] * 10, clock, gpu=[40.0] * 10)
    sampler = Sampler(src.read, DT)
    for i in range(1, 6):
        clock.t = i * DT
        sampler.sample_once()
    rows = sampler.rows("cpu")
    assert rows.values == pytest.approx([5.0] * 4)
    assert rows.times == pytest.approx([0.5, 1.0, 1.5, 2.0])  # seconds since the first reading (t=0.5)
    assert sampler.rows("gpu").values == pytest.approx([40.0] * 4)  # W, from the energy difference


def test_waits_until_power_is_stable_then_accepts_the_window():
    clock = FakeClock()
    noisy = [10.0 if i % 2 else 20.0 for i in range(60)]  # 30 s of std/mean = 0.33
    src = replay(noisy + [17.0] * 200, clock)
    sampler = Sampler(src.read, DT)
    clock.t = DT
    sampler.sample_once()
    settings = StabilitySettings(check_last_n_points=20, check_bin_s=DT, max_wait_s=120, check_interval_s=DT)
    state = wait_until_stable(sampler, settings, clock=clock, sleep=stepping_sleep(clock, sampler),
                              read_cpu_temperature=lambda: 40.0)
    assert state.stable and not state.reasons
    # the last 20 intervals must all be in the quiet part: stable only once 20 quiet samples exist
    assert 30.0 + 20 * DT - DT <= state.waited_s + DT <= 30.0 + 20 * DT + DT
    lo, hi = state.window
    assert hi - lo == 21  # 21 readings = 20 intervals
    assert all(v == 17.0 for v in sampler.rows("cpu", lo, hi).values)
    assert state.cpu_temperatures and state.cpu_temperatures[0][1] == 40.0


def test_gives_up_after_max_wait_and_says_why():
    clock = FakeClock()
    src = replay([10.0 if i % 2 else 20.0 for i in range(500)], clock)
    sampler = Sampler(src.read, DT)
    sampler.sample_once()
    settings = StabilitySettings(check_last_n_points=20, check_bin_s=DT, max_wait_s=15, check_interval_s=1.0)
    state = wait_until_stable(sampler, settings, clock=clock, sleep=stepping_sleep(clock, sampler),
                              read_cpu_temperature=lambda: None)
    assert not state.stable
    assert 15 <= state.waited_s <= 16
    assert any("cpu: std/mean" in r for r in state.reasons)


def test_hot_cpu_is_not_stable():
    clock = FakeClock()
    src = replay([17.0] * 500, clock)
    sampler = Sampler(src.read, DT)
    sampler.sample_once()
    settings = StabilitySettings(check_last_n_points=10, check_bin_s=DT, max_wait_s=10, check_interval_s=1.0)
    state = wait_until_stable(sampler, settings, clock=clock, sleep=stepping_sleep(clock, sampler),
                              read_cpu_temperature=lambda: 70.0)
    assert not state.stable and any("temperature 70.0 C > 55 C" in r for r in state.reasons)


def _session(clock, values, n=20):
    src = replay(values, clock)
    sources = SourceSet(sources=[src], covers={"cpu": src}, not_measured={"ram": "test", "gpu": "test"})
    cfg = MeterConfig(interval_s=DT, stability=StabilitySettings(check_last_n_points=n, check_bin_s=DT, max_wait_s=60,
                                                                    check_interval_s=DT),
                      after_s=2.0)
    session = MeterSession(cfg, sources, clock=Clock(seconds=clock))
    session.clock = Clock(seconds=clock, sleep=stepping_sleep(clock, session.sampler))
    return session


def test_record_net_energy_uses_the_accepted_idle_window_as_baseline():
    clock = FakeClock()
    # idle 17 J/interval, a call adding 20 J per interval from t=20 to t=25, idle again
    values = [17.0] * 40 + [37.0] * 10 + [17.0] * 50
    session = _session(clock, values)
    session.sampler.sample_once()
    state = session.wait_stable()
    assert state.stable
    while clock.t < 30:
        clock.t += DT
        session.sampler.sample_once()
    epoch0 = 1_000_000_000_000
    start, end = epoch0 + int(20.0e9), epoch0 + int(25.0e9)
    record = session.record("tensorflow.keras.Sequential.fit()", start, end, api="x", executions=1)
    body = record["tensorflow.keras.Sequential.fit()"]
    assert body["energy_data"]["ram"] is None and body["energy_data"]["gpu"] is None  # not measured
    assert json.loads(body["energy_data"]["cpu"])["columns"] == ["time_elapsed", "energy (J)"]
    assert body["settings"]["measurement_interval_s"] == DT
    assert body["settings"]["wait_per_stable_check_loop_s"] == 20 * DT
    energy = session.energy(record)
    cpu = energy.components["cpu"]
    assert set(energy.components) == {"cpu"}
    assert cpu.baseline == pytest.approx(17.0)
    # FECoM's window: rows nearest start (t=20, value of (19.5, 20]) up to the row at t=25 excluded
    assert cpu.window_samples == 10
    assert cpu.net_j == pytest.approx(9 * 20.0)
    assert not energy.below_resolution


def test_record_spliced_after_idle_window_when_call_comes_later():
    clock = FakeClock()
    values = [17.0] * 40 + [30.0] * 40 + [40.0] * 20 + [17.0] * 20
    session = _session(clock, values, n=10)
    session.sampler.sample_once()
    session.wait_stable()
    while clock.t < 55:
        clock.t += DT
        session.sampler.sample_once()
    epoch0 = 1_000_000_000_000
    rec = session.record("f()", epoch0 + int(40.0e9), epoch0 + int(50.0e9), api="f", executions=1)
    body = rec["f()"]
    ranges = body["meter"]["series_ranges"]
    assert len(ranges) == 2  # the idle window, then the call: the busy rows between are left out
    cpu = session.energy(rec).components["cpu"]
    assert cpu.baseline == pytest.approx(17.0)  # not the 30 J of the activity just before the call


@pytest.mark.shared
def test_replaying_a_public_record_reproduces_its_series_totals():
    path = next((SHARED / "fecom" / "raw" / "method-level").rglob("experiment-1.json.xz"))
    for p in sorted((SHARED / "fecom" / "raw" / "method-level").rglob("experiment-1.json.xz")):
        if p.stat().st_size > 100:
            path = p
            break
    with lzma.open(path, "rt") as fh:
        (body,) = json.load(fh)[0].values()
    series = series_from_record(body)
    clock = FakeClock()
    src = ReplaySource(series, clock, interval_s=0.5)
    clock.t = 1e9
    total = src.read().energy_j
    assert total["cpu"] == pytest.approx(sum(series["cpu"].values))
    assert total["gpu"] == pytest.approx(sum(series["gpu"].values) * 0.5)


def test_bins_average_out_sample_noise_as_fecoms_longer_intervals_did():
    def check(bin_s):
        clock = FakeClock()
        src = replay([10.0 if i % 2 else 20.0 for i in range(400)], clock)
        sampler = Sampler(src.read, DT)
        sampler.sample_once()
        settings = StabilitySettings(check_last_n_points=10, check_bin_s=bin_s, max_wait_s=30, check_interval_s=DT)
        return wait_until_stable(sampler, settings, clock=clock, sleep=stepping_sleep(clock, sampler),
                                 read_cpu_temperature=lambda: None)

    assert not check(DT).stable  # every single sample alternates: std/mean 0.33
    state = check(2 * DT)  # two samples per bin: every bin holds the same energy
    assert state.stable and state.waited_s == pytest.approx(10 * 2 * DT, abs=DT)
