"""The powercap RAPL reader against a constructed sysfs tree (real file reads)."""

from __future__ import annotations

import os

import pytest

from greenlint.meter.counters import SourcePermissionError, SourceUnavailable, build_sources
from greenlint.meter.counters import rapl as rapl_mod
from greenlint.meter.counters.rapl import RaplSource


def make_zone(root, name, zone, energy_uj, max_uj=262143328850):
    d = root / name
    d.mkdir(parents=True)
    (d / "name").write_text(zone + "\n")
    (d / "energy_uj").write_text(f"{energy_uj}\n")
    (d / "max_energy_range_uj").write_text(f"{max_uj}\n")
    return d


@pytest.fixture
def tree(tmp_path):
    make_zone(tmp_path, "intel-rapl:0", "package-0", 1_000_000)
    make_zone(tmp_path, "intel-rapl:0:0", "core", 500_000)
    make_zone(tmp_path, "intel-rapl:0:1", "dram", 200_000)
    make_zone(tmp_path, "intel-rapl:1", "package-1", 3_000_000)
    return tmp_path


def set_uj(root, zone, value):
    (root / zone / "energy_uj").write_text(f"{value}\n")


def test_reads_package_and_dram_and_sums_packages(tree):
    src = RaplSource(tree)
    assert src.measures == ("cpu", "ram")
    first = src.read()
    assert first.energy_j == pytest.approx({"cpu": 4.0, "ram": 0.2})
    set_uj(tree, "intel-rapl:0", 3_500_000)
    set_uj(tree, "intel-rapl:0:1", 700_000)
    second = src.read()
    assert second.energy_j["cpu"] - first.energy_j["cpu"] == pytest.approx(2.5)
    assert second.energy_j["ram"] - first.energy_j["ram"] == pytest.approx(0.5)
    assert "intel-rapl:0:0 (core)" not in src.zones  # core is part of the package: not counted twice


def test_wrap_around_uses_max_energy_range(tmp_path):
    make_zone(tmp_path, "intel-rapl:0", "package-0", 900, max_uj=1000)
    src = RaplSource(tmp_path)
    a = src.read().energy_j["cpu"]
    set_uj(tmp_path, "intel-rapl:0", 100)  # wrapped: 900 -> 1000 -> 0 -> 100 = 200 uJ used
    b = src.read().energy_j["cpu"]
    assert (b - a) * 1e6 == pytest.approx(200)
    set_uj(tmp_path, "intel-rapl:0", 50)  # wrapped again: 950 uJ
    c = src.read().energy_j["cpu"]
    assert (c - b) * 1e6 == pytest.approx(950)


def test_missing_tree_is_unavailable_with_reason(tmp_path):
    avail = RaplSource.probe(tmp_path / "nope")
    assert not avail.ok and avail.error is SourceUnavailable
    assert "does not exist" in avail.reason
    with pytest.raises(SourceUnavailable):
        RaplSource(tmp_path / "nope")


def test_root_only_energy_uj_names_privilege_and_fix(tree, monkeypatch):
    real_open = open

    def fake_open(path, *a, **kw):
        if str(path).endswith("energy_uj"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *a, **kw)

    monkeypatch.setattr(rapl_mod, "open", fake_open, raising=False)
    avail = RaplSource.probe(tree)
    assert not avail.ok and avail.error is SourcePermissionError
    assert "root" in avail.reason and "chmod" in avail.reason and "udev" in avail.reason
    with pytest.raises(SourcePermissionError, match="chmod"):
        RaplSource(tree)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a mode-000 file anyway; covered by the monkeypatched test")
def test_mode_000_energy_uj_is_a_permission_error(tree):
    (tree / "intel-rapl:1" / "energy_uj").chmod(0)
    assert RaplSource.probe(tree).error is SourcePermissionError


def test_unreadable_energy_uj_is_not_reported_as_zero(tree):
    target = tree / "intel-rapl:1" / "energy_uj"
    target.unlink()
    target.mkdir()  # a directory where the counter should be: unreadable for root too
    avail = RaplSource.probe(tree)
    assert not avail.ok and "unreadable" in avail.reason


def test_build_falls_back_and_says_why_each_component_is_missing(tmp_path):
    result = build_sources(("rapl", "estimated"), options={"rapl": {"root": tmp_path / "none"}})
    assert result.covers["cpu"].name == "estimated"
    assert result.estimated
    assert "ram" not in result.covers and "does not exist" in result.not_measured["ram"]
    assert "gpu" in result.not_measured
    desc = result.describe()
    assert desc["basis"] == "estimated"
    assert desc["components"]["ram"]["basis"] == "not-measured"
    reading = result.read()
    assert set(reading.energy_j) == {"cpu"}  # not measured is absent, never 0 J


def test_rapl_wins_over_estimate_when_readable(tree):
    result = build_sources(("rapl", "estimated"), options={"rapl": {"root": tree}})
    assert result.covers["cpu"].name == "rapl" and result.covers["ram"].name == "rapl"
    assert not result.estimated
    assert "not needed" in result.tried["estimated"]


def test_real_powercap_reader():
    avail = RaplSource.probe()
    if not avail.ok:
        pytest.skip(f"no readable RAPL here: {avail.reason}")
    src = RaplSource()
    a, b = src.read(), src.read()
    assert b.energy_j["cpu"] >= a.energy_j["cpu"]


def test_nothing_readable_means_nothing_measured_not_zero(tmp_path):
    from greenlint.meter.session import MeterConfig, MeterSession
    from greenlint.meter.stability import StabilitySettings

    sources = build_sources(("rapl",), allow_estimate=False, options={"rapl": {"root": tmp_path / "none"}})
    assert not sources.sources and set(sources.not_measured) == {"cpu", "ram", "gpu"}
    cfg = MeterConfig(interval_s=0.01, stability=StabilitySettings(check_last_n_points=3, check_bin_s=0.01,
                                                                   max_wait_s=0.2, check_interval_s=0.01))
    session = MeterSession(cfg, sources)
    session.start()
    start = session.sampler.samples[-1].epoch_ns
    import time

    time.sleep(0.05)
    record = session.record("f()", start, session.sampler.samples[-1].epoch_ns)
    session.stop()
    (body,) = record.values()
    assert body["energy_data"] == {"cpu": None, "ram": None, "gpu": None}
    assert body["meter"]["basis"] == "not-measured"
    from greenlint.window import measured_net_j

    assert measured_net_j(session.energy(record)) is None
