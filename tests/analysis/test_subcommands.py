"""A command line whose sub-commands each set the function to run (`p.set_defaults(func=do_train)`, then
`args.func(args)`) runs one of them: each at most once per call (subcommands.py, the resolver's
`Choice`); where a sub-parser sets none, or one sets something other than a project function, the
functions' runs stay unknown."""

from __future__ import annotations

import ast

from greenlint.analysis import subcommands
from greenlint.analysis.analyse import analyse_source

PROGRAM = """import argparse
import tensorflow as tf


def build():
    x = tf.placeholder(tf.float32, [64, 32])
    w = tf.Variable(tf.zeros([32, 10]))
    loss = tf.reduce_mean(tf.matmul(x, w))
    return loss, tf.train.AdamOptimizer(0.1).minimize(loss)


def do_train(args):
    loss, train_op = build()
    with tf.Session() as sess:
        for epoch in range(10):
            for it in range(100):
                sess.run(train_op)


def do_test(args):
    loss, train_op = build()
    with tf.Session() as sess:
        for it in range(20):
            sess.run(loss)


def add_train(commands):
    p = commands.add_parser("train")
    p.add_argument("--epochs", type=int, default=10)
    p.set_defaults(func=do_train)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers()
    add_train(commands)
    p = commands.add_parser("test")
    p.set_defaults(func={test})
{more}    args = parser.parse_args()
    args.func(args)
"""


def runs(test: str = "do_test", more: str = "") -> dict[int, tuple]:
    result = analyse_source(PROGRAM.format(test=test, more=more), "main.py")
    assert result.errors == []
    return {s.span.line: (s.runs.count, s.runs.bound) for s in result.callsites if s.api.endswith("Session.run")}


def test_each_sub_command_function_runs_at_most_once():
    assert runs() == {17: (1000, "upper"), 24: (20, "upper")}


def test_one_sub_command_runs_its_function_at_most_once():
    found = analyse_source(
        "import argparse\nimport tensorflow as tf\n\n\ndef do_test(args):\n    with tf.Session() as sess:\n"
        "        sess.run(tf.zeros([4]))\n\n\nparser = argparse.ArgumentParser()\np = parser.add_subparsers()"
        ".add_parser('test')\np.set_defaults(func=do_test)\nargs = parser.parse_args()\nargs.func(args)\n",
        "main.py",
    )
    (site,) = [s for s in found.callsites if s.api.endswith("Session.run")]
    assert (site.runs.count, site.runs.bound) == (1, "upper")  # none runs where no sub-command is named


def test_a_sub_parser_setting_no_function_leaves_the_runs_unknown():
    found = runs(more="    commands.add_parser('export')\n")
    assert found[17][0] is None and found[24][0] is None


def test_a_default_that_is_no_project_function_leaves_the_runs_unknown():
    assert runs(test="print")[17][0] is None


def test_the_attribute_set_otherwise_is_not_a_sub_command_pick():
    tree = ast.parse("p = sub.add_parser('a')\np.set_defaults(func=f)\nargs = parser.parse_args()\nargs.func = g\n")
    assert subcommands.setters(tree, "func") == []
    tree = ast.parse("p = sub.add_parser('a')\np.set_defaults(func=f)\np.add_argument('--func')\n")
    assert subcommands.setters(tree, "func") == []
