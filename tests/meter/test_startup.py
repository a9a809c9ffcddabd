"""A program's start-up measured here (greenlint.meter.startup): a fresh interpreter's CPU seconds."""

from __future__ import annotations

import os
import subprocess

import pytest

from greenlint.meter.startup import measure_startup


def test_the_start_up_is_the_childs_cpu_seconds_at_the_estimated_power():
    tdp = 10.0 * (os.cpu_count() or 1)  # 10 W per busy core
    light = measure_startup(2, "pass", tdp_w=tdp)
    heavy = measure_startup(2, "sum(i * i for i in range(3_000_000))", tdp_w=tdp)
    assert heavy["runs"] == 2 and heavy["statement"].startswith("sum(")
    assert heavy["cpu_s"] > light["cpu_s"] >= 0  # the child's own work, not this process's
    assert heavy["energy_j"] == pytest.approx(10.0 * heavy["cpu_s"], rel=1e-3, abs=1e-3)
    low, high = heavy["interval_j"]
    assert low <= heavy["energy_j"] <= high
    assert "10 W" in heavy["power_model"] or "TDP" in heavy["power_model"]


def test_a_statement_that_fails_is_an_error_not_a_figure():
    with pytest.raises(subprocess.CalledProcessError):
        measure_startup(1, "raise SystemExit(3)")
