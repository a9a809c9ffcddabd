"""GL101 leaves out an inference call whose result a training step of the same loop pass takes in
(a GAN's fakes, a perceptual loss's targets): its passes are that step's work."""

from __future__ import annotations

import pytest

from tests.rules.conftest import found

OPTIONS = {"hotspot-threshold-j": 2.5, "material-saving-j": 0.0}  # the fake predictor: 1 J a call
GAN = (
    "import numpy as np\nimport tensorflow as tf\n"
    "gen = tf.keras.Sequential([tf.keras.Input((100,)), tf.keras.layers.Dense(784)])\n"
    "disc = tf.keras.Sequential([tf.keras.Input((784,)), tf.keras.layers.Dense(1)])\n"
    "disc.compile(optimizer='adam', loss='mse')\n"
    "for step in range(30000):\n"
    "    noise = np.random.normal(0, 1, (32, 100))\n"
    "    {made} = gen.predict(noise)\n"
    "{between}"
    "    d_loss = disc.train_on_batch({trained_on}, np.zeros((32, 1)))\n"
)


@pytest.mark.parametrize(("made", "between", "trained_on"), [
    ("fake", "", "fake"),
    ("fake", "    batch = np.concatenate([real, fake])\n", "batch"),  # through a name made from it
    ("targets", "", "[noise, targets]"),  # a perceptual loss's targets, in a list of inputs
])
def test_a_prediction_a_training_step_takes_in_is_not_a_hotspot(predictor, made, between, trained_on):
    lines = [d.span.line for d in found(predictor, GAN.format(made=made, between=between, trained_on=trained_on),
                                        "GL101", OPTIONS)]
    assert 8 not in lines and lines  # the training step itself is still one


def test_a_prediction_the_step_does_not_take_in_is_still_a_hotspot(predictor):
    source = GAN.format(made="fake", between="    np.save('fake.npy', fake)\n", trained_on="real")
    assert 8 in [d.span.line for d in found(predictor, source, "GL101", OPTIONS)]
