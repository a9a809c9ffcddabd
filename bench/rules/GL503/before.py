"""GL503 before: a TensorFlow 1 graph trained by Session.run, each batch read from its files in Python and fed by feed_dict."""
import os
import tempfile

import numpy as np
import tensorflow as tf

tf.compat.v1.disable_eager_execution()
FILES, BATCH = 4096, 32
FOLDER = os.path.join(tempfile.gettempdir(), f"greenlint-bench-gl503-{FILES}")
rng = np.random.default_rng(0)
paths = [os.path.join(FOLDER, f"{i:05d}.raw") for i in range(FILES)]
labels = rng.integers(0, 10, FILES).astype(np.int32)
if not all(os.path.isfile(p) for p in paths):  # the dataset, written once per machine
    os.makedirs(FOLDER, exist_ok=True)
    for path, image in zip(paths, rng.integers(0, 256, (FILES, 32, 32, 3), dtype=np.uint8)):
        with open(path, "wb") as f:
            f.write(image.tobytes())


def read(path):
    with open(path, "rb") as f:
        return np.frombuffer(f.read(), np.uint8).reshape(32, 32, 3)


def model(images, y):
    """The graph both sides train: a small convolutional classifier, images as uint8 [N, 32, 32, 3]."""
    def weight(name, shape):
        return tf.compat.v1.get_variable(name, shape, initializer=tf.compat.v1.glorot_uniform_initializer())

    x = tf.cast(images, tf.float32) / 255
    x = tf.nn.relu(tf.nn.conv2d(x, weight("conv1", [3, 3, 3, 32]), 2, "SAME"))
    x = tf.nn.relu(tf.nn.conv2d(x, weight("conv2", [3, 3, 32, 64]), 2, "SAME"))
    logits = tf.matmul(tf.reshape(x, [-1, 8 * 8 * 64]), weight("dense", [8 * 8 * 64, 10]))
    loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(y, logits)
    return tf.compat.v1.train.AdamOptimizer(1e-3).minimize(loss)


x = tf.compat.v1.placeholder(tf.uint8, [None, 32, 32, 3])
y = tf.compat.v1.placeholder(tf.int32, [None])
train_op = model(x, y)
sess = tf.compat.v1.Session()
sess.run(tf.compat.v1.global_variables_initializer())
batches = [(paths[i:i + BATCH], labels[i:i + BATCH]) for i in range(0, FILES, BATCH)]


def run():
    for batch_paths, yb in batches:
        xb = np.stack([read(p) for p in batch_paths])
        sess.run(train_op, feed_dict={x: xb, y: yb})
