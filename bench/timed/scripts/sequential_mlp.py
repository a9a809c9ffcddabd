"""The Sequential twin of functional_mlp.py: an MLP 64-256-256-256-10 on 8192 samples, 32 epochs of
batch 64."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(8192, 64)
y = np.random.randint(0, 10, size=(8192,))

model = tf.keras.Sequential([
    tf.keras.Input(shape=(64,)),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(x, y, epochs=32, batch_size=64, verbose=0)
