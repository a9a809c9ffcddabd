"""GL308 on glow's shape: a TF1 training step and a `Saver.save` each behind a closure kept on an object of
another module (`m.train = lambda lr: sess.run([train_op, loss], ...)`, `m.save = lambda p: saver.save(sess,
p)`), an epoch loop that calls `model.train(lr)` and keeps the best weights with `model.save(path)` when the
validation loss improves. The helper's calls are listed as the session run and the save they make
(analysis/wrappers.py): the loop trains and keeps its best pass, and never stops on it."""

from __future__ import annotations

from tests.rules.conftest import check_in_project

MODEL = (
    "import tensorflow as tf\n\n\n"
    "class M:\n"
    "    pass\n\n\n"
    "def build(sess, loss, valid_loss, lr):\n"
    "    m = M()\n"
    "    train_op = tf.train.AdamOptimizer(lr).minimize(loss)\n"
    "    saver = tf.train.Saver()\n"
    "    m.train = lambda _lr: sess.run([train_op, loss], {lr: _lr})[1]\n"
    "    m.test = lambda: sess.run(valid_loss)\n"
    "    m.save = lambda path: saver.save(sess, path)\n"
    "    return m\n"
)
TRAIN = (
    "import tensorflow as tf\n"
    "from model import build\n\n"
    "lr = tf.placeholder(tf.float32, [])\n"
    "model = build(tf.Session(), tf.constant(1.0), tf.constant(2.0), lr)\n"
    "best = 1e9\n"
    "for epoch in range(1000):\n"
    "    for it in range(100):\n"
    "        model.{step}(0.001)\n"
    "    score = model.test()\n"
    "    if {test}:\n"
    "        best = score\n"
    "        model.save('best.ckpt')\n"
)


def _gl308(tmp_path, predictor, step: str, test: str) -> list[str]:
    files = {"model.py": MODEL, "train.py": TRAIN.format(step=step, test=test)}
    found = check_in_project(tmp_path, predictor, files, "train.py", "GL308", {"material-saving-j": 0.0})
    return [f"{d.span.line}: {d.message}" for d in found]


def test_a_helpers_step_and_best_kept_save_make_a_training_loop_that_never_stops(tmp_path, predictor):
    found = _gl308(tmp_path, predictor, "train", "score < best")
    assert len(found) == 1 and found[0].startswith("7: `for epoch in range(1000)` runs 1000 passes")
    assert "(`score < best`, which keeps the best weights)" in found[0]


def test_a_save_on_no_comparison_keeps_no_best(tmp_path, predictor):
    assert _gl308(tmp_path, predictor, "train", "epoch % 10 == 0") == []


def test_a_loop_whose_helper_runs_no_training_step_is_not_a_training(tmp_path, predictor):
    assert _gl308(tmp_path, predictor, "test", "score < best") == []
