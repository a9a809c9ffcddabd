"""A function that makes a tf.data pipeline its arguments size or batch (`make_dataset(images, 64)`),
in the module or another, itself or through a module function it calls: each call walks it with its
own arguments (`Resolver.instantiated`, `piped`), so a loop over the pipeline it returns, or over
the number of batches it returns beside it, counts that call's batches."""

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
