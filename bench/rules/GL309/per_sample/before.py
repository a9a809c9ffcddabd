"""GL309 per-sample before: a replay step fitting 32 sampled transitions one `fit` at a time."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
states = rng.random((32, 1, 4), dtype=np.float32)
targets = rng.random((32, 1, 2), dtype=np.float32)
model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(24, activation="relu"),
                             tf.keras.layers.Dense(24, activation="relu"), tf.keras.layers.Dense(2)])
model.compile(optimizer=tf.keras.optimizers.Adam(0.001), loss="mse")


def run():
    for state, target in zip(states, targets):
        model.fit(state, target, epochs=1, verbose=0)
