"""`predict` on each image of an array in turn, 500 images of 32x32x3: a small CNN (two convolutions of
16 and 32 filters, a dense layer of 10)."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
images = np.random.rand(500, 32, 32, 3).astype("float32")

model = tf.keras.Sequential([
    tf.keras.Input(shape=(32, 32, 3)),
    tf.keras.layers.Conv2D(16, 3, activation="relu"),
    tf.keras.layers.MaxPooling2D(2),
    tf.keras.layers.Conv2D(32, 3, activation="relu"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(10, activation="softmax"),
])
for image in images:
    model.predict(image[np.newaxis], verbose=0)
