"""train_on_batch over 16384 samples in batches of 64 for 22 epochs, then test_on_batch and
predict_on_batch over the same batches: an MLP 32-256-256-10."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(16384, 32).astype("float32")
y = np.random.randint(0, 10, size=(16384,))
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)

model = tf.keras.Sequential([
    tf.keras.Input(shape=(32,)),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")

for epoch in range(22):
    for xb, yb in dataset:
        model.train_on_batch(xb, yb)
for xb, yb in dataset:
    model.test_on_batch(xb, yb)
for xb, yb in dataset:
    model.predict_on_batch(xb)
