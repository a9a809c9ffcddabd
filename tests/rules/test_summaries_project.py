"""GL318 reading TF1 merged summaries from project modules (greenlint.rules.project_merges): the
training script fetches what a project model's method returns from `merge_all()`, and the heavy
summaries are built in a layers module that model imports."""

from __future__ import annotations

import pytest

from tests.rules.conftest import check_in_project

TRAIN = (
    "import tensorflow as tf\nfrom model import Model\n"
    "m = Model(hp)\nloss, train_op, summaries = m.train(xs, ys)\n"
    "sess = tf.compat.v1.Session()\nwriter = tf.compat.v1.summary.FileWriter('logs')\n"
    "for step in range(30000):\n    _, s = sess.run([train_op, summaries])\n    writer.add_summary(s, step)\n"
)
MODEL = (
    "import tensorflow as tf\nfrom layers import attention\n"
    "class Model:\n    def train(self, xs, ys):\n        loss = attention(xs, ys)\n"
    "        train_op = tf.compat.v1.train.AdamOptimizer().minimize(loss)\n"
    "        tf.compat.v1.summary.scalar('loss', loss)\n        summaries = tf.compat.v1.summary.merge_all()\n"
    "        return loss, train_op, summaries\n"
)
LAYERS = (
    "import tensorflow as tf\ndef attention(q, k):\n    w = tf.nn.softmax(tf.matmul(q, k, transpose_b=True))\n"
    "    tf.compat.v1.summary.image('attention', tf.expand_dims(w[:1], -1))\n    return w\n"
)


def _gl318(tmp_path, predictor, train=TRAIN, model=MODEL, layers=LAYERS) -> list[int]:
    files = {"layers.py": layers, "model.py": model, "train.py": train}
    return [d.span.line for d in check_in_project(tmp_path, predictor, files, "train.py", "GL318")]


def test_summaries_a_project_model_returns_are_fetched_with_every_step(tmp_path, predictor):
    assert _gl318(tmp_path, predictor) == [8]


def test_the_message_names_the_heavy_summary_the_merge_holds_and_where_it_is_built(tmp_path, predictor):
    files = {"layers.py": LAYERS, "model.py": MODEL, "train.py": TRAIN}
    (found,) = check_in_project(tmp_path, predictor, files, "train.py", "GL318")
    assert "`summaries` (`tf.compat.v1.summary.image` of layers.py:4 among them)" in found.message


def test_a_merge_all_in_the_file_holds_the_images_a_project_module_builds(tmp_path, predictor):
    train = (
        "import tensorflow as tf\nfrom layers import attention\nloss = attention(xs, ys)\n"
        "train_op = tf.compat.v1.train.AdamOptimizer().minimize(loss)\nmerged = tf.compat.v1.summary.merge_all()\n"
        "sess = tf.compat.v1.Session()\nfor step in range(30000):\n    _, s = sess.run([train_op, merged])\n"
    )
    assert _gl318(tmp_path, predictor, train=train) == [8]


@pytest.mark.parametrize(
    ("train", "model", "layers"),
    [
        (TRAIN, MODEL, LAYERS.replace("    tf.compat.v1.summary.image", "    if debug:\n        tf.compat.v1.summary.image")),
        (TRAIN, MODEL, LAYERS.replace("summary.image('attention', tf.expand_dims(w[:1], -1))", "summary.scalar('w', w[0, 0, 0])")),
        (TRAIN.replace("_, s = sess.run", "if step % 100 == 0:\n        _, s = sess.run").replace(
            "    writer.add_summary", "        writer.add_summary"), MODEL, LAYERS),
        (TRAIN.replace("loss, train_op, summaries", "summaries, train_op, loss"), MODEL, LAYERS),  # another position
        (TRAIN, MODEL.replace("return loss, train_op, summaries", "return loss, train_op, None"), LAYERS),
    ],
    ids=["image-behind-a-flag", "scalars-only", "periodic-run", "not-the-merge", "merge-not-returned"],
)
def test_no_finding_where_the_fetched_merge_is_not_heavy_every_step(tmp_path, predictor, train, model, layers):
    assert _gl318(tmp_path, predictor, train, model, layers) == []


#: A GAN whose generator step runs every `n_critic` steps, kept in `__init__` from the options object
#: the script beside hands in; the step fetches a merge holding histograms of some variables.
CRITIC = (
    "import tensorflow as tf\n\n\nclass GAN:\n    def __init__(self, sess, args):\n"
    "        self.sess = sess\n        self.n_critic = args.n_critic\n        self.hists = []\n"
    "        for var in tf.compat.v1.trainable_variables():\n"
    "            self.hists.append(tf.compat.v1.summary.histogram(var.name, var))\n"
    "        g_list = [tf.compat.v1.summary.scalar('g', self.g_loss)]\n        g_list.extend(self.hists)\n"
    "        self.g_sum = tf.compat.v1.summary.merge(g_list)\n"
    "        self.g_optim = tf.compat.v1.train.AdamOptimizer().minimize(self.g_loss)\n\n"
    "    def train(self):\n        for idx in range(1000):\n            if (idx - 1) % self.n_critic == 0:\n"
    "                _, s = self.sess.run([self.g_optim, self.g_sum])\n"
)
MAIN = (
    "import argparse\nimport tensorflow as tf\nfrom gan import GAN\nparser = argparse.ArgumentParser()\n"
    "parser.add_argument('--n_critic', type=int, default={every})\nargs = parser.parse_args()\n"
    "GAN(tf.compat.v1.Session(), args).train()\n"
)


@pytest.mark.parametrize(
    ("every", "test", "lines"),
    [(1, "(idx - 1) % self.n_critic == 0", [19]), (5, "(idx - 1) % self.n_critic == 0", []),
     (1, "idx % self.n_critic == self.n_critic - 1", [19]), (1, "idx % self.n_critic == 1", [])],
    ids=["period-1", "period-5", "residue-n-minus-1", "residue-1-never-true"],
)
def test_a_step_gated_by_a_period_an_option_beside_leaves_at_1_runs_every_step(tmp_path, predictor, every, test, lines):
    files = {"main.py": MAIN.format(every=every), "gan.py": CRITIC.replace("(idx - 1) % self.n_critic == 0", test)}
    found = check_in_project(tmp_path, predictor, files, "gan.py", "GL318")
    assert [d.span.line for d in found] == lines
    assert all(f"`{test}` holds on every pass" in d.message for d in found)
