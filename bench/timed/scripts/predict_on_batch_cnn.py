"""`predict_on_batch` in a loop: a conv net (Conv2D 32 - MaxPool - Conv2D 64 - MaxPool - Flatten -
Dense 10) on 32x32x3 images, 4000 batches of 16."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
images = np.random.rand(16, 32, 32, 3).astype("float32")

model = tf.keras.Sequential([
    tf.keras.Input(shape=(32, 32, 3)),
    tf.keras.layers.Conv2D(32, 3, activation="relu"),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Conv2D(64, 3, activation="relu"),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(10, activation="softmax"),
])

for _ in range(4000):
    model.predict_on_batch(images)
