"""A function that makes a tf.data pipeline its arguments size or batch (`make_dataset(images, 64)`),
in the module or another, itself or through a function it calls (`FuncInfo.pipes`, of this module or
another's, named or read from a package that star-imports it): each call walks it with its own
arguments (`Resolver.instantiated`, `piped`), so a loop over the pipeline it returns, or over the
number of batches it returns beside it, counts that call's batches."""

from __future__ import annotations

from greenlint.analysis.analyse import analyse_file
from tests.analysis.test_whole_program import write

DS = """
import tensorflow as tf


def batched(dataset, batch_size, repeat=None):
    dataset = dataset.shuffle(1000).batch(batch_size, drop_remainder=True)
    return dataset.repeat(repeat)


def direct(images, batch_size, repeat=None):
    dataset = tf.data.Dataset.from_tensor_slices(images)
    return dataset.batch(batch_size, drop_remainder=True).repeat(repeat), len(images) // batch_size


def nested(images, batch_size, repeat=None):
    return batched(tf.data.Dataset.from_tensor_slices(images), batch_size, repeat=repeat)
"""

TRAIN = """
import tensorflow as tf
import ds

(images, _), (_, _) = tf.keras.datasets.mnist.load_data()


@tf.function
def step(x):
    return tf.reduce_sum(x)


pipeline, batches = ds.direct(images, 64, repeat=1)
for x in pipeline:
    step(x)
for i in range(batches):
    step(i)
for x in ds.nested(images, 100, repeat=1):
    step(x)
for x in ds.nested(images, 100):
    step(x)
"""


def test_each_call_of_a_pipeline_maker_counts_its_own_batches(tmp_path):
    (tmp_path / ".git").mkdir()
    write(tmp_path, {"ds.py": DS, "train.py": TRAIN})
    found = analyse_file(tmp_path / "train.py").callsites
    counts = {s.span.line: s.runs.count for s in found if s.api.endswith("PolymorphicFunction.__call__")}
    assert counts == {14: 937, 16: 937, 18: 600, 20: None}  # 60,000 // 64; 60,000 / 100; repeated forever


LIB_DATA = """
import tensorflow as tf


def batch_dataset(dataset, batch_size, drop_remainder=True, map_fn=None, repeat=None):
    dataset = dataset.shuffle(max(batch_size * 128, 2048))
    if map_fn:
        dataset = dataset.map(map_fn)
    return dataset.batch(batch_size, drop_remainder=drop_remainder).repeat(repeat).prefetch(1)


def memory_data_batch_dataset(memory_data, batch_size, drop_remainder=True, map_fn=None, repeat=None):
    dataset = tf.data.Dataset.from_tensor_slices(memory_data)
    return batch_dataset(dataset, batch_size, drop_remainder=drop_remainder, map_fn=map_fn, repeat=repeat)
"""

DATA = """
import tensorflow as tf
import lib as tl


def make_32x32_dataset(dataset, batch_size, drop_remainder=True, repeat=1):
    if dataset == "mnist":
        (train_images, _), (_, _) = tf.keras.datasets.mnist.load_data()
    elif dataset == "cifar10":
        (train_images, _), (_, _) = tf.keras.datasets.cifar10.load_data()
    else:
        raise NotImplementedError

    def _map_fn(img):
        return tf.image.resize(img, [32, 32]) / 127.5 - 1

    dataset = tl.memory_data_batch_dataset(train_images, batch_size, drop_remainder=drop_remainder,
                                           map_fn=_map_fn, repeat=repeat)
    return dataset, len(train_images) // batch_size
"""

SCRIPT = """
import argparse

import tensorflow as tf
import tqdm

import data

parser = argparse.ArgumentParser()
parser.add_argument("--batch_size", type=int, default=64)
args = parser.parse_args()


@tf.function
def step(x):
    return tf.reduce_sum(x)


dataset, len_dataset = data.make_32x32_dataset("mnist", args.batch_size)
for x in tqdm.tqdm(dataset, total=len_dataset):
    step(x)
for x in data.make_32x32_dataset("cifar10", 100, drop_remainder=False)[0]:
    step(x)
for x in data.make_32x32_dataset("mnist", 64, repeat=None)[0]:
    step(x)
"""


def test_a_pipeline_made_by_a_package_function_another_module_calls_counts_its_batches(tmp_path):
    """`data.make_32x32_dataset` batches nothing itself: it calls `tl.memory_data_batch_dataset`, of a
    package star-importing it, which hands the pipeline to `batch_dataset`, holding the `.batch`."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "lib").mkdir()
    write(tmp_path, {"lib/__init__.py": "from lib.data import *\n", "lib/data.py": LIB_DATA, "data.py": DATA,
                     "train.py": SCRIPT})
    found = analyse_file(tmp_path / "train.py").callsites
    counts = {s.span.line: s.runs.count for s in found if s.api.endswith("PolymorphicFunction.__call__")}
    assert counts == {20: 937, 22: 500, 24: None}  # 60,000 // 64; 50,000 / 100, the last batch kept; forever
