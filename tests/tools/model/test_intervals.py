"""Interval calibration: finite-sample conformal factors, per calibration group, from the predictor itself."""

from __future__ import annotations

import math

import pytest

from greenlint.predict.hierarchy import Hierarchy
from greenlint.predict.predictor import Predictor
from greenlint.predict.tables import SINGLE, lookup
from tests.predict.conftest import FakeCatalog, record
from tools.model.intervals import calibrate, conformal_quantile, quantile
from tools.model.train import call_sites, train

MANY = "tf.experimental.numpy.sum"  # measured in every tutorial
ONE = "tf.experimental.numpy.prod"  # measured in one tutorial only
#: The ops' tensor size stated by their code: their API's figure, not the floor of an unsized op.
SIZED = {"tensor_bytes": 4000}


@pytest.fixture(scope="module")
def hierarchy():
    return Hierarchy(FakeCatalog())


def _records(tutorials: int = 30) -> list:
    recs = []
    for t in range(tutorials):
        # a spread of a factor ~3 between tutorials, deterministic
        recs.append(record(MANY, 100.0 * 3 ** math.sin(1.7 * t), script=f"t{t}", index=0, features=SIZED))
    recs.append(record(ONE, 50.0, script="t0", index=1, features=SIZED))
    return recs


def test_conformal_quantile_raises_the_level_by_the_finite_sample_factor():
    xs = [float(i) for i in range(1, 10)]
    assert conformal_quantile(xs) == pytest.approx(quantile(xs, 0.8 * 10 / 9))
    assert conformal_quantile(xs) > quantile(xs, 0.8)
    assert conformal_quantile([3.0]) == 3.0  # one score: the largest, never beyond it
    assert math.isnan(conformal_quantile([]))


def test_calibrated_factor_covers_the_held_out_scores(hierarchy):
    recs = _records()
    cal = calibrate(call_sites(recs, hierarchy), hierarchy, folds=5)
    assert cal["n"]["api"] >= 25  # every tutorial's MANY site is scored once, held out
    # about 80% of the held-out sites fall inside mu +- k sd: the factor is neither 0 nor huge
    assert 0.3 < cal["k"]["api"] < 5
    assert SINGLE in cal["k"]


def test_an_api_measured_in_one_tutorial_gets_its_own_factor(hierarchy):
    model = train(_records(), hierarchy, calibrated=False)
    assert model["apis"][ONE]["n_tutorials"] == 1 and model["apis"][MANY]["n_tutorials"] == 30
    model["calibration"]["k"] = {**model["calibration"]["k"], "api": 1.0, SINGLE: 3.0}
    p = Predictor(model, hierarchy=hierarchy)
    for api, k in ((ONE, 3.0), (MANY, 1.0)):
        _, _, mu, sd, _ = lookup(model, api, hierarchy)
        lo, hi = p.predict(api, SIZED).interval_j
        assert math.log10(hi / lo) / 2 == pytest.approx(k * sd, rel=1e-6)


#: below the resolution wherever measured, but for a few longer calls (not a tensor op: an unsized op is a floor)
BOUNDED = "io.read_records"


def test_a_bound_is_calibrated_on_the_calls_measured_above_it(hierarchy):
    # quick calls under 5 J in 24 tutorials; the same API measured above the resolution in 6 others
    # (a larger input): the high end is where those measurable calls fall, not the largest bound
    recs = _records()
    for t in range(30):
        j = 40.0 * 2 ** math.sin(1.3 * t) if t % 5 == 0 else 1.0
        recs.append(record(BOUNDED, j, script=f"t{t}", index=2, below=t % 5 != 0, bound=5.0))
    sites = call_sites(recs, hierarchy)
    cal = calibrate(sites, hierarchy, folds=5)
    assert cal["n"]["bounded"] >= 6 and cal["k"]["bounded"] > 0
    # held out: a tutorial whose call was measurable, against the tables of every other tutorial
    model = train([r for r in recs if r.script != "t5"], hierarchy)
    p = Predictor(model, hierarchy=hierarchy).predict(BOUNDED)
    assert p.basis.value == "bounded" and p.interval_j[0] == 0.0
    assert p.interval_j[1] > 5.0  # over the bounds: a measurable call exceeds the resolution of the quick ones
    measured = next(s.y for s in sites if s.api == BOUNDED and s.tutorial == "t5")
    assert math.log10(p.interval_j[1]) >= measured


def test_one_tutorials_agreeing_calls_keep_the_spread_between_programs(hierarchy):
    # two call sites of ONE in one tutorial, equal: their spread is that program's, not the API's
    recs = [*_records(), record(ONE, 50.0, script="t0", index=3, line=7)]
    model = train(recs, hierarchy, calibrated=False)
    assert model["apis"][ONE]["n_tutorials"] == 1 and model["apis"][ONE]["n_sites"] == 2
    assert model["apis"][ONE]["sd"] >= model["sigma_w"]  # two sites alone would shrink it below
