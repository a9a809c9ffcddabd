"""A chain of large matrix products: four tf.matmul of 1024x1024 matrices per iteration, 180 iterations,
the result of each product feeding the next."""

import tensorflow as tf

tf.random.set_seed(0)
a = tf.random.normal([1024, 1024], stddev=0.03)
b = tf.random.normal([1024, 1024], stddev=0.03)

for _ in range(180):
    c = tf.matmul(a, b)
    c = tf.matmul(c, a)
    c = tf.matmul(c, b)
    c = tf.matmul(c, a)
