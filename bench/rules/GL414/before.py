"""GL414 before: NCF's GMF on 40,000 ratings (1,000 users x 2,000 items), the training pairs and 4 random
negatives per rating drawn in a Python loop (a draw and a dict lookup per negative) before each of
2 one-epoch fits, as neural-collaborative-filtering's GMF.py does."""
import numpy as np
import tensorflow as tf

USERS, ITEMS, RATINGS, NEGATIVES = 1000, 2000, 40_000, 4
rng = np.random.default_rng(0)
pairs = np.unique(np.stack([rng.integers(0, USERS, RATINGS), rng.integers(0, ITEMS, RATINGS)], 1), axis=0)
train = {(u, i): 1.0 for u, i in pairs.tolist()}  # NCF's dok_matrix: a dict subclass in the SciPy of its day
user = tf.keras.Input((1,), dtype="int32")
item = tf.keras.Input((1,), dtype="int32")
vector = tf.keras.layers.Multiply()([tf.keras.layers.Flatten()(tf.keras.layers.Embedding(USERS, 8)(user)),
                                     tf.keras.layers.Flatten()(tf.keras.layers.Embedding(ITEMS, 8)(item))])
model = tf.keras.Model([user, item], tf.keras.layers.Dense(1, activation="sigmoid")(vector))
model.compile(optimizer="adam", loss="binary_crossentropy")


def train_instances(train, num_negatives):
    users, items, labels = [], [], []
    for (u, i) in train.keys():
        users.append(u)
        items.append(i)
        labels.append(1)
        for _ in range(num_negatives):
            j = np.random.randint(ITEMS)
            while train.get((u, j)):  # NCF: train.has_key((u, j)), Python 2's dict method
                j = np.random.randint(ITEMS)
            users.append(u)
            items.append(j)
            labels.append(0)
    return users, items, labels


def run():
    for _ in range(2):
        users, items, labels = train_instances(train, NEGATIVES)
        model.fit([np.array(users), np.array(items)], np.array(labels), batch_size=256, epochs=1, verbose=0)
