"""GL309's one-batch shape prices `fit()`'s set-up as tf.keras's (timed on the reference machine): where the
program may run another Keras, the message says which and that its set-up is smaller, not measured."""

from __future__ import annotations

from tests.rules.conftest import found

AGENT = (
    "import numpy as np\nimport {keras}\n"
    "actor = {prefix}Sequential([{prefix}layers.Dense(2, input_shape=(4,))])\n"
    "actor.compile(optimizer='adam', loss='categorical_crossentropy')\n"
    "def train(state, advantages):\n    actor.fit(state, advantages, epochs=1, verbose=0)\n"
    "for episode in range(1000):\n    state = np.zeros((1, 4))\n    advantages = np.zeros((1, 2))\n"
    "    train(state, advantages)\n"
)


def _message(shipped, tmp_path, code: str) -> str:
    path = tmp_path / "agent.py"
    path.write_text(code)
    (finding,) = found(shipped, code, "GL309", path=str(path))
    return finding.message


def test_tf_keras_is_the_figure_alone(shipped, tmp_path):
    message = _message(shipped, tmp_path, AGENT.format(keras="tensorflow as tf", prefix="tf.keras."))
    assert "not this one) for one optimizer step" in message
    assert "multi-backend" not in message


def test_multi_backend_keras_2_is_named_with_its_smaller_set_up(shipped, tmp_path):
    code = AGENT.format(keras="keras", prefix="keras.") + "actor.fit_generator(batches(), steps_per_epoch=10)\n"
    message = _message(shipped, tmp_path, code)
    assert "with tf.keras; this program runs multi-backend Keras 2 (standalone `keras` with `fit_generator()`)" in message
    assert "sets up less (callbacks, batch slicing: not measured)" in message


def test_the_standalone_keras_alone_says_both(shipped, tmp_path):
    message = _message(shipped, tmp_path, AGENT.format(keras="keras", prefix="keras."))
    assert "less with multi-backend Keras 2.0-2.3, which a standalone `keras` may be" in message
