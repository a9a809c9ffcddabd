"""A transformer encoder block (4-head self-attention, feed-forward, layer norms) on 2048 sequences
of 32 tokens x 64 features, 16 epochs of batch 32."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(2048, 32, 64)
y = np.random.randint(0, 2, size=(2048,))

inputs = tf.keras.Input(shape=(32, 64))
attended = tf.keras.layers.MultiHeadAttention(num_heads=4, key_dim=16)(inputs, inputs)
h = tf.keras.layers.LayerNormalization()(inputs + attended)
ff = tf.keras.layers.Dense(128, activation="relu")(h)
ff = tf.keras.layers.Dense(64)(ff)
h = tf.keras.layers.LayerNormalization()(h + ff)
pooled = tf.keras.layers.GlobalAveragePooling1D()(h)
outputs = tf.keras.layers.Dense(1, activation="sigmoid")(pooled)
model = tf.keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss="binary_crossentropy")
model.fit(x, y, epochs=16, batch_size=32, verbose=0)
