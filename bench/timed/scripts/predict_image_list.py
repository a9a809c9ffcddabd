"""Eager `predict` over a Python list of single images, 220 images of 48x48x3 (each a batch of one): a
small CNN (convolutions of 16 and 32 filters, global pooling, a dense layer of 5)."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
images = [np.random.rand(1, 48, 48, 3).astype("float32") for _ in range(220)]

model = tf.keras.Sequential([
    tf.keras.Input(shape=(48, 48, 3)),
    tf.keras.layers.Conv2D(16, 3, activation="relu"),
    tf.keras.layers.MaxPooling2D(2),
    tf.keras.layers.Conv2D(32, 3, activation="relu"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(5, activation="softmax"),
])
scores = []
for image in images:
    scores.append(model.predict(image, verbose=0))
