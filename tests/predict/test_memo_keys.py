"""Prediction memo keys: equal features share a prediction, different ones never do."""

from __future__ import annotations

from greenlint.analysis.callsite import CallSite, Quantity, Span
from greenlint.predict.site_predictions import _memo_key

FIT = "tensorflow.keras.Model.fit"


def site(features, work=None, api=FIT):
    return CallSite("a.py", Span(1, 1, 1, 1), api, features, work or {})


def test_equal_values_built_apart_share_a_key():
    a = site({"epochs": 10, "name": "".join(["ru", "n"]), "shape": [None, 28, 28]})
    b = site({"epochs": 10, "name": "run", "shape": [None, 28, 28]})
    assert _memo_key(a) == _memo_key(b)


def test_values_equal_in_python_but_not_in_type_differ():
    keys = {_memo_key(site({"epochs": v})) for v in (1, 1.0, True, "1", (1,), [1])}
    assert len(keys) == 6
    assert _memo_key(site({"epochs": 1})) != _memo_key(site({"epochs": 1}, api="tensorflow.keras.Model.predict"))
    assert _memo_key(site({}, {"steps": Quantity(5, "literal")})) != _memo_key(site({}, {"steps": Quantity(6, "literal")}))
    assert _memo_key(site({}, {"steps": Quantity(5, "literal")})) != _memo_key(site({}, {"steps": Quantity(5, "literal", bound="upper")}))


def test_values_marshal_cannot_write_fall_back_to_repr():
    class Opaque:
        def __repr__(self):
            return "Opaque()"

    assert _memo_key(site({"x": Opaque()})) == _memo_key(site({"x": Opaque()}))
    assert _memo_key(site({"x": Opaque()})) != _memo_key(site({"x": "Opaque()"}))
