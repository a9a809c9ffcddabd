"""A lambda or a local function stored into an object's attribute (`m.train = lambda lr: sess.run(...)`)
runs where it is called through that attribute: its calls there are all of them where the module reads
the attribute nowhere else (references.py `AttributeUses`), so it runs as often as they do; stored on two
paths, a call runs one of them, each at most as often; called from another module, that call is a call
site of what it runs."""

from __future__ import annotations

from greenlint.analysis.analyse import analyse_file, analyse_source

BUILD = """import tensorflow as tf

def build(sess, lr, direct):
    x = tf.placeholder(tf.float32, [64, 32])
    w = tf.Variable(tf.zeros([32, 10]))
    loss = tf.reduce_mean(tf.matmul(x, w))
    train_op = tf.train.AdamOptimizer(lr).minimize(loss)

    class m(object):
        pass
    {store}
    m.test = lambda: sess.run(loss)
    return m
"""
LAMBDA = "m.train = lambda _lr: sess.run([train_op, loss], {lr: _lr})[1]"
EITHER = """if direct:
        m.train = lambda _lr: sess.run([train_op, loss], {lr: _lr})[1]
    else:
        def _train(_lr):
            return sess.run([train_op, loss], {lr: _lr})[1]
        m.train = _train"""
MAIN = """
def main():
    sess = tf.Session()
    lr = tf.placeholder(tf.float32, [])
    model = build(sess, lr, True)
    for epoch in range(10):
        for it in range(100):
            model.train(0.1)
        model.test()
{more}
main()
"""


def runs(store: str = LAMBDA, more: str = "") -> dict[int, tuple]:
    result = analyse_source(BUILD.format(store=store) + MAIN.format(more=more), "train.py")
    assert result.errors == []
    return {
        s.span.line: (s.runs.count, s.runs.bound, s.work["step"].value)
        for s in result.callsites
        if s.api.endswith("Session.run")
    }


def test_a_lambda_stored_into_an_attribute_runs_as_often_as_its_calls_through_it():
    found = runs()
    assert found[11] == (1000, "exact", "training")  # model.train(0.1) in 10 x 100 trips
    assert found[12] == (10, "exact", "inference")


def test_stored_on_either_path_each_runs_at_most_as_often():
    found = runs(EITHER)
    assert found[12] == (1000, "upper", "training")  # the lambda
    assert found[15] == (1000, "upper", "training")  # _train
    assert found[17] == (10, "exact", "inference")


def test_an_attribute_read_elsewhere_leaves_the_runs_unknown():
    found = runs(more="    step = model.train\n")  # passed on: called where greenlint cannot count
    assert found[11][0] is None
    assert found[12][0] == 10


def test_a_call_through_the_same_name_reaching_another_object_leaves_the_runs_unknown():
    found = runs(more="    dataset.train(3)\n")  # a call of `.train` not seen reaching the lambda
    assert found[11][0] is None


def test_a_lambda_passed_as_an_argument_keeps_unknown_runs():
    result = analyse_source(
        "import tensorflow as tf\nsess = tf.Session()\nx = tf.placeholder(tf.float32, [4, 2])\n"
        "y = tf.reduce_sum(x)\nschedule(lambda: sess.run(y))\n",
        "train.py",
    )
    (site,) = [s for s in result.callsites if s.api.endswith("Session.run")]
    assert site.runs.count is None


def test_calls_from_another_module_are_call_sites_of_what_the_functions_run(tmp_path):
    (tmp_path / "setup.py").write_text("")
    (tmp_path / "model.py").write_text(BUILD.format(store=EITHER))
    script = tmp_path / "train.py"
    script.write_text(
        "import tensorflow as tf\nimport model\n\nsess = tf.Session()\nlr = tf.placeholder(tf.float32, [])\n"
        "m = model.build(sess, lr, True)\nfor it in range(100):\n    m.train(0.1)\n"
    )
    result = analyse_file(script)
    (site,) = [s for s in result.callsites if s.span.line == 8]
    assert site.api == "tensorflow.compat.v1.Session.run"
    assert (site.runs.count, site.work["step"].value) == (100, "training")
