"""A call whose work assumes command-line defaults says so in its basis (`site_predictions.with_options`),
and the options are no size the predictor reads."""

from __future__ import annotations

from greenlint.analysis.callsite import CallSite, Quantity, Span
from greenlint.predict.prediction import Basis, Evidence, Prediction
from greenlint.predict.site_predictions import predict_sites

FIT = "tensorflow.keras.Model.fit"
OPTIONS = Quantity(["batch_size"], "inferred", "with the default of `--batch_size`: the command line can change it")


def test_the_basis_names_the_defaults_the_work_assumes_and_the_predictor_never_sees_them():
    seen = []

    def predict(api, features):
        seen.append(features)
        return Prediction(2.0, (1.0, 3.0), 1.0, 1.0, 0.0, Basis.FROM_DATA, Evidence(note="power x time"))

    work = {"batch_size": Quantity(8, "literal"), "options": OPTIONS}
    plain = {"batch_size": Quantity(8, "literal")}
    with_defaults, fixed = predict_sites(predict, [CallSite("a.py", Span(1, 1, 1, 1), FIT, {}, work),
                                                   CallSite("a.py", Span(2, 1, 2, 1), FIT, {}, plain)])
    assert with_defaults.evidence.note == "power x time; with the default of `--batch_size`: the command line can change it"
    assert fixed.evidence.note == "power x time"
    assert all("options" not in features and features["batch_size"] == 8 for features in seen)


def test_an_unknown_figure_is_not_said_to_assume_defaults():
    def predict(api, features):
        return Prediction.unknown(note="no data")

    (found,) = predict_sites(predict, [CallSite("a.py", Span(1, 1, 1, 1), FIT, {}, {"options": OPTIONS})])
    assert found.evidence.note == "no data"
