"""The predictor on constructed data: fallback chain, censoring, feature scaling, intervals, round trip."""

from __future__ import annotations

import json
import math
import random

import pytest

from greenlint.predict.hierarchy import Hierarchy
from greenlint.predict.loading import find_overlay, load
from greenlint.predict.lookup_figure import ASSUMED_EPOCHS, lookup_figure
from greenlint.predict.prediction import Basis
from greenlint.predict.predictor import Predictor
from greenlint.predict.tables import MIN_GROUP_MEASURED, NEGLIGIBLE_MAX_TIME_S, ModelError, dumps, read_model
from greenlint.predict.work_energy import DISPATCH_S, energy_at, power_for
from tests.predict.conftest import FakeCatalog, record
from tools.model.train import train

FIT = "tf.keras.Sequential.fit"
#: A call's work known from its code (a tensor's element count): what lets a fallback group lend a figure.
WORK = {"elements": 1000}


def _kb(seed: int = 1) -> list:
    rng = random.Random(seed)
    recs = []
    for t in range(12):
        for e in range(3):
            kw = dict(script=f"tut{t}", experiment=e)
            recs.append(record(FIT, 500 * rng.lognormvariate(0, 0.4), index=0, args_size=10_000, **kw))
            recs.append(record("tf.keras.Sequential.evaluate", 50 * rng.lognormvariate(0, 0.4), index=1, **kw))
            recs.append(record("tf.keras.layers.Dense", 3 * rng.lognormvariate(0, 0.3), index=2, **kw))
            recs.append(record("tf.keras.layers.Dropout", 2 * rng.lognormvariate(0, 0.3), index=3, **kw))
            recs.append(record("tf.keras.layers.Flatten", 1 * rng.lognormvariate(0, 0.3), index=4, **kw))
            recs.append(record("tf.constant", 0.0, index=5, below=True, bound=2.0, **kw))
            recs.append(record("tf.zeros", 0.02 * rng.lognormvariate(0, 0.3), index=6, **kw))
            recs.append(record("tf.estimator.LinearClassifier.train", 80 * rng.lognormvariate(0, 0.3), index=7, **kw))
            recs.append(record("tf.estimator.LinearClassifier", 0.5 * rng.lognormvariate(0, 0.3), index=8, **kw))
    # a data-size sweep of fit: energy proportional to the fraction of the data
    for k in range(1, 11):
        recs.append(record(FIT, 100.0 * k, script="tut0_fit", dataset="fecom-data-size", index=k - 1,
                           features={"data_size_fraction": k / 10}, args_size=1000 * k))
    return recs


@pytest.fixture(scope="module")
def hierarchy():
    return Hierarchy(FakeCatalog())


@pytest.fixture(scope="module")
def model(hierarchy):
    return train(_kb(), hierarchy)


@pytest.fixture
def predictor(model, hierarchy):
    return Predictor(model, hierarchy=hierarchy)


def test_measured_api_is_looked_up(predictor):
    p = predictor.predict(FIT, {})
    assert p.basis is Basis.FROM_DATA
    assert p.evidence.level == "api" and p.evidence.api == FIT
    assert p.evidence.records >= 36
    assert 200 < p.energy_j < 1200


def test_a_group_of_fewer_than_three_measured_apis_lends_no_figure(predictor, model, hierarchy):
    # the nearest groups exist (the same method on the base class, the class's other methods, the
    # same method elsewhere in the module) but hold one or two measured APIs: not theirs
    for api, nearest in (("tf.keras.Functional.fit", ("class", "tf.keras.Model.fit")),
                         ("tf.keras.Functional.save", ("class", "tf.keras.Model.*")),
                         ("tf.estimator.DNNClassifier.train", ("module", "tf.estimator.*.train"))):
        assert nearest in hierarchy.chain(api) and model["groups"][nearest[0]][nearest[1]]["n_measured"] < 3
        p = predictor.predict(api, WORK)
        if p.basis is not Basis.UNKNOWN and p.evidence.level != "work":  # a farther group with enough members
            assert model["groups"][p.evidence.level][p.evidence.api]["n_measured"] >= MIN_GROUP_MEASURED
    # training calls: two measured (Sequential.fit, LinearClassifier.train) in every group: no figure
    p = predictor.predict("tf.keras.Functional.fit", WORK)
    assert p.basis is Basis.UNKNOWN and p.energy_j is None and p.interval_j is None
    assert f"{MIN_GROUP_MEASURED} measured APIs" in p.evidence.note


def test_fallback_to_module_family_kind_and_global(predictor, hierarchy):
    p = predictor.predict("tf.keras.layers.Conv2D", WORK)
    # the module's calls of the same kind (layer constructors), not its heavier calls
    assert p.evidence.level == "module" and p.evidence.api == "tf.keras.layers (layer-constructor)"
    assert 0.5 < p.energy_j < 10  # among the layers, far from fit
    assert hierarchy.chain("tf.keras.layers.Conv2D")[-1] == ("global", "*")
    # a tensor op given its work is priced from it (the roofline), never from a group of other ops
    for op in ("tf.experimental.new_op", "tf.ones", "tf.math.reduce_sum"):
        p = predictor.predict(op, WORK)
        assert p.evidence.level == "work" and p.basis is Basis.PREDICTED and "dispatch" in p.evidence.note
        unknown = predictor.predict(op, {"samples": 1000})
        assert unknown.basis is Basis.UNKNOWN and "not known" in unknown.evidence.note
    assert predictor.predict("somewhere.else.entirely", WORK).basis is Basis.UNKNOWN  # no group: no figure


def test_a_never_measured_api_without_known_work_gets_no_figure(predictor):
    p = predictor.predict("tf.keras.layers.Conv2D", {})
    assert p.basis is Basis.UNKNOWN and p.energy_j is None and "borrowed" in p.evidence.note
    assert predictor.predict("tf.keras.layers.Dense", {}).basis is Basis.FROM_DATA  # measured: its own figure


def test_a_measured_op_of_unsized_tensors_is_a_floor_not_its_apis_figure(predictor, model):
    """tf.zeros was measured at about 0.02 J per call on other programs' tensors: on a call whose tensors
    the code does not size, that is no figure for this call (a loop would multiply it), so the figure
    is the least (one dispatch) up to that figure's high end; given its elements, its own work."""
    unsized = predictor.predict("tf.zeros", {})
    assert unsized.floor and unsized.basis is Basis.FROM_DATA
    lo, hi = unsized.interval_j
    dispatch = DISPATCH_S * model["work"]["power"]["training"]["steady_w"]
    assert unsized.energy_j == lo == pytest.approx(dispatch) and hi > 0.02  # one dispatch, up to the measured calls
    assert "not known from the code" in unsized.evidence.note
    sized = predictor.predict("tf.zeros", WORK)
    assert not sized.floor and sized.evidence.level == "work"
    # measured only below the resolution: other programs' bounds are no more this call's figure than
    # their measurements, so the same floor from one dispatch up to the bound's high end
    bound = predictor.predict("tf.constant", {})
    assert bound.floor and bound.basis is Basis.FROM_DATA and bound.energy_j == pytest.approx(dispatch)
    assert bound.interval_j[1] >= model["apis"]["tf.constant"]["bound_j"] > bound.energy_j


def test_intervals_widen_with_the_fallback_level(predictor):
    def width(p):
        lo, hi = p.interval_j
        return math.log10(hi / lo)

    measured = predictor.predict("tf.keras.layers.Dense", {})
    generalised = predictor.predict("tf.keras.layers.Conv2D", WORK)
    assert width(generalised) > width(measured)


def test_interval_shape(predictor):
    bounded = lookup_figure(predictor, "tf.constant", {}, [])  # the table's bound, before the op's floor
    assert bounded.interval_j[0] == 0 < bounded.energy_j <= bounded.interval_j[1]  # a bound: no lower end
    for api in (FIT, "tf.keras.layers.Conv2D", "tf.ones"):
        p = predictor.predict(api, WORK)
        lo, hi = p.interval_j
        assert 0 < lo < p.energy_j < hi
        parts = [p.cpu_j, p.gpu_j, p.ram_j]
        assert all(x is not None and x >= 0 for x in parts)
        assert sum(parts) == pytest.approx(p.energy_j, rel=1e-3)


def test_censored_api_is_predicted_below_its_bound_not_at_zero(predictor):
    p = lookup_figure(predictor, "tf.constant", {}, [])
    assert p.basis is Basis.BOUNDED  # every measurement was below the resolution: a bound
    # the figure under the bound; the high end is the calibrated one (a call measured above the
    # resolution exceeds the quick calls' bounds), never under the figure
    assert 1e-3 < p.energy_j < 2.0 and p.interval_j[1] >= p.energy_j
    assert "below the resolution" in p.evidence.note


def test_an_api_only_below_the_resolution_costs_what_its_calls_took_under_its_bound(hierarchy):
    """A write measured only below the resolution (each run's bound about 2 J) whose calls took 0.1 ms:
    its figure is that time at the steady power of a call, not the bounds' estimate (which, times a
    loop of 10,000 writes, made a script's total); a call that took long keeps the bounds' estimate
    (time never raises a figure over what the bounds allow), and the high end is the bounds' in both."""
    recs = _kb()
    for t in range(12):
        recs.append(record("io.Writer.write", 0.0, script=f"tut{t}", index=30, below=True, bound=2.0, time_s=1e-4))
        recs.append(record("io.Reader.read", 0.0, script=f"tut{t}", index=31, below=True, bound=2.0, time_s=10.0))
    model = train(recs, hierarchy)
    predictor = Predictor(model, hierarchy=hierarchy)
    quick, slow = predictor.predict("io.Writer.write", {}), predictor.predict("io.Reader.read", {})
    steady = model["work"]["power"]["all"]["steady_w"]
    assert quick.basis is slow.basis is Basis.BOUNDED
    assert quick.energy_j == pytest.approx(steady * 1e-4) and "took 0.0001 s" in quick.evidence.note
    assert slow.energy_j == pytest.approx(10 ** model["apis"]["io.Reader.read"]["mu"])
    assert slow.energy_j < steady * 10.0
    assert "took" not in slow.evidence.note
    assert quick.interval_j == slow.interval_j and quick.interval_j[0] == 0 and quick.interval_j[1] > 2.0


def test_an_api_mostly_below_the_resolution_is_the_mean_of_its_calls_not_its_one_measurable_call(hierarchy):
    """`.numpy()` calls below the resolution in 11 call sites and one copy of a large tensor measured at 40 J:
    a call costs on average the mixture's mean (11/12 under 3 J, taken at half, 1/12 at the measurable
    call's figure), with no lower end: never the outlier's 40 J, nor a bound that the measurable call
    shows some calls exceed."""
    recs = _kb()
    for t in range(14):
        # the same call of 12 scripts, two of them run twice (runs are files: experiments)
        recs.append(record("tf.zeros.numpy", 0.0, script=f"tut{t % 12}", experiment=1 + t // 12, index=40,
                           below=True, bound=3.0))
    recs.append(record("tf.zeros.numpy", 40.0, script="tut3", experiment=3, index=40))  # tut3's call, run again
    model = train(recs, hierarchy)
    p = lookup_figure(Predictor(model, hierarchy=hierarchy), "tf.zeros.numpy", {}, [])  # before the op's floor
    measurable = 10 ** model["apis"]["tf.zeros.numpy"]["mu"]
    assert p.basis is Basis.BOUNDED and p.interval_j[0] == 0.0 and p.interval_j[1] >= measurable
    assert p.energy_j == pytest.approx(measurable / 12 + 11 / 12 * 1.5)
    assert p.energy_j < 40.0 / 4  # far below the outlier's 40 J
    assert "11 of 12 measured call sites were below the resolution" in p.evidence.note  # sites: script x line
    assert "taken at half" in p.evidence.note  # they took 1 s each: more than half the bound at a call's power


def test_an_api_mostly_below_the_resolution_takes_its_quick_calls_at_what_they_took(hierarchy):
    """The same mixture whose calls below the resolution took a millisecond each: they count at that time
    at a call's steady power (a bound is the resolution of its run, not the call's cost), under half the bound."""
    recs = _kb()
    for t in range(14):
        recs.append(record("tf.zeros.numpy", 0.0, script=f"tut{t % 12}", experiment=1 + t // 12, index=40,
                           below=True, bound=3.0, time_s=1e-3))
    recs.append(record("tf.zeros.numpy", 40.0, script="tut3", experiment=3, index=40))
    model = train(recs, hierarchy)
    entry = model["apis"]["tf.zeros.numpy"]
    assert entry["censored_time_s"] == 1e-3
    p = lookup_figure(Predictor(model, hierarchy=hierarchy), "tf.zeros.numpy", {}, [])
    quick = model["work"]["power"]["all"]["steady_w"] * 1e-3
    assert quick < 1.5
    assert p.energy_j == pytest.approx(10 ** entry["mu"] / 12 + 11 / 12 * quick)
    assert p.basis is Basis.BOUNDED and p.interval_j[0] == 0.0 and p.interval_j[1] >= 10 ** entry["mu"]
    assert "taken at their median 0.001 s" in p.evidence.note


def test_epochs_scale_training_calls_and_say_what_was_assumed(predictor):
    base = predictor.predict(FIT, {})
    more = predictor.predict(FIT, {"epochs": 3 * ASSUMED_EPOCHS})
    assert more.energy_j == pytest.approx(3 * base.energy_j)
    assert more.multiplier == pytest.approx(3.0)
    assert f"{ASSUMED_EPOCHS} assumed" in more.evidence.note
    wb, wm = (math.log10(p.interval_j[1] / p.interval_j[0]) for p in (base, more))
    assert wm > wb  # the assumption costs certainty
    # epochs mean nothing to a layer constructor
    assert predictor.predict("tf.keras.layers.Dense", {"epochs": 50}).multiplier == 1.0


def test_epochs_scale_from_a_known_reference(hierarchy):
    recs = [record(FIT, 100.0, script=f"t{i}", features={"epochs": 5}) for i in range(4)]
    p = Predictor(train(recs, hierarchy, calibrated=False), hierarchy=hierarchy)
    assert p.predict(FIT, {"epochs": 10}).energy_j == pytest.approx(2 * p.predict(FIT, {}).energy_j)
    assert "5 measured" in p.predict(FIT, {"epochs": 10}).evidence.note


def test_steps_scale_only_against_a_measured_reference(predictor, hierarchy):
    unknown = predictor.predict("tf.estimator.LinearClassifier.train", {"steps": 1000})
    assert unknown.multiplier == 1.0 and "steps not scaled" in unknown.evidence.note
    recs = [record(FIT, 100.0, script=f"t{i}", features={"steps_per_epoch": 50}) for i in range(3)]
    p = Predictor(train(recs, hierarchy, calibrated=False), hierarchy=hierarchy)
    assert p.predict(FIT, {"steps_per_epoch": 100}).multiplier == pytest.approx(2.0)


def test_tensor_size_scales_with_the_sweep_exponent(model, predictor):
    assert model["size_exponents"]["per_api"][FIT] == pytest.approx(1.0, abs=0.01)
    ref = model["apis"][FIT]["ref"]["args_size"]
    p1 = predictor.predict(FIT, {"tensor_bytes": ref})
    p4 = predictor.predict(FIT, {"tensor_bytes": 4 * ref})
    assert p4.energy_j == pytest.approx(4 * p1.energy_j, rel=0.02)
    assert "input size" in p4.evidence.note
    untouched = predictor.predict("tf.keras.layers.Dense", {"tensor_bytes": 1e9})
    assert untouched.multiplier == 1.0 and "not scaled" in untouched.evidence.note


@pytest.mark.parametrize("bad", [0, -3, float("inf"), True, "20", None])
def test_bad_feature_values_are_ignored(predictor, bad):
    assert predictor.predict(FIT, {"epochs": bad}).multiplier == 1.0


def test_model_round_trip(tmp_path, model, hierarchy):
    path = tmp_path / "predictor.json"
    path.write_text(dumps(model))
    loaded, data = read_model(path)
    assert loaded == json.loads(dumps(model))
    a = Predictor(loaded, model_bytes=data, hierarchy=hierarchy)
    b = Predictor(model, hierarchy=hierarchy)
    for api in (FIT, "tf.keras.layers.Conv2D", "tf.constant"):
        assert a.predict(api, {"epochs": 20}) == b.predict(api, {"epochs": 20})
    assert load(path, with_overlay=False).fingerprint == a.fingerprint


def test_training_is_deterministic(hierarchy):
    assert dumps(train(_kb(), hierarchy)) == dumps(train(_kb(), hierarchy))


def test_bad_model_file_names_the_file(tmp_path):
    bad = tmp_path / "predictor.json"
    bad.write_text("{not json")
    with pytest.raises(ModelError, match="predictor.json"):
        read_model(bad)
    bad.write_text('{"version": 999}')
    with pytest.raises(ModelError, match="version 999"):
        read_model(bad)


def test_calibration_overlay(tmp_path, model, hierarchy):
    from greenlint.kb.record import SCHEMA_VERSION
    from greenlint.kb.store import write_kb

    # this machine runs fit twice as slowly and measured it at 2 kJ; Dense was not calibrated
    overlay = [record(FIT, 2000.0, script=f"mine{i}", time_s=2.0) for i in range(3)]
    write_kb(tmp_path / "hw", overlay, {"schema_version": SCHEMA_VERSION}, "constructed overlay\n")
    ov = find_overlay(model, tmp_path / "hw")
    assert ov is not None and ov.time_ratio == pytest.approx(2.0)
    p = Predictor(model, hierarchy=hierarchy, overlay=ov)
    fit = p.predict(FIT, {})
    assert fit.basis is Basis.CALIBRATED and fit.energy_j == pytest.approx(2000.0, rel=0.05)
    plain = Predictor(model, hierarchy=hierarchy)
    dense, dense0 = p.predict("tf.keras.layers.Dense", {}), plain.predict("tf.keras.layers.Dense", {})
    assert dense.basis is Basis.CALIBRATED_RESCALED and dense.label == "calibrated here, rescaled"
    assert dense.energy_j == pytest.approx(2 * dense0.energy_j)
    assert "rescaled" in dense.evidence.note
    assert p.fingerprint != plain.fingerprint


def test_an_empty_model_predicts_unknown_not_a_number(hierarchy):
    p = Predictor(train([], hierarchy, calibrated=False), hierarchy=hierarchy).predict(FIT, {})
    assert p.basis is Basis.UNKNOWN and p.energy_j is None


def test_a_tf1_graph_run_in_a_graph_program_gets_no_figure_even_when_measured(hierarchy):
    # a session run costs what its fetched graph costs: one program's measurement is not another's
    run = "tensorflow.compat.v1.Session.run"
    recs = _kb() + [record(run, 300.0 * (1 + e), script=f"gan{e}", index=9, experiment=e) for e in range(3)]
    predictor = Predictor(train(recs, hierarchy), hierarchy=hierarchy)
    assert predictor.model["apis"][run]["records"] == 3  # measured, and kept in the tables
    for api in (run, "tensorflow.Tensor.eval", "tensorflow.Operation.run"):
        p = predictor.predict(api, {"graph_mode": True})  # as the resolver marks it
        assert p.basis is Basis.UNKNOWN and p.energy_j is None and "runs the graph" in p.evidence.note
    assert predictor.predict(FIT, {"graph_mode": True}).energy_j is not None


def test_tf1_graph_construction_costs_nothing_at_its_line_but_work_done_at_the_call_does(predictor):
    # in a TF1 graph program `tf.zeros(...)` and `Dense(...)` add graph nodes; a Keras fit runs
    for api in ("tf.zeros", "tf.keras.layers.Dense"):
        assert predictor.predict(api, {}).energy_j is not None
        built = predictor.predict(api, {"graph_mode": True})
        assert built.basis is Basis.SYMBOLIC and built.energy_j == 0.0 and "Session.run" in built.evidence.note
    assert predictor.predict(FIT, {"graph_mode": True}).energy_j is not None


def test_cut_short_and_unbounded_records_are_left_out():
    from dataclasses import replace

    from tools.model.sites import build_sites

    cut = replace(record(FIT, 5.0, script="a"), series_cut_short=True)
    unbounded = record(FIT, 0.0, script="b", below=True, bound=float("inf"))
    good = record(FIT, 5.0, script="c")
    assert [s.tutorial for s in build_sites([cut, unbounded, good])] == ["c"]


def test_fit_with_a_known_architecture_is_priced_by_its_layers_on_the_reference_gpu():
    from greenlint.predict import load_predictor

    shipped = load_predictor(overlay=False)
    feats = {"architecture": "VGG16", "epochs": 10, "samples": 2000, "batch_size": 32}
    p = shipped.predict(FIT, feats)
    assert p.evidence.level != "training-run" and "VGG16" in p.evidence.note
    assert "on the reference machine's GPU: " in p.evidence.note and "19 layers" in p.evidence.note
    assert p.interval_j[0] < p.energy_j < p.interval_j[1]
    # the same FLOPs stated without the layer table: the fitted time model prices them, not the roofline
    flops = shipped.predict(FIT, {**{k: v for k, v in feats.items() if k != "architecture"},
                                  "flops_per_sample": 10.02877e9 * (224 * 224) / (128 * 128)})
    assert "power" in flops.evidence.note and "reference machine's GPU" not in flops.evidence.note
    assert flops.energy_j != pytest.approx(p.energy_j, rel=1e-3)
    # a larger input costs more (FLOPs and bytes scale by pixels)
    assert shipped.predict(FIT, {**feats, "input_shape": [448, 448, 3]}).energy_j > 2 * p.energy_j


def test_time_only_overlay_gives_calibrated_estimated(tmp_path, model, hierarchy):
    from dataclasses import replace

    from greenlint.kb.record import SCHEMA_VERSION
    from greenlint.kb.store import write_kb

    none = dict.fromkeys(("cpu_gross_j", "cpu_net_j", "ram_gross_j", "ram_net_j", "gpu_gross_j", "gpu_net_j"))
    timed = [
        replace(record(FIT, 1.0, script=f"mine{i}", time_s=3.0, features={"estimated": True}), **none)
        for i in range(3)
    ]
    write_kb(tmp_path / "hw", timed, {"schema_version": SCHEMA_VERSION}, "constructed time-only overlay\n")
    ov = find_overlay(model, tmp_path / "hw")
    assert ov is not None and not ov.measured and ov.time_ratio == pytest.approx(3.0)
    p = Predictor(model, hierarchy=hierarchy, overlay=ov)
    ref = Predictor(model, hierarchy=hierarchy)
    fit = p.predict(FIT, {})
    assert fit.basis is Basis.CALIBRATED_ESTIMATED
    assert fit.energy_j == pytest.approx(3 * ref.predict(FIT, {}).energy_j)
    assert "no energy counter" in fit.evidence.note


def _no_work_kb() -> list:
    """Optimizer constructors (a no-work kind in FakeCatalog), measured below the resolution in six
    tutorials, one of them also measured taking long (`Slow`), beside a measured fit."""
    recs = []
    for t in range(6):
        kw = dict(script=f"tut{t}", experiment=1)
        recs.append(record(FIT, 400.0 + 20 * t, index=0, **kw))
        recs.append(record("tf.keras.optimizers.Adam", 0.0, index=1, below=True, bound=1.0 + 0.1 * t, time_s=0.004, **kw))
        recs.append(record("tf.keras.optimizers.SGD", 0.0, index=2, below=True, bound=2.0, time_s=0.003, **kw))
        recs.append(record("tf.keras.optimizers.Slow", 0.0, index=3, below=True, bound=3.0,
                           time_s=10 * NEGLIGIBLE_MAX_TIME_S, **kw))
        recs.append(record("tf.keras.optimizers.Heavy", 30.0, index=4, **kw))
    return recs


def test_a_call_that_does_no_work_gets_the_bound_measured_on_such_calls(hierarchy):
    model = train(_no_work_kb(), hierarchy)
    table = model["negligible"]
    assert table["n_apis"] == 3 and table["n_sites"] == 18 and table["n_measurable"] == 6
    predictor = Predictor(model, hierarchy=hierarchy)
    for api in ("tf.keras.optimizers.Adam", "tf.keras.optimizers.Nadam"):  # measured, and never measured
        p = predictor.predict(api, {})
        assert p.basis is Basis.NEGLIGIBLE and p.basis.label == "negligible"
        assert p.interval_j == (0.0, table["bound_j"]) and table["bound_j"] == 2.0  # under the median bound
        # its figure: what such calls took (the median, 0.004 s) at a call's steady power, not the resolution
        assert p.energy_j == pytest.approx(energy_at(power_for(model["work"], None), 0.004)) and p.energy_j < 2.0
        assert "below the resolution" in p.evidence.note and "upper bound" in p.evidence.note
        assert "took 0.004 s" in p.evidence.note
    # the bound itself where they took longer than it allows at that power, or no time was kept
    for time_s in (1e3, None):
        told = {**model, "negligible": {**table, "time_s": time_s}}
        p = Predictor(told, hierarchy=hierarchy).predict("tf.keras.optimizers.Adam", {})
        assert p.energy_j == p.interval_j[1] == 2.0 and "took" not in p.evidence.note
    # its own data decide where they say otherwise: measured above the resolution, or taking long
    assert predictor.predict("tf.keras.optimizers.Heavy", {}).basis is Basis.FROM_DATA
    assert predictor.predict("tf.keras.optimizers.Slow", {}).basis is Basis.BOUNDED
    assert predictor.predict(FIT, {}).basis is Basis.FROM_DATA  # work is never negligible


def test_the_programs_start_up_is_the_models_figure_said_as_from_data_and_none_without_one(model, hierarchy):
    assert Predictor(model, hierarchy=hierarchy).startup() is None  # no whole-program run in the KB
    runs = [record("project-level", 900.0, script=f"tut{t}", dataset="fecom-project-level",
                   features={"startup_j": 40.0 + t, "startup_s": 2.5}) for t in range(4)]
    start = Predictor(train(_kb() + runs, hierarchy), hierarchy=hierarchy).startup()
    assert start.energy_j == 41.5 and start.basis is Basis.FROM_DATA
    assert start.interval_j[0] <= 41.5 <= start.interval_j[1]
    assert "runtime's start" in start.evidence.note and "4 whole-program runs of 4 programs" in start.evidence.note
    assert start.evidence.api == "import tensorflow"


def test_the_held_device_is_sites_times_seconds_per_site_at_the_held_draw(model, hierarchy):
    assert Predictor(model, hierarchy=hierarchy).held(10) is None  # no held-device term in the model
    fitted = {**model, "held": {"watts": 60.0, "seconds_per_site": 0.5, "interval_s": [0.1, 2.0], "programs": 7,
                                "runs": 70}}
    held = Predictor(fitted, hierarchy=hierarchy).held(10)
    assert held.energy_j == pytest.approx(10 * 0.5 * 60.0) and held.interval_j == pytest.approx((60.0, 1200.0))
    assert held.basis is Basis.FROM_DATA and held.evidence.records == 70
    assert "10 call sites × 0.5 s at 60 W" in held.evidence.note and "7 programs" in held.evidence.note
    assert Predictor(fitted, hierarchy=hierarchy).held(0) is None  # no call site, nothing held for it
