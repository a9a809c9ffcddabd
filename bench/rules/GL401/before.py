"""GL401 before: a batched pipeline feeding a training step without prefetch."""
import numpy as np
import tensorflow as tf

def heavy(x):
    m = tf.reshape(tf.cast(x, tf.float32) + tf.range(4096, dtype=tf.float32), (64, 64))
    return tf.reduce_sum(tf.matmul(m, m))


def pair(i):
    return tf.fill((16,), heavy(i) / 1e9), tf.ones((1,))


model = tf.keras.Sequential([tf.keras.Input((16,)), tf.keras.layers.Dense(256, activation="relu"), tf.keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
options = tf.data.Options()
options.experimental_optimization.inject_prefetch = False  # TensorFlow's own prefetch optimisation off: the rule's case
ds = tf.data.Dataset.range(512).map(pair).batch(16).with_options(options)


def run():
    model.fit(ds, epochs=1, verbose=0)
