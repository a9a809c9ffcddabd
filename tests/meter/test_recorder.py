"""The runtime's Recorder reads the counters at each call's boundaries: per-execution energy from a
stand-in NVML with 8 GPUs (4 ms per device read, so the sampler lags) on a simulated clock, and
from a constructed powercap tree."""

from __future__ import annotations

import math

import pytest

from greenlint.meter.counters import SourceSet, nvml
from greenlint.meter.counters.nvml import NvmlSource
from greenlint.meter.instrument import InstrumentedSite
from greenlint.meter.runtime import Recorder
from greenlint.meter.sampler import DEFAULT_INTERVAL_S
from greenlint.meter.session import Clock, MeterConfig, MeterSession
from greenlint.meter.stability import StabilitySettings
from tests.meter.simulated import SimulatedTime
from tests.meter.test_nvml import FakeNvml

IDLE_W, BUSY_W, PERIOD_S, QUERY_S = 50.0, 200.0, 0.02, 0.004


class GpuTime(SimulatedTime):
    """The simulated machine's clock, with the calls its GPUs ran."""

    def __init__(self):
        super().__init__()
        self.busy: list[tuple[float, float]] = []  # when the GPUs ran a call
        self.elapsed: list[float] = []  # each call's duration, a sampler read it waited for included

    def energy(self, t: float) -> float:
        """Joules one GPU used from 0 to *t*."""
        busy = sum(max(0.0, min(e, t) - s) for s, e in self.busy)
        return IDLE_W * t + BUSY_W * busy

    def run(self, seconds: float) -> None:
        """A call keeping the GPUs busy for *seconds*."""
        start = self.t
        self.busy.append((start, start + seconds))
        self.take(seconds)
        self.elapsed.append(self.t - start)


class CountingNvml(FakeNvml):
    """Volta+ GPUs whose total-energy counters change every 20 ms (each at its own phase); every
    device query takes 4 ms, as seen on 8-GPU machines, so one reading of all takes 32 ms."""

    def __init__(self, clock: GpuTime, gpus: int = 8):
        super().__init__(devices=[(f"GPU {i}", True) for i in range(gpus)])
        self.clock = clock

    def nvmlDeviceGetTotalEnergyConsumption(self, h):
        self.clock.t += QUERY_S
        phase = h * PERIOD_S / len(self.devices)
        updated = math.floor((self.clock.t - phase) / PERIOD_S) * PERIOD_S + phase
        return self.clock.energy(updated) * 1000  # mJ

    def nvmlDeviceGetTemperature(self, h, kind):
        return 30


def test_nvml_counters_read_at_call_boundaries_despite_a_lagging_sampler(monkeypatch):
    """0.5 s calls on 8 GPUs: the meter asks for as many executions as the 20 ms counters need,
    then reports within 2 % although the sampler reads every 32 ms instead of 20."""
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    clock = GpuTime()
    monkeypatch.setattr(nvml, "now", clock.now)  # the source stamps its readings on the same clock
    src = NvmlSource(CountingNvml(clock))
    config = MeterConfig(stability=StabilitySettings(check_last_n_points=5, check_bin_s=0.1, max_wait_s=1.0,
                                                     check_interval_s=0.1))
    session = MeterSession(config, SourceSet(sources=[src], covers={"gpu": src}),
                           clock=Clock(seconds=lambda: clock.t, sleep=clock.take, drive=clock.drive))
    stable = session.start(thread=False)
    recorder = Recorder(session, [InstrumentedSite("tensorflow.matmul", 1, 1, {})], clock=clock.epoch_ns)
    runs = 3
    for _ in range(5):  # the count asked for rests on the readings: it may grow a little
        for _ in range(runs - recorder.calls[0]):
            recorder(0, clock.run, 0.5)
        clock.take(config.after_s)
        (site,) = recorder.site_energies(stable)
        if site["resolved"]:
            break
        runs = max(site["needed_executions"], runs + 1)
        assert runs <= 40, site
    session.stop()
    gaps = [b.time_s - a.time_s for a, b in zip(session.sampler.samples, session.sampler.samples[1:])]
    assert DEFAULT_INTERVAL_S < sorted(gaps)[len(gaps) // 2] == pytest.approx(8 * QUERY_S)  # the grid is lost
    assert site["resolved"] and site["executions"] == recorder.calls[0] > 3, site
    assert site["median_j"] == pytest.approx(8 * BUSY_W * 0.5, rel=0.02), site
    assert site["components_j"]["gpu"] == pytest.approx(site["median_j"])
    assert site["time_s"] == pytest.approx(sorted(clock.elapsed)[len(clock.elapsed) // 2], abs=1e-6)


def test_records_of_a_lagging_sampler_use_the_interval_it_achieved():
    """FECoM's arithmetic integrates GPU power rows with the file's `measurement_interval_s`: the
    sampler's achieved 37 ms, not its nominal 20 ms (which lost 43 % of the energy)."""
    from greenlint.meter.counters.base import Reading
    from greenlint.meter.records import build_record
    from greenlint.meter.sampler import Sampler
    from greenlint.meter.stability import StableState
    from greenlint.window import record_energy

    clock = {"t": 0.0}

    def energy(t):  # 100 W idle, +200 W from 3 s to 4 s
        return 100 * t + 200 * max(0.0, min(t, 4.0) - 3.0)

    def read():
        t = clock["t"]
        return Reading(t, int(1e18 + t * 1e9), {"gpu": energy(t)})

    sampler = Sampler(read, 0.02)
    for i in range(200):
        clock["t"] = i * 0.037
        sampler.sample_once()
    stable = StableState(True, 2.0, int(1e18), (0, 54))
    rec = build_record("f()", sampler, stable, int(1e18 + 3e9), int(1e18 + 4e9), settings=StabilitySettings(),
                       after_s=0.5, input_sizes={}, hardware={}, meter={})
    (body,) = rec.values()
    assert body["settings"]["measurement_interval_s"] == pytest.approx(0.037)
    gpu = record_energy(body).components["gpu"]
    assert gpu.net_j == pytest.approx(200.0, rel=0.05)  # FECoM's nearest-sample window on a 37 ms grid


def test_a_failing_script_shows_its_own_traceback_without_the_meters_frames(tmp_path):
    from greenlint.meter.counters import build_sources
    from greenlint.meter.instrument import HELPER
    from greenlint.meter.runtime import run_script

    script = tmp_path / "user.py"
    original = "def f(x):\n    return 1 / x\n\ny = divmod(3, 1)\nz = f(0)\n"
    script.write_text(original)
    code = original.replace("divmod(3, 1)", f"{HELPER}(0, divmod, 3, 1)").replace("f(0)", f"{HELPER}(1, f, 0)")
    session = MeterSession(MeterConfig(), build_sources(("estimated",)))
    recorder = Recorder(session, [InstrumentedSite("builtins.divmod", 4, 5, {}), InstrumentedSite("user.f", 5, 5, {})])
    status, tb = run_script(code, script, [], {HELPER: recorder})
    assert status == 1 and tb.rstrip().endswith("ZeroDivisionError: division by zero")
    assert f'File "{script}", line 5' in tb and "z = f(0)" in tb  # the user's line, as written
    assert f'File "{script}", line 2, in f' in tb
    assert "meter" not in tb.replace(str(tmp_path), "")  # no frame of the runtime or the recorder
    assert recorder.calls == [1, 1]
