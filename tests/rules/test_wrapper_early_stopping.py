"""GL308 on a project wrapper's fit (`model.train(train, val, epochs=30)` on a class of another module
whose `train` calls `self.keras_model.fit_generator(...)`: mask-rcnn's shape), read from the walk of the
wrapper with this call's arguments (greenlint/analysis/wrapped.py): its epochs, its validation data
and the class of each callback it is given."""

from __future__ import annotations

import pytest

from tests.rules.conftest import check_in_project

MODEL = (
    "import tensorflow as tf\n\n\n"
    "class Detector:\n"
    "    def __init__(self, mode):\n"
    "        self.mode = mode\n"
    "        self.keras_model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n\n"
    "    def train(self, train_data, val_data, epochs, custom_callbacks=None):\n"
    "        callbacks = [tf.keras.callbacks.TensorBoard('logs'), tf.keras.callbacks.ModelCheckpoint('w.h5')]\n"
    "        if custom_callbacks:\n"
    "            callbacks += custom_callbacks\n"
    "        self.keras_model.fit(train_data, epochs=epochs, steps_per_epoch=100, callbacks=callbacks,\n"
    "                             {validation})\n"
)
WITH_VALIDATION = MODEL.format(validation="validation_data=val_data, validation_steps=10")
TRAIN = "from model import Detector\n\nmodel = Detector(mode='training')\n{calls}"


def _gl308(tmp_path, predictor, calls: str, model: str = WITH_VALIDATION) -> list[str]:
    files = {"model.py": model, "train.py": TRAIN.format(calls=calls)}
    found = check_in_project(tmp_path, predictor, files, "train.py", "GL308", {"material-saving-j": 0.0})
    return [f"{d.span.line}: {d.message}" for d in found]


def test_a_wrapper_fit_with_validation_and_only_logging_callbacks_is_reported_at_its_call(tmp_path, predictor):
    found = _gl308(tmp_path, predictor, "model.train(train, val, epochs=30)\nmodel.train(train, val, epochs=5)\n")
    assert len(found) == 1 and found[0].startswith("4: `fit()` runs 30 epochs (passed through this call to fit at")
    assert "with validation data but nothing stops it" in found[0]


@pytest.mark.parametrize(
    "calls",
    [
        # the caller hands it an EarlyStopping
        "from tensorflow import keras\n"
        "model.train(train, val, epochs=30, custom_callbacks=[keras.callbacks.EarlyStopping(patience=3)])\n",
        # a callback list of the caller's, not known here
        "model.train(train, val, epochs=30, custom_callbacks=make_callbacks())\n",
        # the caller passes on what it was given: nothing is known of those
        "def run(**kwargs):\n    model.train(train, val, epochs=30, **kwargs)\n",
    ],
)
def test_a_wrapper_fit_that_may_be_stopped_is_not_reported(tmp_path, predictor, calls):
    assert _gl308(tmp_path, predictor, calls) == []


def test_a_wrapper_fit_without_validation_data_is_not_reported(tmp_path, predictor):
    model = MODEL.format(validation="validation_steps=10")
    assert _gl308(tmp_path, predictor, "model.train(train, val, epochs=30)\n", model) == []


def test_a_callback_appended_where_the_walk_cannot_tell_leaves_the_callbacks_unknown(tmp_path, predictor):
    model = WITH_VALIDATION.replace(
        "        if custom_callbacks:\n            callbacks += custom_callbacks\n",
        "        if self.mode == 'patient':\n            callbacks.append(tf.keras.callbacks.EarlyStopping())\n",
    )
    assert _gl308(tmp_path, predictor, "model.train(train, val, epochs=30)\n", model) == []


def test_a_wrapper_fit_its_caller_gives_no_validation_data_is_not_reported(tmp_path, predictor):
    assert _gl308(tmp_path, predictor, "model.train(train, None, epochs=30)\n") == []
    assert _gl308(tmp_path, predictor, "model.train(train, val, epochs=30)\n") != []
