"""GL210 control: the custom step of after.py, but the generator run twice (a predict-like pass for the discriminator, then again for its own update)."""
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

rng = np.random.default_rng(0)
BATCH, STEPS, LATENT = 16, 8, 64
real = rng.random((STEPS, BATCH, 32, 32, 3), dtype=np.float32)
noises = rng.normal(size=(STEPS, BATCH, LATENT)).astype(np.float32)
valid, fake = np.ones((BATCH, 1), np.float32), np.zeros((BATCH, 1), np.float32)


def build_generator():  # the larger network, as in the Keras GANs: upsampling convolutions to 32x32
    z = layers.Input((LATENT,))
    x = layers.Reshape((8, 8, 64))(layers.Dense(8 * 8 * 64)(z))
    for filters in (128, 64):
        x = layers.UpSampling2D()(x)
        x = layers.Conv2D(filters, 3, padding="same")(x)
        x = layers.ReLU()(layers.BatchNormalization()(x))
    return tf.keras.Model(z, layers.Conv2D(3, 3, padding="same", activation="tanh")(x))


def build_discriminator():
    img = layers.Input((32, 32, 3))
    x = layers.LeakyReLU(0.2)(layers.Conv2D(32, 3, strides=2, padding="same")(img))
    x = layers.LeakyReLU(0.2)(layers.Conv2D(64, 3, strides=2, padding="same")(x))
    return tf.keras.Model(img, layers.Dense(1, activation="sigmoid")(layers.Flatten()(x)))


generator, discriminator = build_generator(), build_discriminator()
d_optimizer, g_optimizer = tf.keras.optimizers.Adam(2e-4), tf.keras.optimizers.Adam(2e-4)
bce = tf.keras.losses.BinaryCrossentropy()


@tf.function
def train_step(images, noise):
    """The same three updates in the same order (D on real, D on fake, G through the updated D),
    the generator run twice as in before.py: once for D's fake images, once for its own update."""
    with tf.GradientTape(persistent=True) as tape:
        d_real = bce(valid, discriminator(images, training=True))
    d_optimizer.apply_gradients(zip(tape.gradient(d_real, discriminator.trainable_variables),
                                    discriminator.trainable_variables))
    gen_imgs = generator(noise, training=False)
    with tf.GradientTape() as tape:
        d_fake = bce(fake, discriminator(gen_imgs, training=True))
    d_grads = tape.gradient(d_fake, discriminator.trainable_variables)
    d_optimizer.apply_gradients(zip(d_grads, discriminator.trainable_variables))
    with tf.GradientTape() as tape:
        g_loss = bce(valid, discriminator(generator(noise, training=True), training=False))
    g_optimizer.apply_gradients(zip(tape.gradient(g_loss, generator.trainable_variables),
                                    generator.trainable_variables))


def run():
    for step in range(STEPS):
        train_step(real[step], noises[step])
