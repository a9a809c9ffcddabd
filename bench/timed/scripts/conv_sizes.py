"""tf.nn.conv2d with 3x3 filters at three sizes: 1x32x32x3 -> 8 (36000 times), 8x64x64x16 -> 32
(1200 times), 8x128x128x16 -> 32 (300 times)."""

import tensorflow as tf

tf.random.set_seed(0)
small = tf.random.normal([1, 32, 32, 3])
small_filters = tf.random.normal([3, 3, 3, 8])
medium = tf.random.normal([8, 64, 64, 16])
large = tf.random.normal([8, 128, 128, 16])
filters = tf.random.normal([3, 3, 16, 32])

for _ in range(36000):
    tf.nn.conv2d(small, small_filters, strides=1, padding="SAME")
for _ in range(1200):
    tf.nn.conv2d(medium, filters, strides=1, padding="SAME")
for _ in range(300):
    tf.nn.conv2d(large, filters, strides=1, padding="SAME")
