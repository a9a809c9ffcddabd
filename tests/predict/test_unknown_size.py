"""A fit/evaluate/predict whose data size the code does not state is priced at the least the code
allows (one batch per epoch), with an interval up to a stated most: never a tutorial's data-set
size (issue 17, item 4). Uses the shipped model and the resolver, as `greenlint calls` does."""

from __future__ import annotations

import math
import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.predict import load_predictor
from greenlint.predict.site_predictions import with_work
from greenlint.predict.work_energy import HIGH_SAMPLES

FIT = "tensorflow.keras.Sequential.fit"
HEADER = "import numpy as np\nimport tensorflow as tf\nfrom tensorflow import keras\n"
MODEL = """
model = keras.Sequential([keras.layers.Dense(16, activation="relu", input_shape=(3,)), keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
"""


@pytest.fixture(scope="module")
def shipped():
    return load_predictor(overlay=False)


def site(code: str, method: str = "fit"):
    result = analyse_source(HEADER + textwrap.dedent(code), "snippet.py")
    assert result.errors == []
    return [s for s in result.callsites if s.api.endswith(f".{method}")][-1]


def predicted(shipped, code: str, method: str = "fit"):
    s = site(code, method)
    return s, shipped.predict(s.api, with_work(s.features, s.work))


LOADTXT = """
data = np.loadtxt("data.csv", delimiter=",")
""" + MODEL + "model.fit(data[:, :3], data[:, 3], epochs={epochs}, verbose=0)\n"


def test_a_fit_on_a_csv_of_unknown_size_costs_at_least_one_step_per_epoch(shipped):
    s, p = predicted(shipped, LOADTXT.format(epochs=1000))
    assert s.work["samples"].provenance == "unknown"
    assert "data size unknown" in p.evidence.note and "stated, not inferred" in p.evidence.note
    assert "assumes up to 1,000,000 samples per epoch (stated" in p.evidence.note
    assert " J)" not in p.evidence.note  # the floor's joules are the figure's alone, not a second one beside it
    assert p.floor  # at least the figure: counted apart from the points
    features = with_work(s.features, s.work)
    least = shipped.predict(s.api, {**features, "samples": 32})  # one batch per epoch: 1000 steps
    assert p.energy_j == pytest.approx(least.energy_j, rel=1e-3)
    assert p.interval_j[0] == pytest.approx(least.interval_j[0], rel=1e-3)
    # the interval spans every size the code allows, up to the stated high end
    for n in (101, 10_000, HIGH_SAMPLES):
        known = shipped.predict(s.api, {**features, "samples": n})
        assert p.interval_j[0] <= known.energy_j <= p.interval_j[1]


def test_an_unknown_size_never_claims_a_tutorial_data_set(shipped):
    s, p = predicted(shipped, LOADTXT.format(epochs=1000))
    features = {k: v for k, v in with_work(s.features, s.work).items() if not k.endswith("_unknown")}
    tutorial = shipped.predict(s.api, features)  # the old fallback: the API's measured median x epochs
    mnist = shipped.predict(s.api, {**features, "samples": 60_000})
    assert p.energy_j < tutorial.energy_j / 10 and p.energy_j < mnist.energy_j / 100
    assert p.interval_j[1] > mnist.energy_j  # a large data set is not ruled out either


def test_the_figure_moves_with_epochs_when_the_size_is_unknown(shipped):
    _, few = predicted(shipped, LOADTXT.format(epochs=100))
    _, many = predicted(shipped, LOADTXT.format(epochs=10_000))
    # 100x the steps: about 58x the time past the start-up; how power follows time is issue 18's
    assert many.energy_j / few.energy_j > 30
    assert many.interval_j[0] > few.interval_j[0] * 30


@pytest.mark.parametrize("method", ["predict", "evaluate"])
def test_inference_on_data_of_unknown_size_is_at_least_one_batch(shipped, method):
    call = f"model.{method}(np.load('x.npy'))\n" if method == "predict" else f"model.{method}(x, y)\n"
    s, p = predicted(shipped, "x = np.load('x.npy')\ny = x[:, 0]\n" + MODEL + call, method)
    assert "data size unknown" in p.evidence.note
    one = shipped.predict(s.api, {**with_work(s.features, s.work), "samples": 32})
    assert p.energy_j == pytest.approx(one.energy_j, rel=1e-3)
    most = shipped.predict(s.api, {**with_work(s.features, s.work), "samples": HIGH_SAMPLES})
    assert p.interval_j[1] == pytest.approx(most.interval_j[1], rel=1e-3)  # up to a million samples
    assert p.interval_j[1] > 100 * p.energy_j  # a range of orders of magnitude, shown as one


def test_epochs_that_are_not_a_literal_span_one_to_the_stated_most(shipped):
    s, p = predicted(shipped, "x = np.zeros((1000, 3))\n" + MODEL + "model.fit(x, x[:, 0], epochs=args.epochs)\n")
    assert s.work["epochs"].provenance == "unknown"
    assert "epochs unknown" in p.evidence.note and "data size" not in p.evidence.note
    once = shipped.predict(s.api, {**with_work(s.features, s.work), "epochs": 1})
    assert p.energy_j == pytest.approx(once.energy_j, rel=1e-3)


XOR = """
x = {array}([[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 0]])
y = {array}([[0], [1], [1], [0]])
""" + MODEL + "model.fit(x, y, epochs=50000, verbose=0)\n"


@pytest.mark.parametrize("header, array", [("", "np.array"), ("from numpy import array\n", "array"), ("", "")])
def test_the_xor_is_priced_for_its_four_samples(shipped, header, array):
    _, p = predicted(shipped, header + XOR.format(array=array))
    assert "data size unknown" not in p.evidence.note and not p.floor
    assert "5e+04 steps" in p.evidence.note  # 50,000 epochs of one batch, not a tutorial's data set


def test_ten_times_the_samples_is_about_ten_times_the_energy_past_start_up(shipped):
    figures = []
    for n in (4_000, 40_000, 400_000):
        _, p = predicted(shipped, f"x = np.random.rand({n}, 3)\n" + MODEL + "model.fit(x, x[:, 0], epochs=100)\n")
        figures.append(p.energy_j)
    for small, large in zip(figures, figures[1:]):
        assert 7 < large / small < 14
    assert math.isclose(figures[2] / figures[1], 10, rel_tol=0.3)


def test_early_stopping_on_data_of_unknown_size_reaches_down_to_its_patience(shipped):
    stopped = "cb = keras.callbacks.EarlyStopping(patience=3)\n" + LOADTXT.replace(
        "verbose=0)", "verbose=0, validation_split=0.2, callbacks=[cb])")
    s, p = predicted(shipped, stopped.format(epochs=1000))
    assert s.work["epochs"].bound == "upper" and s.work["epochs"].least == 4
    assert "data size unknown" in p.evidence.note and "early stopping" in p.evidence.note
    features = {k: v for k, v in with_work(s.features, s.work).items() if k not in ("epochs_bound", "epochs_least")}
    least = shipped.predict(s.api, {**features, "epochs": 4})
    full = shipped.predict(s.api, {**features, "epochs": 1000})
    assert p.energy_j == pytest.approx(least.energy_j, rel=1e-3)  # at least patience + 1 epochs of one batch
    assert p.interval_j[1] >= full.energy_j  # up to all 1000 epochs


def test_a_resumed_fit_under_early_stopping_counts_the_epochs_it_runs(shipped):
    """`initial_epoch=50` of `epochs=100` with EarlyStopping(patience=10) runs 11 to 50 epochs: its floor is
    11 epochs of one batch and its high end 50 epochs, never a class constant scaled by all 100."""
    stopped = "cb = keras.callbacks.EarlyStopping(patience=10)\n" + LOADTXT.replace(
        "verbose=0)", "verbose=0, initial_epoch=50, validation_split=0.2, callbacks=[cb])")
    s, p = predicted(shipped, stopped.format(epochs=100))
    assert s.work["epochs"].bound == "upper" and s.work["initial_epoch"].value == 50
    assert p.floor and "11 epochs (early stopping)" in p.evidence.note
    features = {k: v for k, v in with_work(s.features, s.work).items() if k not in ("epochs_bound", "epochs_least")}
    least = shipped.predict(s.api, {**features, "epochs": 61})
    most = shipped.predict(s.api, {**features, "epochs": 100})
    assert p.energy_j == pytest.approx(least.energy_j, rel=1e-3)  # 11 epochs run, one batch each
    assert most.energy_j <= p.interval_j[1]
    fresh = predicted(shipped, stopped.replace("initial_epoch=50, ", "").format(epochs=50))[1]
    assert p.interval_j[1] == pytest.approx(fresh.interval_j[1], rel=0.05)  # 50 epochs at most either way


def test_a_train_on_batch_of_unknown_size_is_one_step_not_a_fit(shipped):
    """A one-batch call runs one step whatever its batch: its floor is that step on one sample (no fit's
    start-up, no epochs), and its high end one batch of the stated most, never epochs of it."""
    code = MODEL + """
def train(gen):
    for _ in range(1000):
        x, y = next(gen)
        model.train_on_batch(x, y)
"""
    s, p = predicted(shipped, code, "train_on_batch")
    assert s.work["samples"].value is None
    note = p.evidence.note
    assert "batch size unknown" in note and "a batch of one sample" in note
    assert "in its one batch" in note and "epochs" not in note
    features = with_work(s.features, s.work)
    one = shipped.predict(s.api, {**features, "samples": 1})  # the sized one-step figure
    assert p.energy_j == pytest.approx(one.energy_j, rel=1e-3)
    fit = shipped.predict(FIT, {**features, "samples": 1, "epochs": 1})  # a whole fit pays its start-up
    assert p.energy_j < fit.energy_j / 10
    big = shipped.predict(s.api, {**features, "samples": 4096})
    assert p.interval_j[0] <= big.energy_j <= p.interval_j[1]


GENERATOR_STEPS = MODEL + """
def batches(paths):
    for path in paths:
        yield np.load(path)


model.{method}(batches(paths), steps{per_epoch}=30)
"""


@pytest.mark.parametrize(("method", "per_epoch"), [("predict_generator", ""), ("fit_generator", "_per_epoch")])
def test_steps_of_a_generator_of_unknown_batch_are_one_sample_each_at_least(shipped, method, per_epoch):
    """30 steps of a generator whose batch the code does not show: at least one sample per step, never
    Keras' default of 32 per step (a default of `fit(x, y)` on arrays, not of a generator's batches)."""
    s, p = predicted(shipped, GENERATOR_STEPS.format(method=method, per_epoch=per_epoch), method)
    assert s.work["batch_size"].provenance == "unknown"
    assert p.floor and "batch size unknown" in p.evidence.note and "one sample per step" in p.evidence.note
    features = with_work(s.features, s.work)
    for key in [k for k in features if k.startswith("batch_size")]:
        features.pop(key)
    one, default = (shipped.predict(s.api, {**features, "batch_size": n}) for n in (1, 32))
    assert p.energy_j == pytest.approx(one.energy_j, rel=1e-3)
    assert p.interval_j[0] < p.energy_j < default.energy_j < p.interval_j[1]


def test_a_pipeline_of_unknown_batch_without_steps_stays_a_data_size_floor():
    """Without `steps=`, a batch the code does not show is part of an unknown data size (one batch per
    epoch at least), not steps of one sample: `steps_only` needs the steps."""
    from greenlint.predict.work_energy import steps_only

    unknown = {"batch_size_unknown": True, "samples_unknown": True, "epochs": 30}
    assert not steps_only(unknown)
    assert steps_only({**unknown, "steps_per_epoch": 300}) and steps_only({**unknown, "steps": 30})
    assert not steps_only({**unknown, "steps": 30, "batch_size": 8})
