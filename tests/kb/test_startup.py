"""A whole program's start-up (greenlint.kb.energy.startup): its first line to the GPU's rise."""

from __future__ import annotations

import json

import pytest

from greenlint.kb.energy import GPU_RISE_W, startup
from greenlint.kb.measurement import parse_record
from tests.kb.helpers import STEP, measurement, split_frame


def _program(*, rise: int | None, gpu: bool = True, cpu_extra: float = 10.0, gpu_idle: float = 20.0):
    """A program run from sample 45 to 75: its imports busy the CPU from 45 to 50, the GPU draws 55 W
    above idle from sample *rise* on (None: never)."""
    item = measurement("project-level", n=110, start=45, end=75, cpu_extra=0.0, gpu_idle=gpu_idle, gpu=gpu)
    body = item["project-level"]
    cpu = json.loads(body["energy_data"]["cpu"])["data"]
    for row in cpu[45:50]:
        row[1] += cpu_extra
    body["energy_data"]["cpu"] = split_frame(["time_elapsed", "energy (J)"], cpu)
    if gpu:
        rows = json.loads(body["energy_data"]["gpu"])["data"]
        for i, row in enumerate(rows):
            row[1] = gpu_idle + (55.0 if rise is not None and rise <= i < 90 else 0.0)
        body["energy_data"]["gpu"] = split_frame(["timestamp", "power_draw (W)", "time_elapsed", "temperature"], rows)
    return parse_record(item)


def test_the_start_up_runs_from_the_first_line_to_the_gpus_rise_and_counts_what_the_imports_drew():
    s = startup(_program(rise=50))
    assert s["startup_s"] == pytest.approx(5 * STEP)
    assert s["startup_j"] == pytest.approx(5 * 10.0)  # the CPU's five busy samples; the GPU still idle


def test_a_later_runtime_start_makes_a_longer_start_up_and_the_gpu_net_stays_out_of_it():
    early, late = startup(_program(rise=50)), startup(_program(rise=60))
    assert late["startup_s"] == pytest.approx(early["startup_s"] + 10 * STEP)
    assert late["startup_j"] == pytest.approx(early["startup_j"])  # idle samples add nothing net


def test_no_start_up_without_a_gpu_series_or_where_the_gpu_never_rises():
    assert startup(_program(rise=None, gpu=False)) == {}
    assert startup(_program(rise=None)) == {}


def test_noise_under_the_rise_threshold_is_not_a_rise():
    item = _program(rise=None)
    rows = item.energy_data["gpu"]["data"]
    rows[55][1] += GPU_RISE_W / 2
    rows[60][1] += 2 * GPU_RISE_W
    assert startup(item)["startup_s"] == pytest.approx(15 * STEP)
