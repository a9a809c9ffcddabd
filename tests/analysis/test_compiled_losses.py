"""A loss or metric of the project given to a Keras model's `compile` runs inside the model's
train_step, traced by `fit`: its ops build the training graph (`symbolic`, their work counted where
the model trains), whether `compile` comes before or after its body is walked (keras-yolo2's
`self.model.compile(loss=self.custom_loss)`: 126 of its 537 sites had no run count)."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_file

YOLO = """
import tensorflow as tf
from tensorflow import keras


def iou(y_true, y_pred):
    return tf.reduce_mean(tf.square(y_true - y_pred))


def helper(y):
    return tf.reduce_max(y)


class YOLO(object):
    def __init__(self):
        inp = keras.Input((8,))
        self.model = keras.Model(inp, keras.layers.Dense(4)(inp))

    def custom_loss(self, y_true, y_pred):
        loss = tf.reduce_sum(tf.square(y_true - y_pred))
        return loss + tf.reduce_mean(y_pred)

    def train(self, x, y):
        self.model.compile(loss=self.custom_loss, optimizer="adam", metrics=[iou])
        self.model.fit(x, y, epochs=3)


helper(tf.zeros((4,)))
YOLO().train(tf.zeros((64, 8)), tf.zeros((64, 4)))
"""


def test_losses_and_metrics_given_to_compile_build_the_training_graph(tmp_path):
    path = tmp_path / "yolo.py"
    path.write_text(textwrap.dedent(YOLO).lstrip("\n"), encoding="utf-8")
    result = analyse_file(path)
    assert result.errors == []
    found = {(s.span.line, s.api): s for s in result.callsites}
    for line, api in [
        (6, "tensorflow.reduce_mean"),
        (6, "tensorflow.square"),
        (19, "tensorflow.reduce_sum"),
        (20, "tensorflow.reduce_mean"),
    ]:
        site = found[(line, api)]
        assert site.features["in_keras_step"] is True
        assert site.work["symbolic"].value is True
    assert "symbolic" not in found[(10, "tensorflow.reduce_max")].work  # run eagerly at module level
