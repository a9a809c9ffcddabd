"""A dataset only looked at (`syntax.only_looked_at`) is no input worth parallel readers (GL403),
read across a notebook's cells."""

from __future__ import annotations

from tests.rules.conftest import found, notebook

FILES = "import tensorflow as tf\nfiles = tf.data.Dataset.list_files(pattern)\n"
INTERLEAVE = "ds = files.interleave(lambda f: tf.data.TextLineDataset(f).skip(1), cycle_length=5)\n"
LOOK = "for line in ds.take(5):\n    print(line.numpy())\n"


def test_an_interleave_a_later_cell_only_looks_at_is_not_reported(predictor):
    assert found(predictor, notebook(FILES, INTERLEAVE, LOOK), "GL403", path="demo.ipynb") == []


def test_an_interleave_a_later_cell_trains_on_is_reported(predictor):
    cells = notebook(FILES, INTERLEAVE, LOOK, "model.fit(ds.map(parse).batch(32), epochs=10)\n")
    [finding] = found(predictor, cells, "GL403", path="demo.ipynb")
    assert finding.span.cell == 2


def test_an_interleave_nothing_reads_is_reported(predictor):
    assert len(found(predictor, FILES + INTERLEAVE, "GL403")) == 1


def test_reads_after_the_name_is_bound_again_are_another_datasets(predictor):
    """A later cell binds `ds` to another pipeline and trains on it; a function's own `ds` is its own."""
    later = "ds = tf.data.TFRecordDataset(paths)\nmodel.fit(ds.map(parse).batch(32))\n"
    helper = "def make(paths):\n    ds = tf.data.TFRecordDataset(paths)\n    return ds.batch(32)\n"
    cells = notebook(FILES, INTERLEAVE, LOOK, helper, later)
    assert found(predictor, cells, "GL403", path="demo.ipynb") == []
