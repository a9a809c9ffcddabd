"""A `fit` whose wall time a callback caps (TensorFlow Addons' `TimeStopping`, `wall_s`): priced at most
that time and one epoch of its work, whatever its epochs; a cap it never reaches changes nothing."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.predict import load_predictor
from greenlint.predict.site_predictions import with_work

CODE = """
import numpy as np
import tensorflow_addons as tfa
from tensorflow import keras

x, y = np.zeros((60000, 784)), np.zeros((60000,))
model = keras.Sequential([keras.Input((784,)), keras.layers.Dense(512), keras.layers.Dense(10)])
model.compile("adam", "mse")
model.fit(x, y, epochs={epochs}, batch_size=64{callbacks})
"""


@pytest.fixture(scope="module")
def shipped():
    return load_predictor(overlay=False)


def predicted(shipped, epochs: int, seconds: float | None = None):
    callbacks = f", callbacks=[tfa.callbacks.TimeStopping(seconds={seconds})]" if seconds is not None else ""
    result = analyse_source(textwrap.dedent(CODE.format(epochs=epochs, callbacks=callbacks)), "snippet.py")
    site = [s for s in result.callsites if s.api.endswith(".fit")][-1]
    return shipped.predict(site.api, with_work(site.features, site.work))


def test_a_fit_capped_at_5_seconds_costs_at_most_5_seconds_and_one_epoch(shipped):
    capped, full, one = predicted(shipped, 100, 5), predicted(shipped, 100), predicted(shipped, 1)
    assert capped.energy_j < 0.1 * full.energy_j and capped.interval_j[1] < full.interval_j[0]
    assert capped.energy_j >= one.energy_j * (1 - 1e-9)  # one epoch runs before the first check
    assert "TimeStopping" in capped.evidence.note


def test_a_cap_the_fit_never_reaches_changes_nothing(shipped):
    a_day, free = predicted(shipped, 100, 86400), predicted(shipped, 100)
    assert a_day.energy_j == pytest.approx(free.energy_j, rel=1e-9)
    assert a_day.interval_j == pytest.approx(free.interval_j, rel=1e-9)


def test_the_cap_bounds_the_energy_by_its_seconds(shipped):
    """A longer cap allows more, never more than the uncapped fit."""
    figures = [predicted(shipped, 100, s).energy_j for s in (5, 20, 80)]
    assert figures == sorted(figures) and figures[-1] <= predicted(shipped, 100).energy_j
