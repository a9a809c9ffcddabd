"""Reductions at several sizes: reduce_sum of 1000000 values (17500 times), reduce_mean over rows of
2048x2048 (8400 times), reduce_max of 256x256 (84000 times)."""

import tensorflow as tf

tf.random.set_seed(0)
v = tf.random.normal([1000000])
m = tf.random.normal([2048, 2048])
s = tf.random.normal([256, 256])

for _ in range(17500):
    tf.reduce_sum(v)
for _ in range(8400):
    tf.reduce_mean(m, axis=1)
for _ in range(84000):
    tf.reduce_max(s)
