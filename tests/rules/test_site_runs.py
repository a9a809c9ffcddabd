"""`Site.loop_multiplier` / `total_energy_j` follow `CallSite.runs`, and GL101 multiplies by them."""

from __future__ import annotations

from greenlint.analysis.callsite import CallSite, Span
from greenlint.check import Config, check_source
from greenlint.rules.base import Site

CODE = """\
import tensorflow as tf
model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
def compile_and_fit(name):
    model.compile(optimizer="adam", loss="mse")
    return model.fit(x, y, epochs=5)
for size in ["tiny", "small", "medium", "large", "xl"]:
    compile_and_fit(size)
compile_and_fit("a")
compile_and_fit("b")
for epoch in range(1000):
    model.evaluate(x, y)
    break
"""


def hotspots(predictor, code: str, threshold: float) -> dict[int, object]:
    config = Config(select=("GL101",), options={"hotspot-threshold-j": threshold}, no_cache=True)
    return {d.span.line: d for d in check_source(code, "example.py", config, predictor) if d.code == "GL101"}


def test_gl101_multiplies_by_how_often_the_site_runs(predictor):
    found = hotspots(predictor, CODE, 0.4)  # the fake's intervals: half to twice the figure
    fit = found[5]  # the fake predictor: 500 J per fit
    assert fit.energy_j == 7 * 500.0 and fit.data["multiplier"] == 7
    evaluate = found[11]  # 1 J per execution; the loop is left after one iteration
    assert evaluate.energy_j == 1.0 and evaluate.data["multiplier"] == 1


def test_a_threshold_between_one_and_seven_fits_separates_them(predictor):
    assert 5 in hotspots(predictor, CODE, 3 * 500.0)
    assert 5 not in hotspots(predictor, CODE, 8 * 500.0)


def test_unknown_runs_fall_back_to_the_literal_loop_factor(predictor):
    site = CallSite("x.py", Span(1, 1, 1, 2), "tensorflow.keras.Model.fit", {"loop_multiplier": 4},
                    runs={"count": None, "bound": "unknown", "note": None})
    p = predictor.predict(site.api, site.features)
    assert Site(site, p).loop_multiplier == 4 and Site(site, p).runs_bound == "unknown"
    upper = CallSite("x.py", Span(1, 1, 1, 2), "tensorflow.keras.Model.fit", {"loop_multiplier": 201},
                     runs={"count": 201, "bound": "upper", "note": None})
    assert Site(upper, p).total_energy_j == 201 * 500.0 and Site(upper, p).runs_bound == "upper"


class _WidePredictor:
    """Every call: 2 J per execution, with an 80 % interval 1,000× wide."""

    fingerprint = "fake-wide"

    def predict(self, api: str, features: dict):
        from greenlint.predict.prediction import Basis, Evidence, Prediction

        return Prediction(2.0, (0.1, 100.0), 2.0, 0.0, 0.0, Basis.BOUNDED, Evidence(records=3, api=api, level="api"))


def test_gl101_makes_no_hotspot_of_a_figure_too_uncertain_for_a_point():
    code = "import tensorflow as tf\nfor i in range(500):\n    tf.zeros((10,))\n"
    assert hotspots(_WidePredictor(), code, 10.0) == {}  # low end 0.1 J × 500 = 50 J > 10 J, but 1,000× wide
