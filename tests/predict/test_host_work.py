"""A call of the program's own function that does per-item host work is priced by its items, a measured
host cost per item and the reference host's draw: a floor where the items are unknown, never a TF API's
figure (greenlint/predict/host_work.py)."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.predict import load_predictor
from greenlint.predict.host_work import RATES, host_watts, host_work
from greenlint.predict.prediction import Basis
from greenlint.predict.site_predictions import with_work

ENCODER = """
import re
import tensorflow as tf


def encode(text, vocab):
    return [vocab.get(token, 0) for token in re.findall(r"\\w+", text)]


ids = encode(open("corpus.txt").read(), {})
"""


@pytest.fixture(scope="module")
def shipped():
    return load_predictor(overlay=False)


def test_the_reference_hosts_draw_is_the_training_power_times_fits_host_shares():
    model = {"work": {"power": {"training": {"steady_w": 50.0}}},
             "apis": {"tensorflow.keras.Model.fit": {"shares": {"cpu": 0.15, "gpu": 0.8, "ram": 0.05}}}}
    assert host_watts(model) == pytest.approx(10.0)
    assert host_watts({"work": {}, "apis": {}}) is None


def test_a_text_of_unknown_size_is_a_floor_of_one_token_at_the_least_rate(shipped):
    result = analyse_source(textwrap.dedent(ENCODER), "snippet.py")
    site = next(s for s in result.callsites if s.features.get("receiver") == "host")
    assert (site.api, site.span.line) == ("encode", 10)
    pred = shipped.predict(site.api, with_work(site.features, site.work))
    watts = host_watts(shipped.model)
    rate = RATES["text"]
    assert pred.floor and pred.basis is Basis.PREDICTED
    assert pred.energy_j == pytest.approx(rate.least_s * watts)
    assert pred.interval_j == pytest.approx((rate.least_s * watts, rate.most_items * rate.most_s * watts))
    assert "at least 1.3e-07 s per token" in pred.evidence.note
    assert "the text's size is unknown" in pred.evidence.note


def test_known_items_are_priced_by_their_count_and_an_unknown_kind_has_no_figure():
    model = {"work": {"power": {"training": {"steady_w": 10.0}}},
             "apis": {"tensorflow.keras.Model.fit": {"shares": {"cpu": 1.0}}}}
    pred = host_work(model, {"receiver": "host", "host": "text", "host_items": 1000})
    assert pred.energy_j == pytest.approx(1000 * RATES["text"].least_s * 10.0)
    assert "1,000 tokens" in pred.evidence.note
    assert host_work(model, {"receiver": "host", "host": "audio"}).energy_j is None
