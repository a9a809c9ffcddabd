"""A batch's rows follow indexing where the data's own size is not known (issue #26): `X[idx]` of data
read at run time has as many rows as `idx` holds row numbers (`np.random.randint(0, n, size)`,
`np.random.choice(len(X), size)`, `np.random.permutation(len(X))[i:i + bs]`), `X[i * bs:(i + 1) * bs]`
spans bs rows (the last maybe fewer), and a helper of the project drawing such a batch for the size
it is given (`load_data(batch_size)`, a generator `load_batch(batch_size)`, in this module or another)
gives each call the rows of its own size. The note says whether the size is set in the code or is an
option's default. A mask, values drawn from data, or an index of unknown length leave the rows unknown."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_file, analyse_source

HEADER = """
import argparse
import numpy as np
import tensorflow as tf
X = np.load("x.npy")
y = np.load("y.npy")
model = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(784,))])
model.compile(optimizer="adam", loss="mse")
"""


def samples(body: str, method: str = "train_on_batch") -> list[dict]:
    result = analyse_source(HEADER + textwrap.dedent(body), "snippet.py")
    assert result.errors == []
    return [s.work["samples"] for s in result.callsites if s.api.endswith(f".{method}")]


@pytest.mark.parametrize(
    "batch",
    [
        "X[np.random.randint(0, X.shape[0], 64)]",
        "X[np.random.choice(len(X), size=64)]",
        "X[np.random.choice(X.shape[0], 64, replace=False)]",
        "X[np.random.default_rng().integers(0, len(X), 64)]",
        "X[np.random.permutation(len(X))[step:step + 64]]",
        "X[np.arange(len(X))[step * 64:(step + 1) * 64]]",
        "X[step * 64:(step + 1) * 64] / 255.",
        "X[step * 64:(step + 1) * 64] / np.float32(255)",  # a NumPy scalar: a number still
        "X[np.random.randint(0, len(X), 64)].astype(np.float32)",
    ],
)
def test_rows_of_data_of_unknown_size_follow_an_index_of_known_length(batch):
    (found,) = samples(f"""
    for step in range(100):
        model.train_on_batch({batch})
    """)
    assert found.value == 64 and found.provenance == "inferred"


@pytest.mark.parametrize(
    "batch",
    [
        "X[X[:, 0] > 0]",  # a mask: as many rows as it keeps
        "X[np.random.permutation(len(X))]",  # row numbers of unknown length
        "X[np.random.choice([True, False], 64)]",  # a literal list of flags drawn: a mask
        "X[idx]",  # an index not known
        "X[step:end]",  # bounds of unknown width
        "X[np.random.randint(0, len(X), n)]",  # a size not known
        "X[step * 64:(step + 1) * 64] / np.float32(n)",  # a scalar of a value not known: maybe an array
    ],
)
def test_rows_stay_unknown_where_the_index_does_not_say_them(batch):
    (found,) = samples(f"""
    for step in range(100):
        model.train_on_batch({batch})
    """)
    assert found.value is None and found.provenance == "unknown"


def test_the_note_says_whether_the_rows_are_set_in_the_code_or_an_option_default():
    result = analyse_source(HEADER + textwrap.dedent("""
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=32)
    args = parser.parse_args()
    for step in range(100):
        model.train_on_batch(X[np.random.randint(0, len(X), args.batch_size)])
        model.train_on_batch(X[np.random.randint(0, len(X), 16)])
    """), "snippet.py")
    fed, fixed = [s.work for s in result.callsites if s.api.endswith(".train_on_batch")]
    assert fed["samples"].value == 32 and "the default of `--batch_size`" in fed["samples"].note
    assert fed["options"].value == ["batch_size"]
    assert fixed["samples"].value == 16 and "set in the code" in fixed["samples"].note
    assert "options" not in fixed


def test_a_helper_drawing_a_batch_gives_each_call_the_rows_of_its_size():
    found = samples("""
    def get_batch(data, labels, size):
        idx = np.random.randint(0, data.shape[0], size)
        return data[idx], labels[idx]

    for step in range(100):
        bx, by = get_batch(X, y, 32)
        model.train_on_batch(bx, by)
        sx, sy = get_batch(X, y, 8)
        model.train_on_batch(sx, sy)
    """)
    assert [s.value for s in found] == [32, 8]


def test_a_helper_given_no_size_draws_rows_unknown():
    found = samples("""
    def get_batch(data, size):
        return data[np.random.randint(0, data.shape[0], size)]

    def train(size):
        for step in range(100):
            model.train_on_batch(get_batch(X, size))
    """)
    assert [s.value for s in found] == [None]


def test_a_loop_over_two_batches_zipped_runs_once_a_row():
    result = analyse_source(HEADER + textwrap.dedent("""
    a = X[np.random.randint(0, len(X), 8)]
    b = y[np.random.randint(0, len(y), 6)]
    for row_a, row_b in zip(a, b):
        model.predict_on_batch(row_a[None])
    for row_a, row_b in zip(a, X):
        model.predict_on_batch(row_a[None])
    """), "snippet.py")
    runs = [s.runs.count for s in result.callsites if s.api.endswith(".predict_on_batch")]
    assert runs == [6, None]


LOADER = """
from glob import glob

import imageio
import numpy as np


class DataLoader:
    def __init__(self, name):
        self.name = name

    def load_data(self, batch_size=1):
        paths = glob("./datasets/%s/*" % self.name)
        images = []
        for path in np.random.choice(paths, size=batch_size):
            images.append(imageio.imread(path))
        return np.array(images) / 127.5 - 1.

    def load_batch(self, batch_size=1):
        paths = glob("./datasets/%s/*" % self.name)
        for i in range(len(paths) // batch_size):
            images = []
            for path in paths[i * batch_size:(i + 1) * batch_size]:
                images.append(imageio.imread(path))
            yield np.array(images) / 127.5 - 1.
"""

GAN = """
import tensorflow as tf

from loader import DataLoader


class GAN:
    def __init__(self):
        self.loader = DataLoader("facades")
        self.generator = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(64, 64, 3)), tf.keras.layers.Dense(8)])

    def train(self, epochs, batch_size=1):
        for epoch in range(epochs):
            imgs = self.loader.load_data(batch_size)
            self.generator.predict(imgs)
            for imgs in self.loader.load_batch(batch_size):
                self.generator.predict(imgs)

    def sample(self):
        self.generator.predict(self.loader.load_data(batch_size={sample}))


gan = GAN()
gan.train(epochs=100, batch_size=4)
gan.sample()
"""


def test_a_data_loader_of_another_module_gives_each_call_its_rows(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "loader.py").write_text(textwrap.dedent(LOADER).lstrip("\n"), encoding="utf-8")
    (tmp_path / "gan.py").write_text(GAN.replace("{sample}", "3").lstrip("\n"), encoding="utf-8")
    result = analyse_file(tmp_path / "gan.py")
    assert result.errors == []
    found = [s.work["samples"] for s in result.callsites if s.api.endswith(".predict")]
    assert [s.value for s in found] == [4, 4, 3]
    assert "imageio.imread" in found[0].note  # still a batch decoded item by item between the steps


def test_a_data_loader_called_with_sizes_not_known_draws_rows_unknown(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "loader.py").write_text(textwrap.dedent(LOADER).lstrip("\n"), encoding="utf-8")
    gan = GAN.replace("{sample}", "n").replace("batch_size=4)", "batch_size=size)")
    (tmp_path / "gan.py").write_text(gan.lstrip("\n"), encoding="utf-8")
    result = analyse_file(tmp_path / "gan.py")
    found = [s.work["samples"] for s in result.callsites if s.api.endswith(".predict")]
    assert [s.value for s in found] == [None, None, None]


def test_a_batch_drawn_from_a_generator_of_the_project_has_the_rows_its_yields_show():
    found = samples("""
    def batches(data, labels, size):
        while True:
            idx = np.random.randint(0, len(data), size)
            yield data[idx], labels[idx]

    gen = batches(X, y, 32)
    for step in range(100):
        bx, by = next(gen)
        model.train_on_batch(bx, by)
    for bx, by in batches(X, y, 16):
        model.train_on_batch(bx, by)
    """)
    assert [s.value for s in found] == [32, 16]


def test_rows_drawn_on_two_paths_that_disagree_are_unknown():
    found = samples("""
    for step in range(100):
        if step % 2:
            batch = X[np.random.randint(0, len(X), 8)]
        else:
            batch = X[np.random.randint(0, len(X), 64)]
        model.train_on_batch(batch)
    """)
    assert [s.value for s in found] == [None]
