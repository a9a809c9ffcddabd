"""A loop over an array's batches (`for idx in range(len(data_X) // batch_size)`) runs a known number
of times where the code fixes the array's rows: bytes read from a file and reshaped to a literal shape
(`np.fromfile(...)[16:].reshape((60000, 28, 28, 1))`), joined end to end (`np.concatenate`, `np.append`,
`np.hstack` of labels), counted in batches (`int(np.ceil(len(x) / bs))`), and kept on `self` by
`__init__` for a method of the instance to loop over (`self.num_batches`), resumed from a checkpoint at
most. A reshape with `-1`, files a `glob` lists, or an attribute something else also changes (`+=`
elsewhere) leave the count unknown."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_file, analyse_source

HEADER = """
import math
import numpy as np
import tensorflow as tf
sess = tf.Session()
step = tf.no_op()
loaded = np.fromfile(file=open("train-images-idx3-ubyte"), dtype=np.uint8)
"""


def counts(body: str) -> list[tuple]:
    """(count, bound) of each `sess.run` in *body*, after HEADER."""
    result = analyse_source(HEADER + textwrap.dedent(body), "snippet.py")
    assert result.errors == []
    return [(s.runs.count, s.runs.bound) for s in result.callsites if s.api.endswith("Session.run")]


@pytest.mark.parametrize(
    "data, batches, trips",
    [
        ("loaded[16:].reshape((60000, 28, 28, 1)).astype(np.float)", "len(x) // 64", 937),
        ("loaded[8:].reshape((60000))", "x.shape[0] // 100", 600),
        (
            "np.concatenate((loaded[16:].reshape((60000, 784)), loaded[16:].reshape((10000, 784))), axis=0)",
            "len(x) // 64",
            1093,
        ),
        ("np.append(np.zeros((60000, 3)), np.zeros((10000, 3)), axis=0)", "len(x) // 70", 1000),
        ("np.append(np.zeros((600, 3)), np.zeros((400, 2)))", "len(x) // 100", 26),  # no axis: flattened
        ("np.hstack((loaded[8:].reshape((60000)), loaded[8:].reshape((10000))))", "len(x) // 64", 1093),
        ("np.concatenate((np.zeros((500, 28)), np.ones((500, 10))), axis=1)", "len(x) // 10", 50),
        ("np.zeros((60000, 28))", "int(np.ceil(len(x) / 64))", 938),
        ("np.zeros((60000, 28))", "int(math.ceil(len(x) / 64))", 938),
    ],
)
def test_a_loop_over_batches_of_an_array_of_fixed_rows_runs_a_known_count(data, batches, trips):
    assert counts(f"""
    x = {data}
    for idx in range({batches}):
        sess.run(step)
    """) == [(trips, "exact")]


@pytest.mark.parametrize(
    "data",
    [
        "loaded[16:].reshape((-1, 28, 28, 1))",  # as many rows as the file holds
        "np.concatenate((np.zeros((500, 28)), np.ones((400, 10))), axis=1)",  # fails: the rows differ
        "np.array(glob.glob('images/*.png'))",
    ],
)
def test_rows_the_code_does_not_fix_leave_the_loop_unknown(data):
    assert counts(f"""
    import glob
    x = {data}
    for idx in range(len(x) // 64):
        sess.run(step)
    """) == [(None, "unknown")]


def test_a_batch_count_of_an_option_s_default_says_so():
    result = analyse_source(
        HEADER
        + textwrap.dedent("""
    import argparse
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=64)
    args = parser.parse_args()
    x = np.zeros((60000, 28))
    for idx in range(int(min(len(x), 50000) / args.batch_size)):
        sess.run(step)
    """),
        "snippet.py",
    )
    (site,) = [s for s in result.callsites if s.api.endswith("Session.run")]
    assert (site.runs.count, site.runs.bound) == (781, "exact")
    assert "`--batch_size`" in site.runs.note and "a command line may change it" in site.runs.note


MODEL = """\
import os
import numpy as np
import tensorflow as tf


def load_mnist(data_dir):
    def extract_data(filename, num_data, head_size, data_size):
        with open(filename) as stream:
            stream.read(head_size)
            return np.frombuffer(stream.read(data_size * num_data), dtype=np.uint8).astype(np.float)

    trX = extract_data(data_dir + "/train-images-idx3-ubyte", 60000, 16, 28 * 28).reshape((60000, 28, 28, 1))
    teX = extract_data(data_dir + "/t10k-images-idx3-ubyte", 10000, 16, 28 * 28).reshape((10000, 28, 28, 1))
    X = np.concatenate((trX, teX), axis=0)
    np.random.shuffle(X)
    return X / 255.


class GAN(object):
    def __init__(self, sess, epoch, batch_size, dataset_name):
        self.sess = sess
        self.epoch = epoch
        self.batch_size = batch_size
        if dataset_name == "mnist":
            self.data_X = load_mnist(os.path.join("data", dataset_name))
            self.num_batches = len(self.data_X) // self.batch_size
        else:
            raise NotImplementedError
        self.optim = tf.no_op()

    def train(self):
        could_load, counter = self.load()
        if could_load:
            start_epoch = counter // self.num_batches
            start_batch_id = counter - start_epoch * self.num_batches
        else:
            start_epoch = 0
            start_batch_id = 0
        for epoch in range(start_epoch, self.epoch):
            for idx in range(start_batch_id, self.num_batches):
                batch = self.data_X[idx * self.batch_size:(idx + 1) * self.batch_size]
                self.sess.run(self.optim, feed_dict={"x:0": batch})
            start_batch_id = 0

    def load(self):
        ckpt = tf.train.get_checkpoint_state("checkpoint")
        if ckpt and ckpt.model_checkpoint_path:
            return True, int(ckpt.model_checkpoint_path.split("-")[-1])
        return False, 0
"""

MAIN = """\
import argparse
import tensorflow as tf
from gan import GAN

parser = argparse.ArgumentParser()
parser.add_argument("--epoch", type=int, default=20)
parser.add_argument("--batch_size", type=int, default=64)
args = parser.parse_args()
with tf.Session() as sess:
    gan = GAN(sess, epoch=args.epoch, batch_size=args.batch_size, dataset_name="mnist")
    gan.train()
"""


def trained(tmp_path):
    """The `runs` of the training step in gan.py, main.py beside it."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "gan.py").write_text(MODEL)
    (tmp_path / "main.py").write_text(MAIN)
    (site,) = [
        s for s in analyse_file(tmp_path / "gan.py").callsites if s.api.endswith("Session.run") and s.span.line == 42
    ]
    return site.runs


def test_batches_counted_in_init_bound_the_training_loop_of_a_resumed_run(tmp_path):
    runs = trained(tmp_path)
    # (60000 + 10000) // 64 = 1093 batches a pass, 20 passes, fewer where a checkpoint resumes them
    assert (runs.count, runs.bound) == (20 * 1093, "upper")
    assert "resumes its count" in runs.note and "`--epoch`" in runs.note and "`--batch_size`" in runs.note


GROW = """
    def grow(self, more):
        self.n_batches += more
"""


@pytest.mark.parametrize(
    "method, change, count", [("", "", 100), (GROW, "data.grow(3)", None), ("", "data.n_batches += 3", None)]
)
def test_a_batch_count_changed_after_init_leaves_the_loop_unknown(method, change, count):
    assert counts(f"""
    class Data(object):
        def __init__(self, batch_size):
            self.x = np.zeros((1000, 3))
            self.n_batches = len(self.x) // batch_size
        {textwrap.indent(textwrap.dedent(method), "        ").strip()}

    data = Data(10)
    {change}
    for i in range(data.n_batches):
        sess.run(step)
    """) == [(count, "exact" if count else "unknown")]
