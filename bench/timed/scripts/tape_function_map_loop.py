"""A tf.function training step over a tf.data pipeline with a per-sample `map` (scale and jitter) and
`batch`, iterated by a Python loop: 16384 samples x 64 features, an MLP 64-256-256-10, batches of 64,
12 epochs."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(16384, 64).astype("float32")
y = np.random.randint(0, 10, size=(16384,))


def preprocess(features, label):
    features = features * 2.0 - 1.0 + tf.random.uniform(tf.shape(features), -0.01, 0.01)
    return features, label


dataset = tf.data.Dataset.from_tensor_slices((x, y)).map(preprocess).batch(64)

model = tf.keras.Sequential([
    tf.keras.Input(shape=(64,)),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(10),
])
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam()


@tf.function
def train_step(xb, yb):
    with tf.GradientTape() as tape:
        loss = loss_fn(yb, model(xb, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for epoch in range(12):
    for xb, yb in dataset:
        train_step(xb, yb)
