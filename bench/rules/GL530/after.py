"""GL530 after: the fixed images' features computed once per run, the network run on the fed image alone."""
import numpy as np
import tensorflow as tf

tf.compat.v1.disable_eager_execution()
SIZE, EVALUATIONS = 96, 20
rng = np.random.default_rng(0)
FILTERS = [tf.constant(rng.normal(0, 0.1, shape).astype(np.float32)) for shape in ((3, 3, 3, 32), (3, 3, 32, 32), (3, 3, 32, 64))]


def features(images):
    x = images
    for f in FILTERS:
        x = tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, f, 1, "SAME")), 2, 2, "VALID")
    return x


def gram(x):
    flat = tf.reshape(x, (-1, x.shape[-1]))
    return tf.matmul(flat, flat, transpose_a=True)


content = tf.constant(rng.random((1, SIZE, SIZE, 3), dtype=np.float32))
style = tf.constant(rng.random((1, SIZE, SIZE, 3), dtype=np.float32))
targets = features(tf.concat([content, style], axis=0))  # run once per optimisation
content_target = tf.compat.v1.placeholder(tf.float32, targets.shape[1:])
style_gram = tf.compat.v1.placeholder(tf.float32, (targets.shape[-1], targets.shape[-1]))
generated = tf.compat.v1.placeholder(tf.float32, (1, SIZE, SIZE, 3))
f = features(generated)
loss = tf.reduce_sum(tf.square(f[0] - content_target)) + tf.reduce_sum(tf.square(gram(f) - style_gram))
(grad,) = tf.gradients(loss, generated)
session = tf.compat.v1.Session()
START = rng.random((1, SIZE, SIZE, 3), dtype=np.float32)
fixed_gram = gram(targets[1:2])


def run():
    c, s = session.run([targets[0], fixed_gram])  # the fixed images through the network once
    x = START
    for _ in range(EVALUATIONS):
        value, g = session.run([loss, grad], {generated: x, content_target: c, style_gram: s})
        x = x - 1e-4 * g
