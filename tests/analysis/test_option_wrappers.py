"""A program's own wrapper of argparse (`options.forwards_option`): `py.arg("--epochs", default=25)`
where `arg` passes its `*args, **kwargs` on to `add_argument` defines the option as `add_argument`
would, and `py.args()` parses the command line, also where the wrapper lives in a package whose
`__init__` star-imports the module that imports the package back (`ProjectIndex` cycles:
`Imports.exports`)."""

from __future__ import annotations

from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.project import project_index

ARGUMENT = """\
import argparse
from pylib import serialization

PARSER = argparse.ArgumentParser()


def argument(*args, **kwargs):
    if "type" in kwargs and kwargs["type"] is bool:
        kwargs["type"] = str
    return PARSER.{method}(*args, **kwargs)


arg = argument


def args(args=None):
    return PARSER.parse_args(args=args)
"""

TRAIN = """\
import tensorflow as tf
import pylib as py

py.arg("--epochs", type=int, default=25)
args = py.args()
x = tf.zeros((1000, 10))
y = tf.zeros((1000, 1))
m = tf.keras.Sequential([tf.keras.layers.Dense(1)])
m.compile("sgd", "mse")
m.fit(x, y, epochs=args.epochs)
"""


def fit_epochs(tmp_path, method: str = "add_argument") -> object:
    """The epochs of train.py's `fit` with the wrapper passing its arguments to *method*."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "pylib").mkdir(exist_ok=True)
    (tmp_path / "pylib" / "__init__.py").write_text("from pylib.argument import *\nfrom pylib.serialization import *\n")
    (tmp_path / "pylib" / "serialization.py").write_text("import json\n\ndef load(path):\n    return json.load(open(path))\n")
    (tmp_path / "pylib" / "argument.py").write_text(ARGUMENT.format(method=method))
    (tmp_path / "train.py").write_text(TRAIN)
    project_index().refresh()
    (site,) = [s for s in analyse_file(tmp_path / "train.py").callsites if s.api.endswith(".fit")]
    return site.features.get("epochs")


def test_an_option_defined_through_the_programs_wrapper_of_argparse_takes_its_default(tmp_path):
    assert fit_epochs(tmp_path) == 25


def test_a_function_passing_its_arguments_elsewhere_defines_no_option(tmp_path):
    assert fit_epochs(tmp_path, method="set_defaults") is None


def test_the_rules_read_an_option_the_wrapper_defines_with_its_default(tmp_path):
    """GL308 (no early stopping) reads `epochs=args.epochs` as the wrapper's default of 25 epochs."""
    from greenlint.check.config import Config
    from greenlint.check.pipeline import check_source
    from tests.check.fakes import Predictor

    fit_epochs(tmp_path)
    path = tmp_path / "train.py"
    text = path.read_text().replace("m.fit(x, y, epochs=args.epochs)", "m.fit(x, y, epochs=args.epochs, validation_split=0.2)")
    path.write_text(text)
    project_index().refresh()
    (message,) = [d.message for d in check_source(text, str(path), Config(select=("GL308",), no_cache=True, options={"material-saving-j": 0.0}), Predictor()) if d.code == "GL308"]
    assert "the default of `--epochs`" in message
