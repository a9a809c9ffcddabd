"""The predictor's figure beside a measured rule pair is the figure of the measured `run()` only."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.predict.prediction import Basis, Prediction
from tools.pair_prediction import run_prediction


def flat(api: str, features: dict) -> Prediction:
    """One joule per execution of any call, so that the totals count executions."""
    return Prediction(energy_j=1.0, interval_j=(0.5, 2.0), cpu_j=1.0, gpu_j=0.0, ram_j=0.0, basis=Basis.PREDICTED)


def program(tmp_path, body: str):
    path = tmp_path / "pair.py"
    path.write_text(textwrap.dedent(body))
    return path


def test_setup_is_left_out_and_helpers_called_from_run_count(tmp_path):
    path = program(tmp_path, """
        import numpy as np
        import tensorflow as tf

        x = np.zeros((4, 4), dtype=np.float32)
        setup = tf.reduce_sum(x)  # import-time setup: not metered


        def step():
            return tf.reduce_mean(x)


        def run():
            for _ in range(5):
                step()
            tf.reduce_max(x)
        """)
    got = run_prediction(path, flat)
    assert got["energy_j"] == pytest.approx(6.0)  # 5 steps + one reduce_max, not the setup's reduce_sum
    assert got["sites"] == 2 and got["unknown"] == 0


def test_a_count_run_cannot_state_makes_the_total_unknown(tmp_path):
    path = program(tmp_path, """
        import sys
        import tensorflow as tf


        def run():
            for _ in range(int(sys.argv[1])):
                tf.reduce_mean(tf.zeros((4, 4)))
        """)
    got = run_prediction(path, flat)
    assert got["energy_j"] is None and got["unknown"] >= 1
