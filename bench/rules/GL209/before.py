"""GL209 before: a GAN-style data loader that lists its folder of 10,000 images on every batch to draw 16 of them."""
import os
import tempfile
from glob import glob

import numpy as np
import tensorflow as tf

FILES, BATCH, STEPS = 10_000, 16, 20
FOLDER = os.path.join(tempfile.gettempdir(), f"greenlint-bench-gl209-{FILES}")
if len(os.listdir(FOLDER) if os.path.isdir(FOLDER) else []) != FILES:  # the dataset, written once per machine
    os.makedirs(FOLDER, exist_ok=True)
    images = np.random.default_rng(0).integers(0, 256, (FILES, 32, 32, 3), dtype=np.uint8)
    for i, image in enumerate(images):
        with open(os.path.join(FOLDER, f"{i:06d}.raw"), "wb") as f:
            f.write(image.tobytes())


def read(path):
    with open(path, "rb") as f:
        return np.frombuffer(f.read(), np.uint8).reshape(32, 32, 3)


class DataLoader:
    def __init__(self, folder):
        self.folder = folder

    def load_batch(self, batch_size):
        paths = glob("%s/*.raw" % self.folder)
        return np.stack([read(p) for p in np.random.choice(paths, size=batch_size)]).astype(np.float32) / 255


discriminator = tf.keras.Sequential([tf.keras.Input((32, 32, 3)), tf.keras.layers.Conv2D(32, 3, strides=2, padding="same"),
                                     tf.keras.layers.LeakyReLU(0.2), tf.keras.layers.Conv2D(64, 3, strides=2, padding="same"),
                                     tf.keras.layers.LeakyReLU(0.2), tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
discriminator.compile(optimizer="adam", loss=tf.keras.losses.BinaryCrossentropy(from_logits=True))
loader, valid = DataLoader(FOLDER), np.ones((BATCH, 1), np.float32)


def run():
    np.random.seed(0)
    for _ in range(STEPS):
        discriminator.train_on_batch(loader.load_batch(BATCH), valid)
