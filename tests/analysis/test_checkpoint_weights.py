"""A TF2 checkpoint's write carries the weights of the Keras models it tracks (analysis/work.py
`checkpoint_work`), as a model's own `save_weights` does: what GL311 prices a save by."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_source

MODEL = """\
import tensorflow as tf
model = tf.keras.Sequential([tf.keras.Input((10,)), tf.keras.layers.Dense(4)])
opt = tf.keras.optimizers.Adam()
"""
PARAMS = 10 * 4 + 4


def _saves(code: str) -> list:
    sites = analyse_source(MODEL + textwrap.dedent(code), "train.py").callsites
    return [s for s in sites if s.api.rsplit(".", 1)[-1] in ("save", "write")]


def test_a_checkpoint_and_its_manager_write_at_least_the_models_weights():
    saves = _saves(
        """\
        ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=model)
        manager = tf.train.CheckpointManager(ckpt, "ckpts", max_to_keep=3)
        manager.save()
        ckpt.save("ckpts/c")
        ckpt.write("ckpts/w")
        """
    )
    assert [s.api for s in saves] == [
        "tensorflow.train.CheckpointManager.save",
        "tensorflow.train.Checkpoint.save",
        "tensorflow.train.Checkpoint.write",
    ]
    assert [(s.work["params"].value, s.work["params"].bound) for s in saves] == [(PARAMS, "lower")] * 3


def test_a_checkpoint_of_no_model_known_here_carries_no_weights():
    saves = _saves('ckpt = tf.train.Checkpoint(optimizer=opt, net=build())\nckpt.save("ckpts/c")\n')
    assert [s.api for s in saves] == ["tensorflow.train.Checkpoint.save"]
    assert "params" not in saves[0].work


def test_a_checkpoints_tracked_values_stay_out_of_its_calls_features():
    """What a checkpoint saves and tracks are the analysis' own objects: no feature of a call on it
    (they were written as Python reprs, with memory addresses, into `calls --format json`)."""
    import json

    from greenlint.report.calls import callsite_json

    saves = _saves(
        """\
        import some_lib
        ckpt = tf.train.Checkpoint(extra=some_lib.Thing(), step=tf.Variable(1), net=model)
        ckpt.save("ckpts/c")
        """
    )
    features = saves[0].features
    assert "tracked" not in features and "saved" not in features
    assert "object at 0x" not in json.dumps(callsite_json(saves[0], None), default=str)
    assert saves[0].work["params"].value == PARAMS
