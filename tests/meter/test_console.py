"""What `measure` and `calibrate` tell people about the meter: each missing counter with its reason
and fix, the power an estimate assumes, stability "not checked", and a busy machine."""

from __future__ import annotations

import io

from rich.console import Console

from greenlint.cli.measure_cmd import print_meter
from greenlint.meter.counters import build_sources
from greenlint.meter.counters.rapl import PERMISSION_FIX
from greenlint.meter.load import LoadProbe
from greenlint.meter.sampler import Sampler
from greenlint.meter.stability import StabilitySettings, wait_until_stable


def printed(meter, stable=None) -> str:
    out = io.StringIO()
    print_meter(meter, stable, Console(file=out, width=400, color_system=None))
    return out.getvalue()


def test_missing_counters_are_named_with_reason_and_fix_and_the_assumed_watts(tmp_path):
    sources = build_sources(("rapl", "nvml", "estimated"), options={"rapl": {"root": tmp_path / "powercap"}})
    text = printed(sources.describe())
    assert "cpu: estimated by estimated: assumed 10 W per busy logical core (set GREENLINT_CPU_TDP_W)" in text
    assert f"no rapl: {tmp_path / 'powercap'} does not exist" in text
    assert "ram: not measured" in text and "gpu: not measured" in text
    assert "no nvml: " in text


def test_a_root_only_rapl_counter_shows_its_chmod_and_udev_fix_beside_the_estimate():
    meter = {
        "components": {"cpu": {"measured_by": "estimated", "basis": "estimated", "power_model": "TDP 65 W / 8 logical cores"},
                       "ram": {"measured_by": None, "basis": "not-measured", "reason": "x"},
                       "gpu": {"measured_by": None, "basis": "not-measured", "reason": "y"}},
        "tried": {"rapl": f"cannot read /sys/class/powercap/intel-rapl:0/energy_uj: {PERMISSION_FIX}",
                  "perf": "perf_event_paranoid is 2: sudo sysctl kernel.perf_event_paranoid=0",
                  "nvml": "nvidia-ml-py is not installed", "estimated": "in use (...)"},
    }
    text = printed(meter)
    assert "cpu: estimated by estimated: TDP 65 W / 8 logical cores" in text
    assert "sudo chmod o+r /sys/class/powercap/intel-rapl:*/energy_uj" in text and "70-powercap.rules" in text
    assert "perf_event_paranoid=0" in text and "no nvml: nvidia-ml-py is not installed" in text


def test_stability_is_not_checked_without_any_sensor():
    sources = build_sources(("estimated",))
    sampler = Sampler(sources.read, 0.01)
    sampler.sample_once()
    settings = StabilitySettings(check_last_n_points=3, check_bin_s=0.01, max_wait_s=0.2, check_interval_s=0.01)

    def sleep(s):
        import time

        time.sleep(s)
        sampler.sample_once()

    state = wait_until_stable(sampler, settings, sleep=sleep, read_cpu_temperature=lambda: None, components=())
    assert state.checked is False and state.stable is False
    assert any(r.startswith("not checked") for r in state.reasons)
    assert "stability: not checked" in printed({}, state.to_json())


def test_a_loaded_machine_is_detected_and_reported(monkeypatch):
    probe = LoadProbe()
    monkeypatch.setattr("os.getloadavg", lambda: (64.0, 60.0, 50.0))
    load = probe.result()
    assert load["loaded"] and any("load average 64.00" in r for r in load["reasons"])
    assert load["others_busy_cores"] is None or load["others_busy_cores"] >= 0
    text = printed({}, {"stable": True, "checked": True, "reasons": [], "load": load})
    assert "the machine was busy: " in text and "load average 64.00" in text


def test_a_counters_update_period_and_resolution_read_in_a_fitting_unit():
    """The estimated counter's 1 ns period printed as "1e-06 ms"."""
    from types import SimpleNamespace

    from greenlint.cli.measure_cmd import _print_summary

    counters = {"cpu": {"update_period_s": 1e-9, "detected": False, "resolution_j": 1e-6},
                "gpu": {"update_period_s": 0.1, "detected": True, "resolution_j": 0.001}}
    res = SimpleNamespace(summary={"meter": {}, "counters": counters}, level="method", out_file="m.json", status=None,
                          profile_file=None)
    out = io.StringIO()
    _print_summary(res, Console(file=out, width=400, color_system=None))
    text = out.getvalue()
    assert "cpu counter: updates every 1 ns (as documented), resolution 0.001 mJ" in text
    assert "gpu counter: updates every 100 ms (detected at the start), resolution 0.001 J" in text


def test_fmt_s():
    from greenlint.units import fmt_s

    assert [fmt_s(v) for v in (0, 1e-9, 4.2e-7, 0.0009997, 0.1, 12.5, 7200)] == [
        "0 s", "1 ns", "420 ns", "1 ms", "100 ms", "12.5 s", "7,200 s"]
