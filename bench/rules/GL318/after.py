"""GL318 after: the same loop, the histograms written every 100 steps (the rule's advice)."""
import tempfile

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
STEPS, BATCH = 20, 64
xs = rng.random((STEPS, BATCH, 784), dtype=np.float32)
ys = rng.integers(0, 10, (STEPS, BATCH))
model = tf.keras.Sequential([tf.keras.Input((784,)), tf.keras.layers.Dense(256, activation="relu"),
                             tf.keras.layers.Dense(128, activation="relu"), tf.keras.layers.Dense(10)])
optimizer = tf.keras.optimizers.Adam()
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
writer = tf.summary.create_file_writer(tempfile.mkdtemp(prefix="gl318-"))


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


def run():
    with writer.as_default():
        for step in range(STEPS):
            grads = train_step(xs[step], ys[step])
            if step % 100 == 0:
                tf.summary.histogram("dense/kernel_grad", grads[0], step=step)
                tf.summary.histogram("dense_1/kernel_grad", grads[2], step=step)
                tf.summary.histogram("dense_2/kernel_grad", grads[4], step=step)
    writer.flush()
