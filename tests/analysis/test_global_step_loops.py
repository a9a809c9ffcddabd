"""TF1 loops that end at a global step (analysis/global_step.py): `while not sess.should_stop():` over a
monitored session given a `StopAtStepHook` runs at most the hook's steps where each trip runs an update
that moves the global step; unknown where no run moves it, or moves it only under a condition."""

from __future__ import annotations

import pytest

from greenlint.analysis.analyse import analyse_source

PROGRAM = """import tensorflow as tf

FLAGS = tf.app.flags.FLAGS
tf.app.flags.DEFINE_integer("max_steps", 5000, "steps")


def build(total_loss, global_step):
    opt = tf.train.GradientDescentOptimizer(0.1)
    apply_op = opt.apply_gradients(opt.compute_gradients(total_loss), global_step={step})
    with tf.control_dependencies([apply_op]):
        train_op = tf.no_op(name="train")
    return train_op


def train():
    global_step = tf.train.get_or_create_global_step()
    x = tf.placeholder(tf.float32, [32, 10])
    loss = tf.reduce_mean(tf.layers.dense(x, 1))
    train_op = build(loss, global_step)
    with tf.train.MonitoredTrainingSession(checkpoint_dir="/tmp/train", hooks=[{hook}, tf.train.NanTensorHook(loss)]) as sess:
        while not sess.should_stop():
{body}


train()
"""


def step_run(step="global_step", hook="tf.train.StopAtStepHook(last_step=FLAGS.max_steps)", body="sess.run(train_op)"):
    source = PROGRAM.format(step=step, hook=hook, body="\n".join(" " * 12 + line for line in body.splitlines()))
    result = analyse_source(source, "train.py")
    assert result.errors == []
    (found,) = [
        s for s in result.callsites if s.api.endswith("MonitoredSession.run") and s.work["step"].value == "training"
    ]
    return found


def test_a_monitored_loop_runs_at_most_its_stop_hooks_last_step_where_each_trip_moves_the_global_step():
    found = step_run()
    assert found.work["step"].value == "training"  # `tf.no_op` under the update's dependencies runs it
    assert (found.runs.count, found.runs.bound) == (5000, "upper")  # a checkpoint's step may be where it starts
    assert found.runs.loop_option == "max_steps"
    assert "resumes its count" in found.runs.note and "`--max_steps`" in found.runs.note


def test_num_steps_counts_from_the_step_it_begins_at():
    found = step_run(hook="tf.train.StopAtStepHook(num_steps=200)", body="_, l = sess.run([train_op, loss])")
    assert (found.runs.count, found.runs.bound) == (200, "upper")
    assert "resumes its count" not in found.runs.note


MODULE = """import tensorflow as tf
x = tf.placeholder(tf.float32, [16, 4])
loss = tf.reduce_mean(tf.layers.dense(x, 1))
step = tf.train.get_or_create_global_step()
{update}
{session} as sess:
    while not {stopper}.should_stop():
        sess.run(op)
"""
MONITORED = "with tf.train.MonitoredTrainingSession(hooks=[tf.train.StopAtStepHook(last_step=300)])"


def module_run(
    update="op = tf.train.AdamOptimizer().minimize(loss, global_step=step)", session=MONITORED, stopper="sess"
):
    result = analyse_source(MODULE.format(update=update, session=session, stopper=stopper), "train.py")
    assert result.errors == []
    (found,) = [s for s in result.callsites if s.api.endswith(".run")]
    return found


def test_a_minimize_given_the_global_step_moves_it_in_a_loop_at_module_level():
    found = module_run()
    assert (found.runs.count, found.runs.bound) == (300, "upper")


@pytest.mark.parametrize(
    ("step", "hook", "body"),
    [
        ("None", None, None),  # no global step moved: the hook never stops it
        (None, None, "if l > 0:\n    sess.run(train_op)\nl = 1"),  # moved only under a condition
        (None, "tf.train.StepCounterHook()", None),  # no hook that stops at a step
        (None, "tf.train.StopAtStepHook(last_step=FLAGS.max_steps)", "sess.run(loss)\nsess.run(train_op)\ncontinue"),
    ],
)
def test_a_monitored_loop_no_run_of_which_surely_moves_the_global_step_stays_unknown(step, hook, body):
    given = {k: v for k, v in (("step", step), ("hook", hook), ("body", body)) if v is not None}
    found = step_run(**given)
    assert found.runs.count is None


def test_an_update_whose_global_step_defaults_to_none_moves_none():
    update = "def build(loss, global_step=None):\n    return tf.train.AdamOptimizer().minimize(loss, global_step=global_step)\nop = build(loss)"
    assert module_run(update=update).runs.count is None


def test_a_supervisors_should_stop_stays_unknown():
    session = 'sv = tf.train.Supervisor(logdir="/tmp/log")\nwith sv.managed_session()'
    assert module_run(session=session, stopper="sv").runs.count is None


COUNTER = """import tensorflow as tf
x = tf.placeholder(tf.float32, [16, 4])
loss = tf.reduce_mean(tf.layers.dense(x, 1))
global_step = tf.train.get_or_create_global_step()
other = tf.Variable(0, trainable=False)
train_op = tf.train.AdamOptimizer().minimize(loss, global_step={moved})
with tf.Session() as sess:
    step = sess.run(global_step)
    while step < 2000:
{body}
"""


def counter_run(body="_, step, l = sess.run([train_op, global_step, loss])", moved="global_step"):
    source = COUNTER.format(moved=moved, body="\n".join(" " * 8 + line for line in body.splitlines()))
    result = analyse_source(source, "train.py")
    assert result.errors == []
    (found,) = [s for s in result.callsites if s.api.endswith("Session.run") and s.work["step"].value == "training"]
    return found


def test_a_loop_up_to_a_global_step_it_reads_and_moves_runs_at_most_one_trip_past_the_bound():
    found = counter_run()  # a read may come before the trip's own step: trip k reads at least k - 1
    assert (found.runs.count, found.runs.bound) == (2001, "upper")
    assert "resumes its count" in found.runs.note


@pytest.mark.parametrize(
    ("body", "moved"),
    [
        ("_, step = sess.run([train_op, other])", "global_step"),  # reads a variable no run moves
        ("_, step = sess.run([train_op, global_step])", "other"),  # moves another variable than it reads
        ("_, step = sess.run([train_op, global_step])", "None"),  # moves none
        (
            "if step > 5:\n    sess.run(train_op)\nstep = sess.run(global_step)",
            "global_step",
        ),  # moves it only sometimes
    ],
)
def test_a_loop_whose_counter_no_top_level_run_moves_stays_unknown(body, moved):
    assert counter_run(body, moved).runs.count is None
