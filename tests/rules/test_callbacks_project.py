"""GL308 reading a callback class from a project module the file imports (greenlint.rules.callbacks):
efficientdet's shape, `from eval.coco import Evaluate` inside the function that builds the list."""

from __future__ import annotations

import pytest

from tests.rules.conftest import check_in_project

TRAIN = (
    "import tensorflow as tf\n"
    "def main(coco):\n"
    "    if coco:\n        from eval.coco import Evaluate\n    else:\n        from eval.pascal import Evaluate\n"
    "    m = tf.keras.Sequential()\n"
    "    m.fit(x, y, epochs=50, validation_data=(vx, vy), callbacks=[Evaluate(vx, m)])\n"
)
EVALUATE = (
    "from tensorflow import keras\n"
    "class Evaluate(keras.callbacks.Callback):\n"
    "    def on_epoch_end(self, epoch, logs=None):\n        logs['mAP'] = mean_ap(self.model, self.data)\n"
)


def _gl308(tmp_path, predictor, pascal: str) -> list[int]:
    files = {"eval/__init__.py": "", "eval/coco.py": EVALUATE, "eval/pascal.py": pascal, "train.py": TRAIN}
    return [d.span.line for d in check_in_project(tmp_path, predictor, files, "train.py", "GL308")]


def test_callbacks_of_project_modules_that_only_measure_leave_the_fit_uncapped(tmp_path, predictor):
    assert _gl308(tmp_path, predictor, EVALUATE) == [8]


@pytest.mark.parametrize(
    "pascal",
    [
        EVALUATE + "        if logs['mAP'] > 0.9:\n            self.model.stop_training = True\n",  # it stops
        "from tensorflow import keras\nclass Evaluate(keras.callbacks.EarlyStopping):\n    pass\n",  # a stopping base
        EVALUATE.replace("logs['mAP'] =", "self.model.optimizer.lr =") ,  # a schedule: the epochs are the design
        "from somewhere import Evaluate\n",  # not defined in the project
    ],
)
def test_one_import_of_a_callback_that_may_stop_training_is_enough(tmp_path, predictor, pascal):
    assert _gl308(tmp_path, predictor, pascal) == []
