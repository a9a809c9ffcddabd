"""The per-step timings of bench/timed/steps.py: the slope and summary arithmetic, the calibration
variant kept to the calibration's MLP, and the committed results consistent with the variants they
name. Nothing here times anything."""

from __future__ import annotations

import json

import pytest

from bench.timed.steps import LONG, SHORT, STEPS_RESULTS, VARIANTS, per_step_s, summarise
from greenlint.meter.workloads.models import SMALL


def test_a_step_is_the_slope_between_the_two_epochs():
    # 0.5 s of the call's own and tracing costs in both, 2 ms per step
    assert per_step_s(0.5 + 0.002 * SHORT, 0.5 + 0.002 * LONG) == pytest.approx(0.002)


def test_summary_gives_median_spread_load_and_ratio_to_the_reference():
    def run(ms: float, load: float) -> dict:
        return {"cpu_s": [ms * SHORT / 1e3, ms * LONG / 1e3], "load": load}

    out = summarise({"calibration": [run(1.0, 2.0), run(1.2, 2.5), run(0.8, 1.0)],
                     "scripts": [run(2.0, 2.0), run(3.0, 2.1)]})
    assert out["calibration"]["median_ms"] == pytest.approx(1.0)
    assert out["calibration"]["spread"] == pytest.approx(0.4)
    assert out["calibration"]["load"] == [2.0, 2.5, 1.0]
    assert out["scripts"]["median_ms"] == pytest.approx(2.5)
    assert out["scripts"]["vs_reference"] == pytest.approx(2.5)
    assert summarise({"scripts": [run(2.0, 1.0)]})["scripts"]["vs_reference"] is None


def test_the_reference_variant_is_the_calibrations_mlp():
    assert VARIANTS["calibration"] == (SMALL, "mse", "float32")


def test_committed_results_are_those_of_the_variants_named_now():
    results = json.loads(STEPS_RESULTS.read_text(encoding="utf-8"))
    assert results["variants"] == {k: {"hidden": list(h), "loss": lo, "dtype": d} for k, (h, lo, d) in VARIANTS.items()}
    assert results["steps"] == [SHORT, LONG]
    assert results["summary"] == summarise(results["timings"])
    assert all(len(runs) == results["repeats"] for runs in results["timings"].values())
