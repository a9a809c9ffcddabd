"""GL504 before: a GAN-like convolution stack (64 to 128 channels at 32x32), each convolution with a bias
and followed by a batch normalization."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x, y = rng.random((96, 32, 32, 64), dtype=np.float32), rng.random((96, 1), dtype=np.float32)
model = tf.keras.Sequential([tf.keras.Input((32, 32, 64))])
for filters in (128, 128, 64):
    model.add(tf.keras.layers.Conv2D(filters, 3, padding="same"))
    model.add(tf.keras.layers.BatchNormalization())
    model.add(tf.keras.layers.ReLU())
model.add(tf.keras.layers.GlobalAveragePooling2D())
model.add(tf.keras.layers.Dense(1))
model.compile(optimizer="sgd", loss="mse")


def run():
    model.fit(x, y, batch_size=32, epochs=2, verbose=0)
