"""GL101's message: what makes the call expensive and one lever, in the shared vocabulary."""

from __future__ import annotations

from greenlint.analysis.callsite import CallSite, Quantity, Span
from greenlint.predict.prediction import Basis, Prediction
from greenlint.rules.base import FileFacts
from greenlint.rules.energy_hotspot import EnergyHotspot
from greenlint.rules.site import Site


def _findings(api, features=None, work=None, interval=(250.0, 1000.0)):
    cs = CallSite("t.py", Span(1, 1, 1, 10), api, features or {}, work or {})
    p = Prediction(500.0, interval, None, None, None, Basis.FROM_DATA)
    facts = FileFacts("t.py", (Site(cs, p),))
    return list(EnergyHotspot().check(facts, {"hotspot-threshold-j": 100.0}))


def _message(api, features=None, work=None, interval=(250.0, 1000.0)):
    [d] = _findings(api, features, work, interval)
    return d.message


def test_names_the_work_and_a_lever():
    work = {"epochs": Quantity(20, "literal"),
            "samples": Quantity(60000, "table"),
            "model": Quantity("MobileNetV2", "inferred"),
            "params": Quantity(3_500_000, "table")}
    msg = _message("tensorflow.keras.Model.fit", {"epochs": 20}, work)
    assert "20 epochs × 60,000 samples × MobileNetV2 (3.5M params)" in msg
    assert "(80% interval 250 J – 1 kJ, from data)" in msg
    assert "fewer epochs than 20" in msg and "stop early" not in msg  # early stopping is GL308's finding


def test_early_stopping_bound():
    work = {"epochs": Quantity(100, "literal", bound="upper")}
    message = _message("tensorflow.keras.Model.fit", {}, work)
    assert "early stopping already bounds" in message and ": at most 100 epochs;" in message
    exact = {"epochs": Quantity(100, "literal")}
    assert ": 100 epochs;" in _message("tensorflow.keras.Model.fit", {}, exact)


def test_only_what_the_interval_supports_is_a_hotspot():
    fit = "tensorflow.keras.Model.fit"
    assert _findings(fit, interval=(5.0, 5000.0)) == []  # 1,000× wide: no claim, whatever the point
    assert _findings(fit, interval=(50.0, 1000.0)) == []  # the point is over 100 J, the low end is not
    assert _findings(fit, interval=(0.0, 1000.0)) == []  # an upper bound alone
    assert len(_findings(fit, interval=(101.0, 1000.0))) == 1


def test_a_model_with_unknown_layers_gives_its_known_part_as_a_lower_bound():
    def lower(value):
        return Quantity(value, "inferred", bound="lower")

    epochs = Quantity(10, "literal")
    some = _message("tensorflow.keras.Model.fit", {}, {"epochs": epochs, "params": lower(62006)})
    assert "10 epochs × at least 62,006 params" in some
    none = _message("tensorflow.keras.Model.fit", {}, {"epochs": epochs, "params": lower(0),
                                                       "flops_per_sample": lower(0)})
    assert "FLOPs" not in none and "params" not in none and "10 epochs;" in none


def test_samples_known_only_as_at_most_n_make_no_hotspot():
    fit = "tensorflow.keras.Model.fit"
    upper = {"samples": Quantity(64, "inferred", bound="upper")}  # `x[:64]`, `random.sample(memory, k)`
    assert _findings(fit, work=upper, interval=(300.0, 1000.0)) == []  # priced at 64 rows: no low end
    exact = {"samples": Quantity(64, "inferred")}
    assert len(_findings(fit, work=exact, interval=(300.0, 1000.0))) == 1
