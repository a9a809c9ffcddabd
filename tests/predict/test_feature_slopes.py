"""Static-feature slopes of the predictor on constructed data: fitting, shrinkage, censoring, use."""

from __future__ import annotations

import math

import pytest

from greenlint.predict.hierarchy import Hierarchy
from greenlint.predict.predictor import Predictor
from greenlint.predict.tables import MAX_SHIFT, feature_shift
from tests.predict.conftest import FakeCatalog, record
from tools.model.sites import build_sites
from tools.model.table_fit import fit_slopes
from tools.model.train import train

FIT = "tf.keras.Sequential.fit"
EVAL = "tf.keras.Sequential.evaluate"


def _deep_costs_more(slope: float = 1.0, tutorials: int = 8, least: int = 1) -> list:
    """fit and evaluate whose energy grows as n_layers**slope, across tutorials."""
    recs = []
    for t in range(tutorials):
        layers = least * 2 ** (t % 4)
        for i, (api, base) in enumerate(((FIT, 100.0), (EVAL, 10.0))):
            recs.append(record(api, base * (layers / least) ** slope, script=f"t{t}", index=i, features={"n_layers": layers}))
    return recs


@pytest.fixture(scope="module")
def hierarchy():
    return Hierarchy(FakeCatalog())


def test_within_api_slope_is_recovered_and_shrunk():
    slopes = fit_slopes(build_sites(_deep_costs_more(1.0)))
    assert 0.5 < slopes["n_layers"] < 1.0  # the ridge pulls the true 1.0 towards 0
    more = fit_slopes(build_sites(_deep_costs_more(1.0, tutorials=40)))
    assert slopes["n_layers"] < more["n_layers"] < 1.0  # more data, less shrinkage


def test_no_slope_without_variation_or_without_the_feature():
    flat = [record(FIT, 100.0, script=f"t{t}", features={"n_layers": 3}) for t in range(5)]
    assert fit_slopes(build_sites(flat)) == {}
    bare = [record(FIT, 100.0 * t, script=f"t{t}") for t in range(1, 5)]
    assert fit_slopes(build_sites(bare)) == {}


def test_between_api_differences_are_not_a_slope():
    # deep models only in a costly API, shallow only in a cheap one: no within-API evidence
    recs = [record(FIT, 1000.0, script=f"a{t}", features={"n_layers": 10}) for t in range(4)]
    recs += [record(EVAL, 1.0, script=f"b{t}", features={"n_layers": 1}) for t in range(4)]
    assert fit_slopes(build_sites(recs)) == {}


def test_shift_needs_a_reference_and_is_bounded():
    tables = {"slopes": {"n_layers": 1.0}}
    entry = {"ref_log": {"n_layers": 0.0}}
    assert feature_shift(tables, entry, {"n_layers": 10}) == pytest.approx(1.0)
    assert feature_shift(tables, entry, {}) == 0.0
    assert feature_shift(tables, {"ref_log": {}}, {"n_layers": 10}) == 0.0
    assert feature_shift(tables, entry, {"n_layers": 10**9}) == MAX_SHIFT
    assert feature_shift(tables, entry, {"n_layers": True}) == 0.0


def test_predictor_scales_with_depth_and_says_so(hierarchy):
    p = Predictor(train(_deep_costs_more(1.0, tutorials=40), hierarchy, calibrated=False), hierarchy=hierarchy)
    shallow, deep, unknown = (p.predict(FIT, f) for f in ({"n_layers": 1}, {"n_layers": 8}, {}))
    assert shallow.energy_j < unknown.energy_j < deep.energy_j
    assert 4 < deep.energy_j / shallow.energy_j < 8
    assert "n_layers 8" in deep.evidence.note
    assert deep.multiplier == pytest.approx(deep.energy_j / unknown.energy_j)  # reported as folded in
    assert "static features" not in (unknown.evidence.note or "")


def test_censored_toy_calls_do_not_drag_a_measured_api_down(hierarchy):
    recs = _deep_costs_more(1.0, tutorials=40, least=8)  # measurable fits: 8 to 64 layers, 100 J to 800 J
    # one-layer fits below the resolution (bound 20 J), as the slope expects of them (about 12 J)
    toys = [record(FIT, 0.0, below=True, bound=20.0, script=f"toy{t}", features={"n_layers": 1}) for t in range(10)]
    without = Predictor(train(recs, hierarchy, calibrated=False), hierarchy=hierarchy)
    with_toys = Predictor(train(recs + toys, hierarchy, calibrated=False), hierarchy=hierarchy)
    blind = Predictor(train(recs + [t.__class__(**{**t.__dict__, "features": {}}) for t in toys], hierarchy,
                            calibrated=False), hierarchy=hierarchy)
    deep = {"n_layers": 32}
    kept = with_toys.predict(FIT, deep).energy_j / without.predict(FIT, deep).energy_j
    dragged = blind.predict(FIT, deep).energy_j / without.predict(FIT, deep).energy_j
    assert kept == pytest.approx(1.0), "censored one-layer calls pulled the prediction for a deep model down"
    # nor without their features: a bound lowers an API's figure only where nothing above resolution
    # says otherwise (issue 10, censoring without bias)
    assert dragged == pytest.approx(1.0)
    assert math.isfinite(kept)


def test_an_api_measured_only_below_resolution_is_bounded(hierarchy):
    toys = [record(FIT, 0.0, below=True, bound=20.0, script=f"toy{t}") for t in range(6)]
    p = Predictor(train(toys, hierarchy, calibrated=False), hierarchy=hierarchy).predict(FIT)
    assert p.basis.value == "bounded"
    assert p.energy_j <= 20.0 and p.interval_j[1] <= 20.0
    assert "upper bound" in p.evidence.note
