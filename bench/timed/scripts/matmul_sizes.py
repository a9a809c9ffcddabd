"""tf.matmul of square matrices at three sizes: 64 (8000 times), 256 (2000 times), 1024 (80 times)."""

import tensorflow as tf

tf.random.set_seed(0)
a64 = tf.random.normal([64, 64])
a256 = tf.random.normal([256, 256])
a1024 = tf.random.normal([1024, 1024])

for _ in range(8000):
    tf.matmul(a64, a64)
for _ in range(2000):
    tf.matmul(a256, a256)
for _ in range(80):
    tf.matmul(a1024, a1024)
