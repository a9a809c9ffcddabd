"""A Keras call or traced step whose FLOPs per sample are a lower bound (a layer or op of unknown work)
is a floor, priced at its known part (its FLOPs at their least time), its basis naming what is unknown; the same call fully known
stays a point (issue 27, deliverable 5). Uses the shipped model and the resolver."""

from __future__ import annotations

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.predict import load_predictor
from greenlint.predict.site_predictions import predict_sites
from greenlint.predict.work_energy import DENSE_FLOPS_PER_S, flop_s

FIT = "tensorflow.keras.Sequential.fit"
WORK = {"samples": 6400, "batch_size": 64, "epochs": 3, "flops_per_sample": 32768.0}


@pytest.fixture(scope="module")
def shipped():
    return load_predictor(overlay=False)


def test_a_fit_of_lower_bound_flops_is_a_floor_at_the_known_parts_least_price(shipped):
    point = shipped.predict(FIT, WORK)
    floor = shipped.predict(FIT, {**WORK, "flops_per_sample_bound": "lower"})
    unknown = shipped.predict(FIT, {k: v for k, v in WORK.items() if k != "flops_per_sample"})
    assert not point.floor and floor.floor and unknown.floor
    assert unknown.energy_j < floor.energy_j < point.energy_j  # its known FLOPs count, at their least time
    assert floor.interval_j[0] < point.interval_j[0]
    assert floor.interval_j[1] > 100 * point.interval_j[1]  # up to its FLOPs unknown, not the point's 80 %
    assert "lower bound" in floor.evidence.note and "lower bound" not in point.evidence.note


def test_a_lower_bounds_flops_are_timed_at_one_large_ops_throughput(shipped):
    """The known part of a floor: its FLOPs at DENSE_FLOPS_PER_S where the fitted cost per FLOP (whole
    runs' average) is more, the rest of its time (start-up, steps) as a point's."""
    fitted = shipped.model["work"]["time"]["training"]["per_flop"]
    assert fitted > 1 / DENSE_FLOPS_PER_S
    floor = shipped.predict(FIT, {**WORK, "flops_per_sample_bound": "lower"})
    least = shipped.predict(FIT, {**WORK, "flops_per_sample": WORK["flops_per_sample"] / (fitted * DENSE_FLOPS_PER_S)})
    assert floor.energy_j == pytest.approx(least.energy_j, rel=1e-9)
    assert f"at {DENSE_FLOPS_PER_S:.3g} FLOP/s" in floor.evidence.note


def test_flop_s_is_the_fitted_cost_unless_the_flops_are_a_lower_bound():
    slow, fast = {"per_flop": 1e-11}, {"per_flop": 1e-14}
    assert flop_s(slow, {"flops_per_sample_bound": "lower"}) == 1 / DENSE_FLOPS_PER_S
    assert flop_s(fast, {"flops_per_sample_bound": "lower"}) == 1e-14  # never more than the fitted cost
    assert flop_s(slow, {"flops_per_sample_bound": "upper"}) == flop_s(slow, {}) == flop_s(slow, None) == 1e-11


def test_an_upper_bound_on_flops_stays_a_point(shipped):
    assert not shipped.predict(FIT, {**WORK, "flops_per_sample_bound": "upper"}).floor


def model_code(middle: str) -> str:
    return (
        "import numpy as np\nimport tensorflow as tf\nfrom tensorflow import keras\nimport mylib\n"
        "x = np.zeros((6400, 64), 'float32')\n"
        f"model = keras.Sequential([keras.Input((64,)), keras.layers.Dense(256), {middle}, keras.layers.Dense(10)])\n"
        "opt = keras.optimizers.Adam()\n"
        "@tf.function\ndef step(xb):\n    with tf.GradientTape() as tape:\n"
        "        loss = tf.reduce_mean(model(xb, training=True))\n"
        "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
        "step(x[:64])\n"
        "model.compile('adam', 'mse')\nmodel.fit(x, x[:, :10], epochs=3, batch_size=64)\n")


@pytest.mark.parametrize("api_end", ["Sequential.fit", "PolymorphicFunction.__call__"])
def test_a_layer_of_unknown_work_makes_the_step_a_floor_naming_it_and_the_known_model_a_point(shipped, api_end):
    def priced(middle):
        sites = [s for s in analyse_source(model_code(middle), "prog.py").callsites if s.api.endswith(api_end)]
        assert sites
        return sites[-1], predict_sites(shipped.predict, sites)[-1]

    site, floor = priced("mylib.Fancy(32)")
    assert site.work["flops_per_sample"].bound == "lower"
    assert floor.floor and floor.energy_j is not None
    assert "its FLOPs per sample:" in floor.evidence.note and "unknown: ?" in floor.evidence.note  # names it
    site, point = priced("keras.layers.Dense(32)")
    assert site.work["flops_per_sample"].bound is None
    assert not point.floor and "lower bound" not in point.evidence.note


def test_the_stated_most_of_flops_unknown_stays_at_the_fitted_cost(shipped):
    """A lower bound of no known FLOPs (every layer's work unknown) is the FLOPs-unknown floor: its high
    end, HIGH_FLOPS_PER_SAMPLE a stated most, not a lower bound, is timed at the fitted cost per FLOP."""
    none = {k: v for k, v in WORK.items() if k != "flops_per_sample"}
    plain, bound = shipped.predict(FIT, none), shipped.predict(FIT, {**none, "flops_per_sample_bound": "lower"})
    assert plain.floor and bound.floor
    assert bound.interval_j[1] == pytest.approx(plain.interval_j[1], rel=1e-9)
