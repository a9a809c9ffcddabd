"""GL208 before: a TensorFlow 1 greedy decoder unrolled to the maximum length, its early stop a tensor `==` that is never true."""
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


h, y_hat, outputs = tf.zeros([BATCH, HIDDEN]), tf.fill([BATCH], START), []
for t in range(MAXLEN):
    h, y_hat = decode(h, y_hat, t)
    outputs.append(y_hat)
    if tf.reduce_sum(y_hat) == PAD:
        break
tokens = tf.stack(outputs, axis=1)
sess = tf.compat.v1.Session()
sess.run(tf.compat.v1.global_variables_initializer())


def run():
    for x, n in batches:
        sess.run(tokens, feed_dict={memory: x, lengths: n})
