"""GL307 after: eager ops."""
import os

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "0"  # TensorFlow's default: its C++ log lines (the placement log) are written
import tensorflow as tf  # noqa: E402


a = tf.ones((16, 16))


def run():
    for _ in range(200):
        tf.reduce_sum(tf.matmul(a, a))
