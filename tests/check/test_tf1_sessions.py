"""TF1 programs through the real resolver and the rules: sessions resolve, so GL503 sees their loops."""

from __future__ import annotations

import pytest

from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from tests.check.fakes import Predictor

TRAINING = '''
import sys

import numpy as np
{import_line}

X = tf.placeholder(tf.float32, shape=(None, 4))
y = tf.placeholder(tf.float32, shape=(None, 1))
w = tf.Variable(tf.zeros((4, 1)))
loss = tf.reduce_mean(tf.square(tf.matmul(X, w) - y))
training_op = tf.train.GradientDescentOptimizer(learning_rate=0.01).minimize(loss)
init = tf.global_variables_initializer()
target = np.load("y.npy")
epochs = int(sys.argv[1])  # runs not counted: the fake figure over counted runs would be immaterial

with tf.{session}() as sess:
    sess.run(init)
    for epoch in range(epochs):
        for start in range(0, 1000, 50):
            data = np.load("x%d.npy" % start)  # each batch read from a file: host work a pipeline overlaps
            sess.run(training_op, feed_dict={{X: data, y: target[start:start + 50]}})
    print(sess.run(loss, feed_dict={{X: data, y: target}}))
'''


@pytest.mark.parametrize(
    ("import_line", "session"),
    [
        ("import tensorflow as tf", "Session"),  # TF1 as written for TF1
        ("import tensorflow.compat.v1 as tf", "Session"),  # TF1 code run on TF2
        ("import tensorflow.compat.v1 as tf", "compat.v1.Session"),
    ],
)
def test_gl503_fires_on_the_feed_dict_of_a_tf1_training_loop_only(import_line, session):
    text = TRAINING.format(import_line=import_line, session=session)
    found = check_source(text, "train_tf1.py", Config(select=("GL503",), no_cache=True), Predictor())
    loop_line = next(i for i, line in enumerate(text.splitlines(), 1) if "sess.run(training_op" in line)
    assert [(d.code, d.span.line) for d in found] == [("GL503", loop_line)]


def test_an_interactive_session_and_a_session_made_inline_are_call_sites():
    from greenlint.analysis.analyse import analyse_source

    text = (
        "import numpy as np\n"
        "import tensorflow as tf\n"
        "x = tf.placeholder(tf.float32)\n"
        "paths = np.loadtxt('paths.txt', dtype=str)\n"
        "sess = tf.InteractiveSession()\n"
        "for value in range(len(paths)):\n"
        "    sess.run(x * 2, feed_dict={x: np.load(paths[value])})\n"
        "tf.Session().run(x, {x: 1})\n"
    )
    apis = [(s.span.line, s.api) for s in analyse_source(text, "s.py").callsites]
    assert (7, "tensorflow.compat.v1.InteractiveSession.run") in apis
    assert (8, "tensorflow.compat.v1.Session.run") in apis
    found = check_source(text, "s.py", Config(select=("GL503",), no_cache=True), Predictor())
    assert [d.span.line for d in found] == [7]
