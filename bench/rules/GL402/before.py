"""GL402 before: a Dataset.map run sequentially."""
import tensorflow as tf

def heavy(x):
    m = tf.reshape(tf.cast(x, tf.float32) + tf.range(4096, dtype=tf.float32), (64, 64))
    return tf.reduce_sum(tf.matmul(m, m))


options = tf.data.Options()
options.experimental_optimization.map_parallelization = False  # TensorFlow's own map optimisation off: the rule's case
ds = tf.data.Dataset.range(400).map(heavy).with_options(options)


def run():
    for _ in ds:
        pass
