"""A project module a program imports by a string the walk knows (by_name.py): `importlib.import_module`
of a literal or of a command-line option's default, `__import__`, then `getattr(module, "name")`, is that
module, as an `import` statement would give it; a string not known leaves the module unknown."""

from __future__ import annotations

import pytest

from greenlint.analysis.project import direct_imports
from tests.analysis.test_whole_program import sites, write

NET = """
import tensorflow as tf


def build(units):
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(units)])
    model.compile(optimizer="adam", loss="mse")
    return model
"""

TRAIN = """
import argparse
import importlib

import numpy as np
import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--model_def", {default})
args = parser.parse_args()
network = {imported}
x = np.zeros((64, 8))
model = {built}
model.fit(x, x, epochs=2)
"""

FIT = (13, "tensorflow.keras.Sequential.fit")


def fit_site(tmp_path, default: str, imported: str, built: str = "network.build(4)"):
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "models").mkdir()
    write(tmp_path, {"models/__init__.py": "", "models/net.py": NET})
    write(tmp_path, {"train.py": TRAIN.format(default=default, imported=imported, built=built)})
    return sites(tmp_path / "train.py")


@pytest.mark.parametrize(
    ("default", "imported", "built"),
    [
        ("default='models.net'", "importlib.import_module(args.model_def)", "network.build(4)"),
        ("help='unused'", "importlib.import_module('models.net')", "network.build(4)"),
        ("help='unused'", "importlib.import_module(name='models.net')", "getattr(network, 'build')(4)"),
        ("help='unused'", "__import__('models.net', fromlist=['build'])", "network.build(4)"),
        ("default='net'", "importlib.import_module('models.' + args.model_def)", "network.build(4)"),
        ("default='net'", "importlib.import_module(f'models.{args.model_def}')", "network.build(4)"),
        ("default='net'", "importlib.import_module('models.{}'.format(args.model_def))", "network.build(4)"),
        ("default='net'", "importlib.import_module('models.%s' % args.model_def)", "network.build(4)"),
    ],
)
def test_a_module_imported_by_a_known_string_is_that_module(tmp_path, default, imported, built):
    found = fit_site(tmp_path, default, imported, built)
    assert found[FIT].work["params"].value == 8 * 4 + 4  # the model models/net.py builds


@pytest.mark.parametrize(
    "imported",
    [
        "importlib.import_module(args.model_def)",  # an option with no default
        "importlib.import_module('.net', 'models')",  # a relative name
        "importlib.import_module('models.absent')",  # no such module in the project
        "__import__('models.net')",  # the top package, which binds no `build`
        "__import__('models.net', fromlist=[])",  # the same
        "importlib.import_module('models.' + args.model_def)",  # built from an option with no default
        "importlib.import_module('models.' + 'net'.upper())",  # built by a call
    ],
)
def test_a_module_named_by_a_string_not_known_stays_unknown(tmp_path, imported):
    found = fit_site(tmp_path, "help='unused'", imported)
    assert FIT not in found
    assert found[(13, "tensorflow.keras.Model.fit")].features["receiver_kind"] == "untyped"


CONFIG = """
num_epochs = 12
batch_size = 32
"""

LM = """
import importlib

import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("config", {default}, "The config to use.")
FLAGS = flags.FLAGS
config = importlib.import_module(FLAGS.config)


def _run_epoch(sess, op):
    return sess.run(op)


def main(_):
    op = tf.constant(1.0)
    with tf.Session() as sess:
        for epoch in range(config.num_epochs):
            _run_epoch(sess, op)
            sess.run(op)
        _run_epoch(sess, op)


if __name__ == "__main__":
    tf.app.run()
"""

RUN = "tensorflow.compat.v1.Session.run"


def run_sites(tmp_path, default: str):
    """The runs of `sess.run` in `_run_epoch` and of the one in the loop over the epochs."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    write(tmp_path, {"config_small.py": CONFIG, "lm.py": LM.format(default=default)})
    found = sites(tmp_path / "lm.py")
    return found[(12, RUN)].runs, found[(20, RUN)].runs


def test_a_loop_over_a_constant_of_the_module_an_option_picks_counts_with_that_option_default(tmp_path):
    in_function, in_loop = run_sites(tmp_path, '"config_small"')
    assert (in_function.count, in_function.bound) == (13, "exact")  # 12 epochs of config_small.py, then the test
    assert (in_loop.count, in_loop.bound) == (12, "exact")
    assert "`--config`" in in_loop.note  # the count holds with the option's default, which a command line may change


def test_a_module_an_option_without_default_picks_gives_no_count(tmp_path):
    in_function, in_loop = run_sites(tmp_path, "None")
    assert in_function.count is None and in_loop.count is None


def test_the_modules_a_script_may_import_by_a_string_are_its_imports(tmp_path):
    write(tmp_path, {"config_small.py": CONFIG, "train.py": "", "models.py": ""})
    script = str(tmp_path / "lm.py")
    loads = (
        "flags.DEFINE_string('config', 'config_small', 'the config')\nconfig = importlib.import_module(FLAGS.config)\n"
    )
    assert direct_imports(script, loads) == [str(tmp_path / "config_small.py")]  # a project module's name, not 'config'
    assert direct_imports(script, "load('config_small')\n") == []  # no loader: a string is data
    (tmp_path / "models").mkdir()
    write(tmp_path, {"models/__init__.py": "", "models/net.py": NET, "models/gan.py": ""})
    built = "network = importlib.import_module('models.' + args.model)\n"
    assert direct_imports(script, built) == [str(tmp_path / f"models/{name}.py") for name in ("__init__", "gan", "net")]



def test_a_string_named_module_is_imported_after_the_scripts_sys_path_edits(tmp_path):
    """A module named by a string is imported by a call, after every `sys.path` edit of the script (a
    launcher in `scripts/` putting the project root first): found there, and the project index reads
    the launcher without failing (its statements' lines counted the string-named ones too)."""
    from greenlint.analysis.project import ProjectIndex

    (tmp_path / ".git").mkdir()  # the project's root
    (tmp_path / "scripts").mkdir()
    write(tmp_path, {"config_small.py": CONFIG})
    launcher = (
        "import importlib\nimport os\nimport sys\n"
        "sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))\n"
        "config = importlib.import_module('config_small')\n"
    )
    write(tmp_path, {"scripts/run.py": launcher})
    script = str(tmp_path / "scripts" / "run.py")
    assert direct_imports(script, launcher) == [str(tmp_path / "config_small.py")]
    assert ProjectIndex().imports(script) == [str(tmp_path / "config_small.py")]


PICKER = """
import importlib
import sys

import numpy as np
import tensorflow as tf


def get_obj_by_name(module_name, obj_name):
    module = importlib.import_module(module_name)
    return getattr(module, obj_name)


x = np.zeros((64, 8))
model = get_obj_by_name("models.net", {name})(4)
model.fit(x, x, epochs=2)
train = get_obj_by_name("models.net", "train")
"""


def test_a_function_that_imports_the_module_its_string_names_gives_each_call_the_object_it_names(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "models").mkdir()
    write(tmp_path, {"models/__init__.py": "", "models/net.py": NET, "run.py": PICKER.format(name='"build"')})
    found = sites(tmp_path / "run.py")
    assert found[(15, "tensorflow.keras.Sequential.fit")].work["params"].value == 36  # not merged with "train"


def test_a_function_that_imports_by_a_string_not_known_gives_an_unknown_value(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "models").mkdir()
    write(tmp_path, {"models/__init__.py": "", "models/net.py": NET, "run.py": PICKER.format(name="sys.argv[1]")})
    found = sites(tmp_path / "run.py")
    assert found[(15, "tensorflow.keras.Model.fit")].features["receiver_kind"] == "untyped"


LAUNCHER = """
import argparse
import importlib
import sys

import numpy as np


def main(args):
    network = importlib.import_module({named})
    x = np.zeros((64, 8))
    model = network.build(4)
    for epoch in range(3):
        model.fit(x, x, epochs=1)


def parse_arguments(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_def", type=str, default="models.net")
    return parser.parse_args(argv)


if __name__ == "__main__":
    main(parse_arguments(sys.argv[1:]))
"""


@pytest.mark.parametrize(("named", "count"), [("args.model_def", 1), ("'models.net'", 1), ("sys.argv[2]", None)])
def test_a_module_a_script_imports_by_a_string_is_called_as_the_script_calls_it(tmp_path, named, count):
    """The module's functions count the script's calls through the name it binds to `import_module` of a
    literal or of an option's default (`constructed._loaded_by_name`), as after `import models.net as network`;
    a string the code does not fix leaves them uncounted."""
    (tmp_path / "models").mkdir()
    write(tmp_path, {"models/__init__.py": "", "models/net.py": NET, "train.py": LAUNCHER.format(named=named)})
    compiled = sites(tmp_path / "models" / "net.py")[(6, "tensorflow.keras.Sequential.compile")]
    assert compiled.runs.count == count
