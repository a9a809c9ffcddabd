"""A tf.data pipeline with a per-sample `map` (standardise, add noise) before `batch` and `prefetch`,
feeding `fit`: 32768 samples x 64 features, batches of 64, 10 epochs, an MLP 64-256-256-10."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(32768, 64).astype("float32")
y = np.random.randint(0, 10, size=(32768,))


def augment(features, label):
    features = (features - 0.5) * 2.0 + tf.random.normal(tf.shape(features), stddev=0.05)
    return features, label


dataset = (tf.data.Dataset.from_tensor_slices((x, y))
           .map(augment)
           .batch(64)
           .prefetch(tf.data.AUTOTUNE))

model = tf.keras.Sequential([
    tf.keras.Input(shape=(64,)),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(dataset, epochs=10, verbose=0)
