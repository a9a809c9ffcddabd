"""A function bound to an object (`types.MethodType(train, model)`, `functools.partial(train, model)`) and
stored into an attribute the module only calls runs where that attribute is called, with the bound
arguments first: as often as those calls (references.py `AttributeUses`, `Resolver.bound_later`); the
attribute read otherwise, or never called here, leaves its runs unknown."""

from __future__ import annotations

from greenlint.analysis.analyse import analyse_source

PROGRAM = """import functools
import types
import tensorflow as tf


def train(self, sess, epochs=5):
    for epoch in range(epochs):
        for it in range(100):
            sess.run(self.train_op)


class Holder(object):
    pass


def build():
    m = Holder()
    x = tf.placeholder(tf.float32, [64, 32])
    w = tf.Variable(tf.zeros([32, 10]))
    m.loss = tf.reduce_mean(tf.matmul(x, w))
    m.train_op = tf.train.AdamOptimizer(0.1).minimize(m.loss)
    m.train = {binder}(train, m)
    return m


def main():
    model = build()
    sess = tf.Session()
{calls}

main()
"""
TRAIN_LINE = 9


def train_runs(calls: str, binder: str = "types.MethodType") -> tuple:
    result = analyse_source(PROGRAM.format(binder=binder, calls=calls), "segment.py")
    assert result.errors == []
    (site,) = [s for s in result.callsites if s.span.line == TRAIN_LINE]
    return site.runs.count, site.runs.bound


def test_a_method_bound_and_stored_runs_as_often_as_its_calls_through_the_attribute():
    assert train_runs("    model.train(sess, epochs=3)") == (300, "exact")


def test_its_calls_in_a_loop_multiply():
    assert train_runs("    for fold in range(4):\n        model.train(sess)") == (2000, "exact")


def test_a_partial_binds_the_same_way():
    assert train_runs("    model.train(sess, epochs=2)", binder="functools.partial") == (200, "exact")


def test_the_attribute_read_otherwise_leaves_the_runs_unknown():
    assert train_runs("    step = model.train\n    step(sess, epochs=3)")[0] is None


def test_never_called_here_its_runs_stay_unknown():
    assert train_runs("    print(model)")[0] is None
