"""GL207 after: the same decoder run on the newest token alone, its recurrent state kept between passes."""
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

VOCAB, WIDTH, BATCH, TOKENS = 2000, 384, 8, 32
tf.keras.utils.set_random_seed(0)
embed = layers.Embedding(VOCAB, 64)
gru = layers.GRU(WIDTH, return_sequences=True, return_state=True)
logits = layers.Dense(VOCAB)
newest, state_in = layers.Input((1,), dtype="int32"), layers.Input((WIDTH,))
outputs, state_out = gru(embed(newest), initial_state=state_in)
step = tf.keras.Model([newest, state_in], [logits(outputs), state_out])
start = np.ones((BATCH, 1), np.int32)


def run():
    token, state, tokens = tf.constant(start), tf.zeros((BATCH, WIDTH)), [start]
    for _ in range(TOKENS):
        probs, state = step([token, state], training=False)
        token = tf.constant(np.argmax(probs.numpy(), axis=-1).astype(np.int32))
        tokens.append(token.numpy())
    return np.concatenate(tokens, axis=1)
