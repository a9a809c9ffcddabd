"""LSTM on 2048 sequences of 50 steps x 16 features, 64 units, 24 epochs of batch 64."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(2048, 50, 16)
y = np.random.rand(2048, 1)

model = tf.keras.Sequential([
    tf.keras.Input(shape=(50, 16)),
    tf.keras.layers.LSTM(64),
    tf.keras.layers.Dense(1),
])
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, epochs=24, batch_size=64, verbose=0)
