"""`fit` fed by a Python generator that draws each batch of 128 samples x 64 features on the fly:
steps_per_epoch=400, 10 epochs, an MLP 64-256-256-10."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)


def batches(batch_size):
    while True:
        x = rng.random((batch_size, 64), dtype=np.float32)
        y = rng.integers(0, 10, size=(batch_size,))
        yield x, y


model = tf.keras.Sequential([
    tf.keras.Input(shape=(64,)),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(batches(128), steps_per_epoch=400, epochs=10, verbose=0)
