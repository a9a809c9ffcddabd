"""GL204 on `predict()` without `verbose`: silent by default before TensorFlow/Keras 2.9, so the
version a project targets (its pins) and the Keras it imports decide the finding."""

from __future__ import annotations

from tests.rules.conftest import check_in_project

STANDALONE = (
    "from keras.models import Sequential\nfrom keras.layers import Dense\n\nm = Sequential([Dense(2)])\n"
    "for state in states:\n    q = m.predict(state)\n"
)
TF_KERAS = "import tensorflow as tf\n\nm = tf.keras.Sequential()\nfor x in xs:\n    y = m.predict(x)\n"


def lines(tmp_path, predictor, files):
    return [d.span.line for d in check_in_project(tmp_path, predictor, files, "train.py", "GL204")]


def test_standalone_keras_with_no_pin_is_not_reported(tmp_path, predictor):
    # multi-backend Keras 2.0-2.3 and the standalone Keras up to 2.8 draw no bar in predict()
    assert lines(tmp_path, predictor, {"train.py": STANDALONE}) == []


def test_standalone_keras_on_a_pinned_recent_tensorflow_is_reported(tmp_path, predictor):
    files = {"train.py": STANDALONE, "requirements.txt": "tensorflow==2.12.0\nkeras==2.12.0\n"}
    assert lines(tmp_path, predictor, files) == [6]


def test_tf_keras_on_a_pinned_old_tensorflow_is_not_reported(tmp_path, predictor):
    files = {"train.py": TF_KERAS, "requirements.txt": "tensorflow==2.8.4\n"}
    assert lines(tmp_path, predictor, files) == []


def test_tf_keras_on_a_pinned_recent_tensorflow_is_reported(tmp_path, predictor):
    files = {"train.py": TF_KERAS, "requirements.txt": "tensorflow==2.9.0\n"}
    assert lines(tmp_path, predictor, files) == [5]


def test_fit_draws_its_bar_in_every_version(tmp_path, predictor):
    text = STANDALONE.replace("q = m.predict(state)", "m.fit(state, target, epochs=1)")
    assert lines(tmp_path, predictor, {"train.py": text}) == [6]
