"""`epoch_passes.chain_size`: the cardinality tf.data knows of a pipeline, read from its chain and
the names it was bound to."""

from __future__ import annotations

import ast

import pytest

from greenlint.rules.base import FileFacts
from greenlint.rules.epoch_passes import chain_size


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("ds = tf.data.Dataset.from_tensor_slices(paths).map(load).batch(8)\n", "known"),
        ("ds = tf.data.Dataset.list_files('x/*')\nds = ds.shuffle(9)\nds = ds.map(load).batch(8)\n", "known"),
        ("ds = tf.data.TFRecordDataset(files).map(parse).batch(8)\n", "endless"),  # unknown to tf.data
        ("ds = TFRecordDataset(files)\nds = ds.map(parse)\n", "endless"),  # the source as imported
        ("ds = tf.data.Dataset.from_tensor_slices(x).filter(keep).batch(8)\n", "endless"),
        ("ds = tf.data.Dataset.from_tensor_slices(x).repeat().batch(8)\n", "endless"),
        ("ds = tf.data.Dataset.from_tensor_slices(x).repeat(3).batch(8)\n", "known"),
        ("ds = tf.data.Dataset.from_generator(gen, output_types=tf.int32).take(100)\n", "known"),
        ("ds = tf.data.Dataset.from_tensor_slices(x).apply(transform)\n", None),  # what it does is not known
        ("def f(ds):\n    ds = ds.map(load).batch(8)\n", None),  # a parameter's
        ("ds = make(paths).batch(8)\n", None),  # a function's
    ],
)
def test_the_cardinality_of_a_chain(source, expected):
    facts = FileFacts("m.py", (), "import tensorflow as tf\n" + source)
    last = [n for n in ast.walk(facts.module()) if isinstance(n, ast.Assign)][-1]
    assert chain_size(facts, last.value, None) == expected
