"""A TF1 training whose update is hand-written (handwritten.py): a project function that writes each
variable from its gradient (`tf.gradients`, then `assign*`, grouped) returns a training step's op, wherever
it is chosen from (a dict, a module's attribute) and run (a closure kept on an object, in another module).
A function writing variables from something else (a moving average, a counter) or only reading gradients
builds no training step."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_file, analyse_source

GRAPH = """
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 784])
y = tf.placeholder(tf.float32, [None, 10])
logits = tf.layers.dense(x, 10)
loss = tf.reduce_mean(tf.square(logits - y))
params = tf.trainable_variables()
"""

#: Optimizers written by hand, beside look-alikes that write variables from something else.
OPTIM = """
import tensorflow as tf


def momentum(params, cost, lr=0.01):
    gs = tf.gradients(cost, params)
    updates = []
    for w, g in zip(params, gs):
        m = tf.Variable(tf.zeros(w.get_shape()))
        m_new = 0.9 * m + g
        updates.append(m.assign(m_new))
        updates.append(w.assign_sub(lr * m_new))
    step = tf.Variable(0.)
    updates.append(step.assign_add(1))
    train_op = tf.group(*updates)
    return train_op, swap(params), step


def sgd(params, cost, lr=0.01):
    grads = tf.gradients(cost, params)
    return tf.group(*[tf.assign_sub(p, lr * g) for p, g in zip(params, grads)])


def swap(params):
    ema = tf.train.ExponentialMovingAverage(decay=0.99)
    updates = []
    for p in params:
        avg = ema.average(p)
        updates.append(avg.assign(p))
    return tf.group(*updates)


def count(params, cost):
    step = tf.Variable(0.)
    return tf.group(step.assign_add(1))


def norm(params, cost):
    gs = tf.gradients(cost, params)
    return tf.global_norm(gs)


def rms(params, cost, lr=0.01):
    gs = tf.gradients(cost, params)
    updates = []
    for w, g in zip(params, gs):
        v = tf.Variable(tf.zeros(w.get_shape()))
        v_new = 0.9 * v + 0.1 * tf.square(g)
        updates += [v.assign(v_new), w.assign_sub(lr * g / tf.sqrt(v_new + 1e-8))]
    return tf.group(*updates), swap(params), None
"""
#: The line before the code a test adds to the graph and the optimizers.
BASE = len(textwrap.dedent(GRAPH + OPTIM).strip("\n").splitlines())


def steps(code: str) -> dict[int, str]:
    result = analyse_source(textwrap.dedent(code).lstrip("\n"), "train.py")
    assert result.errors == []
    return {s.span.line: s.work["step"].value for s in result.callsites if "step" in s.work}


def test_a_group_of_variables_written_from_their_gradients_is_a_train_op():
    """The update's position in a returned tuple is the train op, the moving average's swap beside it is not;
    an update built in a comprehension of `tf.assign_sub` too."""
    code = GRAPH + OPTIM + (
        "train_op, swap_op, step = momentum(params, loss)\n"
        "plain = sgd(params, loss)\n"
        "sess = tf.Session()\n"
        "for i in range(100):\n"
        "    sess.run(train_op, {x: xs, y: ys})\n"
        "    sess.run([plain, loss], {x: xs, y: ys})\n"
        "    sess.run(swap_op)\n"
        "    sess.run(step)\n"
    )
    found = steps(code)
    assert found[BASE + 5] == found[BASE + 6] == "training"
    assert found[BASE + 7] == found[BASE + 8] == "inference"


def test_writes_from_no_gradient_and_gradients_only_read_are_no_train_op():
    """A moving average's copy, a counter's increment, a gradient norm: each run is one run of the graph."""
    code = GRAPH + OPTIM + (
        "sess = tf.Session()\n"
        "for i in range(100):\n"
        "    sess.run(swap(params))\n"
        "    sess.run(count(params, loss))\n"
        "    sess.run(norm(params, loss), {x: xs, y: ys})\n"
    )
    found = steps(code)
    assert found[BASE + 3] == found[BASE + 4] == found[BASE + 5] == "inference"


def test_a_builder_chosen_from_a_dict_of_optimizers_is_one():
    """`{'rms': rms, 'momentum': momentum}[name]`: every function the dict holds builds a train op; a dict of
    functions that build none (a swap, a counter) chooses no training."""
    code = GRAPH + OPTIM + (
        "name = input()\n"
        "chosen = {'rms': rms, 'momentum': momentum}[name](params, loss)[0]\n"
        "other = {'swap': swap, 'count': count}[name](params, loss)\n"
        "sess = tf.Session()\n"
        "for i in range(100):\n"
        "    sess.run(chosen, {x: xs, y: ys})\n"
        "    sess.run(other)\n"
    )
    found = steps(code)
    assert found[BASE + 6] == "training"
    assert found[BASE + 7] == "inference"


def test_a_closure_kept_on_an_object_runs_the_training_where_it_is_called(tmp_path):
    """glow's shape: `optim.py` holds the optimizers, `model.py` chooses one from a dict by an option and keeps
    `m.train = lambda lr: sess.run(train_op, ...)`, `train.py` calls `model.train(lr)` in its loop: that call is
    a training step, counted by the loop; `model.swap()` runs the moving average's swap, no training."""
    (tmp_path / "optim.py").write_text(textwrap.dedent(OPTIM).lstrip("\n"))
    (tmp_path / "model.py").write_text(
        "import tensorflow as tf\n"
        "import optim\n\n\n"
        "class M:\n"
        "    pass\n\n\n"
        "def build(sess, hps, loss, lr):\n"
        "    m = M()\n"
        "    chosen = {'momentum': optim.momentum, 'rms': optim.rms}[hps.optimizer]\n"
        "    train_op, swap_op, step = chosen(tf.trainable_variables(), loss)\n"
        "    m.train = lambda _lr: sess.run([train_op, loss], {lr: _lr})[1]\n"
        "    m.swap = lambda: sess.run(swap_op)\n"
        "    return m\n"
    )
    (tmp_path / "train.py").write_text(
        "import argparse\n"
        "import tensorflow as tf\n"
        "import model as model_lib\n\n"
        "p = argparse.ArgumentParser()\n"
        "p.add_argument('--optimizer', default='momentum')\n"
        "hps = p.parse_args()\n"
        "lr = tf.placeholder(tf.float32, [])\n"
        "model = model_lib.build(tf.Session(), hps, tf.constant(1.0), lr)\n"
        "for epoch in range(20):\n"
        "    for it in range(50):\n"
        "        model.train(0.001)\n"
        "    model.swap()\n"
    )
    sites = {s.span.line: s for s in analyse_file(tmp_path / "train.py").callsites}
    assert sites[12].work["step"].value == "training"
    assert sites[12].runs.count == 1000
    assert sites[13].work["step"].value == "inference"


def test_an_update_kept_in_an_attribute_is_run_as_a_training_step():
    """`self.train_op = tf.group(*[w.assign_sub(lr * g) ...])` in a model's build method, run in its train
    method: a training step; `self.ema_op` of a moving average's writes beside it: one run of the graph."""
    code = GRAPH + (
        "class Model:\n"
        "    def build(self, lr=0.01):\n"
        "        grads = tf.gradients(loss, params)\n"
        "        self.train_op = tf.group(*[w.assign_sub(lr * g) for w, g in zip(params, grads)])\n"
        "        self.ema_op = tf.group(*[tf.Variable(0.).assign(w) for w in params])\n"
        "        self.sess = tf.Session()\n\n"
        "    def train(self, batches):\n"
        "        for xs, ys in batches:\n"
        "            self.sess.run(self.train_op, {x: xs, y: ys})\n"
        "            self.sess.run(self.ema_op)\n\n\n"
        "m = Model()\nm.build()\nm.train(data)\n"
    )
    found = steps(code)
    assert found[17] == "training"
    assert found[18] == "inference"


def test_a_hand_written_step_costs_the_graph_of_the_loss_it_differentiates():
    """Its forward FLOPs are those of the loss given to `tf.gradients`, as an optimizer's `minimize(loss)`'s."""
    run = "sess = tf.Session()\nfor i in range(100):\n    sess.run(op, {x: xs[:64], y: ys[:64]})\n"

    def flops(built: str) -> int | None:
        code = textwrap.dedent(GRAPH + OPTIM).lstrip("\n") + built + run
        sites = analyse_source(code, "train.py").callsites
        return next(s.work["flops_per_sample"].value for s in sites if s.work.get("step") is not None)

    assert flops("op = sgd(params, loss)\n") == flops("op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n") > 0


UPDATE_BUILDER = "import tensorflow as tf\n\n\ndef build_train_op(loss):\n    return tf.train.AdamOptimizer(1e-4).minimize(loss)\n"
SESSION = (
    "import tensorflow as tf\n{imported}\n"
    "x = tf.placeholder(tf.float32, [64, 784])\n"
    "loss = tf.reduce_mean(tf.square(tf.layers.dense(x, 10)))\n"
    "train_op = build_train_op(loss)\n"
    "with tf.Session() as sess:\n"
    "    for step in range(1000):\n"
    "        sess.run(train_op, feed_dict={{x: batch}})\n"
)


def test_the_step_names_the_module_that_built_its_update_where_another_did(tmp_path):
    """`built at line 5` read beside the run would point into the file that runs the session: the update was
    built at line 5 of `ops.py`, which the note names."""
    (tmp_path / "ops.py").write_text(UPDATE_BUILDER)
    (tmp_path / "train.py").write_text(SESSION.format(imported="from ops import build_train_op\n"))
    step = next(s for s in analyse_file(tmp_path / "train.py").callsites if s.api.endswith("Session.run")).work["step"]
    assert step.value == "training" and "update built at ops.py line 5:" in step.note


def test_the_step_names_the_line_alone_where_the_file_built_its_update():
    code = UPDATE_BUILDER + SESSION.format(imported="")
    step = next(s for s in analyse_source(code, "train.py").callsites if s.api.endswith("Session.run")).work["step"]
    assert "update built at line 5:" in step.note


def test_a_gradients_call_spelled_otherwise_than_its_normal_form_still_trains():
    """`tf.ｇradients` (a fullwidth `g`) is `tf.gradients` to Python, whose parser normalises names
    (NFKC): a text not naming `gradient` as written still builds the update."""
    code = GRAPH + OPTIM.replace("grads = tf.gradients(", "grads = tf.\uff47radients(").replace(
        "gs = tf.gradients(", "gs = tf.\uff47radients(") + (
        "plain = sgd(params, loss)\n"
        "sess = tf.Session()\n"
        "for i in range(100):\n"
        "    sess.run(plain, {x: xs, y: ys})\n"
    )
    assert "gradient" not in code
    assert steps(code)[BASE + 4] == "training"
