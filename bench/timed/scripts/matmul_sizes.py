"""tf.matmul of square matrices at three sizes: 64 (5000 times), 256 (1000 times), 1024 (40 times)."""

import tensorflow as tf

tf.random.set_seed(0)
a64 = tf.random.normal([64, 64])
a256 = tf.random.normal([256, 256])
a1024 = tf.random.normal([1024, 1024])

for _ in range(5000):
    tf.matmul(a64, a64)
for _ in range(1000):
    tf.matmul(a256, a256)
for _ in range(40):
    tf.matmul(a1024, a1024)
