"""Two stacked LSTMs, the first with return_sequences=True: 1024 sequences of 100 steps x 8 features,
32 units each, a dense head, 18 epochs of batch 64."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(1024, 100, 8).astype("float32")
y = np.random.rand(1024, 1).astype("float32")

model = tf.keras.Sequential([
    tf.keras.Input(shape=(100, 8)),
    tf.keras.layers.LSTM(32, return_sequences=True),
    tf.keras.layers.LSTM(32),
    tf.keras.layers.Dense(1),
])
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, epochs=18, batch_size=64, verbose=0)
