"""GL205 after: the same loop, the loss fetched with the training step."""
import numpy as np
import tensorflow as tf

tf.compat.v1.disable_eager_execution()
rng = np.random.default_rng(0)
xs = rng.random((200, 64, 512), dtype=np.float32)
ys = rng.random((200, 64, 1), dtype=np.float32)
x = tf.compat.v1.placeholder(tf.float32, (None, 512))
y = tf.compat.v1.placeholder(tf.float32, (None, 1))
w1 = tf.Variable(rng.normal(0, 0.05, (512, 1024)).astype(np.float32))
w2 = tf.Variable(rng.normal(0, 0.05, (1024, 1024)).astype(np.float32))
w3 = tf.Variable(rng.normal(0, 0.05, (1024, 1)).astype(np.float32))
hidden = tf.nn.relu(tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2))
loss = tf.reduce_mean(tf.square(tf.matmul(hidden, w3) - y))
train_op = tf.compat.v1.train.GradientDescentOptimizer(1e-4).minimize(loss)
sess = tf.compat.v1.Session()
sess.run(tf.compat.v1.global_variables_initializer())


def run():
    for step in range(200):
        feed = {x: xs[step], y: ys[step]}
        _, loss_value = sess.run([train_op, loss], feed_dict=feed)
