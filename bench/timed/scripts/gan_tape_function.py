"""A GAN-like custom loop under tf.function: a generator (32-128-256-64) and a discriminator (64-128-1), each
with its own tf.GradientTape and Adam, on 8192 real samples of 64 features, batches of 64, 50 epochs."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
real = np.random.rand(8192, 64).astype("float32")
dataset = tf.data.Dataset.from_tensor_slices(real).shuffle(8192).batch(64, drop_remainder=True)

generator = tf.keras.Sequential([
    tf.keras.Input(shape=(32,)),
    tf.keras.layers.Dense(128, activation="relu"),
    tf.keras.layers.Dense(256, activation="relu"),
    tf.keras.layers.Dense(64, activation="sigmoid"),
])
discriminator = tf.keras.Sequential([
    tf.keras.Input(shape=(64,)),
    tf.keras.layers.Dense(128, activation="relu"),
    tf.keras.layers.Dense(1),
])
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
g_opt = tf.keras.optimizers.Adam(1e-4)
d_opt = tf.keras.optimizers.Adam(1e-4)


@tf.function
def train_step(batch):
    noise = tf.random.normal([64, 32])
    with tf.GradientTape() as g_tape, tf.GradientTape() as d_tape:
        fake = generator(noise, training=True)
        real_logits = discriminator(batch, training=True)
        fake_logits = discriminator(fake, training=True)
        d_loss = bce(tf.ones_like(real_logits), real_logits) + bce(tf.zeros_like(fake_logits), fake_logits)
        g_loss = bce(tf.ones_like(fake_logits), fake_logits)
    g_grads = g_tape.gradient(g_loss, generator.trainable_variables)
    d_grads = d_tape.gradient(d_loss, discriminator.trainable_variables)
    g_opt.apply_gradients(zip(g_grads, generator.trainable_variables))
    d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables))
    return g_loss, d_loss


for epoch in range(50):
    for batch in dataset:
        train_step(batch)
