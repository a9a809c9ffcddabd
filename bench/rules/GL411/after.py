"""GL411 after: the same sequences grouped by length into buckets before padding."""
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
BOUNDARIES = [32, 64, 96, 128, 160, 192, 224]
ds = ds.shuffle(COUNT, seed=0).bucket_by_sequence_length(
    lambda tokens, label: tf.shape(tokens)[0],
    bucket_boundaries=BOUNDARIES,
    bucket_batch_sizes=[BATCH] * (len(BOUNDARIES) + 1),
)

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
