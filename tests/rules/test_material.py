"""Findings are reported where their saving is material (greenlint/rules/material.py): not in
test code, not where the counted runs add up to less than a second, and once per change."""

from __future__ import annotations

import math

import pytest

from greenlint.check.config import Config
from greenlint.check.pipeline import check_source

CONSTANT = "import tensorflow as tf\nfor i in range({runs}):\n    print(i, tf.constant([1.0, 2.0]))\n"


def _found(code: str, rule: str, predictor, filename: str = "train.py") -> list:
    return [d for d in check_source(code, filename, Config(select=(rule,), no_cache=True), predictor)]


@pytest.mark.parametrize(("runs", "reported"), [(19_999, False), (20_000, True), (1_000_000, True)])
def test_a_constant_converted_again_is_reported_from_a_second_of_dispatch(predictor, runs, reported):
    """One eager dispatch (50 µs) per run: 20,000 runs are the second that makes it material."""
    found = _found(CONSTANT.format(runs=runs), "GL502", predictor)
    assert bool(found) is reported
    if reported:
        assert f"{runs:,} times" in found[0].message


def test_a_constant_in_a_loop_of_unknown_length_is_priced_per_run(predictor):
    found = _found("import tensorflow as tf\nfor x in xs:\n    y = x * tf.constant([1.0, 2.0])\n", "GL502", predictor)
    assert len(found) == 1 and "about 50 µs of eager dispatch each)" in found[0].message


def test_a_constant_in_a_test_module_is_not_material(predictor):
    code = "import tensorflow as tf\n\n\ndef test_add():\n    for x in xs:\n        y = x * tf.constant([1.0, 2.0])\n"
    assert _found(code, "GL502", predictor) == []
    assert len(_found(code.replace("def test_add", "def add"), "GL502", predictor)) == 1


STEP = (
    "import tensorflow as tf\n\n\ndef {name}(model, data):\n    opt = tf.keras.optimizers.Adam()\n"
    "    for x in data:\n        with tf.GradientTape() as tape:\n            loss = tf.reduce_sum(model(x))\n"
    "        grads = tape.gradient(loss, model.trainable_variables)\n"
    "        opt.apply_gradients(zip(grads, model.trainable_variables))\n"
)


def test_an_eager_step_is_reported_once_at_its_gradient(predictor):
    found = _found(COUNTED_STEP.format(name="fit", runs=1_000_000), "GL302", predictor)
    assert [d.span.line for d in found] == [9]


def test_an_eager_step_whose_runs_are_not_counted_is_not_reported(predictor):
    assert _found(STEP.format(name="fit") + "\n\nfit(net, data)\n", "GL302", predictor) == []


def test_an_eager_step_in_a_test_is_not_reported(predictor):
    assert _found(STEP.format(name="test_fit"), "GL302", predictor) == []


def test_the_documented_run_count_is_the_constants():
    from greenlint.predict.work_energy import DISPATCH_S
    from greenlint.rules.constant_in_loop import ConstantInLoop
    from greenlint.rules.material import MIN_SAVING_S

    assert f"fewer than {MIN_SAVING_S / DISPATCH_S:,.0f} runs" in " ".join(ConstantInLoop.doc().split())


PREDICTS = "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\nfor i in {loop}:\n    model.predict(x[i])\n"


@pytest.mark.parametrize(("runs", "reported"), [(4_999, False), (9_999, False), (10_000, True)])
def test_predict_calls_are_reported_where_their_whole_figure_reaches_the_joules_floor(predictor, runs, reported):
    """The fake predict costs 1 J at its point, 2 J at its interval's high end: 10,000 counted calls
    reach 10 kJ at the point; 5,000 reach it only at the high end, where the saving is more likely
    than not under it."""
    assert bool(_found(PREDICTS.format(loop=f"range({runs})"), "GL201", predictor)) is reported


def test_calls_whose_runs_are_not_counted_are_not_judged_negligible(predictor):
    assert len(_found(PREDICTS.format(loop="batches"), "GL201", predictor)) == 1


def test_the_joules_floor_is_an_option(predictor):
    code = PREDICTS.format(loop="range(10)")
    found = check_source(code, "train.py", Config(select=("GL201",), no_cache=True,
                                                  options={"material-saving-j": 10.0}), predictor)
    assert len(found) == 1


def test_the_documented_joules_floor_is_the_constant():
    from greenlint.rules.energy_hotspot import EnergyHotspot
    from greenlint.rules.material import MIN_SAVING_J

    assert f"`material-saving-j` ({MIN_SAVING_J / 1000:.0f} kJ" in " ".join(EnergyHotspot.doc().split())


def test_a_hotspot_in_a_test_is_not_material(predictor):
    code = "import tensorflow as tf\n\n\ndef test_fit(model, batches):\n    for x, y in batches:\n        model.fit(x, y)\n"
    assert _found(code, "GL101", predictor) == []
    assert len(_found(code.replace("def test_fit", "def fit_all"), "GL101", predictor)) == 1


COUNTED_STEP = (
    STEP.replace("for x in data:", "for step in range({runs}):").replace("model(x)", "model(batch)")
    + "\n\n{name}(net, data)\n"
)


def _dispatch_floor_runs() -> int:
    """The counted steps whose estimated dispatch (a model of unknown layers: STEP_OPS and one
    layer's OPS_PER_LAYER, at DISPATCH_S each) reaches `material-saving-j` at the training power."""
    from greenlint.predict.work_energy import DISPATCH_S, power_for
    from greenlint.rules.batch_price import reference
    from greenlint.rules.eager_training_step import OPS_PER_LAYER, STEP_OPS
    from greenlint.rules.material import MIN_SAVING_J

    watts = power_for(reference()[0], "training")["steady_w"]
    return math.ceil(MIN_SAVING_J / (watts * DISPATCH_S * (STEP_OPS + OPS_PER_LAYER)))


@pytest.mark.parametrize(("share", "reported"), [(0.9, False), (1.01, True)])
def test_an_eager_step_is_reported_where_its_dispatch_can_reach_the_saving(predictor, share, reported):
    """What compiling saves is the dispatch of each op of the step (21 ops estimated for a model of
    unknown layers, 50 µs each): it must reach `material-saving-j` over the counted steps, some
    180,000 of them at the bundled model's training power, not only the step's whole figure."""
    runs = round(_dispatch_floor_runs() * share)
    found = _found(COUNTED_STEP.format(name="fit", runs=runs), "GL302", predictor)
    assert bool(found) is reported
    if reported:
        assert f"eager dispatch (21 ops, estimated) each, {runs:,} times" in found[0].message


def test_a_site_that_only_builds_a_graph_says_nothing_of_the_work_it_runs():
    """0 J at a symbolic line is not the work its graph runs: `immaterial_work` does not judge it."""
    from dataclasses import replace

    from greenlint.predict.prediction import Prediction
    from greenlint.rules.material import immaterial_work

    class Facts:  # no tree: not test code
        path = "train.py"

        def node(self, site):
            return None

    site = _counted_site(runs=10)
    symbolic = replace(site, prediction=Prediction.symbolic("counted where the graph runs"))
    options = {"material-saving-j": 10_000.0}
    assert immaterial_work(Facts(), site, options) is True
    assert immaterial_work(Facts(), symbolic, options) is False


def _counted_site(runs: int):
    from greenlint.analysis.callsite import CallSite, Runs, Span
    from greenlint.predict.prediction import Basis, Evidence, Prediction
    from greenlint.rules.site import Site

    callsite = CallSite(
        "train.py", Span(1, 0, 1, 10), "tensorflow.compat.v1.Session.run", runs=Runs(count=runs, bound="exact")
    )
    return Site(callsite, Prediction(1.0, (0.5, 2.0), 1.0, 0.0, 0.0, Basis.FROM_DATA, Evidence()))


def _site(interval, runs: int | None, floor: bool = False, basis=None, api: str = "tensorflow.keras.Model.fit"):
    from greenlint.analysis.callsite import CallSite, Runs, Span
    from greenlint.predict.prediction import Basis, Prediction
    from greenlint.rules.site import Site

    counted = Runs(count=runs, bound="exact" if runs else "unknown", note=None)
    callsite = CallSite("t.py", Span(1, 1, 1, 10), api, runs=counted)
    energy = None if interval is None else interval[1] / 2
    return Site(callsite, Prediction(energy, interval, None, None, None, basis or Basis.FROM_DATA, floor=floor))


def test_a_saving_is_its_share_of_the_sites_figures_times_their_runs():
    from greenlint.rules.material import saving_j, work_j

    sites = [_site((100.0, 400.0), 3), _site((10.0, 20.0), 10)]
    assert work_j(sites) == (400.0, 700.0, 1400.0)  # the fake sites' points are half their high ends
    assert saving_j(sites, (0.5, 0.75)) == (200.0, 525.0, 1050.0)


@pytest.mark.parametrize(
    ("interval", "runs", "floor"), [((1.0, 2.0), None, False), ((1.0, 2.0), 1, True), (None, 1, False)],
    ids=["runs not counted", "data size unknown", "no interval"],
)
def test_a_work_of_unknown_size_has_no_saving_and_is_not_negligible(interval, runs, floor):
    from greenlint.rules.material import immaterial_saving, saving_j

    saving = saving_j([_site((1.0, 2.0), 1), _site(interval, runs, floor)], (0.0, 1.0))
    assert saving is None and not immaterial_saving(saving, {})


def test_a_graph_built_at_its_line_is_no_work_to_save():
    from greenlint.predict.prediction import Basis
    from greenlint.rules.material import saving_j

    assert saving_j([_site((0.0, 0.0), 1, basis=Basis.SYMBOLIC)], (0.0, 1.0)) is None


def test_the_saving_clause_says_the_joules_the_share_and_the_figure_it_is_a_share_of():
    """The saving is a share of the work's point figure, the figure GL101 states, which the clause names."""
    from greenlint.rules.material import Joules, saving_clause

    assert saving_clause(Joules(6_900.0, 14_600.0, 30_900.0), (0.0, 0.9), "from data") == (
        "up to 13.1 kJ over a run of the program (up to 90% of the training's 14.6 kJ, from data)"
    )
    assert saving_clause(Joules(3_000.0, 10_000.0, 15_000.0), (0.55, 0.74), "predicted") == (
        "5.5 kJ – 7.4 kJ over a run of the program (55-74% of the training's 10 kJ, predicted)"
    )
    assert saving_clause(Joules(5_000.0, 10_000.0, 20_000.0), (0.87, 0.87), "from data", "inference") == (
        "8.7 kJ over a run of the program (87% of the inference's 10 kJ, from data)"
    )


def test_a_fits_saving_is_a_share_of_the_figure_gl101_states_for_it(predictor):
    """One price of a call, read by both rules: GL308's saving names GL101's figure of the same fit, not the
    top of its interval (a 20-epoch fit's 90 % read against the 40-epoch fit's point looked larger than it)."""
    code = FITS.format(loop="range(100)") + "    m.fit(x, y, epochs=100, validation_split=0.2)\n"
    found = check_source(code, "train.py", Config(select=("GL101", "GL308"), no_cache=True), predictor)
    hotspot = next(d for d in found if d.code == "GL101" and d.span.line == 4)
    stopping = next(d for d in found if d.code == "GL308" and d.span.line == 4)
    figure = hotspot.message.split("is an energy hotspot: ", 1)[1].split(" ", 2)
    assert f"of the training's {figure[0]} {figure[1]}, from data)" in stopping.message


FITS = (
    "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(8,))])\n"
    "for seed in {loop}:\n"
)


@pytest.mark.parametrize(
    ("rule", "call", "runs", "reported"),
    [
        # early stopping saves at most 98 % of a 100-epoch fit: 490 J of the fake fit's 500 J point
        # (11 fits reach 10 kJ only at the interval's high end, 1 kJ a fit)
        ("GL308", "m.fit(x, y, epochs=100, validation_split=0.2)", 11, False),
        ("GL308", "m.fit(x, y, epochs=100, validation_split=0.2)", 19, False),
        ("GL308", "m.fit(x, y, epochs=100, validation_split=0.2)", 21, True),
        # mixed precision saves at most two thirds: 333 J a fit
        ("GL602", "tf.keras.applications.ResNet50(weights=None).fit(x, y)", 29, False),
        ("GL602", "tf.keras.applications.ResNet50(weights=None).fit(x, y)", 31, True),
        # batch 16 instead of 2 saves 87 % of this Dense model's steps on the reference GPU: 435 J a fit
        ("GL301", "m.fit(x, y, batch_size=2)", 22, False),
        ("GL301", "m.fit(x, y, batch_size=2)", 24, True),
    ],
)
def test_fit_level_rules_report_where_their_priced_saving_reaches_the_floor(predictor, rule, call, runs, reported):
    found = [d for d in _found(FITS.format(loop=f"range({runs})") + f"    {call}\n", rule, predictor) if d.span.line == 4]
    assert bool(found) is reported  # the fit's own finding (GL308 may also report the loop of fits)
    if reported:
        assert "over a run of the program" in found[0].message
        assert "is not known before the run" not in found[0].message  # priced: the saving in joules


@pytest.mark.parametrize(
    ("rule", "call"),
    [
        ("GL308", "m.fit(x, y, epochs=100, validation_split=0.2)"),
        ("GL602", "tf.keras.applications.ResNet50(weights=None).fit(x, y)"),
        ("GL301", "m.fit(x, y, batch_size=2)"),
    ],
)
def test_fit_level_rules_whose_runs_are_not_counted_report_without_joules(predictor, rule, call):
    found = _found(FITS.format(loop="seeds") + f"    {call}\n", rule, predictor)
    assert len(found) == 1 and "over a run of the program" not in found[0].message
    if rule == "GL308":  # says the saving in epochs, which the run alone decides
        assert "the epochs after the model stops improving, is not known before the run (at most 98 of the 100)" \
            in found[0].message


def test_a_priced_inference_batch_says_the_inferences_joules(predictor):
    """The fake predict costs 1 J at its point: 87 % of 12,000 calls is 10.4 kJ."""
    code = FITS.format(loop="range(12000)") + "    m.predict(x, batch_size=2)\n"
    found = _found(code, "GL301", predictor)
    assert len(found) == 1 and "(87% of the inference's 12 kJ, from data)" in found[0].message


HOTSPOT = "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(8,))])\nfor seed in {loop}:\n    m.fit(x, y)\n"


@pytest.mark.parametrize(("runs", "reported"), [(20, False), (40, False), (41, True)])
def test_a_counted_hotspot_is_material_at_the_low_end_of_its_figure(predictor, runs, reported):
    """GL101's claim is the figure itself: the fake fit's low end (250 J) times its counted runs must
    exceed 10 kJ (41 fits); 20 fits reach it at the point (500 J), not at the low end."""
    assert bool(_found(HOTSPOT.format(loop=f"range({runs})"), "GL101", predictor)) is reported


def test_a_hotspot_whose_runs_are_not_counted_is_not_judged_negligible(predictor):
    found = _found(HOTSPOT.format(loop="seeds"), "GL101", predictor)
    assert len(found) == 1 and "per pass of a loop of unknown length" in found[0].message


def test_run_counts_read_alike_in_every_message(predictor):
    """GL101's runs and GL201's calls are one helper's: thousands separated."""
    [hotspot] = _found(HOTSPOT.format(loop="range(100000)"), "GL101", predictor)
    assert "× 100,000 runs" in hotspot.message
    [calls] = _found(PREDICTS.format(loop="range(100000)"), "GL201", predictor)
    assert "(100,000 times)" in calls.message


class _NoTree:  # a site's facts without a tree: not test code
    path = "train.py"

    def node(self, site):
        return None


@pytest.mark.parametrize(
    ("api", "top", "runs", "immaterial"),
    [
        ("tensorflow.keras.Model.fit", 2_580.0, 1, True),
        ("tensorflow.keras.Model.fit", 2_580.0, 4, False),
        ("tensorflow.keras.Model.fit", 16e6, 1, False),
        ("tensorflow.compat.v1.Session.run", 57.0, 16, False),
    ],
)
def test_a_model_step_of_unknown_size_is_judged_by_its_stated_most(api, top, runs, immaterial):
    """A Keras step's floor tops at the largest data and model it allows: two steps of 64 rows (2.58 kJ
    at most) cannot be material once, four of them can, and a fit of unknown data size (16 MJ at most)
    says nothing; nor does a session run's top, its API's figure on other programs' graphs."""
    from greenlint.rules.material import immaterial_work

    assert immaterial_work(_NoTree(), _site((0.02, top), runs, floor=True, api=api), {}) is immaterial
