"""A class (or function) a module defines but never names itself, constructed by the scripts beside
it (`constructed.py`, `Resolver.passed_beside`): its parameters bind what every such call passes,
literals and the script's command-line defaults, and stay unknown where the calls differ or the
script names it otherwise."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_file

MODEL = """\
import tensorflow as tf


class GAN(object):
    def __init__(self, sess, batch_size=64, z_dim=100, gf_dim=64):
        self.sess = sess
        self.z_dim = z_dim
        self.gf_dim = gf_dim
        self.z = tf.compat.v1.placeholder(tf.float32, [batch_size, self.z_dim])
        w = tf.compat.v1.get_variable("w", [self.z_dim, self.gf_dim * 8])
        self.h = tf.matmul(self.z, w)

    def train(self, z):
        for step in range(100):
            self.sess.run(self.h, feed_dict={self.z: z})
"""

MAIN = """\
import tensorflow as tf
from model import GAN

flags = tf.compat.v1.flags
flags.DEFINE_integer("z_dim", 10, "z")
FLAGS = flags.FLAGS


def main(_):
    with tf.compat.v1.Session() as sess:
        {calls}
"""


def run_flops(tmp_path, calls: str, main: str = MAIN) -> object:
    """The FLOPs per sample of model.py's `Session.run`, with main.py making the GAN by *calls*."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "main.py").write_text(main.format(calls=textwrap.indent(calls, " " * 8).strip()))
    result = analyse_file(tmp_path / "model.py")
    (site,) = [s for s in result.callsites if s.api.endswith("Session.run")]
    return site.work["flops_per_sample"].value


def test_a_class_built_in_the_script_beside_it_binds_that_calls_arguments(tmp_path):
    # z_dim the flag's default 10, gf_dim the parameter's default 64: 2 x 10 x 512 FLOPs per sample
    assert run_flops(tmp_path, "gan = GAN(sess, z_dim=FLAGS.z_dim)\ngan.train(None)") == 2 * 10 * 512


def test_calls_giving_the_same_values_in_other_forms_bind_them(tmp_path):
    agree = "if FLAGS.z_dim:\n    g = GAN(sess, 8, FLAGS.z_dim)\nelse:\n    g = GAN(sess, batch_size=8, z_dim=10)"
    assert run_flops(tmp_path, agree) == 2 * 10 * 512


def test_calls_that_differ_leave_the_size_unknown(tmp_path):
    assert run_flops(tmp_path, "a = GAN(sess, z_dim=4)\nb = GAN(sess, z_dim=8)") is None


def test_a_class_the_script_names_otherwise_or_with_unknown_arguments_stays_unknown(tmp_path):
    for calls in ("make = GAN\ng = make(sess, z_dim=4)", "g = GAN(sess, **FLAGS.flag_values_dict())",
                  "g = GAN(sess, z_dim=int(input()))"):
        for stale in tmp_path.iterdir():
            stale.rmdir() if stale.is_dir() else stale.unlink()
        assert run_flops(tmp_path, calls) is None, calls


def test_an_import_written_with_blanks_or_parentheses_is_read(tmp_path):
    # the scripts' texts are searched for `<module> import` before they are parsed: blanks between
    # the words, or the names in parentheses over several lines, still name the class
    for line in ("from model  import GAN", "from model import (\n    tf,\n    GAN,\n)"):
        main = MAIN.replace("from model import GAN", line)
        for stale in tmp_path.iterdir():
            stale.rmdir() if stale.is_dir() else stale.unlink()
        assert run_flops(tmp_path, "gan = GAN(sess, z_dim=FLAGS.z_dim)", main) == 2 * 10 * 512, line


def test_a_flag_the_script_sets_itself_leaves_the_size_unknown(tmp_path):
    main = MAIN.replace("FLAGS = flags.FLAGS", "FLAGS = flags.FLAGS\nFLAGS.z_dim = 4")
    assert run_flops(tmp_path, "gan = GAN(sess, z_dim=FLAGS.z_dim)", main) is None


def test_only_the_scripts_importing_names_from_the_module_are_read():
    """`Beside` keeps a script whose text may hold `from ...model import` (the module's
    name as a whole word, blanks or a line continuation before `import`) or `import model`, and no other."""
    from greenlint.analysis.constructed import Beside

    texts = {
        "by_name.py": "from pkg.model import GAN\n",
        "continued.py": "from model \\\n    import GAN\n",
        "longer_name.py": "from pkg.mymodel import GAN\nfrom model_import import x\n",
        "whole_module.py": "import model\nmodel.GAN(1)\n",
        "other_module.py": "import model_zoo\nimport xmodel\n",
        "unreadable.py": None,
    }
    assert [script[0] for script in Beside(texts, "/p/model.py").scripts] == ["by_name.py", "continued.py", "whole_module.py"]


def test_a_script_is_walked_only_for_the_names_its_imports_can_call():
    """`Beside.calls` walks a script only where `_may_call` says its imports can call the name:
    every name the walk finds calls of (a name imported from the module, a function of a module
    imported whole, a method on an instance of an imported class) passes that test, and a script
    that imports the module as a name from its package (`from pkg import model`) calls none."""
    from greenlint.analysis.constructed import Beside, _imports, _may_call, _script
    from greenlint.analysis.values import Const

    scripts = {
        "by_name.py": "from pkg.model import GAN, train\ngan = GAN(1)\ngan.fit(2)\ntrain(3)\n",
        "whole.py": "import model\nmodel.train(4)\n",
        "aliased.py": "from model import GAN as G\ng = G(5)\ng.fit(6)\n",
        "as_name.py": "from pkg import model\nmodel.train(7)\ngan = model.GAN(8)\ngan.fit(9)\n",
    }
    for path, text in scripts.items():
        calls, _, _, _ = _script(path, text)
        assert calls, path
        for stem, name in calls:
            owner = name.rpartition(".")[0]
            assert _may_call(*_imports(path, text), stem, owner, name), (path, name)
    assert not any(_may_call(*_imports("as_name.py", scripts["as_name.py"]), "model", o, n)
                   for o, n in (("", "train"), ("", "GAN"), ("GAN", "GAN.fit")))
    assert Beside(scripts, "/p/model.py").calls("GAN.fit").arguments == [([Const(2)], {}), ([Const(6)], {})]


def test_a_name_no_script_can_call_is_known_before_any_walk(monkeypatch):
    """`Beside.may_call` answers from the scripts' imports and, for a module imported whole, the
    words of the script's text: a name imported by name, a method of an imported class, an
    attribute of the module a script reads; no other name, and then no script is walked."""
    from greenlint.analysis import constructed
    from greenlint.analysis.values import Const

    scripts = {
        "by_name.py": "from model import GAN, train\ngan = GAN(1)\ngan.fit(2)\ntrain(3)\n",
        "whole.py": "import model\nmodel.evaluate(4)\n",
        "unicode.py": "import model\n# é\n",
    }
    beside = constructed.Beside(scripts, "/p/model.py")
    ascii_only = constructed.Beside({k: v for k, v in scripts.items() if k != "unicode.py"}, "/p/model.py")
    assert all(ascii_only.may_call(name) for name in ("GAN", "train", "evaluate", "GAN.fit", "GAN.anything"))
    assert not any(ascii_only.may_call(name) for name in ("predict", "Other.fit", "Gan"))
    assert beside.may_call("predict")  # a non-ASCII text may name it in a normalised form: walked
    walked = []
    real = constructed._script
    monkeypatch.setattr(constructed, "_script", lambda path, text, *rest: walked.append(path) or real(path, text, *rest))
    assert ascii_only.calls("predict") is None and walked == []
    assert ascii_only.calls("evaluate").arguments == [([Const(4)], {})] and walked == ["whole.py"]


@pytest.mark.parametrize("name, scripts, helper", [
    # a script walked, reading `.evaluate` of what it cannot tell (sequence_tagging's `# model.restore_session(...)`)
    ("GAN.evaluate", {"main.py": "from model import GAN\nother = make()\n{0}other.evaluate(3){1}\n"}, ""),
    # a script whose imports cannot call it (`from pkg import model`), naming it
    ("train", {"as_name.py": "from pkg import model\n{0}model.train(3){1}\n"}, ""),
    # a script whose reading does not follow the path it names it by (`import pkg.model`), naming it
    ("train", {"dotted.py": "import pkg.model\n{0}pkg.model.train(3){1}\n"}, ""),
    # a project module the script hands its instance to, reading `.evaluate` of it
    ("GAN.evaluate", {"main.py": "from model import GAN\nfrom helpers import run\ng = GAN(1)\ng.evaluate(4)\nrun(g)\n"},
     "def run(g):\n    {0}g.evaluate(3){1}\n    return g\n"),
])
@pytest.mark.parametrize("around, counted", [(("", ""), False), (("# ", ""), True), (("print('", "')"), True)])
def test_a_name_in_a_comment_or_a_string_is_no_call(name, scripts, helper, around, counted):
    """`Beside.calls` counts the calls of a name as not all seen where a script (or a project module it
    hands an instance to) names it otherwise than its reading follows; a comment or a string naming it
    calls nothing (`# model.restore_session(...)`), a call in the code does (*around*: the other call
    as written, in a comment, in a string)."""
    from greenlint.analysis.constructed import Beside

    texts = {"eval.py": "from model import GAN, train\ng = GAN(1)\ng.evaluate(2)\ntrain(2)\n"}
    texts.update((path, text.format(*around)) for path, text in scripts.items())
    modules = {"/p/helpers.py": helper.format(*around)} if helper else {}
    called = Beside(texts, "/p/model.py").calls(name, lambda script: modules)
    if counted:
        assert called is not None and called.runs == 1 and "eval.py" in called.scripts
    else:
        assert called is None or called.runs is None


def test_a_script_is_read_once_per_text(monkeypatch, tmp_path):
    """`_imports` and `_script` read a script once per text: asked again (another module it imports
    analysed), the same text is not parsed again, also after a hundred other scripts; a new text
    at the same path is."""
    from greenlint.analysis import constructed, trees
    from greenlint.analysis.values import Const

    parsed = []
    real = trees.parse_module
    monkeypatch.setattr(trees, "parse_module", lambda text, *args, **kwargs: parsed.append(text) or real(text, *args, **kwargs))
    path = str(tmp_path / "main.py")
    first, second = "from model import GAN\nGAN(1)\n", "import model\nmodel.train(2)\n"
    for _ in range(2):
        assert constructed._imports(path, first) == ({"GAN": ("model", "GAN")}, {})
        assert constructed._script(path, first)[0] == {("model", "GAN"): [([Const(1)], {})]}
    assert constructed._imports(path, second) == ({}, {"model": "model"})
    assert constructed._script(path, second)[0] == {("model", "train"): [([Const(2)], {})]}
    assert constructed._imports(path, "import model(\n") is None
    for i in range(100):  # a folder of many scripts, each asked once
        constructed._script(str(tmp_path / f"other{i}.py"), f"import model\nmodel.train({i + 10})\n")
    assert constructed._script(path, second)[0] == {("model", "train"): [([Const(2)], {})]}
    assert parsed.count(first) == 2 and parsed.count(second) == 2  # `_imports`' and `_script`'s


TRAINER = """\
import tensorflow as tf


class Trainer(object):
    def __init__(self, sess, args):
        self.sess = sess
        self.epoch = args.epoch
        self.iteration = args.iteration
        self.loss = tf.reduce_mean(tf.zeros([4]))

    def train(self):
        for epoch in range(self.epoch):
            for idx in range(self.iteration):
                self.sess.run(self.loss)
"""

UTILS = """\
import tensorflow as tf


def check_folder(path):
    return path
"""

SCRIPT = """\
from trainer import Trainer
import argparse
from utils import *


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument('--epoch', type=int, default=100)
    parser.add_argument('--iteration', type=int, default=10000)
    return {returned}


def check_args(args):
    check_folder(args.epoch)
    return args


def main():
    args = parse_args()
    with tf.Session() as sess:
        gan = Trainer(sess, args)
        gan.train()


if __name__ == '__main__':
    main()
"""


def trainer_loop(tmp_path, returned: str) -> object:
    """The trips of the loops around trainer.py's `Session.run`, with main.py (which names TensorFlow
    only through `from utils import *`) making the trainer from what its `parse_args()` returns."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "trainer.py").write_text(TRAINER)
    (tmp_path / "utils.py").write_text(UTILS)
    (tmp_path / "main.py").write_text(SCRIPT.format(returned=returned))
    (site,) = [s for s in analyse_file(tmp_path / "trainer.py").callsites if s.api.endswith("Session.run")]
    return site.runs.loop


def test_a_script_function_returning_the_parsed_command_line_gives_its_defaults(tmp_path):
    # through a check of the options that hands them back, in a script naming TF by a star import
    assert trainer_loop(tmp_path, "check_args(parser.parse_args())") == 100 * 10000
    assert trainer_loop(tmp_path, "parser.parse_args()") == 100 * 10000


def test_a_script_function_returning_other_than_the_parsed_command_line_gives_nothing(tmp_path):
    assert trainer_loop(tmp_path, "vars(parser.parse_args())") is None
    assert trainer_loop(tmp_path, "check_args(parser.parse_args(['--epoch', '3']))") is None
