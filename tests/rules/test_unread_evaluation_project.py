"""GL319's unread per-epoch pass (greenlint.rules.unread_evaluation) across a project: the callback
class in one module, the function that runs the model over the data in another, the fit in a
third (efficientdet's shape: `from eval.pascal import Evaluate`, `from eval.common import evaluate`)."""

from __future__ import annotations

import pytest

from tests.rules.conftest import check_in_project

TRAIN = (
    "import tensorflow as tf\n"
    "def main(callbacks_more):\n"
    "    from eval.pascal import Evaluate\n"
    "    m = tf.keras.Sequential()\n"
    "    evaluation = Evaluate(val_generator, m)\n"
    "    m.fit(train_generator, epochs={epochs}, callbacks=[evaluation{more}])\n"
)
COMMON = (
    "import numpy as np\n"
    "def _detections(generator, model):\n"
    "    return [model.predict_on_batch(np.expand_dims(generator.load_image(i), 0)) for i in range(generator.size())]\n"
    "def evaluate(generator, model):\n"
    "    found = []\n"
    "    for boxes in _detections(generator, model):\n        found.append(boxes)\n"
    "    return average_precisions(found)\n"
)
PASCAL = (
    "from tensorflow import keras\n"
    "from eval.common import evaluate\n"
    "class Evaluate(keras.callbacks.Callback):\n"
    "    def __init__(self, generator, model):\n        self.generator = generator\n        self.active_model = model\n"
    "    def on_epoch_end(self, epoch, logs=None):\n"
    "        self.mean_ap = evaluate(self.generator, self.active_model)\n"
    "        print('mAP', self.mean_ap)\n"
    "        logs['mAP'] = self.mean_ap\n"
)


def _gl319(tmp_path, predictor, common: str = COMMON, epochs: int = 50, more: str = "") -> list[int]:
    files = {
        "eval/__init__.py": "",
        "eval/common.py": common,
        "eval/pascal.py": PASCAL,
        "train.py": TRAIN.format(epochs=epochs, more=more),
    }
    return [d.span.line for d in check_in_project(tmp_path, predictor, files, "train.py", "GL319")]


def test_a_pass_over_the_validation_data_that_nothing_reads_is_reported_at_the_callback(tmp_path, predictor):
    assert _gl319(tmp_path, predictor) == [5]
    assert _gl319(tmp_path, predictor, more=", tf.keras.callbacks.ModelCheckpoint('w.{epoch}.h5')") == [5]


@pytest.mark.parametrize(
    ("common", "epochs", "more"),
    [
        (COMMON, 50, ", tf.keras.callbacks.EarlyStopping(monitor='mAP', mode='max')"),  # the mAP stops the fit
        (COMMON, 50, ", tf.keras.callbacks.ModelCheckpoint('best.h5', monitor='mAP', save_best_only=True)"),
        (COMMON, 1, ""),  # one epoch: the pass runs once
        (COMMON.replace("model.predict_on_batch", "model.summary"), 50, ""),  # no model run over the data
    ],
)
def test_a_pass_something_acts_on_or_that_runs_no_model_is_not_reported(tmp_path, predictor, common, epochs, more):
    assert _gl319(tmp_path, predictor, common, epochs, more) == []
