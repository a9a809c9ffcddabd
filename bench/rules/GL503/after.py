"""GL503 after: the same graph fed by a tf.data pipeline that reads and batches the same files (the rule's advice)."""
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
    return tf.reshape(tf.io.decode_raw(tf.io.read_file(path), tf.uint8), [32, 32, 3])


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


dataset = tf.data.Dataset.from_tensor_slices((paths, labels))
dataset = dataset.map(lambda p, label: (read(p), label), num_parallel_calls=tf.data.AUTOTUNE).batch(BATCH).prefetch(1)
iterator = tf.compat.v1.data.make_initializable_iterator(dataset)
x, y = iterator.get_next()
train_op = model(x, y)
sess = tf.compat.v1.Session()
sess.run(tf.compat.v1.global_variables_initializer())


def run():
    sess.run(iterator.initializer)
    try:
        while True:
            sess.run(train_op)
    except tf.errors.OutOfRangeError:
        pass
