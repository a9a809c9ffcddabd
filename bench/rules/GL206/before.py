"""GL206 before: predict_on_batch on one image per loop iteration (a batch of one)."""
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
    for i in range(len(images)):
        model.predict_on_batch(np.expand_dims(images[i], axis=0))
