"""GL602's message names the switch the program's Keras has (greenlint.rules.training_without_mixed_precision)."""

from __future__ import annotations

import pytest

from greenlint.check import Config, check_source

RESNET = "m = tf.keras.applications.ResNet50(weights=None)\n"


def _messages(code: str, predictor, **options) -> list[str]:
    config = Config(select=("GL602",), options={"material-saving-j": 0.0, **options}, no_cache=True)
    return [d.message for d in check_source(code, "train.py", config, predictor)]


@pytest.mark.parametrize("step", ["m.fit(x, y, epochs=10)", "m.train_on_batch(x, y)"])
def test_keras_own_steps_scale_the_loss_themselves(step, predictor):
    (message,) = _messages("import tensorflow as tf\n" + RESNET + step + "\n", predictor)
    assert "set_global_policy" in message and "LossScaleOptimizer" not in message


def test_a_file_on_tf_keras_is_told_tf_keras_even_beside_an_import_of_keras(predictor):
    code = "import keras\nimport tensorflow as tf\n" + RESNET + "m.fit(x, y, epochs=10)\n"
    (message,) = _messages(code, predictor)
    assert '`tf.keras.mixed_precision.set_global_policy("mixed_float16")`' in message


@pytest.mark.parametrize(
    ("version", "switch"),
    [
        ("2.0", "`tf.train.experimental.enable_mixed_precision_graph_rewrite`"),
        ("2.1", "`tf.keras.mixed_precision.experimental.set_policy("),
        ("2.4", "`tf.keras.mixed_precision.set_global_policy("),
    ],
)
def test_the_switch_follows_the_tensorflow_it_runs_on(version, switch, predictor):
    code = "import tensorflow as tf\n" + RESNET + "m.fit(x, y, epochs=10)\n"
    (message,) = _messages(code, predictor, **{"tensorflow-version": version})
    assert switch in message
