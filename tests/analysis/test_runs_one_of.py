"""A script picking one of several classes it imports (`models = [GAN, CGAN]; for model in models: if
args.gan_type == model.model_name: gan = model(sess, ...)`, `{"gan": GAN, ...}[args.model](...)`, an
`if`/`else` binding one name to instances of different classes) calls each candidate's constructor with
its arguments and each candidate's methods on what it made, at most as often as the calls run
(one_of.py, constructed.py): the sites of `train` get a count, bound `upper`. A pick read otherwise,
or a name that may also hold what the script cannot tell, keeps the count unknown."""

from __future__ import annotations

from greenlint.analysis.analyse import analyse_file

GAN = """\
import tensorflow as tf


class {name}(object):
    model_name = "{name}"

    def __init__(self, sess, epoch):
        self.sess = sess
        self.epoch = epoch

    def train(self):
        for _ in range(self.epoch):
            self.sess.run(tf.compat.v1.global_variables_initializer())
"""

HEAD = """\
import argparse
import tensorflow as tf
from gan import GAN
from cgan import CGAN

parser = argparse.ArgumentParser()
parser.add_argument("--gan_type", default="GAN")
parser.add_argument("--epoch", type=int, default=20)
args = parser.parse_args()
sess = tf.compat.v1.Session()
"""


def train_run(tmp_path, main: str, module: str = "cgan"):
    """The runs of the session run in `train` of *module* (gan.py or cgan.py), main.py being *main*."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "gan.py").write_text(GAN.format(name="GAN"))
    (tmp_path / "cgan.py").write_text(GAN.format(name="CGAN"))
    (tmp_path / "main.py").write_text(HEAD + main)
    sites = analyse_file(tmp_path / f"{module}.py").callsites
    return next(site.runs for site in sites if site.api.endswith("Session.run"))


def test_a_class_picked_from_a_list_by_a_loop_runs_its_methods_at_most_as_often_as_the_calls(tmp_path):
    main = (
        "\ndef main():\n    models = [GAN, CGAN]\n    gan = None\n    for model in models:\n"
        "        if args.gan_type == model.model_name:\n            gan = model(sess, epoch=args.epoch)\n"
        "    if gan is None:\n        raise SystemExit(1)\n    gan.train()\n\nmain()\n"
    )
    for module in ("gan", "cgan"):
        runs = train_run(tmp_path, main, module)
        assert (runs.count, runs.bound) == (20, "upper")  # each candidate: the option's 20 epochs, at most
        assert "train() runs at most 1×" in runs.note


def test_a_class_picked_from_a_dict_or_by_branches(tmp_path):
    table = "\nbuilders = {'gan': GAN, 'cgan': CGAN}\ngan = builders[args.gan_type](sess, epoch=3)\ngan.train()\n"
    picked = "\nbuild = {'gan': GAN, 'cgan': CGAN}[args.gan_type]\ngan = build(sess, epoch=3)\ngan.train()\n"
    branches = "\nif args.gan_type == 'GAN':\n    gan = GAN(sess, 3)\nelse:\n    gan = CGAN(sess, 3)\ngan.train()\n"
    for main in (table, picked, branches):
        for module in ("gan", "cgan"):
            runs = train_run(tmp_path, main, module)
            assert (runs.count, runs.bound) == (3, "upper")


def test_a_pick_read_otherwise_or_a_holder_of_something_else_keeps_the_count_unknown(tmp_path):
    handed = (
        "\nmodels = [GAN, CGAN]\nmodels.append(tf.keras.Model)\nfor model in models:\n"
        "    gan = model(sess, epoch=3)\ngan.train()\n"
    )
    assert train_run(tmp_path, handed).count is None  # the list changed: what it holds is not known
    other = "\nif args.gan_type == 'GAN':\n    gan = GAN(sess, 3)\nelse:\n    gan = make_other()\ngan.train()\n"
    assert train_run(tmp_path, other, "gan").count is None  # `make_other()` may make anything
    looped = "\nfor model in [GAN, CGAN]:\n    model(sess, epoch=3).train()\n"
    assert train_run(tmp_path, looped).count is None  # each trip trains one: a loop, not counted here


MODELS = """\
import argparse
import tensorflow as tf


class Base(object):
    def __init__(self, sess):
        self.sess = sess

    def train(self):
        for _ in range(5):
            self.sess.run(tf.constant(1))


class GAN(Base):
    model_name = "GAN"


class WGAN(Base):
    model_name = "WGAN"


class VAE(object):
    model_name = "VAE"

    def __init__(self, sess):
        self.sess = sess

    def train(self):
        for _ in range(7):
            self.sess.run(tf.constant(2))


parser = argparse.ArgumentParser()
parser.add_argument("--model", default="GAN")
args = parser.parse_args()
sess = tf.compat.v1.Session()
"""


def session_runs(tmp_path, main: str) -> dict:
    """The runs of the session runs of a module of MODELS and then *main*, by line (Base.train's at 11,
    VAE.train's at 30)."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "models.py").write_text(MODELS + main)
    sites = analyse_file(tmp_path / "models.py").callsites
    return {site.span.line: site.runs for site in sites if site.api.endswith("Session.run")}


def test_a_method_of_one_of_several_classes_of_the_module_runs_at_most_as_often_as_its_call(tmp_path):
    looped = (
        "model = None\nfor candidate in [GAN, WGAN, VAE]:\n    if args.model == candidate.model_name:\n"
        "        model = candidate(sess)\nmodel.train()\n"
    )
    branches = "if input() == 'VAE':\n    model = VAE(sess)\nelse:\n    model = GAN(sess)\nmodel.train()\n"
    factory = (
        "def make(name):\n    if name == 'VAE':\n        return VAE(sess)\n    return GAN(sess)\n\n"
        "make(input()).train()\n"
    )
    for main in (looped, branches, factory):
        runs = session_runs(tmp_path, main)
        assert [(runs[line].count, runs[line].bound) for line in (11, 30)] == [(5, "upper"), (7, "upper")]
    defaults = session_runs(tmp_path, branches.replace("input()", "args.model"))  # the option's default picks GAN
    assert (defaults[11].count, defaults[11].bound, defaults[30].count) == (5, "exact", None)
    shared = "model = GAN(sess) if args.model == 'GAN' else WGAN(sess)\nmodel.train()\n"
    base = session_runs(tmp_path, shared)[11]  # both candidates' `train` is Base's: it runs, exactly
    assert (base.count, base.bound) == (5, "exact")


def test_a_method_of_one_of_several_or_of_something_unknown_keeps_its_count_unknown(tmp_path):
    unknown = "if args.model == 'VAE':\n    model = VAE(sess)\nelse:\n    model = build(sess)\nmodel.train()\n"
    assert session_runs(tmp_path, unknown)[30].count is None  # `build` is not known: neither is the receiver


def test_a_builder_picked_from_a_table_runs_at_most_as_often_as_the_call(tmp_path):
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "build.py").write_text(
        "import tensorflow as tf\n\n\ndef small(n):\n    return tf.keras.Sequential([tf.keras.layers.Dense(n)])\n\n\n"
        "def large(n):\n    return tf.keras.Sequential([tf.keras.layers.Dense(n), tf.keras.layers.Dense(n)])\n\n\n"
        "model = {'small': small, 'large': large}[input()](4)\n"
    )
    sites = analyse_file(tmp_path / "build.py").callsites
    dense = {(site.span.line, site.runs.count, site.runs.bound) for site in sites if site.api.endswith("Dense")}
    assert dense == {(5, 1, "upper"), (9, 1, "upper")}  # one of the two builders runs
