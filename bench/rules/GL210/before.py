"""GL210 before: a Keras GAN step that predicts the generator's images, then recomputes them in the combined model."""
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
discriminator.compile(optimizer=tf.keras.optimizers.Adam(2e-4), loss="binary_crossentropy")
discriminator.train_on_batch(real[0], valid)  # Keras 3 reads `trainable` when it traces the step: trace it trainable
z = layers.Input((LATENT,))
discriminator.trainable = False
combined = tf.keras.Model(z, discriminator(generator(z)))
combined.compile(optimizer=tf.keras.optimizers.Adam(2e-4), loss="binary_crossentropy")


def run():
    for step in range(STEPS):
        noise = noises[step]
        gen_imgs = generator.predict(noise, verbose=0)
        discriminator.train_on_batch(real[step], valid)
        discriminator.train_on_batch(gen_imgs, fake)
        combined.train_on_batch(noise, valid)
