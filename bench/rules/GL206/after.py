"""GL206 after: the same 32 images in one predict_on_batch call."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
images = rng.random((64, 64, 64, 3), dtype=np.float32)
model = tf.keras.Sequential([
    tf.keras.Input((64, 64, 3)),
    tf.keras.layers.Conv2D(32, 3, activation="relu"),
    tf.keras.layers.Conv2D(32, 3, activation="relu"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(10),
])


def run():
    model.predict_on_batch(images)
