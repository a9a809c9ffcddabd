"""GL211 after: the same pieces joined once."""
import numpy as np
import tensorflow as tf

PIECES = [np.stack([np.full(20, i), np.arange(20)], axis=1) for i in range(3000)]


def run():
    indices = np.concatenate(PIECES)
    tf.constant(indices)
