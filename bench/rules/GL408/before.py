"""GL408 before: 400 PNG files read and decoded again on each of 5 epochs."""
import tempfile
from pathlib import Path

import numpy as np
import tensorflow as tf

FOLDER = Path(tempfile.mkdtemp(prefix="gl408-"))
pixels = np.random.default_rng(0).integers(0, 256, (400, 96, 96, 3), dtype=np.uint8)
for i, image in enumerate(pixels):
    (FOLDER / f"{i:04d}.png").write_bytes(tf.io.encode_png(image).numpy())
FILES = sorted(str(p) for p in FOLDER.glob("*.png"))


def load(path):
    image = tf.io.decode_png(tf.io.read_file(path), channels=3)
    return tf.image.resize(image, (64, 64)) / 255.0


def run():
    ds = tf.data.Dataset.from_tensor_slices(FILES).map(load).batch(32)  # a new pipeline: no cache left from a run
    for epoch in range(5):
        for batch in ds:
            pass
