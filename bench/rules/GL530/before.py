"""GL530 before: fixed content and style images joined with the fed image, all three through the network on each of 20 evaluations."""
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
generated = tf.compat.v1.placeholder(tf.float32, (1, SIZE, SIZE, 3))
batch = tf.concat([content, style, generated], axis=0)
f = features(batch)
loss = tf.reduce_sum(tf.square(f[2] - f[0])) + tf.reduce_sum(tf.square(gram(f[2:3]) - gram(f[1:2])))
(grad,) = tf.gradients(loss, generated)
session = tf.compat.v1.Session()
START = rng.random((1, SIZE, SIZE, 3), dtype=np.float32)


def run():
    x = START
    for _ in range(EVALUATIONS):
        value, g = session.run([loss, grad], {generated: x})
        x = x - 1e-4 * g
