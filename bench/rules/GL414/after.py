"""GL414 after: the same training and negatives, drawn in bulk with NumPy (collisions with a rating found by
one vectorised membership test and drawn again) before each of the 2 one-epoch fits."""
import numpy as np
import tensorflow as tf

USERS, ITEMS, RATINGS, NEGATIVES = 1000, 2000, 40_000, 4
rng = np.random.default_rng(0)
pairs = np.unique(np.stack([rng.integers(0, USERS, RATINGS), rng.integers(0, ITEMS, RATINGS)], 1), axis=0)
user = tf.keras.Input((1,), dtype="int32")
item = tf.keras.Input((1,), dtype="int32")
vector = tf.keras.layers.Multiply()([tf.keras.layers.Flatten()(tf.keras.layers.Embedding(USERS, 8)(user)),
                                     tf.keras.layers.Flatten()(tf.keras.layers.Embedding(ITEMS, 8)(item))])
model = tf.keras.Model([user, item], tf.keras.layers.Dense(1, activation="sigmoid")(vector))
model.compile(optimizer="adam", loss="binary_crossentropy")
RATED = np.sort(pairs[:, 0].astype(np.int64) * ITEMS + pairs[:, 1])  # each rating as one key, sorted


def train_instances(num_negatives):
    negative_users = np.repeat(pairs[:, 0], num_negatives)
    negative_items = np.random.randint(ITEMS, size=len(negative_users))
    clash = np.isin(negative_users.astype(np.int64) * ITEMS + negative_items, RATED, assume_unique=False)
    while clash.any():
        negative_items[clash] = np.random.randint(ITEMS, size=int(clash.sum()))
        clash = np.isin(negative_users.astype(np.int64) * ITEMS + negative_items, RATED)
    users = np.concatenate([pairs[:, 0], negative_users])
    items = np.concatenate([pairs[:, 1], negative_items])
    labels = np.concatenate([np.ones(len(pairs)), np.zeros(len(negative_users))])
    return users, items, labels


def run():
    for _ in range(2):
        users, items, labels = train_instances(NEGATIVES)
        model.fit([users, items], labels, batch_size=256, epochs=1, verbose=0)
