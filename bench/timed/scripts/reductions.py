"""Reductions at several sizes: reduce_sum of 1000000 values (400 times), reduce_mean over rows of
2048x2048 (200 times), reduce_max of 256x256 (3000 times)."""

import tensorflow as tf

tf.random.set_seed(0)
v = tf.random.normal([1000000])
m = tf.random.normal([2048, 2048])
s = tf.random.normal([256, 256])

for _ in range(400):
    tf.reduce_sum(v)
for _ in range(200):
    tf.reduce_mean(m, axis=1)
for _ in range(3000):
    tf.reduce_max(s)
