"""GL316 after: the same fit() with the rule's advice, 50 validation steps per epoch (half the training steps)."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x = rng.random((4096, 64), dtype=np.float32)
y = rng.integers(0, 10, 4096)
train = tf.data.Dataset.from_tensor_slices((x[:3072], y[:3072])).repeat().batch(32)
val = tf.data.Dataset.from_tensor_slices((x[3072:], y[3072:])).repeat().batch(32)
model = tf.keras.Sequential([tf.keras.Input((64,)), tf.keras.layers.Dense(256, activation="relu"),
                             tf.keras.layers.Dense(256, activation="relu"), tf.keras.layers.Dense(10)])
model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))


def run():
    model.fit(train, epochs=2, steps_per_epoch=100, validation_data=val, validation_steps=50, verbose=0)
