"""A `Session.run` wrapper whose fetches are what its caller gives it (`def run_batch(self, fetches, feed):
return self.sess.run(fetches, feed_dict=feed)`): a call of it is one training step where the caller's
argument for the fetches holds an optimizer's update, one run of the graph otherwise (wrappers.step_given)."""

from __future__ import annotations

import pytest

from tests.analysis.test_whole_program import sites, write

RUN = "tensorflow.compat.v1.Session.run"

RUNNER = """
import tensorflow as tf


class Runner:
    def __init__(self):
        self.sess = tf.compat.v1.Session()

    def run_batch(self, fetches, feed):
        return self.sess.run(fetches, feed_dict=feed)
"""

SCRIPT = """
import numpy as np
import tensorflow as tf

from runner import Runner

x = tf.compat.v1.placeholder(tf.float32, [None, 4])
loss = tf.reduce_sum(tf.compat.v1.layers.dense(x, 1))
train_op = tf.compat.v1.train.AdamOptimizer(0.001).minimize(loss)
runner = Runner()
for batch in np.load("data.npy"):
    runner.run_batch({fetched}, {{x: batch}})
"""

OWN = """
import numpy as np
import tensorflow as tf


def run_batch(sess, fetches, feed):
    return sess.run(fetches, feed_dict=feed)


x = tf.compat.v1.placeholder(tf.float32, [None, 4])
loss = tf.reduce_sum(tf.compat.v1.layers.dense(x, 1))
train_op = tf.compat.v1.train.AdamOptimizer(0.001).minimize(loss)
sess = tf.compat.v1.Session()
for batch in np.load("data.npy"):
    run_batch(sess, {fetched}, {{x: batch}})
"""


@pytest.mark.parametrize(("fetched", "step"), [
    ("train_op", "training"), ("[train_op, loss]", "training"), ("fetches=train_op, feed=None", "training"),
    ("loss", "inference"), ("[loss, x]", "inference"),
])
def test_another_modules_wrapper_is_the_step_its_callers_fetches_are(tmp_path, fetched, step):
    code = SCRIPT.replace("{fetched}, {{x: batch}}", fetched) if "feed=" in fetched else SCRIPT.format(fetched=fetched)
    write(tmp_path, {"runner.py": RUNNER, "train.py": code})
    call = sites(tmp_path / "train.py")[(11, RUN)]
    assert call.features["receiver"] == "wrapper"
    assert call.work["step"].value == step


@pytest.mark.parametrize(("fetched", "step"), [("train_op", "training"), ("loss", "inference")])
def test_the_modules_own_wrapper_in_a_loop_is_the_step_its_callers_fetches_are(tmp_path, fetched, step):
    write(tmp_path, {"train.py": OWN.format(fetched=fetched)})
    call = sites(tmp_path / "train.py")[(14, RUN)]
    assert call.features["receiver"] == "wrapper"
    assert call.work["step"].value == step


@pytest.mark.parametrize(("fetched", "step"), [("train_op", "training"), ("loss", "inference")])
def test_a_wrapper_fetching_its_parameter_with_its_own_tensors_is_the_step_its_callers_fetches_are(
        tmp_path, fetched, step):
    runner = RUNNER.replace("self.sess.run(fetches, feed_dict=feed)", "self.sess.run([fetches, self.step], feed)") \
        .replace("self.sess = tf.compat.v1.Session()", "self.sess = tf.compat.v1.Session()\n        self.step = tf.constant(1)")
    write(tmp_path, {"runner.py": runner, "train.py": SCRIPT.format(fetched=fetched)})
    call = sites(tmp_path / "train.py")[(11, RUN)]
    assert call.work["step"].value == step


def test_a_wrapper_fetching_its_own_tensor_is_not_the_step_of_what_its_caller_passes(tmp_path):
    # the parameter is fed, not fetched: the run's fetches are the wrapper's own loss
    runner = RUNNER.replace("def run_batch(self, fetches, feed)", "def run_batch(self, fetches, feed, loss)") \
        .replace("self.sess.run(fetches, feed_dict=feed)", "self.sess.run(loss, feed_dict=feed)")
    code = SCRIPT.format(fetched="train_op").replace("{x: batch})", "{x: batch}, loss)")
    write(tmp_path, {"runner.py": runner, "train.py": code})
    call = sites(tmp_path / "train.py")[(11, RUN)]
    assert call.work["step"].value == "inference"


def test_a_wrapper_spends_its_work_in_its_loops_step_not_the_initializer_run_before_it(tmp_path):
    """`tf.global_variables_initializer().run()` then a loop of training runs: a call of the method is a
    training step of the graph (the loop's run), not the one run of the initializer before it."""
    write(tmp_path, {"gan.py": """
        import numpy as np
        import tensorflow as tf


        class GAN:
            def __init__(self, sess):
                self.sess = sess
                self.x = tf.compat.v1.placeholder(tf.float32, [None, 4])
                self.loss = tf.reduce_sum(tf.compat.v1.layers.dense(self.x, 1))
                self.optim = tf.compat.v1.train.AdamOptimizer(0.001).minimize(self.loss)

            def train(self, data):
                tf.compat.v1.global_variables_initializer().run()
                for batch in data:
                    self.sess.run([self.optim, self.loss], feed_dict={self.x: batch})
        """, "main.py": """
        import numpy as np
        import tensorflow as tf
        from gan import GAN

        for data in np.load("runs.npy"):
            GAN(tf.compat.v1.Session()).train(data)
        """})
    found = sites(tmp_path / "main.py")
    (site,) = [s for (line, _), s in found.items() if line == 6 and s.features.get("receiver") == "wrapper"]
    assert site.api == RUN
    assert site.work["step"].value == "training"
    assert "line 15" in site.features["via"]
