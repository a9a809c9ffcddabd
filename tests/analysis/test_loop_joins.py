"""A symbolic tensor rebound in a loop whose trips are not walked one by one (`for i in range(n_up - 1):
h = Conv2DTranspose(...)(h)`, n_up a parameter): after the loop it is one of the graphs, their floor
(symjoin.py), not an unknown tensor (values.merge keeps no graph of two tensors that differ), so the
model built on it keeps the FLOPs of what runs whatever the trips, a lower bound."""

from __future__ import annotations

import pytest

from tests.analysis.test_whole_program import sites, write

GENERATOR = """
import sys
import tensorflow as tf


def gen(n_up):
    h = inputs = tf.keras.Input(shape=(1, 1, 128))
    h = tf.keras.layers.Conv2DTranspose(512, 4, use_bias=False)(h)
    {loop}
        {body}
    h = tf.keras.layers.Conv2DTranspose(3, 4, strides=2, padding="same")(h)
    return tf.keras.Model(inputs, h)


G = gen(int(sys.argv[1]))
G.fit(tf.zeros((64, 1, 1, 128)), tf.zeros((64, 16, 16, 3)), epochs=3)
"""

FIT = (15, "tensorflow.keras.Model.fit")
#: The first transposed convolution's forward FLOPs per sample (1x1 -> 4x4x512, 128 channels in).
FIRST = 2 * 4 * 4 * 512 * 128
CONV = 'h = tf.keras.layers.Conv2DTranspose(256, 4, strides=2, padding="same")(h)'


def fit_flops(folder, loop: str, body: str):
    write(folder, {"gen.py": GENERATOR.format(loop=loop, body=body)})
    return sites(folder / "gen.py")[FIT].work["flops_per_sample"]


@pytest.mark.parametrize("loop", ["for i in range(n_up - 1):", "while h.shape[1] < n_up:"])
def test_a_tensor_rebound_in_a_loop_of_unknown_trips_keeps_the_floor_of_its_graphs(tmp_path, loop):
    flops = fit_flops(tmp_path, loop, CONV)
    assert flops.value >= FIRST and flops.bound == "lower"
    assert "one of several paths" in flops.note


def test_a_loop_that_does_not_rebind_the_tensor_leaves_its_graph_exact(tmp_path):
    flops = fit_flops(tmp_path, "for i in range(n_up - 1):", "print(i)")
    assert flops.bound is None and flops.value > FIRST  # (both convolutions, known exactly)


def test_a_loop_rebinding_the_tensor_to_something_not_symbolic_leaves_it_unknown(tmp_path):
    flops = fit_flops(tmp_path, "for i in range(n_up - 1):", "h = tf.zeros((4, 4))")
    assert flops.value is None
