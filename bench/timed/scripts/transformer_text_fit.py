"""A small text transformer trained with `fit`: token and position embeddings (vocabulary 2000, 64 tokens,
64 features), two encoder blocks (4-head self-attention, feed-forward 128, layer norms), pooled to a
binary output; 1024 sequences, batches of 32, 8 epochs."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
tokens = np.random.randint(0, 2000, size=(1024, 64))
labels = np.random.randint(0, 2, size=(1024,))


def encoder(h):
    attended = tf.keras.layers.MultiHeadAttention(num_heads=4, key_dim=16)(h, h)
    h = tf.keras.layers.LayerNormalization()(h + attended)
    ff = tf.keras.layers.Dense(128, activation="relu")(h)
    ff = tf.keras.layers.Dense(64)(ff)
    return tf.keras.layers.LayerNormalization()(h + ff)


inputs = tf.keras.Input(shape=(64,))
h = tf.keras.layers.Embedding(2000, 64)(inputs)
h = h + tf.keras.layers.Embedding(64, 64)(tf.range(64))
h = encoder(encoder(h))
outputs = tf.keras.layers.Dense(1, activation="sigmoid")(tf.keras.layers.GlobalAveragePooling1D()(h))
model = tf.keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss="binary_crossentropy")
model.fit(tokens, labels, epochs=8, batch_size=32, verbose=0)
