"""A file-fed pipeline: writes 16384 samples x 32 features to .npy files, reads them back, and fits
an MLP 32-256-256-10 from a tf.data pipeline (batches of 64, 24 epochs)."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
np.save("timed_x.npy", np.random.rand(16384, 32))
np.save("timed_y.npy", np.random.randint(0, 10, size=(16384,)))

x = np.load("timed_x.npy")
y = np.load("timed_y.npy")
dataset = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1024, seed=0).batch(64)

model = tf.keras.Sequential([
    tf.keras.Input(shape=(32,)),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(dataset, epochs=24, verbose=0)
