"""GL208 after: the same decoder in a tf.while_loop that stops once every sequence has produced the pad token (the rule's advice)."""
import numpy as np
import tensorflow as tf

tf.compat.v1.disable_v2_behavior()  # TensorFlow 1's tensor equality: `tensor == 0` is Python's identity test
BATCH, HIDDEN, VOCAB, MAXLEN, PAD, START = 64, 256, 4000, 100, 0, 1
rng = np.random.default_rng(0)
batches = [(rng.normal(size=(BATCH, HIDDEN)).astype(np.float32), rng.integers(20, 31, BATCH)) for _ in range(3)]
memory = tf.compat.v1.placeholder(tf.float32, [BATCH, HIDDEN])
lengths = tf.compat.v1.placeholder(tf.int32, [BATCH])  # where each sequence ends: 20 to 30 tokens of 100
embedding = tf.Variable(rng.normal(size=(VOCAB, HIDDEN)).astype(np.float32) * 0.1)
recurrent = tf.Variable(rng.normal(size=(HIDDEN, HIDDEN)).astype(np.float32) * 0.1)
output = tf.Variable(rng.normal(size=(HIDDEN, VOCAB)).astype(np.float32) * 0.1)


def decode(h, y, t):
    """One step of the decoder; a trained model's end of sentence stands at each sequence's length:
    the pad token from there on, any other before it."""
    h = tf.tanh(tf.matmul(h, recurrent) + tf.nn.embedding_lookup(embedding, y) + memory)
    ended = tf.cast(t >= lengths, tf.float32)[:, None]
    logits = tf.matmul(h, output) + tf.one_hot(PAD, VOCAB) * 1e4 * (2 * ended - 1)
    return h, tf.argmax(logits, axis=-1, output_type=tf.int32)




def not_done(t, h, y_hat, finished, outputs):
    return tf.logical_and(t < MAXLEN, tf.logical_not(tf.reduce_all(finished)))


def step(t, h, y_hat, finished, outputs):
    h, y_hat = decode(h, y_hat, t)
    return t + 1, h, y_hat, tf.logical_or(finished, tf.equal(y_hat, PAD)), outputs.write(t, y_hat)


start = (0, tf.zeros([BATCH, HIDDEN]), tf.fill([BATCH], START), tf.zeros([BATCH], tf.bool),
         tf.TensorArray(tf.int32, size=0, dynamic_size=True))
tokens = tf.transpose(tf.compat.v1.while_loop(not_done, step, start)[-1].stack())
sess = tf.compat.v1.Session()
sess.run(tf.compat.v1.global_variables_initializer())


def run():
    for x, n in batches:
        sess.run(tokens, feed_dict={memory: x, lengths: n})
