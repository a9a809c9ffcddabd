"""A call of another module's helper listed as the TF call it makes (analysis/wrappers.py): rules
that judge a call by its arguments do not read the helper's arguments as the TF call's."""

from __future__ import annotations

import json
import textwrap

from greenlint.cli import main

HELPER = """
from tensorflow import keras


class Detector:
    def __init__(self):
        self.model = keras.models.load_model("detector.keras")

    def predict(self, image):
        return self.model.predict(image[None], verbose=0)
"""

SCRIPT = """
import numpy as np
from detector import Detector

yolo = Detector()
for frame in range(10_000):  # a 6-minute video at 30 fps: its start-ups are material
    boxes = yolo.predict(np.zeros((416, 416, 3)))
"""


def test_a_wrapped_predict_per_frame_is_found_but_its_verbose_is_not_taken_for_missing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "detector.py").write_text(textwrap.dedent(HELPER).lstrip("\n"))
    (tmp_path / "predict.py").write_text(textwrap.dedent(SCRIPT).lstrip("\n"))
    main(["check", "predict.py", "--isolated", "--no-cache", "--select", "GL201,GL204", "--format", "json"])
    found = {(d["location"]["row"], d["code"]) for d in json.loads(capsys.readouterr().out)}
    assert (6, "GL201") in found  # one predict() per frame, through the helper
    assert (6, "GL204") not in found  # the helper passes verbose=0: its call's arguments are not seen here


LEARNER = """
import tensorflow as tf


class Learner:
    def __init__(self):
        self.sess = tf.compat.v1.Session()
        self.x = tf.compat.v1.placeholder(tf.float32, [None, 84])
        self.keep = tf.compat.v1.placeholder(tf.float32, [])
        self.loss = tf.reduce_mean(self.x)
        self.train_op = tf.compat.v1.train.AdamOptimizer().minimize(self.loss)

    def train(self, lr, obs):
        return self.sess.run([self.loss, self.train_op], {self.x: obs})

    def act(self, obs):
        return self.sess.run(self.loss, feed_dict={self.x: obs})

    def tune(self, step):
        return self.sess.run(self.train_op, feed_dict={self.keep: 0.5})

    def show(self, picture, obs):
        print(picture.shape)
        return self.sess.run(self.loss, feed_dict={self.x: obs})
"""

LEARN = """
import numpy as np
from learner import Learner

model = Learner()
rollout = np.zeros((2048, 84))
for epoch in range(4):
    inds = np.random.permutation(2048)
    for start in range(0, 2048, 512):
        model.train(0.001, rollout[inds[start:start + 512]])
for i in range(1000):
    if i % 100 == 0:
        model.train(0.001, rollout[i:i + 1])
obs = env.reset()
for t in range(1000):
    action = model.act(obs)
    obs, reward, done, info = env.step(action)
for t in range(1000):
    model.tune(t)
while True:
    path = input("file: ")
    model.act(np.load(path))
for path in paths:
    model.train(0.001, np.load(path))
seed = np.zeros((1, 84))
for path in paths:
    model.show(np.load(path), seed)
"""


def test_a_helper_fed_what_a_loop_changes_is_found_through_its_call(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "learner.py").write_text(textwrap.dedent(LEARNER).lstrip("\n"))
    (tmp_path / "learn.py").write_text(textwrap.dedent(LEARN).lstrip("\n"))
    main(["check", "learn.py", "--isolated", "--no-cache", "--select", "GL503", "--format", "json"])
    found = {d["location"]["row"]: d["message"] for d in json.loads(capsys.readouterr().out)}
    # each batch read from a file on the host, then fed through the helper's session run
    message = found.pop(23)
    assert "`model.train()` runs a session fed through `feed_dict` (run at learner.py line 13)" in message
    assert "a file read" in message
    # not: minibatches sliced from the rollout in memory (9: microseconds of copying, nothing to overlap),
    # every 100th step (12), the observation the last action produced (15), a helper that feeds a
    # literal whatever its argument (18), a loop that waits for a person between runs (21), a helper
    # whose run is fed the same `seed` on each pass (the file read it is given is not fed: 27)
    assert found == {}
