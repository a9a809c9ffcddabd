"""GL316 on a project wrapper's fit (`model.train(train, val, epochs=30)` on a class of another module whose
`train` calls `self.keras_model.fit_generator(...)` with its configuration's step counts: mask-rcnn's
shape), judged on the counts the walk of the wrapper with this call's arguments found
(greenlint/analysis/wrapped.py)."""

from __future__ import annotations

from tests.rules.conftest import check_in_project

MODEL = (
    "import tensorflow as tf\n\n\n"
    "class Config:\n    STEPS_PER_EPOCH = 100\n    VALIDATION_STEPS = 50\n\n\n"
    "class Detector:\n"
    "    def __init__(self, config):\n"
    "        self.config = config\n"
    "        self.keras_model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n\n"
    "    def train(self, train_data, val_data, epochs):\n"
    "        self.keras_model.fit(train_data, epochs=epochs, steps_per_epoch=self.config.STEPS_PER_EPOCH,\n"
    "                             validation_data=val_data, validation_steps=self.config.VALIDATION_STEPS)\n"
)
TRAIN = (
    "from model import Config, Detector\n\n\n"
    "class MyConfig(Config):\n    VALIDATION_STEPS = {validation}\n\n\n"
    "model = Detector(config=MyConfig())\nmodel.train(train, {val}, epochs=30)\n"
)


def _gl316(tmp_path, predictor, validation: int, val: str = "val") -> list[str]:
    files = {"model.py": MODEL, "train.py": TRAIN.format(validation=validation, val=val)}
    return [f"{d.span.line}: {d.message}" for d in check_in_project(tmp_path, predictor, files, "train.py", "GL316")]


def test_a_wrapper_fit_validating_longer_than_it_trains_is_reported_at_its_call(tmp_path, predictor):
    assert _gl316(tmp_path, predictor, 400) == [
        "9: `fit()` validates 400 steps per epoch (passed through this call to fit at model.py line 15), more than"
        " its 100 training steps (passed through this call to fit at model.py line 15): with a forward pass a third"
        " of a training step, about 57 % of each epoch's work checks the model instead of training it"
    ]


def test_a_wrapper_fit_validating_less_or_given_no_validation_data_is_not_reported(tmp_path, predictor):
    assert _gl316(tmp_path, predictor, 50) == []
    assert _gl316(tmp_path, predictor, 400, val="None") == []
