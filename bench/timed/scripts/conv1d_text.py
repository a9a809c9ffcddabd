"""A Conv1D text classifier: 4096 token sequences of length 200 from a 10000-word vocabulary, an
Embedding of 64, Conv1D 64 filters of width 5, global max pooling, a dense sigmoid; 8 epochs of batch 64."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
tokens = np.random.randint(1, 10000, size=(4096, 200))
labels = np.random.randint(0, 2, size=(4096,))

model = tf.keras.Sequential([
    tf.keras.Input(shape=(200,)),
    tf.keras.layers.Embedding(10000, 64),
    tf.keras.layers.Conv1D(64, 5, activation="relu"),
    tf.keras.layers.GlobalMaxPooling1D(),
    tf.keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
model.fit(tokens, labels, epochs=8, batch_size=64, verbose=0)
