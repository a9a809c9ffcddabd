"""The functional API: an MLP 64-256-256-256-10 on 8192 samples, 32 epochs of batch 64 (its
Sequential twin is sequential_mlp.py)."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(8192, 64)
y = np.random.randint(0, 10, size=(8192,))

inputs = tf.keras.Input(shape=(64,))
h = tf.keras.layers.Dense(256, activation="relu")(inputs)
h = tf.keras.layers.Dense(256, activation="relu")(h)
h = tf.keras.layers.Dense(256, activation="relu")(h)
outputs = tf.keras.layers.Dense(10, activation="softmax")(h)
model = tf.keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(x, y, epochs=32, batch_size=64, verbose=0)
