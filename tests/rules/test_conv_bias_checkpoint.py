"""GL504 in a project that loads weights by layer name (greenlint.rules.conv_bias_before_batch_norm):
the model's module builds named layers, a script beside it fills them from a checkpoint."""

from __future__ import annotations

from tests.rules.conftest import check_in_project

MODEL = (
    "import tensorflow as tf\nfrom tensorflow.keras import layers\n\n\ndef head(x):\n"
    "    x = layers.Conv2D(64, 1, padding='same', name='head/conv2d')(x)\n"
    "    x = layers.BatchNormalization(name='head/bn')(x)\n"
    "    y = layers.Conv2D(64, 3, padding='same')(x)\n"
    "    y = layers.BatchNormalization()(y)\n    return y\n"
)
INFERENCE = (
    "from model import head\nmodel = build(head)\nmodel.load_weights('released.h5'{how})\n"
)


def _gl504(tmp_path, predictor, how: str) -> list[int]:
    files = {"model.py": MODEL, "inference.py": INFERENCE.format(how=how)}
    return [d.span.line for d in check_in_project(tmp_path, predictor, files, "model.py", "GL504")]


def test_a_named_layer_that_a_script_beside_it_loads_by_name(tmp_path, predictor):
    assert _gl504(tmp_path, predictor, ", by_name=True") == [8]


def test_a_load_not_by_name_leaves_named_layers_reported(tmp_path, predictor):
    assert _gl504(tmp_path, predictor, "") == [6, 8]
