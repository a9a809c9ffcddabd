"""A Keras functional model built by helpers of other modules (a detector's `common.convolutional`, its
backbone's SPP and upsampling): TF ops applied to Keras tensors join the graph even where the catalog
does not state their return type, a project subclass of a Keras layer runs its base's forward pass, a
helper of only operators and ops (`mish`) keeps its graph across modules, and pooling and resizing ops
add their FLOPs; the model's FLOPs per sample are then known, not a lower bound."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_file

COMMON = """
import tensorflow as tf


class BatchNormalization(tf.keras.layers.BatchNormalization):
    def call(self, x, training=False):
        if not training:
            training = tf.constant(False)
        training = tf.logical_and(training, self.trainable)
        return super().call(x, training)


def mish(x):
    return x * tf.math.tanh(tf.math.softplus(x))


def convolutional(x, filters, activate_type="leaky"):
    conv = tf.keras.layers.Conv2D(filters, 3, padding="same", use_bias=False)(x)
    conv = {norm}()(conv)
    if activate_type == "leaky":
        conv = tf.nn.leaky_relu(conv, alpha=0.1)
    elif activate_type == "mish":
        conv = mish(conv)
    return conv
"""

TRAIN = """
import numpy as np
import tensorflow as tf
import common

inputs = tf.keras.layers.Input([32, 32, 3])
outputs = {build}
model = tf.keras.Model(inputs, outputs)
model.compile("adam", "mse")
model.fit(np.zeros((64, 32, 32, 3)), np.zeros((64, 32, 32, 8)), epochs=2)
"""

#: 3x3 convolution of 3 channels to 8 on 32x32, then a batch norm (2 FLOPs a value), then 1 FLOP a value.
CONV = 2 * 32 * 32 * 8 * 9 * 3
VALUES = 32 * 32 * 8
NORM = 2 * VALUES


def flops(tmp_path, build: str, norm: str = "BatchNormalization") -> tuple:
    (tmp_path / "common.py").write_text(textwrap.dedent(COMMON.format(norm=norm)).lstrip("\n"))
    (tmp_path / "train.py").write_text(textwrap.dedent(TRAIN.format(build=build)).lstrip("\n"))
    (fit,) = [s for s in analyse_file(tmp_path / "train.py").callsites if s.api.endswith(".fit")]
    found = fit.work["flops_per_sample"]
    return found.value, found.bound


def test_a_leaky_relu_helper_of_another_module_keeps_the_graph(tmp_path):
    assert flops(tmp_path, 'common.convolutional(inputs, 8)') == (CONV + NORM + VALUES, None)


def test_a_layer_subclass_calling_its_base_counts_as_the_base_layer(tmp_path):
    standard = flops(tmp_path, 'common.convolutional(inputs, 8)', norm="tf.keras.layers.BatchNormalization")
    assert flops(tmp_path, 'common.convolutional(inputs, 8)') == standard == (CONV + NORM + VALUES, None)


def test_an_activation_helper_of_operators_and_ops_keeps_the_graph(tmp_path):
    """mish: softplus, tanh and a product, one FLOP a value each."""
    assert flops(tmp_path, 'common.convolutional(inputs, 8, activate_type="mish")') == (CONV + NORM + 3 * VALUES, None)


def test_pooling_and_resizing_ops_add_their_work(tmp_path):
    build = ("tf.image.resize(tf.nn.max_pool(common.convolutional(inputs, 8), ksize=2, strides=2, padding='VALID'),"
             " (32, 32))")
    pooled = 16 * 16 * 8
    assert flops(tmp_path, build) == (CONV + NORM + VALUES + pooled * 4 + VALUES * 4, None)
    same = flops(tmp_path, "tf.nn.max_pool(common.convolutional(inputs, 8), ksize=5, strides=1, padding='SAME')")
    assert same == (CONV + NORM + VALUES + VALUES * 25, None)
    nearest = flops(tmp_path, "tf.image.resize(common.convolutional(inputs, 8), (64, 64), method='nearest')")
    assert nearest == (CONV + NORM + VALUES + 64 * 64 * 8, None)


def test_a_pool_or_resize_of_a_size_not_known_leaves_a_lower_bound(tmp_path):
    value, bound = flops(tmp_path, "tf.image.resize(common.convolutional(inputs, 8), (np.random.randint(9), 64))")
    assert bound == "lower" and value == CONV + NORM + VALUES


def test_outputs_a_loop_appends_over_a_models_tensors_are_the_models_outputs(tmp_path):
    """A detector's heads: `for i, fm in enumerate(feature_maps): outputs.append(head(fm))`, walked trip by
    trip, each head in the graph; a split of a tensor gives its parts, no work of its own."""
    build = """common.convolutional(inputs, 8)
heads = []
for i, fm in enumerate([outputs, outputs]):
    if i == 0:
        heads.append(tf.keras.layers.Conv2D(4, 1)(fm))
    else:
        left, right = tf.split(fm, 2, axis=-1)
        heads.append(left)
        heads.append(right)
outputs = heads"""
    head = 2 * 32 * 32 * 4 * 8  # a 1x1 convolution of 8 channels to 4
    assert flops(tmp_path, build) == (CONV + NORM + VALUES + head, None)


def test_outputs_appended_on_a_branch_not_known_leave_the_model_unknown(tmp_path):
    build = """common.convolutional(inputs, 8)
heads = []
for fm in [outputs]:
    if np.random.rand() > 0.5:
        heads.append(fm)
outputs = heads"""
    assert flops(tmp_path, build) == (None, None)
