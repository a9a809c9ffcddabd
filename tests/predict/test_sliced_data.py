"""A fit on a literal slice of data of unknown size (`x[:64]`) is priced as a point at that bound,
never above the same fit on exactly that many samples, and its interval stops there: no floor whose
high end assumes a million samples per epoch (issues #26-#28). Uses the shipped model and the
resolver, as `greenlint calls` does."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.predict import load_predictor
from greenlint.predict.site_predictions import with_work

CODE = """
from tensorflow import keras
x = load()
model = keras.Sequential([keras.layers.Dense(16, activation="relu", input_shape=(3,)), keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
model.fit({data}, epochs={epochs})
"""


@pytest.fixture(scope="module")
def shipped():
    return load_predictor(overlay=False)


def predicted(shipped, data: str, epochs: int = 1):
    result = analyse_source(textwrap.dedent(CODE.format(data=data, epochs=epochs)), "snippet.py")
    (site,) = [s for s in result.callsites if s.api.endswith(".fit")]
    features = with_work(site.features, site.work)
    return features, shipped.predict(site.api, features), shipped.predict(site.api, {**features, "samples_bound": None})


@pytest.mark.parametrize("rows, epochs", [(64, 1), (7000, 20)])
def test_a_slice_is_a_point_at_most_the_fit_on_that_many_samples(shipped, rows, epochs):
    features, bounded, exact = predicted(shipped, f"x[:{rows}]", epochs)
    assert features["samples"] == rows and features["samples_bound"] == "upper"
    assert not bounded.floor and bounded.interval_j is not None
    assert bounded.energy_j <= exact.energy_j * (1 + 1e-9)
    assert bounded.interval_j[1] <= exact.interval_j[1] * (1 + 1e-9)
    assert f"at most {rows} samples" in bounded.evidence.note


def test_the_bound_is_far_below_the_floor_s_stated_most(shipped):
    _, bounded, _ = predicted(shipped, "x[:64]")
    _, floor, _ = predicted(shipped, "x[:n]")  # bounds not literal: data size unknown
    assert floor.floor and not bounded.floor
    assert bounded.interval_j[1] < floor.interval_j[1] / 100
