"""`Site.program_runs` / `total_energy_j` follow `CallSite.runs`, and GL101 multiplies by them."""

from __future__ import annotations

from greenlint.analysis.callsite import CallSite, Runs, Span
from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from greenlint.rules.site import Site

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
    options = {"hotspot-threshold-j": threshold, "material-saving-j": 0.0}  # the runs' counting, not materiality
    config = Config(select=("GL101",), options=options, no_cache=True)
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
                    runs=Runs(count=None, bound="unknown", note=None))
    p = predictor.predict(site.api, site.features)
    assert Site(site, p).program_runs == 4 and Site(site, p).runs_bound == "unknown"
    upper = CallSite("x.py", Span(1, 1, 1, 2), "tensorflow.keras.Model.fit", {"loop_multiplier": 201},
                     runs=Runs(count=201, bound="upper", note=None))
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


HELPER = """\
import tensorflow as tf
model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
def train():
    return model.fit(x, y, epochs=5)
train()
train()
for i in range(3):
    tf.reduce_sum(x)
"""


def test_gl101_says_a_function_called_from_two_places_is_not_a_loop(predictor):
    found = hotspots(predictor, HELPER, 0.5)
    fit = found[4]  # a helper called from two cells: 2 × 500 J, in no loop
    assert fit.energy_j == 2 * 500.0
    assert "× 2 runs as its function is called from 2 places" in fit.message
    assert "loop" not in fit.message
    total = found[8]
    assert "× 3 runs in a loop" in total.message and "run it once, outside the loop" in total.message


def _site(runs: dict, features: dict | None = None) -> Site:
    """A site whose runs are the calls JSON's *runs*."""
    from greenlint.predict.prediction import Basis, Prediction

    cs = CallSite("x.py", Span(1, 1, 1, 2), "tensorflow.constant", features or {}, runs=Runs.from_json(runs))
    return Site(cs, Prediction(1.0, None, None, None, None, Basis.FROM_DATA))


def test_site_in_loop_needs_a_loop_that_repeats_the_same_work():
    base = {"count": 2, "bound": "exact", "note": None}
    called_twice = _site({**base, "loop": 1, "callers": 2, "varies": False, "varying": []})
    assert not called_twice.repeats() and called_twice.program_runs == 2 and called_twice.loop_runs == 1
    looped = _site({**base, "loop": 2, "callers": 1, "varies": False, "varying": [[]]})
    assert looped.repeats() and looped.loop_times() == " (2 times)"
    unknown = _site({"count": None, "bound": "unknown", "note": None, "loop": None, "callers": 1, "varies": False, "varying": [[]]})
    assert unknown.repeats() and unknown.loop_times() == ""
    varying = _site({**base, "loop": 2, "callers": 1, "varies": True, "varying": [["dtype"]]})
    assert not varying.repeats() and varying.repeats(same=("receiver",)) and not varying.repeats(same=("dtype",))
    # `for ckpt in ckpts: model = load(ckpt); for x in xs: model.predict(x)`: the inner loop repeats the model
    nested = _site({**base, "loop": 4, "callers": 1, "varies": True, "varying": [["receiver", "x"], ["x"]]})
    assert nested.repeats(same=("receiver",)) and not nested.repeats()
    once = _site({"count": 1, "bound": "upper", "note": None, "loop": 1, "callers": 1, "varies": False, "varying": []})
    assert not once.repeats(same=())  # `for x in ds.take(1)`


def test_site_without_loop_fields_reads_the_literal_loops():
    old = _site({"count": 4, "bound": "exact", "note": None}, {"loop_multiplier": 4, "loop_depth": 1})
    assert old.loop_runs == 4 and old.repeats()
    top = _site({"count": 2, "bound": "exact", "note": None}, {"loop_multiplier": 1})
    assert top.loop_runs == 1 and not top.repeats()


def test_gl101_on_a_periodic_call_says_at_most_and_does_not_hoist_it(predictor):
    code = (
        "import tensorflow as tf\n"
        "for epoch in range(100):\n"
        "    train(epoch)\n"
        "    if epoch % 5 == 0:\n"
        "        tf.reduce_sum(x)\n"
    )
    [found] = hotspots(predictor, code, 0.5).values()
    assert "× at most 20 runs in a loop" in found.message
    assert "outside the loop" not in found.message
