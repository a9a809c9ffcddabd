"""Dense MLP: 8192 samples of 32 features, two hidden layers of 512 units, 14 epochs of batch 32."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(8192, 32)
y = np.random.randint(0, 10, size=(8192,))

model = tf.keras.Sequential([
    tf.keras.Input(shape=(32,)),
    tf.keras.layers.Dense(512, activation="relu"),
    tf.keras.layers.Dense(512, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(x, y, epochs=14, batch_size=32, verbose=0)
