"""`Dataset.map` with a heavy per-element function: 4096 signals of 4096 samples, each turned into a
log-magnitude spectrogram (STFT, frames of 256, step 128) and averaged over time, feeding `fit` of an
MLP 129-64-10, batches of 64, 26 epochs (the map runs for every element in every epoch)."""

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
signals = np.random.rand(4096, 4096).astype("float32")
labels = np.random.randint(0, 10, size=(4096,))


def spectrum(signal, label):
    frames = tf.signal.stft(signal, frame_length=256, frame_step=128)
    return tf.reduce_mean(tf.math.log(tf.abs(frames) + 1e-6), axis=0), label


dataset = tf.data.Dataset.from_tensor_slices((signals, labels)).map(spectrum).batch(64)

model = tf.keras.Sequential([
    tf.keras.Input(shape=(129,)),
    tf.keras.layers.Dense(64, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(dataset, epochs=26, verbose=0)
