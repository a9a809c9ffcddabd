"""A call of the module's own function that spends its work in a TF call, made in a loop of unknown
length: the function's sites cannot count it, so the call is a site of that API (as another module's
call of it is); a call its function's runs count stays the function's own site."""

from __future__ import annotations

from tests.analysis.test_whole_program import sites, write

RUN = "tensorflow.compat.v1.Session.run"

MODEL = """
import numpy as np
import tensorflow as tf


class Model:
    def __init__(self, sess):
        self.sess = sess
        self.x = tf.compat.v1.placeholder(tf.float32, [None, 4])
        self.loss = tf.reduce_sum(self.x)

    def step(self, batch):
        return self.sess.run(self.loss, {self.x: batch})

    def train(self, batches):
        for batch in batches:
            result = self.step(batch)

    def evaluate(self, batch):
        return self.step(batch)
"""


def test_a_step_method_called_in_a_loop_of_unknown_length_is_a_site_of_what_it_runs(tmp_path):
    write(tmp_path, {"model.py": MODEL})
    found = sites(tmp_path / "model.py")
    call = found[(16, RUN)]  # result = self.step(batch)
    assert call.features["receiver"] == "wrapper" and call.features["via"].endswith("line 12")
    assert call.runs.count is None and call.features["fed"] is True and call.features["via_here"] is True
    assert "which spends its work in run at" in call.work["wrapper"].note
    assert (12, RUN) in found  # the step's own run stays a site
    assert (19, RUN) not in found  # evaluate calls it once: its own site says as much


def test_a_helper_whose_runs_are_counted_stays_its_own_site(tmp_path):
    write(tmp_path, {"script.py": """
        import tensorflow as tf


        def run_once(sess, y):
            return sess.run(y)


        def main(sess, y, batches):
            for i in range(10):
                run_once(sess, y)
            run_once(sess, y)


        main(tf.compat.v1.Session(), tf.constant(1.0), [])
        """})
    found = sites(tmp_path / "script.py")
    assert found[(5, RUN)].runs.count == 11
    assert not any(line in (10, 11) for line, _ in found)
