"""The options object a script hands another module (`gan.train(FLAGS)`, `model.run_epochs(sess, args)`,
`Trainer(args)`: `constructed.py`, `values.Options`): the parameter that receives it reads each
attribute as the default of the script's option, where every caller passes the same object and
neither the script nor the module sets that option; unknown otherwise."""

from __future__ import annotations

import ast

import pytest

from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.project import project_index
from greenlint.rules.base import FileFacts
from greenlint.rules.defaults import DefaultValue, Origin, default_value

MODEL = """\
import tensorflow as tf


class GAN(object):
    def __init__(self, sess):
        self.sess = sess
        self.z = tf.compat.v1.placeholder(tf.float32, [64, 100])
        self.h = tf.matmul(self.z, tf.compat.v1.get_variable("w", [100, 512]))

    def train(self, config):{extra}
        for step in range(config.steps):
            self.sess.run(self.h, feed_dict={{self.z: None}})


def run_epochs(sess, config):
    gan = GAN(sess)
    for epoch in range(config.epochs):
        sess.run(gan.h)
"""

FLAGS_MAIN = """\
import tensorflow as tf
from model import GAN

flags = tf.compat.v1.flags
flags.DEFINE_integer("steps", 30, "steps")
FLAGS = flags.FLAGS


def main(_):
    with tf.compat.v1.Session() as sess:
        {body}
"""

ARGS_MAIN = """\
import argparse
import tensorflow as tf
import model

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=12)
args = parser.parse_args()
with tf.compat.v1.Session() as sess:
    {body}
"""


def loops(tmp_path, main: str, body: str, extra: str = "", also: dict[str, str] | None = None) -> dict:
    """Function name in model.py -> (the trip count of its `Session.run`'s loop, the option it is
    the default of), with main.py calling it by *body*."""
    for stale in tmp_path.iterdir():
        stale.rmdir() if stale.is_dir() else stale.unlink()
    (tmp_path / ".git").mkdir()
    (tmp_path / "model.py").write_text(MODEL.format(extra=extra))
    (tmp_path / "main.py").write_text(main.format(body=body))
    for name, text in (also or {}).items():
        (tmp_path / name).write_text(text)
    result = analyse_file(tmp_path / "model.py")
    found = {}
    for site in result.callsites:
        if site.api.endswith("Session.run"):
            name = "method" if "self.sess" in result.source_text.splitlines()[site.span.line - 1] else "function"
            found[name] = (site.runs.loop, site.runs.loop_option)
    return found


def test_a_method_called_on_the_scripts_instance_reads_its_flags_defaults(tmp_path):
    found = loops(tmp_path, FLAGS_MAIN, "gan = GAN(sess)\n        gan.train(FLAGS)")
    assert found["method"] == (30, "steps")


def test_a_function_of_a_module_imported_whole_reads_the_parsed_arguments_defaults(tmp_path):
    found = loops(tmp_path, ARGS_MAIN, "model.run_epochs(sess, args)")
    assert found["function"] == (12, "epochs")


def test_a_caller_passing_another_object_leaves_the_attributes_unknown(tmp_path):
    body = "gan = GAN(sess)\n        gan.train(FLAGS)\n        gan.train(object())"
    assert loops(tmp_path, FLAGS_MAIN, body)["method"][0] is None
    assert loops(tmp_path, ARGS_MAIN, "model.run_epochs(sess, args)\n    model.run_epochs(sess, config)")["function"][0] is None


def test_an_option_the_script_or_the_module_sets_stays_unknown(tmp_path):
    body = "gan = GAN(sess)\n        gan.train(FLAGS)"
    main = FLAGS_MAIN.replace("FLAGS = flags.FLAGS", "FLAGS = flags.FLAGS\nFLAGS.steps = 5")
    assert loops(tmp_path, main, body)["method"][0] is None
    assert loops(tmp_path, FLAGS_MAIN, body, extra="\n        config.steps = 7")["method"][0] is None
    literal = ARGS_MAIN.replace("parser.parse_args()", 'parser.parse_args(["--epochs", "3"])')
    assert loops(tmp_path, literal, "model.run_epochs(sess, args)")["function"][0] is None


def test_an_instance_handed_to_a_project_module_that_may_call_the_method_stays_unknown(tmp_path):
    main = FLAGS_MAIN.replace("from model import GAN", "from model import GAN\nfrom runner import run")
    body = "gan = GAN(sess)\n        gan.train(FLAGS)\n        run(gan)"
    calls = {"runner.py": "def run(g):\n    g.train(None)\n"}
    assert loops(tmp_path, main, body, also=calls)["method"][0] is None
    other = {"runner.py": "def run(g):\n    g.save()\n"}  # hands it on, but never calls `.train`
    assert loops(tmp_path, main, body, also=other)["method"] == (30, "steps")


def test_a_method_the_script_reads_on_something_else_stays_unknown(tmp_path):
    body = "gan = GAN(sess)\n        gan.train(FLAGS)\n        step = sess.train"
    assert loops(tmp_path, FLAGS_MAIN, body)["method"][0] is None


def analysed_facts(path) -> FileFacts:
    """The rules' facts of the file at *path*, with what its analysis read (as `check` builds them)."""
    analysis = analyse_file(path)
    return FileFacts(str(path), (), analysis.source_text, analysis.tree, options=analysis.options)


def read_default(facts: FileFacts, written: str) -> DefaultValue | None:
    """What the rules read as the default of the one attribute written *written* in the file."""
    (read,) = [n for n in facts.nodes(None, ast.Attribute) if ast.unparse(n) == written]
    return default_value(facts, read, None)


def test_the_rules_read_the_handed_options_default_and_say_whose_it_is(tmp_path):
    loops(tmp_path, FLAGS_MAIN, "gan = GAN(sess)\n        gan.train(FLAGS)")
    path = tmp_path / "model.py"
    assert read_default(analysed_facts(path), "config.steps") == DefaultValue(30, "the default of `--steps`", Origin.DEFAULT)
    (tmp_path / "main.py").write_text(FLAGS_MAIN.format(body="gan = GAN(sess)\n        gan.train(FLAGS)\n        gan.train(None)"))
    project_index().refresh()
    assert read_default(analysed_facts(path), "config.steps") is None  # two callers, two objects


def test_a_constructor_keeps_the_options_object_for_its_methods(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "trainer.py").write_text(
        "import tensorflow as tf\n\n\nclass Trainer:\n    def __init__(self, args):\n        self.args = args\n"
        "        self.model = tf.keras.Sequential([tf.keras.layers.Dense(4)])\n\n    def run(self, x, y):\n"
        "        for epoch in range(self.args.epochs):\n            self.model.train_on_batch(x, y)\n")
    (tmp_path / "main.py").write_text(
        "import argparse\nimport tensorflow as tf\nfrom trainer import Trainer\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--epochs', type=int, default=7)\nargs = parser.parse_args()\nTrainer(args).run(None, None)\n")
    (site,) = [s for s in analyse_file(tmp_path / "trainer.py").callsites if s.api.endswith("train_on_batch")]
    assert (site.runs.loop, site.runs.loop_option) == (7, "epochs")


def test_a_loop_whose_count_is_the_handed_default_says_whose_default_it_is(tmp_path):
    from greenlint.rules.pipeline_runs import loop_at

    loops(tmp_path, ARGS_MAIN, "model.run_epochs(sess, args)")
    facts = analysed_facts(tmp_path / "model.py")
    (loop,) = [n for n in facts.nodes(None, ast.For) if "config.epochs" in ast.unparse(n.iter)]
    assert loop_at(facts, loop, None) == f"{loop.lineno} (12 passes: `config.epochs`, the default of `--epochs`)"


@pytest.mark.parametrize("inner, loop, option, said", [
    ("args.iteration", 15, "epoch, iteration", "the defaults of `--epoch` and `--iteration`"),
    ("args.epoch", 9, "epoch", "the default of `--epoch` as a loop's trip count"),
])
def test_nested_loops_counted_by_options_name_each_once(tmp_path, inner, loop, option, said):
    """`for epoch in range(args.epoch): for idx in range(args.iteration):` runs the step epoch ×
    iteration times: the count names both defaults, not the outer loop's alone; two loops over
    `range(args.epoch)` (epoch² runs) name `--epoch` once."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "main.py").write_text(
        "import argparse\nimport tensorflow as tf\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--epoch', type=int, default=3)\nparser.add_argument('--iteration', type=int, default=5)\n"
        "args = parser.parse_args()\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(4)])\n"
        f"for epoch in range(args.epoch):\n    for idx in range({inner}):\n        model.train_on_batch(x, y)\n")
    (site,) = [s for s in analyse_file(tmp_path / "main.py").callsites if s.api.endswith("train_on_batch")]
    assert (site.runs.loop, site.runs.loop_option) == (loop, option)
    assert said in site.runs.note
