"""GL207 before: greedy decoding that runs a recurrent decoder over the whole prefix for every new token."""
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

VOCAB, WIDTH, BATCH, TOKENS = 2000, 384, 8, 32
tf.keras.utils.set_random_seed(0)
embed = layers.Embedding(VOCAB, 64)
gru = layers.GRU(WIDTH, return_sequences=True, return_state=True)
logits = layers.Dense(VOCAB)
prefix = layers.Input((None,), dtype="int32")
decoder = tf.keras.Model(prefix, logits(gru(embed(prefix))[0]))
start = np.ones((BATCH, 1), np.int32)


def run():
    seq = start
    for _ in range(TOKENS):
        probs = decoder(seq, training=False)
        seq = np.concatenate([seq, np.argmax(probs[:, -1:].numpy(), axis=-1).astype(np.int32)], axis=1)
    return seq
