"""A save, load or conversion of a model is priced with its bytes: the API's measured figure (its fixed
cost) plus the weights the analysis counted, at a disk's bandwidth and the work model's steady power; where
it counted none, a floor up to a stated most. Through the real resolver and the shipped model."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.predict import load_predictor
from greenlint.predict.prediction import Basis, Evidence, Prediction
from greenlint.predict.site_predictions import with_work
from greenlint.predict.weights_io import HIGH_PARAMS, OPTIMIZER_COPIES, moves_weights, weights_io
from greenlint.predict.work_energy import DISK_B_PER_S, ELEMENT_BYTES


@pytest.fixture(scope="module")
def predictor():
    return load_predictor(overlay=False)


def _model(width: int, call: str) -> str:
    return textwrap.dedent(f"""\
        import tensorflow as tf
        from tensorflow import keras
        model = keras.Sequential([keras.layers.Dense({width}, input_shape=({width},)), keras.layers.Dense(10)])
        model.compile(optimizer="adam", loss="mse")
        {call}
        """)


def _site(code: str, api_end: str):
    found = [s for s in analyse_source(code, "prog.py").callsites if s.api.endswith(api_end)]
    assert found
    return found[-1]


def _joules_per_byte(predictor) -> float:
    return predictor.model["work"]["power"]["all"]["steady_w"] / DISK_B_PER_S


@pytest.mark.parametrize("call,end", [('model.save_weights("w.h5")', ".save_weights"),
                                      ('model.load_weights("w.h5")', ".load_weights"),
                                      ('keras.models.save_model(model, "m.keras")', ".save_model")])
def test_the_analysis_gives_a_weights_call_the_models_params(call, end):
    site = _site(_model(64, call), end)
    assert site.work["params"].value == 64 * 64 + 64 + 64 * 10 + 10


def test_a_larger_models_weights_cost_their_bytes_more(predictor):
    def priced(width: int):
        site = _site(_model(width, 'keras.models.save_model(model, "m.keras")'), ".save_model")
        return site.work["params"].value, predictor.predict(site.api, with_work(site.features, site.work))

    (small_params, small), (large_params, large) = priced(16), priced(8192)
    extra = (large_params - small_params) * ELEMENT_BYTES * _joules_per_byte(predictor)
    assert large.energy_j - small.energy_j == pytest.approx(extra, rel=1e-6)
    assert "weights" in large.evidence.note and "B/s" in large.evidence.note
    assert large.interval_j[1] > small.interval_j[1]


def test_the_weights_never_let_a_never_measured_api_borrow_a_groups_figure(predictor):
    site = _site(_model(64, 'model.save_weights("w.h5")'), ".save_weights")
    assert site.api not in predictor.model["apis"] and site.work["params"].value > 0
    pred = predictor.predict(site.api, with_work(site.features, site.work))
    assert pred.energy_j is None and pred.basis is Basis.UNKNOWN  # not its class's `fit`-laden median


def test_a_weights_call_on_a_model_of_unknown_size_is_a_floor_not_a_bound(predictor):
    code = "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\nmodel.save('m2.keras')\n"
    site = _site(code, ".save")
    assert "params" not in site.work
    pred = predictor.predict(site.api, with_work(site.features, site.work))
    assert pred.floor and 0 < pred.interval_j[0] <= pred.energy_j  # at least its least: never an upper bound
    # the high end allows HIGH_PARAMS' bytes (and the optimizer's state, a whole model's save)
    most = OPTIMIZER_COPIES * HIGH_PARAMS * ELEMENT_BYTES * _joules_per_byte(predictor)
    assert pred.interval_j[1] > most
    assert "not known from the code" in pred.evidence.note


def test_an_unknown_models_least_stays_under_its_quick_calls(predictor):
    """The least of a save of unknown size is no more than half the bound its API's quick calls (small models)
    were measured under, even where a measurable call of a large model set the API's figure."""
    api = "tensorflow.keras.Model.save"
    entry = predictor.model["apis"][api]
    assert entry["n_censored"] and entry["bound_j"]
    pred = predictor.predict(api, {})
    assert pred.floor and pred.energy_j <= entry["bound_j"] / 2 < 10 ** entry["mu"]


def test_model_file_calls_are_saves_loads_and_conversions_of_models(predictor):
    for api in ("tensorflow.keras.Model.save", "tensorflow.saved_model.load", "tensorflow.keras.models.load_model",
                "tensorflow.lite.TFLiteConverter.convert", "tensorflow.train.Checkpoint.save"):
        assert moves_weights(predictor, api), api
    for api in ("tensorflow.data.experimental.save", "tensorflow.data.Dataset.load", "tensorflow.keras.Model.fit",
                "tensorflow.image.convert_image_dtype"):
        assert not moves_weights(predictor, api), api


def _bound(energy: float, high: float) -> Prediction:
    return Prediction(energy, (0.0, high), None, None, None, Basis.BOUNDED, Evidence(note="below the resolution"))


def test_a_bound_stays_a_bound_until_the_weights_alone_exceed_it(predictor):
    api = "tensorflow.keras.Model.save_weights"
    per_param = ELEMENT_BYTES * _joules_per_byte(predictor)
    small = weights_io(predictor, api, {"params": 1000}, _bound(0.5, 10.0))
    assert small.basis is Basis.BOUNDED and small.interval_j[0] == 0.0
    assert small.energy_j == pytest.approx(0.5 + 1000 * per_param)
    huge = 1e4 / per_param  # 10^4 J of bytes: their least (a fifth) is far above the 10 J bound
    point = weights_io(predictor, api, {"params": huge}, _bound(0.5, 10.0))
    assert point.basis is Basis.FROM_DATA and point.interval_j[0] > 10.0
    assert point.interval_j[0] < point.energy_j < point.interval_j[1]


def test_a_whole_models_save_allows_for_the_optimizers_state(predictor):
    api = "tensorflow.keras.Model.save"
    figure = Prediction(1.0, (0.5, 2.0), None, None, None, Basis.FROM_DATA, Evidence())
    weights = weights_io(predictor, "tensorflow.keras.Model.save_weights", {"params": 1e8}, figure)
    whole = weights_io(predictor, api, {"params": 1e8}, figure)
    without = weights_io(predictor, api, {"params": 1e8, "include_optimizer": False}, figure)
    assert whole.energy_j == weights.energy_j == without.energy_j
    assert whole.interval_j[1] > weights.interval_j[1] == without.interval_j[1]


def test_other_calls_are_left_alone_and_uncounted_weights_give_a_floor(predictor):
    figure = Prediction(1.0, (0.5, 2.0), None, None, None, Basis.FROM_DATA, Evidence())
    assert weights_io(predictor, "tensorflow.keras.Model.fit", {"params": 1e8}, figure) is figure
    for features in ({}, {"params": True}):
        floor = weights_io(predictor, "tensorflow.keras.Model.save", features, figure)
        assert floor.floor and (floor.energy_j, floor.interval_j[0]) == (1.0, 0.5) and floor.interval_j[1] > 2.0
    bound = weights_io(predictor, "tensorflow.keras.Model.save_weights", {}, _bound(0.5, 10.0))
    assert bound.floor and bound.energy_j == 0.5
    assert bound.interval_j[0] == pytest.approx(0.5**2 / 10.0)  # no low end: its high end, mirrored
