"""TF1 loops written as one call (analysis/slim_training.py): TF-slim's `learning.train` and its
evaluations, `tf.contrib.training.train`, are call sites of a session run of the op they are given,
run as often as the call states, unknown where it runs until stopped."""

from __future__ import annotations

import pytest

from greenlint.analysis.analyse import analyse_source

PROGRAM = """import tensorflow as tf
slim = tf.contrib.slim

images = tf.placeholder(tf.float32, [32, 28, 28, 1])
net = slim.conv2d(images, 16, [3, 3])
logits = slim.fully_connected(slim.flatten(net), 10, activation_fn=None)
loss = tf.reduce_mean(logits)
train_op = slim.learning.create_train_op(loss, tf.train.AdamOptimizer(1e-3))
{call}
"""
#: Forward FLOPs per image: the 3x3 convolution to 16 channels at 28x28 with its ReLU, the dense layer.
FLOPS = 28 * 28 * 16 * 9 * 2 + 28 * 28 * 16 + 28 * 28 * 16 * 10 * 2


def site(call: str):
    result = analyse_source(PROGRAM.format(call=call), "train.py")
    assert result.errors == []
    (found,) = [s for s in result.callsites if s.api.endswith("Session.run")]
    return found


def test_slim_train_is_a_training_step_of_its_op_graph_run_number_of_steps_times():
    found = site('slim.learning.train(train_op, "/tmp/log", number_of_steps=500, save_summaries_secs=60)')
    assert found.features["receiver"] == "driver"
    assert found.work["step"].value == "training"
    assert found.work["samples"].value == 32
    assert found.work["flops_per_sample"].value == pytest.approx(FLOPS, rel=0.05)
    assert (found.runs.count, found.runs.bound) == (500, "upper")  # the global step may start above zero
    assert "number_of_steps=500" in found.work["driver"].note


@pytest.mark.parametrize(
    "call",
    [
        'slim.learning.train(train_op, "/tmp/log")',  # slim's default: until the process is stopped
        'slim.learning.train(train_op, "/tmp/log", number_of_steps=steps)',
        'slim.learning.train(train_op, "/tmp/log", **options)',
    ],
)
def test_steps_not_stated_leave_the_runs_unknown_with_one_step_figure(call):
    found = site(call)
    assert found.runs.count is None
    assert found.work["step"].value == "training"
    # only slim's own default (None) says it runs until stopped: a count not known may be any
    assert ("until_stopped" in found.features) == call.endswith('"/tmp/log")')


def test_a_train_op_not_followed_is_still_a_training_step():
    found = site('slim.learning.train(make_op(), "/tmp/log", number_of_steps=10)')
    assert found.work["step"].value == "training"
    assert found.work["flops_per_sample"].value is None
    assert found.runs.count == 10


def test_evaluate_once_runs_its_eval_op_num_evals_times():
    found = site('slim.evaluation.evaluate_once("", "ckpt", "/tmp/eval", num_evals=100, eval_op=[loss])')
    assert found.work["step"].value == "inference"
    assert (found.runs.count, found.runs.bound) == (100, "upper")  # an input that runs out ends it sooner


def test_evaluation_loop_counts_its_checkpoints_only_where_stated():
    endless = site('slim.evaluation.evaluation_loop("", "ckpts", "/tmp/eval", num_evals=100, eval_op=[loss])')
    assert endless.runs.count is None
    bounded = site(
        'slim.evaluation.evaluation_loop("", "ckpts", "/tmp/eval", num_evals=100, eval_op=[loss], '
        "max_number_of_evaluations=3)"
    )
    assert (bounded.runs.count, bounded.runs.bound) == (300, "upper")


def test_contrib_training_train_counts_a_literal_stop_hook():
    found = site('tf.contrib.training.train(train_op, "/tmp/log", hooks=[tf.train.StopAtStepHook(last_step=2000)])')
    assert found.work["step"].value == "training"
    assert (found.runs.count, found.runs.bound) == (2000, "upper")
    assert site('tf.contrib.training.train(train_op, "/tmp/log")').runs.count is None


def test_a_count_from_a_flag_default_names_the_flag():
    program = PROGRAM.format(call='slim.learning.train(train_op, "/tmp/log", number_of_steps=FLAGS.steps)')
    program = program.replace(
        "slim = tf.contrib.slim\n",
        "slim = tf.contrib.slim\ntf.app.flags.DEFINE_integer('steps', 1000, 'steps')\nFLAGS = tf.app.flags.FLAGS\n",
    )
    (found,) = [s for s in analyse_source(program, "train.py").callsites if s.api.endswith("Session.run")]
    assert (found.runs.count, found.runs.bound) == (1000, "upper")
    assert "steps" in found.runs.note


def test_the_tf_slim_package_and_a_loop_around_the_call():
    program = PROGRAM.replace("slim = tf.contrib.slim", "import tf_slim as slim").format(
        call='for stage in range(3):\n    slim.learning.train(train_op, "/tmp/log", number_of_steps=100)'
    )
    (found,) = [s for s in analyse_source(program, "train.py").callsites if s.api.endswith("Session.run")]
    assert found.runs.count == 300


def test_a_flag_defaulting_to_none_runs_until_stopped():
    program = PROGRAM.format(
        call='slim.learning.train(train_op, "/tmp/log", number_of_steps=FLAGS.max_number_of_steps)'
    )
    program = program.replace(
        "slim = tf.contrib.slim\n",
        "slim = tf.contrib.slim\ntf.app.flags.DEFINE_integer('max_number_of_steps', None, 'steps')\n"
        "FLAGS = tf.app.flags.FLAGS\n",
    )
    (found,) = [s for s in analyse_source(program, "train.py").callsites if s.api.endswith("Session.run")]
    assert found.runs.count is None
    assert found.work["step"].value == "training"
    assert found.features["until_stopped"] == "number_of_steps None: the default of --max_number_of_steps"
