"""GL201 prices what its change saves, predict()'s start-up per call, with the shipped predictor: a
loop of calls over a known large input, whose compute dwarfs that start-up (under MIN_SHARE of each
call), is not reported; the same loop over one row, or over an input of unknown size, is, its
message saying the start-up."""

from __future__ import annotations

import pytest

from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from greenlint.predict import load_predictor
from greenlint.predict.work_energy import energy_at, power_for
from greenlint.rules.batch_price import call_start_up
from greenlint.units import fmt_s

MODEL = (
    "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.Input((784,)),"
    " tf.keras.layers.Dense(300, activation='relu'), tf.keras.layers.Dense(10)])\n"
)
#: Monte Carlo dropout: the same model over the same set, n times.
PASSES = "probas = [model.predict(X) for sample in range(n)]\n"


def _found(code: str, predictor) -> list:
    config = Config(select=("GL201",), no_cache=True)
    return [d for d in check_source(code, "mc.py", config, predictor) if d.code == "GL201"]


@pytest.mark.parametrize("kind", ["inference", "training"])
def test_start_up_is_the_time_models_fixed_term(kind):
    work = load_predictor(overlay=False).model["work"]
    seconds, joules = call_start_up(kind)
    assert seconds == work["time"][kind]["t0"] > 0
    assert joules == energy_at(power_for(work, kind), seconds)


def test_calls_over_a_known_large_set_are_not_reported():
    predictor = load_predictor(overlay=False)
    assert _found(MODEL + "X = np.zeros((60000, 784), np.float32)\n" + PASSES, predictor) == []  # MNIST's training set


def test_calls_over_a_known_small_batch_are_reported():
    """The same passes over one row: the start-up is most of each call."""
    predictor = load_predictor(overlay=False)
    assert len(_found(MODEL + "X = np.zeros((1, 784), np.float32)\n" + PASSES, predictor)) == 1


def test_calls_over_a_set_of_unknown_size_are_reported_with_their_start_up():
    predictor = load_predictor(overlay=False)
    found = _found(MODEL + "X = load()\n" + PASSES, predictor)
    assert len(found) == 1
    assert f"about {fmt_s(call_start_up('inference')[0])} of start-up each" in found[0].message
    assert "timed on greenlint's reference machine (FECoM's 2023 workstation, one NVIDIA GPU), not this one" in found[0].message
