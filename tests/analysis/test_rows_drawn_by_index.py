"""A batch drawn by indexing an array with row numbers (`X[np.random.randint(0, n, batch_size)]`,
`X[np.random.permutation(n)[:batch_size]]`, `X[np.random.choice(n, batch_size)]`) has as many rows as
the index holds, and `len(x)` / `x.shape[0]` of an array of known shape are numbers: the GAN training
loops of Keras-GAN draw their batches so, and their `train_on_batch` calls were priced without a batch."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_source

HEADER = """
import numpy as np
import tensorflow as tf
X = np.zeros((1000, 28, 28))
model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(28, 28)), tf.keras.layers.Dense(10)])
model.compile(optimizer="adam", loss="mse")
"""


def samples(body: str) -> list:
    result = analyse_source(HEADER + textwrap.dedent(body), "snippet.py")
    assert result.errors == []
    return [s.work["samples"] for s in result.callsites if s.api.endswith("train_on_batch")]


def test_rows_drawn_by_row_numbers_through_a_parameter():
    found = samples("""
    def train(epochs, batch_size=128):
        for epoch in range(epochs):
            idx = np.random.randint(0, X.shape[0], batch_size)
            model.train_on_batch(X[idx], np.zeros((batch_size, 10)))
            model.train_on_batch(X[np.random.permutation(len(X))[:batch_size]], np.zeros((batch_size, 10)))
            model.train_on_batch(X[np.random.choice(len(X), size=batch_size)], np.zeros((batch_size, 10)))

    train(100, batch_size=32)
    """)
    assert [s.value for s in found] == [32, 32, 32]
    assert all(s.provenance == "inferred" and "drawn by an index array" in s.note for s in found)


def test_a_mask_or_values_drawn_are_not_row_numbers():
    found = samples("""
    model.train_on_batch(X[X[:, 0, 0] > 0])
    model.train_on_batch(X[np.random.choice(X[:, 0, 0], 8)])
    model.train_on_batch(X[np.random.normal(0, 1, 8)])
    """)
    assert [s.value for s in found] == [None, None, None]


def test_len_and_shape_of_an_array_of_known_shape():
    result = analyse_source(HEADER + textwrap.dedent("""
    for step in range(len(X) // 100):
        model.train_on_batch(X[:100])
    for step in range(X.shape[0] // 50):
        model.train_on_batch(X[:50])
    """), "snippet.py")
    runs = [s.runs for s in result.callsites if s.api.endswith("train_on_batch")]
    assert [r.count for r in runs] == [10, 20]
