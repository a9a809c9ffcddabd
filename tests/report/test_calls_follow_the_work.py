"""`greenlint calls` on a detector's training stages, end to end (the real resolver and the shipped
predictor): figures follow the work. Training the whole convolutional detector costs far more than
training its last layer on cached features, and a stage resuming at `initial_epoch=50` of
`epochs=100` costs 50 epochs (issue 26)."""

from __future__ import annotations

import json
import textwrap

import pytest

from greenlint.cli import main

STAGES = """
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers


def images(batch_size=16):
    while True:
        yield np.zeros((batch_size, 224, 224, 3)), np.zeros((batch_size, 10))


def cached_features(batch_size=16):
    while True:
        yield np.zeros((batch_size, 512)), np.zeros((batch_size, 10))


def conv_block(x, filters):
    x = layers.Conv2D(filters, 3, padding="same", activation="relu")(x)
    return layers.MaxPooling2D()(x)


inp = keras.Input((224, 224, 3))
x = conv_block(inp, 32)
for filters in (64, 128, 256, 512):
    x = conv_block(x, filters)
x = layers.GlobalAveragePooling2D()(x)
detector = keras.Model(inp, layers.Dense(10, activation="softmax")(x))
detector.compile("adam", "categorical_crossentropy")
detector.fit_generator(images(), steps_per_epoch=100, epochs=10)

head = keras.Sequential([keras.Input((512,)), layers.Dense(10, activation="softmax")])
head.compile("adam", "categorical_crossentropy")
head.fit_generator(cached_features(), steps_per_epoch=100, epochs=10)

detector.fit_generator(images(), steps_per_epoch=100, epochs=100, initial_epoch=50)
detector.fit_generator(images(), steps_per_epoch=100, epochs=50)
detector.fit_generator(images(), steps_per_epoch=100, epochs=100)

backbone = keras.applications.VGG16(include_top=False, input_shape=(224, 224, 3))
top = layers.Dense(10, activation="softmax")(layers.GlobalAveragePooling2D()(backbone.output))
whole = keras.Model(backbone.input, top)
whole.fit(images(batch_size=32), steps_per_epoch=100, epochs=10)
head.fit(cached_features(batch_size=32), steps_per_epoch=100, epochs=10)
"""


@pytest.fixture
def fits(tmp_path, monkeypatch, capsys) -> dict[int, dict]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "stages.py").write_text(textwrap.dedent(STAGES).lstrip("\n"))
    assert main(["calls", "stages.py", "--isolated", "--no-cache", "-j", "1", "--format", "json"]) == 0
    objects = json.loads(capsys.readouterr().out)["call_sites"]
    return {o["line"]: o for o in objects if o["api"].rpartition(".")[2] in ("fit", "fit_generator")}


def test_training_the_whole_detector_costs_over_ten_times_its_head_on_cached_features(fits):
    detector, head = fits[28], fits[32]
    for site in (detector, head):
        assert site["energy_j"] is not None and not site["floor"]
    assert detector["work"]["flops_per_sample"]["value"] > 1000 * head["work"]["flops_per_sample"]["value"]
    assert detector["energy_j"] >= 10 * head["energy_j"]
    whole, top = fits[41], fits[42]  # an Application's backbone under a new head, the same way
    assert whole["energy_j"] >= 10 * top["energy_j"]


def test_a_stage_resuming_at_epoch_50_of_100_costs_50_epochs(fits):
    resumed, fifty, hundred = fits[34], fits[35], fits[36]
    assert resumed["work"]["initial_epoch"]["value"] == 50
    assert resumed["energy_j"] == pytest.approx(fifty["energy_j"], rel=1e-6)
    assert resumed["energy_j"] < 0.55 * hundred["energy_j"]
