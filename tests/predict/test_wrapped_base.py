"""Transfer learning on a named architecture (issue 27): a model built around a Keras Application (a
Sequential or functional head on `base`) carries the base's layer table, so its `fit` is priced by
the same roofline on the reference GPU as a fit of the application itself; a frozen base costs its
forward pass only. Uses the resolver and the shipped model."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.predict import load_predictor
from greenlint.predict.site_predictions import with_work
from greenlint.predict.training_runs import arch_spec

ROOFLINE = "on the reference machine's GPU: "

PREAMBLE = """
import numpy as np
from tensorflow import keras

x = np.zeros((3200, 128, 128, 3))
y = np.zeros((3200,))
"""

WHOLE = """
model = keras.applications.{arch}(include_top=False, weights=None, input_shape=(128, 128, 3), pooling="avg")
model.compile("adam", "mse")
model.fit(x, y, epochs=10, batch_size=32)
"""

SEQUENTIAL = """
base = keras.applications.{arch}(include_top=False, weights="imagenet", input_shape=(128, 128, 3))
model = keras.Sequential([base, keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(10)])
model.compile("adam", "sparse_categorical_crossentropy")
model.fit(x, y, epochs=10, batch_size=32)
"""

FUNCTIONAL = """
base = keras.applications.{arch}(include_top=False, weights="imagenet")
inputs = keras.Input(shape=(128, 128, 3))
features = keras.layers.GlobalAveragePooling2D()(base(inputs, training=False))
model = keras.Model(inputs, keras.layers.Dense(10)(features))
model.compile("adam", "sparse_categorical_crossentropy")
model.fit(x, y, epochs=10, batch_size=32)
"""

PHASES = """
base = keras.applications.{arch}(include_top=False, weights="imagenet", input_shape=(128, 128, 3))
model = keras.Sequential([base, keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(10)])
base.trainable = False
model.compile("adam", "sparse_categorical_crossentropy")
model.fit(x, y, epochs=10, batch_size=32)
base.trainable = True
model.compile("adam", "sparse_categorical_crossentropy")
model.fit(x, y, epochs=10, batch_size=32)
"""


@pytest.fixture(scope="module")
def shipped():
    return load_predictor(overlay=False)


def _fits(shipped, body: str, arch: str = "MobileNetV2") -> list[tuple[dict, object]]:
    """(work values, prediction) of each `fit` in *body* after PREAMBLE, in order."""
    sites = analyse_source(textwrap.dedent(PREAMBLE + body.format(arch=arch)), "train.py").callsites
    out = []
    for s in sites:
        if s.api.rpartition(".")[2] == "fit":
            values = {k: v.value for k, v in s.work.items()}
            out.append((values, shipped.predict(s.api, with_work(s.features, s.work, s.runs))))
    return out


@pytest.mark.parametrize("body", [SEQUENTIAL, FUNCTIONAL], ids=["sequential", "functional"])
def test_a_head_on_a_named_base_is_priced_by_the_bases_roofline(shipped, body):
    (work, wrapped), = _fits(shipped, body)
    (_, whole), = _fits(shipped, WHOLE)
    assert work["base"] == "MobileNetV2" and work["head_layers"] == 2
    assert work["input_shape"] == [128, 128, 3]  # the functional form's from its Input: the base declares none
    assert ROOFLINE in wrapped.evidence.note and f"{arch_spec('MobileNetV2').layers + 2} layers" in wrapped.evidence.note
    # the same base at the same input, the head's two small layers besides: the application's own fit
    assert wrapped.energy_j == pytest.approx(whole.energy_j, rel=0.02)


def test_a_frozen_base_costs_its_forward_pass_then_the_whole_network_once_unfrozen(shipped):
    (frozen_work, frozen), (whole_work, whole) = _fits(shipped, PHASES)
    # frozen, the backward pass is the head's Dense layer on the base's 1,280 pooled channels alone
    assert 0 < frozen_work["backward_flops_per_sample"] <= 2 * (2 * 1280 * 10) and "backward_flops_per_sample" not in whole_work
    assert ROOFLINE in frozen.evidence.note and ROOFLINE in whole.evidence.note
    (_, alone), = _fits(shipped, WHOLE)
    assert whole.energy_j == pytest.approx(alone.energy_j, rel=0.02)
    # one pass over the activations and FLOPs instead of three; the host side and dispatch remain
    assert whole.energy_j / 3 < frozen.energy_j < whole.energy_j / 2


def test_the_wrapped_figure_follows_the_bases_work_not_its_flops_alone(shipped):
    """MobileNetV2's many small and depthwise layers cost more per FLOP than VGG16's big convolutions,
    wrapped as they are alone (tests/predict/test_devices.py)."""

    def per_flop(arch):
        (work, p), = _fits(shipped, SEQUENTIAL, arch)
        assert ROOFLINE in p.evidence.note
        return p.energy_j / work["flops_per_sample"]

    assert per_flop("MobileNetV2") > 5 * per_flop("VGG16")


@pytest.mark.parametrize("base", [
    'keras.models.load_model("base.h5")',  # a base the analysis does not size
    'keras.applications.EfficientNetB0(include_top=False, input_shape=(128, 128, 3))',  # no layer table
], ids=["loaded", "untabled"])
def test_a_wrapper_whose_base_has_no_layer_table_keeps_the_fitted_model(shipped, base):
    body = SEQUENTIAL.replace('keras.applications.{arch}(include_top=False, weights="imagenet", '
                              'input_shape=(128, 128, 3))', base)
    (_, p), = _fits(shipped, body)
    assert ROOFLINE not in p.evidence.note


def test_a_head_of_unknown_layers_carries_no_base():
    """The layers a step dispatches are the base's and the head's: a head model of unknown size
    leaves them unknown, so no layer table is carried."""
    body = SEQUENTIAL.replace("keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(10)",
                              'keras.models.load_model("head.h5")')
    sites = analyse_source(textwrap.dedent(PREAMBLE + body.format(arch="MobileNetV2")), "train.py").callsites
    fit, = (s for s in sites if s.api.endswith(".fit"))
    assert "base" not in fit.work and "head_layers" not in fit.work


def test_a_base_run_at_another_size_than_the_models_input_carries_no_base():
    """The base's layer table is scaled to the model's input: a base that runs at another size (on a
    pooled input, its FLOPs a quarter) is not carried at the model's."""
    body = FUNCTIONAL.replace("base(inputs, training=False)", "base(keras.layers.AveragePooling2D(2)(inputs))")
    sites = analyse_source(textwrap.dedent(PREAMBLE + body.format(arch="MobileNetV2")), "train.py").callsites
    fit, = (s for s in sites if s.api.endswith(".fit"))
    assert fit.work["flops_per_sample"].value is not None and "base" not in fit.work


def test_a_sequential_base_after_a_shape_keeping_layer_is_carried_with_it_in_the_head(shipped):
    """A `Rescaling` before the base keeps its input size: the base is carried, the rescaling counted
    among the layers the model adds."""
    body = SEQUENTIAL.replace("keras.Sequential([base,", "keras.Sequential([keras.layers.Rescaling(1 / 255), base,")
    (work, p), = _fits(shipped, body)
    assert work["base"] == "MobileNetV2" and work["head_layers"] == 3 and ROOFLINE in p.evidence.note
