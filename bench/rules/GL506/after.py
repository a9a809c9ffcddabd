"""GL506 after: the same sampler built once, outside the loop, on a placeholder fed each prompt (the rule's advice)."""
import numpy as np
import tensorflow as tf

tf.compat.v1.disable_eager_execution()
VOCAB, HIDDEN, SAMPLES, LENGTH = 4000, 256, 4, 20
rng = np.random.default_rng(0)
prompts = [rng.integers(0, VOCAB, int(n)) for n in rng.integers(5, 15, 8)]


def build_sampler(context):
    """Greedy sampling of LENGTH tokens after *context* ([1, n] token ids), SAMPLES at once."""
    with tf.compat.v1.variable_scope("model", reuse=tf.compat.v1.AUTO_REUSE):
        embedding = tf.compat.v1.get_variable("embedding", [VOCAB, HIDDEN])
        recurrent = tf.compat.v1.get_variable("recurrent", [HIDDEN, HIDDEN])
        output = tf.compat.v1.get_variable("output", [HIDDEN, VOCAB])
    h = tf.tile(tf.reduce_mean(tf.nn.embedding_lookup(embedding, context), axis=1), [SAMPLES, 1])
    token, tokens = tf.fill([SAMPLES], tf.cast(context[0, -1], tf.int32)), []
    for _ in range(LENGTH):
        h = tf.tanh(tf.matmul(h, recurrent) + tf.nn.embedding_lookup(embedding, token))
        token = tf.argmax(tf.matmul(h, output), axis=-1, output_type=tf.int32)
        tokens.append(token)
    return tf.stack(tokens, axis=1)


sess = tf.compat.v1.Session()
context = tf.compat.v1.placeholder(tf.int32, [1, None])
output = build_sampler(context)
sess.run(tf.compat.v1.global_variables_initializer())


def run():
    for prompt in prompts:
        sess.run(output, feed_dict={context: prompt[None]})
