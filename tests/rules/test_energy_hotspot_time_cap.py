"""GL101 on a `fit` whose wall time TensorFlow Addons' `TimeStopping` caps, with the shipped predictor:
a 5-second cap on 100 epochs is no hotspot (it costs 5 s and one epoch); a cap of a day, which the same
100 epochs never reach, leaves the hotspot and its lever names the cap beside the epochs."""

from __future__ import annotations

from tests.rules.conftest import found

CODE = (
    "import numpy as np\nimport tensorflow as tf\nimport tensorflow_addons as tfa\n"
    "x, y = np.zeros((60000, 784)), np.zeros((60000,))\n"
    "model = tf.keras.Sequential([tf.keras.Input((784,)), tf.keras.layers.Dense(512), tf.keras.layers.Dense(10)])\n"
    "model.compile(optimizer='adam', loss='mse')\n"
    "model.fit(x, y, epochs=100, batch_size=64{callbacks})\n"
)


def hotspots(shipped, callbacks: str) -> list:
    return found(shipped, CODE.format(callbacks=callbacks), "GL101", path="t.py")


def test_a_fit_capped_at_5_seconds_is_no_hotspot(shipped):
    assert hotspots(shipped, ", callbacks=[tfa.callbacks.TimeStopping(seconds=5)]") == []


def test_the_same_fit_under_a_cap_it_never_reaches_stays_a_hotspot(shipped):
    [capped] = hotspots(shipped, ", callbacks=[tfa.callbacks.TimeStopping(seconds=86400)]")
    [free] = hotspots(shipped, "")
    assert capped.message.split(":")[0] == free.message.split(":")[0]  # the same figure
    assert "a shorter time than its TimeStopping's 86400 s" in capped.message
    assert "TimeStopping" not in free.message
