"""GL504 before: convolutions with a bias, each followed by a batch normalization."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x, y = rng.random((64, 32, 32, 3), dtype=np.float32), rng.random((64, 1), dtype=np.float32)
model = tf.keras.Sequential([tf.keras.Input((32, 32, 3))])
for filters in (32, 64, 64):
    model.add(tf.keras.layers.Conv2D(filters, 3, padding="same"))
    model.add(tf.keras.layers.BatchNormalization())
    model.add(tf.keras.layers.ReLU())
model.add(tf.keras.layers.GlobalAveragePooling2D())
model.add(tf.keras.layers.Dense(1))
model.compile(optimizer="sgd", loss="mse")


def run():
    model.fit(x, y, batch_size=16, epochs=3, verbose=0)
