"""Reductions at several sizes: reduce_sum of 1000000 values (8750 times), reduce_mean over rows of
2048x2048 (4200 times), reduce_max of 256x256 (42000 times)."""

import tensorflow as tf

tf.random.set_seed(0)
v = tf.random.normal([1000000])
m = tf.random.normal([2048, 2048])
s = tf.random.normal([256, 256])

for _ in range(8750):
    tf.reduce_sum(v)
for _ in range(4200):
    tf.reduce_mean(m, axis=1)
for _ in range(42000):
    tf.reduce_max(s)
