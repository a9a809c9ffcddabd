"""This machine's calibration overlay applied to the shipped model: measured APIs centred on what was
measured here, others rescaled and labelled, the split limited to this machine's counters."""

from __future__ import annotations

import json
import math

import pytest

from greenlint.kb.record import SCHEMA_VERSION, KBRecord
from greenlint.kb.store import write_kb
from greenlint.predict import Basis, load_predictor
from greenlint.predict.calibration import CALIBRATION_JSON, NOISE_SD, Z80
from greenlint.predict.loading import find_overlay
from greenlint.predict.predictor import Predictor
from greenlint.predict.work_energy import start_up, time_of

MATMUL, FIT = "tensorflow.matmul", "tensorflow.keras.Model.fit"
WORK = {"n": 256, "flops": 2 * 256**3}


def measured(api, joules, workload, repeat, features, time_s=0.002):
    """One calibration record of a CPU-only machine (no GPU counter): 90 % CPU, 10 % DRAM."""
    return KBRecord(
        api=api, raw_signature=api + "()", fecom_name=api, dataset="calibration", project="calibration",
        script=workload, experiment=1, index=repeat, line=None, hardware_id="hw-test", execution_time_s=time_s,
        cpu_gross_j=joules, cpu_net_j=0.9 * joules, ram_gross_j=joules, ram_net_j=0.1 * joules, gpu_gross_j=None,
        gpu_net_j=None, noise_j=1e-6, below_resolution=False, upper_bound_j=1e-5, series_cut_short=False,
        window_samples=40, args_size=None, kwargs_size=None, object_size=None,
        features={**features, "workload": workload, "estimated": False},
    )


@pytest.fixture(scope="module")
def shipped():
    return load_predictor(overlay=False)


def overlay_at(tmp_path, shipped, repeats=(3.5e-3, 3.6e-3, 3.7e-3), history=()):
    d = tmp_path / "hw-test"
    recs = [measured(MATMUL, j, "matmul_256", i, WORK) for i, j in enumerate(repeats)]
    ref_fit_s = shipped.model["apis"][FIT]["time_s"]
    recs += [measured("tensorflow.reduce_sum", 1.6e-3, "reduce_sum", i, {"elements": 1 << 20},
                      time_s=ref_fit_s * 0.5) for i in range(3)]
    write_kb(d, recs, {"schema_version": SCHEMA_VERSION}, "constructed overlay\n")
    if history:
        (d / CALIBRATION_JSON).write_text(json.dumps({"history": [{"workloads": h} for h in history]}))
    ov = find_overlay(shipped.model, d)
    assert ov is not None
    return Predictor(shipped.model, overlay=ov, hierarchy=shipped.hierarchy)


def test_a_calibrated_api_is_centred_on_what_was_measured_here(tmp_path, shipped):
    p = overlay_at(tmp_path, shipped).predict(MATMUL, {})
    ref = shipped.predict(MATMUL, {})
    assert p.basis is Basis.CALIBRATED and p.label == "calibrated here"
    assert p.energy_j == pytest.approx(3.6e-3)
    # the interval from the repeats' spread (floored at the run-to-run noise), not the model's prior
    lo, hi = p.interval_j
    assert lo < 3.5e-3 and hi > 3.7e-3
    assert math.log10(hi / lo) / 2 == pytest.approx(Z80 * NOISE_SD, rel=0.3)
    # the reference: unsized, a floor from one dispatch up to the high end of the API's bounds (tens of J)
    assert ref.floor and ref.interval_j[1] > 100 * hi
    # the split follows this machine's counters: CPU and DRAM as measured, no GPU share
    assert p.gpu_j is None and p.cpu_j == pytest.approx(0.9 * p.energy_j) and p.ram_j == pytest.approx(0.1 * p.energy_j)


def test_the_measured_figure_moves_with_the_calls_work_by_the_reference_ratio(tmp_path, shipped):
    p = overlay_at(tmp_path, shipped)
    same = p.predict(MATMUL, dict(WORK))
    assert same.energy_j == pytest.approx(3.6e-3)
    big = {"flops": 2 * 8192**3}
    scaled = p.predict(MATMUL, big)
    ratio = shipped.predict(MATMUL, {**WORK, **big}).energy_j / shipped.predict(MATMUL, WORK).energy_j
    assert ratio > 1.5
    assert scaled.energy_j == pytest.approx(3.6e-3 * ratio)
    assert scaled.basis is Basis.CALIBRATED and "for this call's work" in scaled.evidence.note
    assert scaled.interval_ratio > same.interval_ratio  # moving the measurement costs some certainty


def test_apis_only_rescaled_are_labelled_and_lose_the_gpu_share_without_a_gpu_counter(tmp_path, shipped):
    p = overlay_at(tmp_path, shipped)
    ref = shipped.predict(FIT, {"epochs": 5})
    assert ref.gpu_j and ref.gpu_j > 0  # the reference machine had a GPU
    fit = p.predict(FIT, {"epochs": 5})
    assert fit.basis is Basis.CALIBRATED_RESCALED and fit.label == "calibrated here, rescaled"
    assert fit.gpu_j is None
    assert fit.cpu_j + fit.ram_j == pytest.approx(fit.energy_j)
    assert "no GPU counter" in fit.evidence.note and "rescaled" in fit.evidence.note
    assert fit.to_json()["basis"] == "calibrated-rescaled"


def test_repeated_calibrations_report_their_disagreement_and_widen_the_interval(tmp_path, shipped):
    one = overlay_at(tmp_path / "a", shipped).predict(MATMUL, {})
    earlier = {"matmul_256": {"api": MATMUL, "per_execution_j": 7.2e-3, "per_execution_s": 0.002}}
    two = overlay_at(tmp_path / "b", shipped, history=[earlier]).predict(MATMUL, {})
    assert "2 calibrations of this machine differ by ×2" in two.evidence.note
    assert two.interval_ratio > 2 * one.interval_ratio
    assert two.energy_j == pytest.approx(one.energy_j)  # centred on this calibration's measurement
    assert two.interval_j[1] >= 7.2e-3  # and spanning the earlier one
    # another workload of the API measured earlier is other work: no disagreement with this one
    other = {"matmul_1024": {"api": MATMUL, "per_execution_j": 0.2, "per_execution_s": 0.05}}
    three = overlay_at(tmp_path / "c", shipped, history=[other]).predict(MATMUL, {})
    assert "calibrations" not in three.evidence.note and three.interval_ratio == pytest.approx(one.interval_ratio)


def test_the_editor_hover_and_hint_carry_the_calibrated_labels(tmp_path, shipped):
    from greenlint.analysis.callsite import CallSite, Span
    from greenlint.lsp_server.energy_text import hint_label, hover_markdown
    from greenlint.rules.site import Site

    p = overlay_at(tmp_path, shipped)
    for api, label in ((MATMUL, "calibrated here"), (FIT, "calibrated here, rescaled")):
        site = Site(CallSite("a.py", Span(1, 1, 1, 10), api, {}), p.predict(api, {"epochs": 5} if api == FIT else {}))
        hover = hover_markdown(site, [])
        assert f"**Basis:** {label}" in hover and "hw-test" in hover
        assert hint_label([site]).endswith(f"({label})")


def test_a_calibrated_sequential_fit_prices_model_fit_the_api_it_is_pooled_under(tmp_path, shipped):
    d = tmp_path / "hw-test"
    work = {"samples": 1024, "batch_size": 32, "epochs": 1}
    write_kb(d, [measured("tensorflow.keras.Sequential.fit", j, "mlp_fit_1024", i, work, time_s=0.2)
                 for i, j in enumerate((0.8, 0.82, 0.84))], {"schema_version": SCHEMA_VERSION}, "constructed overlay\n")
    p = Predictor(shipped.model, overlay=find_overlay(shipped.model, d), hierarchy=shipped.hierarchy)
    # its time counts in the ratio under the pooled name, against the reference time of the same work
    # (past the first call's start-up), not against the median fit the public data timed (~20 s)
    steady = shipped.model["work"]["time"]["training"]
    reference_s = time_of(steady, 32, None, start=False)
    assert p.overlay.time_ratio == pytest.approx(0.2 / reference_s, rel=1e-6) and p.overlay.n_ratio == 1
    for api in ("tensorflow.keras.Sequential.fit", FIT):
        fit = p.predict(api, dict(work))
        assert fit.basis is Basis.CALIBRATED and fit.energy_j == pytest.approx(0.82)
    ten = p.predict(FIT, {**work, "epochs": 10})
    one, more = shipped.predict(FIT, work).energy_j, shipped.predict(FIT, {**work, "epochs": 10}).energy_j
    assert ten.energy_j == pytest.approx(0.82 * more / one)
    work_model = shipped.model["work"]
    offset = 10 ** work_model["offsets"].get(FIT, 0.0)  # this API's measured sites against the work model
    start = work_model["power"]["training"]["steady_w"] * start_up(work_model["time"]["training"], work) * offset
    assert (more - start) / (one - start) == pytest.approx(10, rel=0.01)  # ten epochs: ten times, past the start-up


def test_after_calibrate_a_floor_stays_a_floor_and_an_unknown_stays_unknown(tmp_path, shipped):
    d = tmp_path / "hw-test"
    work = {"samples": 1024, "batch_size": 32, "epochs": 1}
    write_kb(d, [measured(FIT, j, "mlp_fit_1024", i, work, time_s=0.2) for i, j in enumerate((0.8, 0.82, 0.84))],
             {"schema_version": SCHEMA_VERSION}, "constructed overlay\n")
    p = Predictor(shipped.model, overlay=find_overlay(shipped.model, d), hierarchy=shipped.hierarchy)
    unsized = {"epochs": 8, "batch_size": 32, "samples_unknown": True}
    ref = shipped.predict(FIT, unsized)
    here = p.predict(FIT, unsized)
    assert ref.floor and here.floor and here.basis is not Basis.CALIBRATED
    assert "data size unknown" in here.evidence.note
    assert here.energy_j == pytest.approx(ref.energy_j * p.overlay.time_ratio)
    never = "tensorflow.keras.layers.EinsumDense.__call__"
    assert shipped.predict(never, {}).energy_j is None and p.predict(never, {}).energy_j is None


def test_after_calibrate_a_negligible_bound_is_rescaled_too(tmp_path, shipped):
    p = overlay_at(tmp_path, shipped)
    api = "tensorflow.keras.layers.Dense"  # a constructor: no tensor work
    ref, here = shipped.predict(api, {"units": 8}), p.predict(api, {"units": 8})
    assert ref.basis is Basis.NEGLIGIBLE and here.basis is Basis.NEGLIGIBLE
    assert here.energy_j == pytest.approx(ref.energy_j * p.overlay.time_ratio)
    assert here.interval_j == (0.0, pytest.approx(ref.interval_j[1] * p.overlay.time_ratio))  # the bound too


def test_a_start_up_the_calibration_measured_is_this_machines_else_the_reference_machines(tmp_path, shipped):
    plain = overlay_at(tmp_path, shipped)
    assert plain.startup() == shipped.startup()  # no start-up in this calibration: the model's
    assert shipped.startup().basis is Basis.FROM_DATA
    here = {"statement": "import tensorflow as tf; tf.zeros(1) + 1", "runs": 3, "cpu_s": 3.1, "energy_j": 31.0,
            "interval_j": [29.0, 35.0], "power_model": "assumed 10 W per busy logical core"}
    (tmp_path / "hw-test" / CALIBRATION_JSON).write_text(json.dumps({"startup": here}))
    start = Predictor(shipped.model, overlay=find_overlay(shipped.model, tmp_path / "hw-test"),
                      hierarchy=shipped.hierarchy).startup()
    assert start.basis is Basis.CALIBRATED_ESTIMATED and start.label == "calibrated here, estimated"
    assert (start.energy_j, start.interval_j, start.cpu_j) == (31.0, (29.0, 35.0), 31.0)
    assert "3.1 CPU s" in start.evidence.note and "3 runs" in start.evidence.note
    (tmp_path / "hw-test" / CALIBRATION_JSON).write_text(json.dumps({"startup": {**here, "energy_j": "lots"}}))
    broken = Predictor(shipped.model, overlay=find_overlay(shipped.model, tmp_path / "hw-test"),
                       hierarchy=shipped.hierarchy).startup()
    assert broken == shipped.startup()  # a malformed record is no figure of this machine
