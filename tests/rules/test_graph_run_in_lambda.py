"""GL506 on a session run written as a lambda's body (glow's `m.train = lambda _lr: sess.run([train_op,
stats_train], {lr: _lr})[1]`): the lambda's body is an expression, not a block of statements; the rule
reads it without failing (it failed with "'Subscript' object is not iterable", a GL002 on the file)."""

from __future__ import annotations

from tests.rules.conftest import check_in_project

GLOW = (
    "import tensorflow as tf\n\n\n"
    "def model(sess, loss, lr):\n"
    "    train_op = tf.train.AdamOptimizer(lr).minimize(loss)\n"
    "    train = lambda _lr: sess.run([train_op, loss], {lr: _lr})[1]\n"
    "    return train\n\n\n"
    "step = model(tf.Session(), tf.constant(1.0), tf.placeholder(tf.float32))\n"
    "for epoch in range(10):\n"
    "    step(0.001)\n"
)


def test_a_run_in_a_lambdas_body_is_read_without_an_internal_error(tmp_path, predictor):
    from greenlint.check.config import Config
    from greenlint.check.pipeline import check_source

    (tmp_path / "glow.py").write_text(GLOW)
    found = check_source(GLOW, str(tmp_path / "glow.py"), Config(select=("GL002", "GL506"), no_cache=True), predictor)
    assert not [d for d in found if "internal error" in d.message]
    assert check_in_project(tmp_path, predictor, {"glow.py": GLOW}, "glow.py", "GL506") == []
