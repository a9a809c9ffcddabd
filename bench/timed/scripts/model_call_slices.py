"""Eager inference by calling the model on slices of an array: a small CNN (convolutions of 16 and 32
filters on 32x32x3) called as model(x[i:i + 64], training=False) over 8192 images, 10 passes."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(8192, 32, 32, 3).astype("float32")

model = tf.keras.Sequential([
    tf.keras.Input(shape=(32, 32, 3)),
    tf.keras.layers.Conv2D(16, 3, activation="relu"),
    tf.keras.layers.MaxPooling2D(2),
    tf.keras.layers.Conv2D(32, 3, activation="relu"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(10),
])
for _ in range(10):
    for i in range(0, 8192, 64):
        model(x[i:i + 64], training=False)
