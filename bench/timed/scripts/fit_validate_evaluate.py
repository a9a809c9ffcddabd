"""`fit` with validation_data every epoch, then `evaluate` on a test set: an MLP 64-512-512-10 on
32768 training samples (batches of 64, 8 epochs), 8192 validation and 16384 test samples."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(32768, 64).astype("float32")
y = np.random.randint(0, 10, size=(32768,))
x_val = np.random.rand(8192, 64).astype("float32")
y_val = np.random.randint(0, 10, size=(8192,))
x_test = np.random.rand(16384, 64).astype("float32")
y_test = np.random.randint(0, 10, size=(16384,))

model = tf.keras.Sequential([
    tf.keras.Input(shape=(64,)),
    tf.keras.layers.Dense(512, activation="relu"),
    tf.keras.layers.Dense(512, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(x, y, validation_data=(x_val, y_val), epochs=8, batch_size=64, verbose=0)
model.evaluate(x_test, y_test, batch_size=64, verbose=0)
