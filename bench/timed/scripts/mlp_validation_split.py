"""An MLP 32-512-512-10 with validation_split=0.2 and a larger batch: 40000 samples, batches of 512,
16 epochs (each epoch trains on 32000 and validates on 8000)."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(40000, 32).astype("float32")
y = np.random.randint(0, 10, size=(40000,))

model = tf.keras.Sequential([
    tf.keras.Input(shape=(32,)),
    tf.keras.layers.Dense(512, activation="relu"),
    tf.keras.layers.Dense(512, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
model.fit(x, y, validation_split=0.2, epochs=16, batch_size=512, verbose=0)
