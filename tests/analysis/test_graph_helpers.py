"""A helper module of TF1 graph programs (`Imports.in_graph_program`): it makes no placeholder and runs no
session, and the modules beside it that import it do: the ops its functions apply build their graphs,
counted where those graphs run, not priced as eager calls of their own."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.project import project_index

HELPER = """
import tensorflow as tf


def net(image):
    w = tf.Variable(tf.random.truncated_normal([3, 3, 3, 32], stddev=0.1))
    conv = tf.nn.conv2d(image, w, strides=[1, 1, 1, 1], padding="SAME")
    return tf.nn.relu(conv)
"""

GRAPH = """
import tensorflow as tf
import helper

x = tf.compat.v1.placeholder(tf.float32, (4, 256, 256, 3))
loss = tf.reduce_mean(helper.net(x))
with tf.compat.v1.Session() as sess:
    sess.run(loss, feed_dict={x: batch})
"""

EAGER = """
import tensorflow as tf
import helper

for step in range(10):
    out = helper.net(tf.zeros((4, 256, 256, 3)))
"""


def helper_sites(tmp_path, scripts: dict[str, str]) -> dict[str, bool]:
    (tmp_path / ".git").mkdir(exist_ok=True)
    for name, text in {"helper.py": HELPER, **scripts}.items():
        (tmp_path / name).write_text(textwrap.dedent(text).lstrip("\n"))
    project_index().refresh()
    sites = analyse_file(tmp_path / "helper.py").callsites
    return {s.api.rpartition(".")[2]: bool(s.features.get("graph_mode")) for s in sites}


def test_a_helper_of_graph_programs_builds_their_graphs(tmp_path):
    found = helper_sites(tmp_path, {"train.py": GRAPH})
    assert found["conv2d"] and found["relu"]


def test_a_helper_an_eager_program_also_imports_runs_its_ops(tmp_path):
    found = helper_sites(tmp_path, {"train.py": GRAPH, "demo.py": EAGER})
    assert not found["conv2d"] and not found["relu"]


def test_a_helper_of_an_eager_program_runs_its_ops(tmp_path):
    found = helper_sites(tmp_path, {"demo.py": EAGER})
    assert not found["conv2d"] and not found["relu"]


MODEL_CLASS = """
import tensorflow as tf


class Tagger:
    def add_placeholders(self):
        self.words = tf.compat.v1.placeholder(tf.float32, shape=[None, 300])

    def add_logits(self):
        w = tf.compat.v1.get_variable("w", [300, 9])
        self.logits = tf.matmul(self.words, w)

    def build(self):
        self.add_placeholders()
        self.add_logits()


class Eager:
    def scores(self, x):
        return tf.matmul(x, tf.ones((300, 9)))
"""


def test_a_class_making_a_graph_input_builds_its_graph_in_every_method() -> None:
    from greenlint.analysis.analyse import analyse_source

    sites = analyse_source(textwrap.dedent(MODEL_CLASS), "tagger.py").callsites
    graph = {(s.scope, s.api.rpartition(".")[2]): bool(s.features.get("graph_mode")) for s in sites}
    assert graph[("Tagger.add_placeholders", "placeholder")]
    assert graph[("Tagger.add_logits", "matmul")]  # the op reads the placeholder another method made
    assert not graph[("Eager.scores", "matmul")]  # a class making no graph input runs its ops


QUEUE_GRAPH = """
import tensorflow as tf


def weighted_loss(labels, logits):
    return tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))


def run(files):
    queue = tf.compat.v1.train.slice_input_producer([files])
    image = tf.io.decode_png(tf.io.read_file(queue[0]), channels=3)
    logits = tf.reshape(image, [-1, 10])
    loss = weighted_loss(tf.ones_like(logits), logits)
    tf.summary.scalar("loss", loss)
    with tf.compat.v1.Session() as sess:
        for step in range(100):
            sess.run(loss)
"""

EAGER_TOO = QUEUE_GRAPH + """

def report(labels, logits):
    return weighted_loss(labels, logits)
"""


def _symbolic(code: str) -> dict[str, bool]:
    from greenlint.analysis.analyse import analyse_source

    sites = analyse_source(textwrap.dedent(code), "train.py").callsites
    return {s.api.rpartition(".")[2]: "symbolic" in s.work for s in sites}


def test_a_helper_called_only_where_a_graph_is_built_adds_to_that_graph() -> None:
    found = _symbolic(QUEUE_GRAPH)
    assert found["reduce_sum"] and found["softmax_cross_entropy_with_logits"]
    assert found["read_file"] and found["decode_png"]  # file ops of the graph: they run with each step
    assert found["scalar"]  # TF1's summary op in a TF1 graph program
    assert not found["run"]


def test_a_helper_also_called_elsewhere_keeps_its_own_price() -> None:
    found = _symbolic(EAGER_TOO)
    assert not found["reduce_sum"]
    assert found["read_file"]


def test_a_file_read_outside_a_graph_is_priced_where_it_is() -> None:
    found = _symbolic("import tensorflow as tf\ndata = tf.io.read_file('a.png')\ntf.summary.scalar('x', 1.0, step=0)\n")
    assert not found["read_file"] and not found["scalar"]
