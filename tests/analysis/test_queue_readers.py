"""A TF1 input queue's element cropped to sizes the program states only through its calls
(deeplab-resnet's `ImageReader`): `h, w = map(int, args.input_size.split(","))` of an option's default,
passed to a reader class of another module whose `__init__` decodes and crops each image to them under
`if input_size is not None:` and whose `dequeue(n)` batches the element (`tf.train.batch`). The graph
run each step is priced on the element's static shape and the queue's batch; a size the code does not
state leaves the graph's FLOPs unknown."""

from __future__ import annotations

from greenlint.analysis.analyse import analyse_file
from tests.analysis.test_whole_program import write

READER = """
import tensorflow as tf


def crop(image, label, crop_h, crop_w):
    combined = tf.concat(axis=2, values=[image, label])
    combined_crop = tf.random_crop(combined, [crop_h, crop_w, 4])
    img_crop = combined_crop[:, :, :3]
    label_crop = combined_crop[:, :, 3:]
    img_crop.set_shape((crop_h, crop_w, 3))
    label_crop.set_shape((crop_h, crop_w, 1))
    return img_crop, label_crop


def read_images(input_queue, input_size):
    img = tf.cast(tf.image.decode_jpeg(tf.read_file(input_queue[0]), channels=3), dtype=tf.float32)
    label = tf.image.decode_png(tf.read_file(input_queue[1]), channels=1)
    if input_size is not None:
        h, w = input_size
        img, label = crop(img, label, h, w)
    return img, label


class ImageReader(object):
    def __init__(self, files, input_size):
        self.input_size = input_size
        self.queue = tf.train.slice_input_producer([files, files])
        self.image, self.label = read_images(self.queue, self.input_size)

    def dequeue(self, num_elements):
        image_batch, label_batch = tf.train.batch([self.image, self.label], num_elements)
        return image_batch, label_batch
"""

TRAIN = """
import argparse
import tensorflow as tf
from reader import ImageReader

parser = argparse.ArgumentParser()
parser.add_argument("--batch-size", type=int, default=10)
parser.add_argument("--input-size", type=str, default="321,321")
args = parser.parse_args()
h, w = map(int, args.input_size.split(","))
reader = ImageReader(["a.jpg"], (h, w))
image_batch, label_batch = reader.dequeue(args.batch_size)
kernel = tf.get_variable("w", [3, 3, 3, 8])
loss = tf.reduce_mean(tf.nn.conv2d(image_batch, kernel, [1, 1, 1, 1], padding="SAME"))
train_op = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss)
sess = tf.Session()
for step in range(100):
    sess.run([loss, train_op])
"""
#: The 3x3 convolution to 8 channels over the 321x321x3 crop (2 FLOPs a multiply-add), and the mean.
FORWARD = 2 * 321 * 321 * 8 * 3 * 3 * 3 + 321 * 321 * 8


def step(tmp_path, reader: str = READER, train: str = TRAIN):
    (tmp_path / ".git").mkdir()
    write(tmp_path, {"reader.py": reader, "train.py": train})
    found = analyse_file(tmp_path / "train.py")
    assert found.errors == []
    return next(s.work for s in found.callsites if s.api.endswith("Session.run"))


def test_a_reader_of_another_module_batches_the_crop_its_construction_sizes(tmp_path):
    work = step(tmp_path)
    assert work["samples"].value == 10
    assert work["flops_per_sample"].value == FORWARD and work["flops_per_sample"].bound is None


def test_a_size_the_code_does_not_state_leaves_the_graph_unknown(tmp_path):
    work = step(tmp_path, train=TRAIN.replace('map(int, args.input_size.split(","))', "sizes"))
    assert work["samples"].value == 10
    assert work["flops_per_sample"].value is None


def test_a_reader_that_does_not_crop_leaves_the_element_shape_unknown(tmp_path):
    """`if input_size is not None:` given None: the decoded images, of sizes the files give."""
    work = step(tmp_path, train=TRAIN.replace("(h, w))", "None)"))
    assert work["flops_per_sample"].value is None


ONE_MODULE = (
    READER
    + """

train_images, train_labels = read_images(tf.train.slice_input_producer([["a.jpg"], ["a.png"]]), (64, 48))
test_images, test_labels = read_images(tf.train.slice_input_producer([["b.jpg"], ["b.png"]]), None)
train_batch, _ = tf.train.batch([train_images, train_labels], 16)
test_batch, _ = tf.train.batch([test_images, test_labels], 16)
kernel = tf.get_variable("w", [3, 3, 3, 8])
train_loss = tf.reduce_mean(tf.nn.conv2d(train_batch, kernel, [1, 1, 1, 1], padding="SAME"))
test_loss = tf.reduce_mean(tf.nn.conv2d(test_batch, kernel, [1, 1, 1, 1], padding="SAME"))
train_op = tf.train.AdamOptimizer().minimize(train_loss)
sess = tf.Session()
for step in range(100):
    sess.run(train_op)
    sess.run(test_loss)
"""
)


def test_each_call_of_a_cropping_helper_gets_its_own_sizes(tmp_path):
    """The same helper crops the training images to the sizes one call gives and leaves the test images
    as decoded (`None`): the training step's graph is priced on the 64x48 crop, the test run's unknown."""
    (tmp_path / ".git").mkdir()
    write(tmp_path, {"train.py": ONE_MODULE})
    found = analyse_file(tmp_path / "train.py")
    assert found.errors == []
    train, test = [s.work for s in found.callsites if s.api.endswith("Session.run")]
    assert train["flops_per_sample"].value == 2 * 64 * 48 * 8 * 27 + 64 * 48 * 8
    assert train["samples"].value == 16
    assert test["flops_per_sample"].value is None
