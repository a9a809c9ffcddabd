"""Work done once per process: predictions shared across files, trees kept out of the cache."""

from __future__ import annotations

import json

from greenlint.analysis.analyse import analyse_source
from greenlint.check.file_result import from_analysis, from_record, to_record
from greenlint.predict.prediction import Prediction

SOURCE = ("import tensorflow as tf\nmodel = tf.keras.Sequential()\nmodel.fit(x, y, epochs=3)\nmodel.fit(x, y, epochs=3)\n"
          "model.fit(x, y, epochs=3)\n")


class CountingPredictor:
    def __init__(self):
        self.calls = []

    def predict(self, api, features):
        self.calls.append(api)
        return Prediction.unknown(note=f"{api} {sorted(features)}")


def test_each_distinct_prediction_is_computed_once_per_predictor_across_files(tmp_path):
    predictor = CountingPredictor()
    first = from_analysis(analyse_source(SOURCE, str(tmp_path / "a.py")), predictor.predict)
    distinct = len(predictor.calls)
    assert distinct < len(first.sites)  # the two identical fit calls after the first (which traces) share one
    second = from_analysis(analyse_source(SOURCE, str(tmp_path / "b.py")), predictor.predict)
    assert len(predictor.calls) == distinct  # the second file asks nothing new
    assert [s.prediction for s in second.sites] == [s.prediction for s in first.sites]
    other = CountingPredictor()  # another predictor (another model) is asked itself
    from_analysis(analyse_source(SOURCE, str(tmp_path / "c.py")), other.predict)
    assert len(other.calls) == distinct


def test_the_tree_never_goes_into_a_cache_entry(tmp_path):
    result = from_analysis(analyse_source(SOURCE, str(tmp_path / "a.py")), CountingPredictor().predict)
    assert result.tree is not None
    record = to_record(result)
    assert "tree" not in record and "Module" not in json.dumps(record)  # no ast node either
    back = from_record(json.loads(json.dumps(record)))
    assert back.tree is None and back.sites == result.sites
