"""A file-fed pipeline: writes 8192 rows of 16 features and a target to a CSV file, reads it back with
np.loadtxt, and fits an MLP 16-128-128-1 (batches of 32, 36 epochs)."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
np.savetxt("timed_table.csv", np.random.rand(8192, 17), delimiter=",", fmt="%.6f")

table = np.loadtxt("timed_table.csv", delimiter=",")
x = table[:, :16]
y = table[:, 16]

model = tf.keras.Sequential([
    tf.keras.Input(shape=(16,)),
    tf.keras.layers.Dense(128, activation="relu"),
    tf.keras.layers.Dense(128, activation="relu"),
    tf.keras.layers.Dense(1),
])
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, epochs=36, batch_size=32, verbose=0)
