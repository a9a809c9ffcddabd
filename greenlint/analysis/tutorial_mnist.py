"""TF1's tutorial MNIST loader, `input_data.read_data_sets(dir, one_hot=..., reshape=..., validation_size=...)`:
the `train`, `validation` and `test` splits of the files it reads (MNIST's, or Fashion-MNIST's of the
same names and sizes), each with its `images`, `labels` and `num_examples`, as records (records.py).
The training files' 60,000 images (keras_datasets.csv) are split into `validation_size` (5,000 by
default) for validation and the rest for training; the test files hold 10,000. A size or a flag not
given as a literal leaves what it decides unknown; `next_batch` and the other methods are not valued.
"""

from __future__ import annotations

from typing import Any

from greenlint.analysis import worktables
from greenlint.analysis.arrays import array
from greenlint.analysis.records import Record
from greenlint.analysis.values import Const

#: The loader, under the paths TF1 offers it.
PATHS = frozenset({
    "tensorflow.examples.tutorials.mnist.input_data.read_data_sets",
    "tensorflow.contrib.learn.python.learn.datasets.mnist.read_data_sets",
    "tensorflow.contrib.learn.datasets.mnist.read_data_sets",
})
_PARAMS = ("train_dir", "fake_data", "one_hot", "dtype", "reshape", "validation_size", "seed", "source_url")
_DEFAULTS = {"fake_data": False, "one_hot": False, "reshape": True, "validation_size": 5000}
SPLITS = ("train", "validation", "test")
_FIELDS = ("images", "labels", "num_examples")


def read_data_sets(args: list, keywords: list) -> Record | None:
    """The splits `read_data_sets(...)` gives, from its literal arguments (`(spread, value)` pairs and
    `(name, value)` keywords); None where a spread hides which argument is which."""
    if any(spread for spread, _ in args) or any(name is None for name, _ in keywords):
        return None
    given = {**dict(zip(_PARAMS, (value for _, value in args))), **dict(keywords)}
    literal = {name: _literal(given[name]) if name in given else default for name, default in _DEFAULTS.items()}
    if literal["fake_data"] is not False:  # `fake_data=True`: made-up data of no fixed size
        return None
    train, test = worktables.keras_split("mnist", "train"), worktables.keras_split("mnist", "test")
    if train is None or test is None:
        return None
    held = literal["validation_size"]
    held = held if type(held) is int and 0 <= held <= train.samples else None
    sizes = (None if held is None else train.samples - held, held, test.samples)
    return Record(SPLITS, tuple(_split(rows, literal["reshape"], literal["one_hot"], train.source) for rows in sizes))


def _literal(value: Any) -> Any:
    """The literal a value holds (an int or a bool), else None."""
    return value.value if type(value) is Const and type(value.value) in (int, bool) else None


def _split(rows: int | None, reshape: Any, one_hot: Any, source: str) -> Record:
    """One split of *rows* images (None: not known): each flattened to 784 values (*reshape*) or kept
    28x28x1, each label one-hot over 10 classes (*one_hot*) or a class number."""
    note = f"input_data.read_data_sets: {rows:,} images of {source}" if rows is not None else None
    image = (784,) if reshape is True else (28, 28, 1) if reshape is False else None
    label = (10,) if one_hot is True else () if one_hot is False else None
    images = array((rows, *image), "table", note) if rows is not None and image is not None else None
    labels = array((rows, *label), "table", note) if rows is not None and label is not None else None
    return Record(_FIELDS, (images, labels, Const(rows) if rows is not None else None))
