"""A base class of one module whose loop calls `self.run_epoch(...)`, which only a subclass in another
module defines (the template method of TF1 research code: `BaseModel.train` saving a checkpoint after
each epoch that `NERModel.run_epoch` trains): a script's `model.train(...)` spends its work in the
subclass's training step, the first of the base method's `self` calls that spends any, not in the
save that the base's own module saw first (project.py `_late_bound`, wrappers.py)."""

from __future__ import annotations

import pytest

from greenlint.analysis.analyse import analyse_file
from tests.analysis.test_whole_program import write

BASE = """
import tensorflow as tf


class BaseModel(object):
    def __init__(self, config):
        self.config = config
        self.sess = tf.compat.v1.Session()
        self.saver = tf.compat.v1.train.Saver()

    def save_session(self):
        self.saver.save(self.sess, "model")

    def train(self, data):
        for epoch in range(10):
            {body}
"""

#: The base's loop: the subclass's epoch, then the checkpoint (or the other way round).
EPOCH_THEN_SAVE = "self.run_epoch(data)\n            self.save_session()"
SAVE_THEN_EPOCH = "self.save_session()\n            self.run_epoch(data)"

MODEL = """
import tensorflow as tf

from base_model import BaseModel


class NERModel(BaseModel):
    def build(self):
        self.x = tf.compat.v1.placeholder(tf.float32, [None, 4])
        self.loss = tf.reduce_sum(tf.compat.v1.layers.dense(self.x, 1))
        self.train_op = tf.compat.v1.train.AdamOptimizer(0.001).minimize(self.loss)

    def run_epoch(self, data):
        for batch in data:
            self.sess.run([self.train_op, self.loss], feed_dict={self.x: batch})
"""

SCRIPT = """
from ner_model import NERModel

model = NERModel(None)
model.build()
model.train(open("train.txt"))
"""


def train_call(folder, body: str):
    write(folder, {"base_model.py": BASE.replace("{body}", body), "ner_model.py": MODEL, "train.py": SCRIPT})
    result = analyse_file(folder / "train.py")
    assert result.errors == []
    return next(s for s in result.callsites if s.span.line == 5)


def test_the_base_loop_spends_its_work_in_the_subclass_step_it_calls_first(tmp_path):
    site = train_call(tmp_path, EPOCH_THEN_SAVE)
    assert site.api == "tensorflow.compat.v1.Session.run"
    assert site.features["receiver"] == "wrapper"
    assert site.features["via"] == "run at ner_model.py line 14"


@pytest.mark.parametrize("body", [SAVE_THEN_EPOCH, "self.saver.save(self.sess, 'model')\n            self.run_epoch(data)"])
def test_what_the_base_spends_first_stays_its_call(tmp_path, body):
    # the base saves before it trains (through `self` or itself): the first TF call where it spends work stays the save
    site = train_call(tmp_path, body)
    assert site.api == "tensorflow.compat.v1.train.Saver.save"


def test_the_wrapper_is_a_training_step_where_the_wrapped_run_fetches_its_own_update(tmp_path):
    site = train_call(tmp_path, EPOCH_THEN_SAVE)
    assert site.work["step"].value == "training"
    assert "optimizer's update" in site.work["step"].note
    wrapped = analyse_file(tmp_path / "ner_model.py").callsites
    run = next(s for s in wrapped if s.api == "tensorflow.compat.v1.Session.run")
    assert run.work["step"].value == "training"


def test_the_wrapper_prices_the_least_run_where_the_wrapped_run_fetches_no_update(tmp_path):
    write(tmp_path, {"base_model.py": BASE.replace("{body}", EPOCH_THEN_SAVE), "train.py": SCRIPT,
                     "ner_model.py": MODEL.replace("[self.train_op, self.loss]", "self.loss")})
    site = next(s for s in analyse_file(tmp_path / "train.py").callsites if s.span.line == 5)
    assert site.api == "tensorflow.compat.v1.Session.run"
    assert site.work["step"].value == "inference"
    assert "its fetches are not known here" in site.work["step"].note
