"""The lint cache keys a module's analysis by the scripts beside it that hand it their options
object (`constructed.py`): a warm run after an edit of the script's flag default analyses the
module again and reports the new default."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

MODEL = """\
import tensorflow as tf


class GAN(object):
    def __init__(self, sess):
        self.sess = sess
        self.z = tf.compat.v1.placeholder(tf.float32, [64, 100])
        self.h = tf.matmul(self.z, tf.compat.v1.get_variable("w", [100, 512]))

    def train(self, config):
        for step in range(config.steps):
            self.sess.run(self.h, feed_dict={self.z: None})
"""

MAIN = """\
import tensorflow as tf
from model import GAN

flags = tf.compat.v1.flags
flags.DEFINE_integer("steps", {steps}, "steps")
FLAGS = flags.FLAGS


def main(_):
    with tf.compat.v1.Session() as sess:
        gan = GAN(sess)
        gan.train(FLAGS)
"""


def trips(project, env) -> object:
    """The trip count of model.py's `Session.run` loop, as `greenlint calls` reports it."""
    proc = subprocess.run([sys.executable, "-m", "greenlint", "calls", "--format", "json", "model.py"],
                          env=env, cwd=project, capture_output=True, text=True, check=True)
    (site,) = [s for s in json.loads(proc.stdout)["call_sites"] if s["api"].endswith("Session.run")]
    return site["runs"]["loop"]


@pytest.mark.timeout(180)
def test_editing_the_scripts_flag_default_changes_the_modules_result_on_a_warm_run(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "model.py").write_text(MODEL)
    (project / "main.py").write_text(MAIN.format(steps=30))
    env = {**os.environ, "GREENLINT_CACHE_DIR": str(tmp_path / "cache")}
    assert trips(project, env) == 30
    assert trips(project, env) == 30  # warm
    (project / "main.py").write_text(MAIN.format(steps=40))
    assert trips(project, env) == 40
