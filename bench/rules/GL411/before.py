"""GL411 before: shuffled token sequences of 4 to 256 tokens padded to each random batch's longest."""
import numpy as np
import tensorflow as tf

VOCAB, BATCH, COUNT = 2_000, 32, 2_048
rng = np.random.default_rng(0)
SEQUENCES = [rng.integers(1, VOCAB, rng.integers(4, 257)).astype(np.int32) for _ in range(COUNT)]
LABELS = rng.integers(0, 2, COUNT).astype(np.int32)


def examples():
    yield from zip(SEQUENCES, LABELS)


signature = (tf.TensorSpec([None], tf.int32), tf.TensorSpec([], tf.int32))
ds = tf.data.Dataset.from_generator(examples, output_signature=signature)
ds = ds.shuffle(COUNT, seed=0).padded_batch(BATCH, padded_shapes=([None], []))

model = tf.keras.Sequential([
    tf.keras.layers.Embedding(VOCAB, 64),
    tf.keras.layers.Conv1D(128, 5, padding="same", activation="relu"),
    tf.keras.layers.Conv1D(128, 5, padding="same", activation="relu"),
    tf.keras.layers.GlobalMaxPooling1D(),
    tf.keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer="adam", loss="binary_crossentropy")


def run():
    model.fit(ds, epochs=1, verbose=0)
