"""The cross-validation on constructed data: no leakage, the seen/unseen split, the report."""

from __future__ import annotations

import pytest

from greenlint.predict.hierarchy import Hierarchy
from tests.predict.conftest import FakeCatalog, record
from tools.model.accuracy import render
from tools.model.cross_validation import censored_metrics, cross_validate, metrics, subsets

_STAMP = {"kb_digest": "x", "catalog_digest": "c", "model_digest": "m", "code_digest": "d"}


def _kb():
    recs = []
    for t in range(6):
        for e in range(2):
            recs.append(record("tf.keras.Sequential.fit", 100.0 * (t + 1), script=f"t{t}", experiment=e, index=0))
            recs.append(record("tf.keras.layers.Dense", 2.0 + t, script=f"t{t}", experiment=e, index=1))
            recs.append(record("tf.constant", 0.0, script=f"t{t}", experiment=e, index=2, below=True, bound=1.0))
    # an API measured in one tutorial only, and that tutorial again in the other dataset
    for e in range(2):
        recs.append(record("tf.keras.layers.Conv2D", 40.0, script="t0", experiment=e, index=3))
        recs.append(record("tf.keras.layers.Conv2D", 40.0, script="tensorflow_docs/t0", dataset="greenlight",
                           experiment=e, index=0, line=7))
    return recs


def test_held_out_tutorial_never_informs_its_prediction():
    held = cross_validate(_kb(), Hierarchy(FakeCatalog()), folds=2)
    conv = [h for h in held if h.site.api == "tf.keras.layers.Conv2D"]
    # both copies of tutorial t0 (FECoM and Greenlight) are held out together: Conv2D is unseen
    assert len(conv) == 2 and not any(h.seen for h in conv)
    assert all(h.level != "api" for h in conv)
    # no method ever predicts Conv2D's 40 J exactly, which only a leak could give
    assert all(abs(h.preds["api"][0] - h.site.y) > 1e-6 for h in conv)
    parts = subsets(held)
    assert len(parts["seen"]) + len(parts["unseen"]) == len(held)
    m = metrics(held, "predictor")
    # an unseen API without work (Conv2D here) gets no figure, so it is not scored
    assert all("predictor" not in h.preds for h in conv)
    assert m["n"] == sum(not h.site.censored and "predictor" in h.preds for h in held) > 0
    assert 0.0 <= m["coverage"] <= 1.0 and m["mdale"] >= 0.0
    c = censored_metrics(held, "predictor")
    assert c["n"] == sum(h.site.censored for h in held) > 0


def test_report_puts_every_goal_beside_its_number():
    held = cross_validate(_kb(), Hierarchy(FakeCatalog()), folds=2)
    text = render(held, {**_STAMP, "records": 1, "tutorials": 6}, "## Training runs\n\nnone\n")
    assert text.startswith("# Prediction accuracy")
    for goal in ("≥ 0.8", "≤ 0.3", "≥ 60%", "75%–85%", "≥ 0.5", "≤ 0.6", "≤ 15×", "within ±0.1", "≥ 0.95"):
        assert goal in text
    assert "hotspot AUC at 10 J" in text and "ahead of the per-API lookup" in text and "whole scripts" in text
    assert "met" in text
    assert text.rstrip().endswith("none")


def test_size_scaling_check_uses_only_the_other_sweeps():
    from tools.model.cross_validation import size_scaling_check

    recs = []
    for name, scale in (("a/x_fit", 100.0), ("b/y_fit", 7.0)):
        for k in range(1, 11):
            recs.append(record("tf.keras.Sequential.fit", scale * k, script=name, dataset="fecom-data-size",
                               index=k - 1, features={"data_size_fraction": k / 10}))
    checks = size_scaling_check(recs)
    assert [c.sweep for c in checks] == ["a/x_fit", "b/y_fit"]
    for c in checks:
        assert c.exponent is not None and abs(c.exponent - 1.0) < 1e-6
        assert c.mdale_scaled < 1e-6 < c.mdale_unscaled
    # a single sweep has no other sweep to learn from: no exponent, no scaling
    alone = size_scaling_check([r for r in recs if r.project == "a/x_fit"])
    assert alone[0].exponent is None and alone[0].mdale_scaled == alone[0].mdale_unscaled


def test_hotspot_auc_counts_bounds_only_when_they_decide():
    from tools.model.cross_validation import Held, hotspot_auc
    from tools.model.sites import Site

    def held(y, censored, pred):
        site = Site("a", "t", (y,), censored, y, {}, 1, ())
        return Held(site, True, "api", {"m": (pred, pred - 1, pred + 1)})

    rows = [
        held(2.0, False, 1.5),  # 100 J measured, predicted 31 J: above the 10 J threshold
        held(0.0, False, 0.5),  # 1 J measured: below
        held(0.5, True, 0.2),  # below a 3 J bound: known to be below
        held(1.5, True, 1.8),  # below a 31 J bound: side unknown at 10 J, left out
    ]
    a = hotspot_auc(rows, "m", 10.0)
    assert (a["n_pos"], a["n_neg"]) == (1, 2) and a["auc"] == 1.0
    assert hotspot_auc(rows, "m", 1e6)["auc"] is None  # nothing above: undefined, not 0


def test_report_on_no_data_says_so_instead_of_failing():
    text = render([], {**_STAMP, "records": 0, "tutorials": 0}, "")
    assert "not measurable" in text and "Too little data" in text


def test_whole_script_totals_sum_prediction_times_runs_from_the_held_out_model():
    from tools.model.cross_validation import script_metrics, script_totals

    def program(script, joules, startup_j):
        return [record("project-level", joules, script=script, dataset="fecom-project-level", experiment=e,
                       features={"startup_j": startup_j, "startup_s": 2.5}) for e in range(3)]

    recs = _kb() + program("t1", 1000.0, 40.0) + program("t2", 2000.0, 80.0)
    folds = {}
    scripts = {"t1": [("tf.keras.Sequential.fit", {}, 3), ("tf.keras.layers.Dense", {}, None)],
               "t2": [("tf.keras.Sequential.fit", {}, 1)]}
    cross_validate(recs, Hierarchy(FakeCatalog()), folds=2, keep=folds, scripts=scripts)
    t1, t2 = script_totals(recs, scripts, folds)
    p = folds["t1"]
    calls = 3 * p.predict("tf.keras.Sequential.fit").energy_j + p.predict("tf.keras.layers.Dense").energy_j
    assert t1.startup_j == 80.0  # the other program's start-up: t1's own runs never inform it
    # the held device fitted on t2 alone (its 2000 J less its call and start-up, per site, at its draw)
    fitted = p.model["held"]
    assert fitted["programs"] == 1 and fitted["watts"] == 2000.0  # record(): 1 s per run
    t2_calls = p.predict("tf.keras.Sequential.fit").energy_j
    assert fitted["seconds_per_site"] == pytest.approx((2000.0 - t2_calls - 80.0) / 2000.0, rel=1e-3)
    assert t1.held_j == pytest.approx(2 * fitted["seconds_per_site"] * 2000.0) and t1.held_j > 0
    assert t1.predicted_j == pytest.approx(calls + 80.0 + t1.held_j) and t1.measured_j == 1000.0
    assert (t1.calls, t1.runs_unknown) == (2, 1)
    assert script_metrics([t1, t2])["n"] == 2


def test_without_the_whole_script_table_no_held_device_is_fitted():
    from tools.model.train import train

    runs = [record("project-level", 1000.0, script="t1", dataset="fecom-project-level", experiment=e) for e in range(3)]
    hierarchy = Hierarchy(FakeCatalog())
    assert train(_kb() + runs, hierarchy, folds=2)["held"] is None
    assert train(_kb() + runs, hierarchy, folds=2, scripts={"t9": [("tf.constant", {}, 1)]})["held"] is None


def test_the_held_device_is_the_median_time_per_site_beyond_the_calls_at_the_runs_median_draw():
    """Programs built so that each ran g_i s per call site beyond its calls' figures at 50 W: the fit
    gives back 50 W and the median g_i, whatever the programs' lengths."""
    from greenlint.predict.predictor import Predictor
    from tools.model.scripts import fit_held, script_calls
    from tools.model.train import train

    hierarchy = Hierarchy(FakeCatalog())
    model = train(_kb(), hierarchy, folds=2)
    predictor = Predictor(model, hierarchy=hierarchy, model_bytes=b"")
    scripts, runs = {}, []
    for i, (sites, g) in enumerate(((2, 0.2), (5, 0.5), (9, 1.0), (3, 0.4), (4, 3.0))):
        name = f"p{i}"
        scripts[name] = [("tf.keras.layers.Dense", {}, 2)] * sites
        joules = script_calls(predictor, scripts[name]).total_j + g * 50.0 * sites
        runs += [record("project-level", joules, script=name, dataset="fecom-project-level", experiment=e,
                        time_s=joules / 50.0) for e in range(2)]
    fitted = fit_held(_kb() + runs, scripts, model, hierarchy)
    assert fitted["watts"] == pytest.approx(50.0) and fitted["seconds_per_site"] == pytest.approx(0.5, rel=1e-3)
    assert fitted["interval_s"][0] <= 0.5 <= fitted["interval_s"][1]
    assert (fitted["programs"], fitted["runs"]) == (5, 10)
    # a program whose calls' figures already exceed what it measured adds no negative time
    assert fit_held(runs[:2], {"p0": scripts["p0"] * 50}, model, hierarchy)["seconds_per_site"] == 0.0


def test_the_start_up_is_the_whole_program_runs_median_with_their_spread():
    from tools.model.train import fit_startup

    runs = [record("project-level", 500.0, script=f"t{t}", dataset="fecom-project-level", experiment=e,
                   features={"startup_j": 10.0 * (t + 1), "startup_s": 2.0 + t})
            for t in range(5) for e in range(2)]
    calls = [record("tf.keras.Sequential.fit", 100.0, features={"startup_j": 1e6, "startup_s": 1.0})]
    fitted = fit_startup(runs + calls)  # a call's record is no program's start
    assert fitted["energy_j"] == 30.0 and fitted["seconds"] == 4.0
    assert fitted["interval_j"][0] < 30.0 < fitted["interval_j"][1] <= 50.0
    assert (fitted["runs"], fitted["programs"]) == (10, 5)
    assert fit_startup(calls) is None


def test_the_shipped_report_is_not_stale():
    """docs/accuracy.md names the digests of what it was computed from; any change fails (never skips)."""
    import re

    from greenlint.kb import load_kb
    from greenlint.paths import REPO_DIR
    from tools.model.accuracy import stamp
    from tools.model.cross_validation import report_inputs

    text = (REPO_DIR / "docs" / "accuracy.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- inputs: (.*?) -->", text)
    assert found, "docs/accuracy.md has no inputs stamp: run `make data`"
    assert found.group(1) == stamp(report_inputs(load_kb())), (
        "docs/accuracy.md is stale (KB, catalog, model or prediction code changed): run `make data`"
    )


def test_kb_sites_are_scored_as_the_linter_prices_them_now():
    from tools.model.scripts import as_linted

    matched_fit = {"loop_multiplier": 1, "epochs": 10, "batch_size": 32}
    assert as_linted("tensorflow.keras.Model.fit", matched_fit) == {**matched_fit, "samples_unknown": True}
    assert as_linted("tensorflow.keras.Model.fit", {"loop_multiplier": 1})["epochs_unknown"] is True
    sized = {"loop_multiplier": 1, "samples": 60000, "epochs": 5}
    assert as_linted("tensorflow.keras.Model.fit", sized) is sized
    assert as_linted("tensorflow.keras.Model.fit", {"epochs": 10}) == {"epochs": 10}  # not matched in its source
    # an Estimator's train given neither steps nor max_steps runs until its input_fn's data ends: size unknown
    assert as_linted("tensorflow.estimator.DNNClassifier.train", {"loop_multiplier": 1}) == {
        "loop_multiplier": 1, "samples_unknown": True, "epochs_unknown": True}
    stopped = {"loop_multiplier": 1, "max_steps": 10}
    assert as_linted("tensorflow.estimator.DNNClassifier.train", stopped) is stopped
    assert as_linted("tensorflow.estimator.DNNClassifier.train", {}) == {}  # not matched in its source
    # an evaluation without steps, and a prediction, pass over input_fn's data: its size unknown
    assert as_linted("tensorflow.estimator.DNNClassifier.evaluate", {"loop_multiplier": 1}) == {
        "loop_multiplier": 1, "samples_unknown": True}
    evaluated = {"loop_multiplier": 1, "steps": 10}
    assert as_linted("tensorflow.estimator.DNNClassifier.evaluate", evaluated) is evaluated
    assert as_linted("tensorflow.estimator.DNNClassifier.predict", {"loop_multiplier": 1})["samples_unknown"] is True


def test_a_floor_ranks_by_its_range_not_by_its_least():
    from tools.model.cross_validation import Held, hotspot_auc
    from tools.model.sites import Site

    def held(y, pred, low, high, floor=False):
        h = Held(Site("a", "t", (y,), False, y, {}, 1, ()), True, "api", {"m": (pred, low, high)})
        if floor:
            h.bounds["m"] = "floor"
        return h

    below = [held(0.0, -2.0, -2.5, -1.5), held(0.5, 0.5, 0.0, 1.0)]  # 1 J and 3 J, points at 0.01 J and 3 J
    # 300 J measured, a floor of 0.05 J up to 10^4 J: the 0.01 J point is under its least (ranked under it),
    # the 3 J one inside its range (unordered: a half)
    floor = held(2.5, -1.3, -1.6, 4.0, floor=True)
    assert hotspot_auc([floor, *below], "m", 10.0)["auc"] == 0.75
    # the same figures as a point: ranked at 0.05 J, under the 3 J point
    point = held(2.5, -1.3, -1.6, 4.0)
    assert hotspot_auc([point, *below], "m", 10.0)["auc"] == 0.5
    # a floor whose least is over every figure below ranks above them all
    assert hotspot_auc([held(2.5, 1.5, 1.2, 4.0, floor=True), *below], "m", 10.0)["auc"] == 1.0
    # with points only it is the Mann-Whitney AUC: ties count half
    assert hotspot_auc([held(2.5, 0.5, 0.0, 1.0), *below], "m", 10.0)["auc"] == 0.75


#: The evaluation of `_kb()` rendered as docs/accuracy.md is, printed as its bytes' digest.
_EVALUATE_TWICE = """
import hashlib, sys
from greenlint.predict.hierarchy import Hierarchy
from tests.predict.conftest import FakeCatalog, record
from tests.tools.model.test_evaluate import _STAMP, _kb
from tools.model.accuracy import render
from tools.model.cross_validation import cross_validate, script_totals, size_scaling_check

recs = _kb() + [record("project-level", 1000.0, script="t1", dataset="fecom-project-level", experiment=e)
                for e in range(3)]
folds = {}
held = cross_validate(recs, Hierarchy(FakeCatalog()), folds=2, keep=folds)
scripts = {"t1": [("tf.keras.Sequential.fit", {}, 3), ("tf.keras.layers.Dense", {}, None)]}
text = render(held, {**_STAMP, "records": len(recs), "tutorials": 6}, "## Training runs\\n\\nnone\\n",
              size_scaling_check(recs), script_totals(recs, scripts, folds))
sys.stdout.write(hashlib.sha256(text.encode()).hexdigest() + " " + str(len(text)))
"""


def test_the_evaluation_is_deterministic_across_processes(tmp_path):
    """Same inputs, the same bytes: two interpreters with different hash seeds (set and dict order of
    strings) render the same report."""
    import os
    import subprocess
    import sys

    from tools import REPO_DIR

    digests = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "GREENLINT_CACHE_DIR": str(tmp_path / seed),
               "PYTHONPATH": str(REPO_DIR)}
        proc = subprocess.run([sys.executable, "-c", _EVALUATE_TWICE], cwd=REPO_DIR, env=env, capture_output=True,
                              text=True, timeout=240)
        assert proc.returncode == 0, proc.stderr
        digests.append(proc.stdout)
    assert digests[0] == digests[1] and int(digests[0].split()[1]) > 1000


def test_every_priced_site_has_a_path_and_the_report_scores_each_path():
    from tools.model.accuracy import _paths
    from tools.model.cross_validation import PATHS

    held = cross_validate(_kb(), Hierarchy(FakeCatalog()), folds=2)
    priced = [h for h in held if "predictor" in h.preds]
    assert priced and all(h.path in PATHS for h in priced)
    assert all(h.path is None for h in held if "predictor" not in h.preds)
    rows = {line.split(" | ")[0].lstrip("| "): line for line in _paths(held)[2:]}
    assert set(rows) == {h.path for h in priced}
    for path, line in rows.items():
        m = metrics([h for h in held if h.path == path], "predictor", bounds=True)
        assert f"| {m['n']} |" in line
        if m["n"]:
            assert f"{100 * m['coverage']:.0f}%" in line
    text = render(held, {**_STAMP, "records": 1, "tutorials": 6}, "")
    assert "### Coverage and width by prediction path" in text and _paths(held)[2] in text


def _scored(y: float, pred: tuple, bound: str | None = None):
    from tools.model.cross_validation import Held
    from tools.model.sites import Site

    return Held(Site("a", "t", (y, pred), False, y, {}, 1, ()), True, "api", {"m": pred},
                bounds={"m": bound} if bound else {})


def test_a_bound_is_scored_by_whether_it_holds_not_as_a_point():
    import math

    from tools.model.cross_validation import bound_metrics

    rows = [
        _scored(1.0, (1.0, 0.5, 1.5)),  # a point, exact
        _scored(2.0, (1.0, -math.inf, 2.5), "upper"),  # an upper bound that holds (2 <= 2.5)
        _scored(3.0, (1.0, -math.inf, 2.5), "upper"),  # one that does not
        _scored(2.0, (0.5, 0.2, 4.0), "floor"),  # a floor that holds (0.2 <= 2)
    ]
    points = metrics(rows, "m")
    assert points["n"] == 1 and points["bias"] == 0.0
    as_points = metrics(rows, "m", bounds=True)
    assert as_points["n"] == 4 and as_points["bias"] < 0  # the bounds read as points pull it down
    b = bound_metrics(rows, "m")
    assert b["upper"] == {"n": 2, "holds": 0.5} and b["floor"] == {"n": 1, "holds": 1.0}


def test_bound_kind_tells_floors_and_upper_bounds_from_points():
    from greenlint.predict.prediction import Basis, Prediction
    from tools.model.cross_validation import bound_kind

    def pred(interval, floor=False):
        return Prediction(1.0, interval, None, None, None, Basis.FROM_DATA, floor=floor)

    assert bound_kind(pred((0.5, 2.0))) is None
    assert bound_kind(pred((0.0, 2.0))) == "upper"
    assert bound_kind(pred((0.5, 2e4), floor=True)) == "floor"


def test_gl101s_decision_flags_only_a_narrow_low_end_above_the_threshold():
    import math

    from tools.model.cross_validation import hotspot_decision

    rows = [
        _scored(2.0, (1.8, 1.5, 2.5)),  # 100 J, low end 31 J, 10x wide: flagged at 10 J, truly above
        _scored(0.5, (1.4, 1.2, 1.6)),  # 3 J, low end 16 J: flagged, truly below
        _scored(2.0, (1.0, 0.0, 4.0)),  # 100 J, low end 1 J: not flagged (and 10^4 wide)
        _scored(3.0, (2.0, 1.5, 3.6)),  # 1 kJ, low end 31 J but 126x wide: a range, not flagged
        _scored(2.0, (1.5, -math.inf, 2.5), "upper"),  # an upper bound never makes a hotspot
    ]
    d = hotspot_decision(rows, "m", 10.0)
    assert d == {"flagged": 2, "precision": 0.5, "recall": 0.25}
