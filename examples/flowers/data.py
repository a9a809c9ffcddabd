"""Input pipeline: decode images, resize, augment, batch."""

import tensorflow as tf

IMAGE_SIZE = (180, 180)


def decode(path, label):
    image = tf.io.read_file(path)
    image = tf.io.decode_jpeg(image, channels=3)
    image = tf.image.resize(image, IMAGE_SIZE) / 255.0
    return image, label


def augment(image, label):
    image = tf.image.random_flip_left_right(image)
    image = tf.image.random_brightness(image, 0.1)
    return image, label


def make_dataset(paths, labels, batch_size=32, training=True):
    ds = tf.data.Dataset.from_tensor_slices((paths, labels))
    ds = ds.map(decode, num_parallel_calls=tf.data.AUTOTUNE)
    if training:
        ds = ds.shuffle(1000).map(augment)
    return ds.batch(batch_size)


def make_eval_dataset(paths, labels):
    ds = tf.data.Dataset.from_tensor_slices((paths, labels)).map(decode)
    return ds.batch(4)
