"""numpy's in-place reshape, `images.shape = images.shape + (1,)`: the name holds the array of the new
shape from there on (as `images = images.reshape(...)` would), so a model whose input is sized from it
(`(32, 32, images.shape[-1])`) gets one channel, not the image's width; a shape not known leaves the
array's shape unknown, never the old one."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_source

PROGRAM = """
import tensorflow as tf
from tensorflow import keras

(images, _), (_, _) = tf.keras.datasets.fashion_mnist.load_data()
{assign}
shape = (28, 28, images.shape[-1])
inputs = keras.Input(shape=shape)
model = keras.Model(inputs, keras.layers.Conv2D(8, 3, padding="same")(inputs))
"""


def model_input(assign: str):
    result = analyse_source(textwrap.dedent(PROGRAM.replace("{assign}", assign)), "train.py")
    assert result.errors == []
    site = next(s for s in result.callsites if s.api == "tensorflow.keras.Model")
    found = site.work.get("input_shape")
    return None if found is None else found.value


def test_an_assigned_shape_is_the_arrays_shape_from_there_on():
    assert model_input("images.shape = images.shape + (1,)") == [28, 28, 1]


def test_without_it_the_loaded_shape_holds():
    assert model_input("") == [28, 28, 28]


def test_a_shape_not_known_leaves_the_arrays_shape_unknown():
    shape = model_input("images.shape = input()")
    assert shape is None or shape[-1] is None
