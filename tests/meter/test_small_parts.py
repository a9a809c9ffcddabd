"""Input sizes, the estimated source, the perf reader's parsing and probe, hardware id, lazy import."""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest

from greenlint.hardware import hardware_id
from greenlint.meter.counters import SourcePermissionError, SourceUnavailable, SourceUnsupported
from greenlint.meter.counters.estimated import EstimatedSource
from greenlint.meter.counters.perf import PerfSource, parse_line
from greenlint.meter.sizes import call_owner, input_sizes, pickled_size


def test_pickled_size_matches_pickle_without_copying_buffers():
    a = np.zeros((300, 100))
    assert abs(pickled_size(a) - len(pickle.dumps(a))) < 64
    assert pickled_size(lambda: 1) is None  # unpicklable: no size, as FECoM's null


def test_input_sizes_of_a_bound_method_counts_its_object():
    items = [1, 2, 3]
    sizes = input_sizes(items.append, (4,), {})
    assert sizes["args_size"] == len(pickle.dumps((4,))) and sizes["kwargs_size"] is None
    assert sizes["object_size"] == len(pickle.dumps(items, protocol=5))
    assert call_owner(len) is None and call_owner(dict) is None and call_owner(np.zeros) is None


def test_estimated_source_is_labelled_and_counts_cpu_time(monkeypatch):
    monkeypatch.setenv("GREENLINT_CPU_TDP_W", "40")
    src = EstimatedSource()
    assert src.estimated and src.describe()["basis"] == "estimated"
    assert "TDP 40 W" in src.model
    a = src.read()
    x = 0
    for i in range(300_000):
        x += i
    b = src.read()
    assert set(a.energy_j) == {"cpu"}  # DRAM and GPU: not measured, not 0 J
    assert b.energy_j["cpu"] > a.energy_j["cpu"]


def test_estimated_source_for_another_process_reads_proc(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(5)"])
    try:
        src = EstimatedSource(pid=proc.pid)
        assert src.read().energy_j["cpu"] >= 0
    finally:
        proc.kill()
        proc.wait()
    assert EstimatedSource.probe(pid=2**22 + 7).error is SourceUnavailable


def test_perf_line_parsing():
    assert parse_line("     0.020123,1.50,Joules,power/energy-pkg/,20100000,100.00,,") == ("cpu", 1.5)
    assert parse_line("0.02,0.25,Joules,power/energy-ram/,1,100,,") == ("ram", 0.25)
    assert parse_line("0.02,<not counted>,Joules,power/energy-ram/,0,0,,") is None
    assert parse_line("# started on Sun") is None


def test_perf_probe_reasons(tmp_path, monkeypatch):
    monkeypatch.setattr("greenlint.meter.counters.perf.shutil.which", lambda _: "/usr/bin/perf")
    assert PerfSource.probe(tmp_path / "none", tmp_path / "p").error is SourceUnsupported
    pmu = tmp_path / "events"
    pmu.mkdir()
    (pmu / "energy-pkg").write_text("event=0x02\n")
    paranoid = tmp_path / "paranoid"
    paranoid.write_text("2\n")
    monkeypatch.setattr("greenlint.meter.counters.perf.os.geteuid", lambda: 1000)
    avail = PerfSource.probe(pmu, paranoid)
    assert avail.error is SourcePermissionError and "perf_event_paranoid" in avail.reason
    paranoid.write_text("0\n")
    assert PerfSource.probe(pmu, paranoid).ok


def test_hardware_id_is_stable_and_hardware_specific():
    a = hardware_id("Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz", 64, ("NVIDIA A100-SXM4-40GB",))
    assert a == hardware_id("Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz", 64, ("NVIDIA A100-SXM4-40GB",))
    assert a.startswith("intel-xeon-gold-6130-64c-1xa100")
    assert a != hardware_id("Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz", 64, ())
    assert hardware_id() == hardware_id()


def test_import_greenlint_and_meter_do_not_import_tensorflow():
    code = (
        "import sys, greenlint, greenlint.meter, greenlint.hardware, meter.counters, meter.session\n"
        "from greenlint.hardware import hardware_id; hardware_id()\n"
        "assert 'tensorflow' not in sys.modules, 'tensorflow imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_unknown_name_in_greenlint_meter():
    import greenlint.meter

    with pytest.raises(AttributeError):
        greenlint.meter.Nope  # noqa: B018


def test_real_perf_reader():
    avail = PerfSource.probe()
    if not avail.ok:
        pytest.skip(f"perf cannot read RAPL here: {avail.reason}")
    import time

    src = PerfSource(interval_ms=10)
    try:
        a = src.read()
        time.sleep(0.1)
        b = src.read()
        assert b.energy_j["cpu"] >= a.energy_j["cpu"]
    finally:
        src.close()
