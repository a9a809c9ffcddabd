"""`evaluate` once on a large array: 400000 samples of 64 features, an MLP 64-512-512-10, Keras' default
batch size (32)."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(400000, 64).astype("float32")
y = np.random.randint(0, 10, size=(400000,))

model = tf.keras.Sequential([
    tf.keras.Input(shape=(64,)),
    tf.keras.layers.Dense(512, activation="relu"),
    tf.keras.layers.Dense(512, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
model.evaluate(x, y, verbose=0)
