"""tf.matmul of square matrices at three sizes: 64 (42000 times), 256 (10500 times),
1024 (420 times)."""

import tensorflow as tf

tf.random.set_seed(0)
a64 = tf.random.normal([64, 64])
a256 = tf.random.normal([256, 256])
a1024 = tf.random.normal([1024, 1024])

for _ in range(42000):
    tf.matmul(a64, a64)
for _ in range(10500):
    tf.matmul(a256, a256)
for _ in range(420):
    tf.matmul(a1024, a1024)
