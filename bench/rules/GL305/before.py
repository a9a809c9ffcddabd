"""GL305 before: a compiled training step, with `tf.debugging.enable_check_numerics()`."""
import os
import tempfile

import numpy as np
import tensorflow as tf

tf.debugging.enable_check_numerics()
rng = np.random.default_rng(0)
x, y = rng.random((32, 16), dtype=np.float32), rng.random((32, 1), dtype=np.float32)
model = tf.keras.Sequential([tf.keras.Input((16,)), tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.SGD(0.01)


@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


def run():
    for _ in range(400):
        step()
