"""train_on_batch in a Python loop over numpy slices: 8000 steps of batch 64 cycling through 8192
samples x 64 features, an MLP 64-512-10."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(8192, 64).astype("float32")
y = np.random.randint(0, 10, size=(8192,))
batch = 64
batches = len(x) // batch

model = tf.keras.Sequential([
    tf.keras.Input(shape=(64,)),
    tf.keras.layers.Dense(512, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")

for step in range(8000):
    i = step % batches
    model.train_on_batch(x[i * batch:(i + 1) * batch], y[i * batch:(i + 1) * batch])
