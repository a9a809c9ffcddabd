"""A functional model with two inputs, an image of 32x32x3 (two convolutions) and 16 tabular features
(a dense layer), concatenated into a head of 64 and 10: 8192 samples, 6 epochs of batch 64."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
images = np.random.rand(8192, 32, 32, 3).astype("float32")
tabular = np.random.rand(8192, 16).astype("float32")
y = np.random.randint(0, 10, size=(8192,))

image_in = tf.keras.Input(shape=(32, 32, 3))
tabular_in = tf.keras.Input(shape=(16,))
a = tf.keras.layers.Conv2D(16, 3, activation="relu")(image_in)
a = tf.keras.layers.MaxPooling2D(2)(a)
a = tf.keras.layers.Conv2D(32, 3, activation="relu")(a)
a = tf.keras.layers.GlobalAveragePooling2D()(a)
b = tf.keras.layers.Dense(32, activation="relu")(tabular_in)
h = tf.keras.layers.Concatenate()([a, b])
h = tf.keras.layers.Dense(64, activation="relu")(h)
out = tf.keras.layers.Dense(10, activation="softmax")(h)
model = tf.keras.Model([image_in, tabular_in], out)
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit([images, tabular], y, epochs=6, batch_size=64, verbose=0)
