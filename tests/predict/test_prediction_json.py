"""`Prediction.to_json`, written field by field for speed, gives what `dataclasses.asdict` gives
(every field, in order, nested values copied), with its JSON forms: the basis' value, lists for
the interval and the sources, the forecast's own JSON, then `interval_ratio`."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from greenlint.predict.prediction import Basis, Evidence, Prediction

FORECAST = Prediction(2.0, (1.0, 4.0), 1.5, 0.0, 0.5, Basis.PREDICTED,
                      Evidence(records=12, api="tensorflow.matmul", level="api", sources=("a", "b"), note="n"),
                      multiplier=3.0, floor=True)
PROFILE = {"median_j": 1.0, "iqr_j": [0.5, 2.0], "stale": False, "nested": {"runs": [1, 2]}}
CASES = [
    Prediction.unknown(note="nothing to go on"),
    Prediction.symbolic("counted where it runs"),
    FORECAST,
    Prediction(1.0, (0.5, 2.0), None, None, None, Basis.PROFILED, Evidence(records=5, level="site", sources=("hw",)),
               forecast=FORECAST, profile=PROFILE),
]


def _reference(prediction: Prediction) -> dict:
    """The former `to_json`, on `asdict`."""
    d = asdict(prediction)
    d["basis"] = prediction.basis.value
    d["interval_j"] = list(prediction.interval_j) if prediction.interval_j else None
    d["evidence"]["sources"] = list(prediction.evidence.sources)
    d["interval_ratio"] = prediction.interval_ratio
    d["forecast"] = _reference(prediction.forecast) if prediction.forecast else None
    return d


@pytest.mark.parametrize("prediction", CASES)
def test_to_json_is_asdict_with_json_forms(prediction):
    got = prediction.to_json()
    assert got == _reference(prediction)
    assert list(got) == list(_reference(prediction))  # key order: the cache and the JSON output keep it
    assert list(got["evidence"]) == list(_reference(prediction)["evidence"])
    assert Prediction.from_json(got) == prediction


def test_to_json_copies_the_profile():
    got = CASES[-1].to_json()
    got["profile"]["nested"]["runs"].append(3)
    assert PROFILE["nested"]["runs"] == [1, 2]
