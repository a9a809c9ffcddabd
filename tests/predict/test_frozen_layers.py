"""Transfer learning priced by its work (issues 26, 27): a fit whose model's compile freezes layers
costs the forward pass and the backward pass of what trains; a head trained on cached features
costs the head. Uses the shipped model, and the resolver where the call comes from code."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.predict import load_predictor
from greenlint.predict.devices import device_units
from greenlint.predict.site_predictions import with_work
from greenlint.predict.work_energy import TRAINING_FLOPS, derive, one_batch

FIT = "tensorflow.keras.Model.fit"
FPS = 4e8  # forward FLOPs per sample of a mid-sized CNN
WORK = {"samples": 20000, "batch_size": 32, "epochs": 10, "flops_per_sample": FPS, "params": 3_000_000}


@pytest.fixture(scope="module")
def shipped():
    return load_predictor(overlay=False)


def _frozen(backward: float, trained: int = 10_000) -> dict:
    return {**WORK, "backward_flops_per_sample": backward, "trainable_params": trained}


def test_a_frozen_base_costs_less_than_the_same_fit_unfrozen_by_what_its_flops_say(shipped):
    """Energy is linear in the work past the start-up: the joules the frozen layers save are in the
    ratio of the FLOPs they save."""
    whole = shipped.predict(FIT, WORK).energy_j
    head = shipped.predict(FIT, _frozen(0.0)).energy_j
    half = shipped.predict(FIT, _frozen(FPS)).energy_j
    assert head < half < whole
    steps, flops_whole = derive("training", WORK)
    flops = {b: derive("training", _frozen(b))[1] for b in (0.0, FPS)}
    assert derive("training", _frozen(0.0))[0] == steps  # the same steps: only the FLOPs differ
    assert flops_whole == pytest.approx(TRAINING_FLOPS * FPS * 20000 * 10 + 10 * 625 * 10 * 3_000_000)
    assert flops[0.0] == pytest.approx(FPS * 20000 * 10 + 10 * 625 * 10 * 10_000)
    assert (whole - half) / (whole - head) == pytest.approx(
        (flops_whole - flops[FPS]) / (flops_whole - flops[0.0]), rel=1e-6)


def test_backward_flops_beyond_a_whole_models_never_price_above_it(shipped):
    assert shipped.predict(FIT, _frozen(10 * FPS, 3_000_000)).energy_j == pytest.approx(shipped.predict(FIT, WORK).energy_j)


def test_a_told_gpu_runs_one_pass_over_a_frozen_networks_layers():
    shipped = load_predictor(overlay=False)
    named = {**WORK, "n_layers": 100, "flop_layers": 50, "memory_bytes_per_sample": 1e7}
    whole = device_units(shipped.model["work"], "training", named)
    frozen = device_units(shipped.model["work"], "training", {**named, "backward_flops_per_sample": 0.0,
                                                               "trainable_params": 0})
    assert whole is not None and frozen is not None
    assert frozen.layer_passes == pytest.approx(whole.layer_passes / TRAINING_FLOPS)
    assert frozen.flops < whole.flops / 2.9
    # activations once instead of three times, weights read once instead of ten times (training)
    assert frozen.moved < whole.moved / 2.9


SCRIPT = """
import numpy as np
from tensorflow import keras

x = np.zeros((5000, 224, 224, 3))
y = np.zeros((5000,))
base = keras.applications.ResNet50(include_top=False, weights="imagenet", input_shape=(224, 224, 3), pooling="avg")
detector = keras.Sequential([base, keras.layers.Dense(20)])
detector.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
detector.fit(x, y, epochs=20, batch_size=32)

features = base.predict(x, batch_size=64)
head = keras.Sequential([keras.layers.Dense(20, input_shape=(2048,))])
head.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
head.fit(features, y, epochs=20, batch_size=32)

base.trainable = False
detector.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
detector.fit(x, y, epochs=20, batch_size=32)
base.trainable = True
detector.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
detector.fit(x, y, epochs=20, batch_size=32)
"""


def _figures(shipped) -> dict[int, float]:
    sites = analyse_source(textwrap.dedent(SCRIPT), "detector.py").callsites
    found = {}
    for s in sites:
        if s.api.rpartition(".")[2] in ("fit", "predict"):
            p = shipped.predict(s.api, with_work(s.features, s.work, s.runs))
            assert p.energy_j is not None, s.api
            found[s.span.line] = p.energy_j
    return found


def test_a_head_on_cached_features_costs_a_tenth_of_the_detector_trained_end_to_end(shipped):
    figures = _figures(shipped)
    end_to_end, cache, head = figures[10], figures[12], figures[15]
    assert end_to_end >= 10 * (cache + head)


def test_freezing_the_base_saves_its_backward_pass_and_a_second_compile_restores_it(shipped):
    figures = _figures(shipped)
    end_to_end, frozen, unfrozen = figures[10], figures[19], figures[22]
    assert unfrozen == pytest.approx(end_to_end)
    assert frozen < end_to_end / 2  # the base's backward is 2 of its 3 passes; its start-up and steps remain


CUSTOM_STEP = """
import numpy as np
import tensorflow as tf
from tensorflow import keras

x = np.zeros((32, 224, 224, 3), "float32")
y = np.zeros((32,), "int32")
base = keras.applications.ResNet50(include_top=False, weights="imagenet", input_shape=(224, 224, 3), pooling="avg")
FREEZE
detector = keras.Sequential([base, keras.layers.Dense(20)])
optimizer = keras.optimizers.Adam()


DECORATOR
def train_step(images, labels):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(keras.losses.sparse_categorical_crossentropy(labels, detector(images, training=True)))
    grads = tape.gradient(loss, detector.trainable_variables)
    optimizer.apply_gradients(zip(grads, detector.trainable_variables))


train_step(x, y)
"""


@pytest.mark.parametrize("decorator", ["@tf.function", ""])
def test_a_custom_step_of_a_frozen_base_costs_its_forward_pass_and_the_heads_training(shipped, decorator):
    """A tf.function's call: its graph runs no backward pass of the frozen base. An eager step's model call
    is priced whole: its tape differentiates the frozen base's ops too (measured: analysis/trainable.py)."""
    figures = {}
    for freeze in ("", "base.trainable = False"):
        text = CUSTOM_STEP.replace("FREEZE", freeze).replace("DECORATOR", decorator)
        (step,) = [s for s in analyse_source(text, "step.py").callsites
                   if getattr(s.work.get("step"), "value", None) == "training" and "symbolic" not in s.work]
        features = with_work(step.features, step.work, step.runs)
        figures[freeze] = shipped.predict(step.api, features).energy_j, derive("training", one_batch(step.api, features))
    (whole, (_, whole_flops)), (frozen, (_, frozen_flops)) = figures[""], figures["base.trainable = False"]
    if not decorator:
        assert (frozen, frozen_flops) == (whole, whole_flops)
        return
    assert frozen_flops == pytest.approx(whole_flops / TRAINING_FLOPS, rel=0.01)  # the base's forward pass, near all
    assert frozen < whole
