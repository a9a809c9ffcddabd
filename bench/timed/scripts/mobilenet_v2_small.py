"""keras.applications.MobileNetV2 at 96x96 (weights=None, 10 classes) trained from scratch on 384
images: 2 epochs of batch 32 (24 steps)."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(384, 96, 96, 3).astype("float32")
y = np.random.randint(0, 10, size=(384,))

model = tf.keras.applications.MobileNetV2(input_shape=(96, 96, 3), weights=None, classes=10)
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
