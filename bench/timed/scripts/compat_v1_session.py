"""A tf.compat.v1 graph run by Session.run in a loop: a 64-256-1 regression network with placeholders
and a gradient-descent op, 20000 steps each fed a batch of 256 from numpy."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x_data = rng.random((4096, 64), dtype=np.float32)
y_data = rng.random((4096, 1), dtype=np.float32)
v1 = tf.compat.v1

with tf.Graph().as_default():
    v1.set_random_seed(0)
    x = v1.placeholder(tf.float32, [None, 64])
    y = v1.placeholder(tf.float32, [None, 1])
    w1 = tf.Variable(v1.random_normal([64, 256], stddev=0.1))
    b1 = tf.Variable(tf.zeros([256]))
    w2 = tf.Variable(v1.random_normal([256, 1], stddev=0.1))
    b2 = tf.Variable(tf.zeros([1]))
    hidden = tf.nn.relu(tf.matmul(x, w1) + b1)
    loss = tf.reduce_mean(tf.square(tf.matmul(hidden, w2) + b2 - y))
    train = v1.train.GradientDescentOptimizer(0.01).minimize(loss)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        for step in range(20000):
            i = step % 16
            sess.run(train, feed_dict={x: x_data[i * 256:(i + 1) * 256], y: y_data[i * 256:(i + 1) * 256]})
