"""TF1's tutorial MNIST loader (`input_data.read_data_sets`) gives splits of known sizes: 55,000 training
images after the 5,000 held for validation (`validation_size`), 10,000 test images, flattened unless
`reshape=False`, labels one-hot where asked. A loop over `num_examples // batch_size` batches runs a
known count; a size not given as a literal, or `fake_data=True`, leaves it unknown."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source

HEADER = """
import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data
sess = tf.Session()
step = tf.no_op()
x = tf.placeholder(tf.float32, [None, 784])
"""


def sites(body: str) -> list:
    result = analyse_source(HEADER + textwrap.dedent(body), "snippet.py")
    assert result.errors == []
    return [s for s in result.callsites if s.api.endswith("Session.run")]


@pytest.mark.parametrize(
    "load, batches, trips",
    [
        ('input_data.read_data_sets("MNIST_data/", one_hot=True)', "int(mnist.train.num_examples / 100)", 550),
        ('input_data.read_data_sets("MNIST_data/")', "mnist.train.images.shape[0] // 50", 1100),
        ('input_data.read_data_sets("data", validation_size=0)', "len(mnist.train.labels) // 100", 600),
        ('input_data.read_data_sets("data", reshape=False)', "mnist.validation.num_examples // 100", 50),
        ('input_data.read_data_sets("data", False, one_hot=True)', "len(mnist.test.images) // 100", 100),
    ],
)
def test_a_loop_over_the_batches_of_a_split_runs_a_known_count(load, batches, trips):
    (site,) = sites(f"""
    mnist = {load}
    for epoch in range(2):
        for i in range({batches}):
            sess.run(step)
    """)
    assert (site.runs.count, site.runs.bound) == (2 * trips, "exact")


def test_the_splits_hold_arrays_of_their_images_and_labels():
    (site,) = sites("""
    mnist = input_data.read_data_sets("MNIST_data/", one_hot=True, reshape=False)
    sess.run(step, feed_dict={x: mnist.test.images})
    """)
    assert site.work["samples"].value == 10000


@pytest.mark.parametrize(
    "load",
    [
        'input_data.read_data_sets("data", validation_size=held)',  # a size the code does not fix
        'input_data.read_data_sets("data", fake_data=True)',
        'input_data.read_data_sets("data", **options)',  # which are given is not known
    ],
)
def test_sizes_the_code_does_not_fix_leave_the_loop_unknown(load):
    (site,) = sites(f"""
    held = int(input())
    options = load_options()
    mnist = {load}
    for i in range(mnist.train.num_examples // 100):
        sess.run(step)
    """)
    assert site.runs.count is None
