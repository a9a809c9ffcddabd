"""A conv net fed by `image_dataset_from_directory`: writes 512 PNG images of 64x64x3 in two class
folders, then fits Conv2D 16 - MaxPool - Conv2D 32 - GlobalAveragePooling - Dense 2 on them,
batches of 32, 24 epochs (each epoch reads and decodes every file)."""

import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
for label in ("a", "b"):
    os.makedirs(os.path.join("images", label), exist_ok=True)
    for i in range(256):
        pixels = np.random.randint(0, 256, size=(64, 64, 3), dtype=np.uint8)
        tf.io.write_file(os.path.join("images", label, f"{i}.png"), tf.io.encode_png(pixels))

dataset = tf.keras.utils.image_dataset_from_directory("images", image_size=(64, 64), batch_size=32, seed=0)

model = tf.keras.Sequential([
    tf.keras.Input(shape=(64, 64, 3)),
    tf.keras.layers.Rescaling(1.0 / 255),
    tf.keras.layers.Conv2D(16, 3, activation="relu"),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Conv2D(32, 3, activation="relu"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(2, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(dataset, epochs=24, verbose=0)
