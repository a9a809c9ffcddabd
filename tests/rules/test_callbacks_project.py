"""GL308 reading a callback class from a project module the file imports (greenlint.rules.callbacks):
efficientdet's shape, `from eval.coco import Evaluate` inside the function that builds the list."""

from __future__ import annotations

import pytest

from greenlint.check import Config, check_source

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
    (tmp_path / "eval").mkdir()
    (tmp_path / "eval" / "__init__.py").write_text("")
    (tmp_path / "eval" / "coco.py").write_text(EVALUATE)
    (tmp_path / "eval" / "pascal.py").write_text(pascal)
    (tmp_path / "train.py").write_text(TRAIN)
    found = check_source(TRAIN, str(tmp_path / "train.py"), Config(select=("GL308",), no_cache=True), predictor)
    return [d.span.line for d in found if d.code == "GL308"]


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
