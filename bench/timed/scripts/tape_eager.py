"""Custom training loop with tf.GradientTape (eager): an MLP 32-256-256-10 on 8192 samples, batches of 64,
6 epochs."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(8192, 32).astype("float32")
y = np.random.randint(0, 10, size=(8192,))
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)

model = tf.keras.Sequential([
    tf.keras.Input(shape=(32,)),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(10),
])
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam()


def train_step(xb, yb):
    with tf.GradientTape() as tape:
        logits = model(xb, training=True)
        loss = loss_fn(yb, logits)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for epoch in range(6):
    for xb, yb in dataset:
        train_step(xb, yb)
