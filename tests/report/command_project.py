"""A small fixed project for the commands' snapshots (tests/report/test_command_snapshots.py):
two files whose findings cover a hotspot, a fixable and an unfixable finding, and a one-commit
change for `greenlint diff` (more epochs, one argument dropped, a prefetch added)."""

from __future__ import annotations

from pathlib import Path

from tests.review.history import git

TRAIN = '''\
import tensorflow as tf

from data import load

model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(10)])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", run_eagerly=True)
for trial in range(5):
    model.fit(tf.keras.datasets.mnist.load_data()[0][0], epochs=20, batch_size=8)
tf.debugging.enable_check_numerics()
'''
DATA = '''\
import tensorflow as tf


def load(paths):
    ds = tf.data.Dataset.from_tensor_slices(paths)
    return ds.map(lambda p: tf.io.read_file(p)).batch(32)
'''
FILES = {"train.py": TRAIN, "data.py": DATA}
#: The change `greenlint diff` reports: epochs 20 -> 80, `run_eagerly` dropped, a prefetch added.
CHANGED = {
    "train.py": TRAIN.replace("epochs=20", "epochs=80").replace(", run_eagerly=True", ""),
    "data.py": DATA.replace(".batch(32)", ".batch(32).prefetch(tf.data.AUTOTUNE)"),
}


def write(root: Path) -> Path:
    """The project's files under *root* (created)."""
    root.mkdir(parents=True, exist_ok=True)
    for name, text in FILES.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def repository(root: Path) -> Path:
    """The project as a git repository: `base` on branch main, the change on branch `change`."""
    write(root)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    git(root, "checkout", "-q", "-b", "change")
    for name, text in CHANGED.items():
        (root / name).write_text(text, encoding="utf-8")
    git(root, "commit", "-q", "-am", "change")
    return root
