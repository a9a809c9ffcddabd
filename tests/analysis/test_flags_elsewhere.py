"""absl flags defined in another module of the program (`constructed.flag_defaults`): `FLAGS.epochs`
read in a module whose importing script defines `--epochs` (simclr's `data.py` and `run.py`), or
that imports the module defining it (`config.py`), takes that default, for the resolver and the
rules alike (`options.OptionRead`); an options object kept on `self` (`self.args.epochs`) too."""

from __future__ import annotations

import ast

from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.project import project_index
from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from greenlint.rules.base import FileFacts
from greenlint.rules.defaults import DefaultValue, Origin, default_value
from tests.check.fakes import Predictor

TRAINLIB = """\
import tensorflow as tf
from absl import flags

FLAGS = flags.FLAGS


def train(x, y):
    model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
    model.compile("sgd", "mse"){extra}
    model.fit(x, y, epochs=FLAGS.epochs, validation_split=0.2)
"""

RUN = """\
import tensorflow as tf
from absl import app, flags
import trainlib

flags.DEFINE_integer("epochs", {epochs}, "epochs")
FLAGS = flags.FLAGS{extra}


def main(_):
    trainlib.train(None, None)


app.run(main)
"""


def project(tmp_path, files: dict[str, str]):
    for stale in tmp_path.iterdir():
        stale.rmdir() if stale.is_dir() else stale.unlink()
    (tmp_path / ".git").mkdir()
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    project_index().refresh()


def fit_epochs(path) -> tuple[object, DefaultValue | None]:
    """The epochs of the module's `fit` as the analysis reads them (None where not a number), and
    as the rules read its `epochs=` argument."""
    analysis = analyse_file(path)
    (site,) = [s for s in analysis.callsites if s.api.endswith(".fit")]
    facts = FileFacts(str(path), (), analysis.source_text, analysis.tree, options=analysis.options)
    (given,) = [k.value for n in facts.nodes(None, ast.Call) for k in n.keywords if k.arg == "epochs"]
    epochs = site.features.get("epochs")
    return epochs if isinstance(epochs, int) else None, default_value(facts, given, None)


def test_a_flag_the_importing_script_defines_is_read_with_its_default(tmp_path):
    project(tmp_path, {"trainlib.py": TRAINLIB.format(extra=""), "run.py": RUN.format(epochs=90, extra="")})
    assert fit_epochs(tmp_path / "trainlib.py") == (90, DefaultValue(90, "the default of `--epochs`", Origin.DEFAULT))


def test_a_flag_a_module_imported_defines_is_read_with_its_default(tmp_path):
    config = "from absl import flags\n\nflags.DEFINE_integer('epochs', 40, 'epochs')\nFLAGS = flags.FLAGS\n"
    train = TRAINLIB.format(extra="").replace("from absl import flags\n\nFLAGS = flags.FLAGS", "from config import FLAGS")
    project(tmp_path, {"config.py": config, "train.py": train})
    assert fit_epochs(tmp_path / "train.py") == (40, DefaultValue(40, "the default of `--epochs`", Origin.DEFAULT))


def test_a_flag_set_or_defined_twice_otherwise_stays_unknown(tmp_path):
    module = TRAINLIB.format(extra="")
    cases = [
        {"run.py": RUN.format(epochs=90, extra="\nFLAGS.epochs = 5")},  # the script sets it
        {"run.py": RUN.format(epochs=90, extra=""), "other.py": RUN.format(epochs=10, extra="")},  # two defaults
        {"run.py": RUN.format(epochs="EPOCHS", extra="")},  # not a literal
    ]
    for files in cases:
        project(tmp_path, {"trainlib.py": module, **files})
        assert fit_epochs(tmp_path / "trainlib.py") == (None, None), files
    project(tmp_path, {"trainlib.py": TRAINLIB.format(extra="\n    FLAGS.epochs = 3"), "run.py": RUN.format(epochs=90, extra="")})
    assert fit_epochs(tmp_path / "trainlib.py")[1] is None  # the module sets it


def test_two_scripts_giving_the_same_default_agree(tmp_path):
    same = {"run.py": RUN.format(epochs=90, extra=""), "other.py": RUN.format(epochs=90, extra="")}
    project(tmp_path, {"trainlib.py": TRAINLIB.format(extra=""), **same})
    assert fit_epochs(tmp_path / "trainlib.py")[0] == 90


TRAINER = """\
import tensorflow as tf


class Trainer:
    def __init__(self, args):
        self.args = args
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(4)])

    def run(self, x, y):
        self.model.compile("sgd", "mse")
        self.model.fit(x, y, epochs=self.args.epochs, validation_split=0.2)
"""

MAIN = """\
import argparse
import tensorflow as tf
from trainer import Trainer

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=70)
args = parser.parse_args()
Trainer(args).run(None, None)
"""


def test_an_options_object_kept_on_self_is_read_by_the_rules_too(tmp_path):
    # before: the resolver read 70, the rules nothing (they followed `param.attr` only)
    project(tmp_path, {"trainer.py": TRAINER, "main.py": MAIN})
    assert fit_epochs(tmp_path / "trainer.py") == (70, DefaultValue(70, "the default of `--epochs`", Origin.DEFAULT))


def gl308(path) -> list[str]:
    # (the fake predictor prices a fit at little: run once, as the scripts beside now say, it is immaterial)
    config = Config(select=("GL308",), no_cache=True, options={"material-saving-j": 0.0})
    return [d.message for d in check_source(path.read_text(), str(path), config, Predictor()) if d.code == "GL308"]


def test_gl308_says_the_epochs_are_the_default_of_an_option_defined_elsewhere(tmp_path):
    project(tmp_path, {"trainer.py": TRAINER, "main.py": MAIN})
    (message,) = gl308(tmp_path / "trainer.py")
    assert "70 epochs" in message and "the default of `--epochs`" in message
    project(tmp_path, {"trainlib.py": TRAINLIB.format(extra=""), "run.py": RUN.format(epochs=90, extra="")})
    (message,) = gl308(tmp_path / "trainlib.py")
    assert "90 epochs" in message and "the default of `--epochs`" in message
    project(tmp_path, {"trainlib.py": TRAINLIB.format(extra=""), "run.py": RUN.format(epochs=5, extra="")})
    assert gl308(tmp_path / "trainlib.py") == []  # 5 epochs: too few to stop early
