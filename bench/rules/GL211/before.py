"""GL211 before: 3,000 pieces of 20 rows (two int64 columns, as per-text index blocks), each joined onto
the array so far, then handed to TensorFlow."""
import numpy as np
import tensorflow as tf

PIECES = [np.stack([np.full(20, i), np.arange(20)], axis=1) for i in range(3000)]


def run():
    indices = PIECES[0]
    for piece in PIECES[1:]:
        indices = np.concatenate([indices, piece])
    tf.constant(indices)
