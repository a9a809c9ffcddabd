"""Eager inference calls model(x) on one batch of 32 samples, 5000 times: an MLP 32-256-256-10."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(32, 32)

model = tf.keras.Sequential([
    tf.keras.Input(shape=(32,)),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax"),
])
for i in range(5000):
    model(x)
