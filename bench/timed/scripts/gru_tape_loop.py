"""A GRU trained with a custom tf.GradientTape loop under tf.function: 2048 sequences of 30 steps x 16
features, 64 units, batches of 64, 30 epochs."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.random.rand(2048, 30, 16).astype("float32")
y = np.random.rand(2048, 1).astype("float32")
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)

model = tf.keras.Sequential([
    tf.keras.Input(shape=(30, 16)),
    tf.keras.layers.GRU(64),
    tf.keras.layers.Dense(1),
])
loss_fn = tf.keras.losses.MeanSquaredError()
optimizer = tf.keras.optimizers.Adam()


@tf.function
def train_step(xb, yb):
    with tf.GradientTape() as tape:
        loss = loss_fn(yb, model(xb, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for epoch in range(30):
    for xb, yb in dataset:
        train_step(xb, yb)
