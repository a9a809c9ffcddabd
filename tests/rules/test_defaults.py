"""`defaults.module_constant` and flag defaults given as module constants: a name is known only
when the file binds it once, at its top level, to a literal."""

from __future__ import annotations

import ast

import pytest

from greenlint.rules.base import FileFacts
from greenlint.rules.defaults import (
    DefaultValue,
    Origin,
    configured,
    default_value,
    module_constant,
    off_by_default,
    reaching_value,
)

LITERAL, DEFAULT, UNCALLED = Origin.LITERAL, Origin.DEFAULT, Origin.UNCALLED


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("EVERY = 50\n", 50),
        ("EVERY = 50\nEVERY = 60\n", None),  # bound twice
        ("EVERY = 50\ndef f():\n    global EVERY\n    EVERY = 5\n", None),
        ("EVERY = 50\nfor EVERY in range(3):\n    pass\n", None),
        ("EVERY = -50\n", -50),  # a signed number is a literal
        ("EVERY = int(1e5)\n", None),  # not a literal
        ("EVERY = -LIMIT\n", None),
        ("if fast:\n    EVERY = 5\n", None),  # not at the top level
        ("OTHER = 1\n", None),
        ("EVERY = 50\nEVERY, other = 1, 2\n", None),  # rebound by an unpacking
        ("EVERY = 50\nwith open(p) as EVERY:\n    pass\n", None),
        ("EVERY = 50\nn = [1 for EVERY in x]\n", None),  # a comprehension's target
        ("EVERY = 50\nif (EVERY := 3):\n    pass\n", None),
        ("EVERY = 50\nEVERY += 1\n", None),
        ("EVERY = 50\nx[EVERY] = 1\nEVERY_2 = 3\n", None),  # a name in a target counts as bound there
        ("EVERY = 50\nx[i] = 1\nother = EVERY\n", 50),
    ],
)
def test_module_constant(source, expected):
    assert module_constant(FileFacts("m.py", (), source), "EVERY") == expected


#: A configuration class of the file and its instance; `{more}` follows.
CONFIG = "class Config:\n    EVERY = 50\n    NAME = 'run'\n\n\ncfg = Config()\n{more}"


@pytest.mark.parametrize(
    ("source", "read", "expected"),
    [
        (CONFIG.format(more=""), "cfg.EVERY", 50),
        (CONFIG.format(more=""), "Config.EVERY", 50),  # the class itself
        (CONFIG.format(more="class Small(Config):\n    pass\n\n\nsmall = Small()\n"), "small.EVERY", 50),  # inherited
        (CONFIG.format(more="class Fast(Config):\n    EVERY = 2\n\n\nfast = Fast()\n"), "fast.EVERY", 2),  # overridden
        (CONFIG.format(more="cfg.EVERY = 5\n"), "cfg.EVERY", None),  # assigned again in the file
        (CONFIG.format(more="def tune(c):\n    c.EVERY = 5\n"), "cfg.EVERY", None),  # on any object
        (CONFIG.format(more="setattr(cfg, key, value)\n"), "cfg.EVERY", None),  # set by name
        (CONFIG.format(more=""), "cfg.OTHER", None),  # not in the class
        (CONFIG.format(more="cfg = load()\n"), "cfg.EVERY", None),  # the name bound twice
        (CONFIG.format(more="vars(cfg).update(loaded)\n"), "cfg.EVERY", None),
        ("@dataclass\nclass Config:\n    EVERY: int = 50\n\n\ncfg = Config(EVERY=5)\n", "cfg.EVERY", None),  # a field set
        ("@dataclass\nclass Config:\n    EVERY: int = 50\n\n\ncfg = Config()\n", "cfg.EVERY", 50),  # its default
        ("class Config:\n    EVERY = 50\n    EVERY = 60\ncfg = Config()\n", "cfg.EVERY", None),
        ("cfg = Config()\n", "cfg.EVERY", None),  # a class of another module
        ("config = {'every': 50}\n", "config['every']", 50),
        ("config = {'every': 50}\nconfig['every'] = 5\n", "config['every']", None),
        ("config = {'every': 50}\nconfig.update(json.load(f))\n", "config['every']", None),
        ("config = {'every': 50, **more}\n", "config['every']", None),  # a spread may replace it
        ("config = {'every': n}\n", "config['every']", None),  # not a literal
    ],
)
def test_a_configuration_holds_a_literal(source, read, expected):
    facts = FileFacts("m.py", (), source)
    assert configured(facts, ast.parse(read, mode="eval").body) == expected


def test_a_configuration_name_a_function_binds_is_not_the_module_s():
    source = CONFIG.format(more="def train(cfg):\n    return step % cfg.EVERY\n\n\ndef log():\n    return cfg.EVERY\n")
    facts = FileFacts("m.py", (), source)
    reads = sorted((n for n in ast.walk(facts.module()) if isinstance(n, ast.Attribute) and n.attr == "EVERY"), key=lambda n: n.lineno)
    assert [configured(facts, read) for read in reads] == [None, 50]  # the parameter's, then the module's


def test_a_notebook_constant_is_read_across_cells():
    facts = FileFacts("n.ipynb", (), ("EVERY = 50\n", "print(EVERY)\n"))
    assert module_constant(facts, "EVERY") == 50


def test_a_notebook_constant_rebound_in_a_later_cell_is_not_known():
    facts = FileFacts("n.ipynb", (), ("EVERY = 50\n", "LIMIT = 3\n", "def f():\n    global EVERY\n"))
    assert module_constant(facts, "EVERY") is None
    assert module_constant(facts, "LIMIT") == 3  # the file's bindings, gathered once, serve every name


def test_a_flag_default_given_as_a_module_constant():
    source = (
        "import argparse\nEVERY = 50\np = argparse.ArgumentParser()\n"
        "p.add_argument('--checkpoint_every', type=int, default=EVERY)\nargs = p.parse_args()\nargs.checkpoint_every\n"
    )
    facts = FileFacts("m.py", (), source)
    read = facts.module().body[-1].value
    assert isinstance(read, ast.Attribute)
    assert default_value(facts, read, None) == DefaultValue(50, "the default of `--checkpoint_every`", DEFAULT)


FLAG = "import argparse\np = argparse.ArgumentParser()\np.add_argument('--epochs', type=int, default=100)\nargs = p.parse_args()\n"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (FLAG + "epochs = args.epochs\nepochs\n", DefaultValue(100, "the default of `--epochs`", DEFAULT)),  # at the top of the module
        (FLAG + "def main():\n    n = args.epochs\n    n\n", DefaultValue(100, "the default of `--epochs`", DEFAULT)),  # in the function
        (FLAG + "n = args.epochs\ndef main():\n    n\n", DefaultValue(100, "the default of `--epochs`", DEFAULT)),  # a global the function reads
        (FLAG + "n = args.epochs\nif args.quick:\n    n = 2\nn\n", None),  # bound twice
        (FLAG + "def main():\n    n = args.epochs\n    n += 1\n    n\n", None),  # bound again
        (FLAG + "n = args.epochs\ndef main(n):\n    n\n", None),  # the function's parameter, without a default
        (FLAG + "n = 100\nn\n", None),  # a literal: `known_value` reads it as a module constant
        (FLAG + "n = args.steps\nn\n", None),  # no such flag
        (FLAG + "n = args.epochs\ndef outer(n):\n    def inner():\n        n\n    return inner\n", None),  # outer's n
        (FLAG + "def outer(n=7):\n    def inner(n):\n        n\n", None),  # inner's n shadows outer's default
    ],
)
def test_a_name_bound_once_holds_a_default(source, expected):
    facts = FileFacts("m.py", (), source)
    read = next(n for n in ast.walk(facts.module()) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Name)).value
    assert default_value(facts, read, None) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (FLAG + "def train(m, n):\n    n\ntrain(m, args.epochs)\n", DefaultValue(100, "the default of `--epochs`", DEFAULT)),
        (FLAG + "def train(m, n):\n    n\ndef main(e):\n    train(m, n=e)\nmain(args.epochs)\n",
         DefaultValue(100, "the default of `--epochs`", DEFAULT)),  # two callers up
        (FLAG + "class T:\n    def fit(self, n):\n        n\nT().fit(args.epochs)\n", DefaultValue(100, "the default of `--epochs`", DEFAULT)),
        (FLAG + "def train(m, n):\n    n\ntrain(m, args.epochs)\ntrain(m, 3)\n", None),  # the callers disagree
        (FLAG + "def train(m, n):\n    n\ntrain(m, args.epochs)\ntrain(m, k)\n", None),  # one caller's is not known
        (FLAG + "def train(m, n):\n    n\n", None),  # never called in the file
        (FLAG + "def train(m, n):\n    n\n    train(m, n)\n", None),  # only itself calls it
    ],
)
def test_a_parameter_holds_what_every_caller_passes(source, expected):
    facts = FileFacts("m.py", (), source)
    read = next(n for n in ast.walk(facts.module()) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Name)).value
    assert default_value(facts, read, None) == expected


PARAMETER = "the default of parameter `n`"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (FLAG + "def train(m, n=args.epochs):\n    n\ntrain(m)\n",
         DefaultValue(100, f"{PARAMETER}, `args.epochs`: the default of `--epochs`", DEFAULT)),  # an option's
        ("EPOCHS = 40\ndef train(m, n=EPOCHS):\n    n\ntrain(m)\n",
         DefaultValue(40, f"{PARAMETER}, `EPOCHS`: `EPOCHS` = 40", DEFAULT)),  # a module constant
        (FLAG + "def train(m, n=args.epochs):\n    n\ntrain(m, 3)\n", DefaultValue(3)),  # the caller's value wins
        (FLAG + "def train(m, n=args.steps):\n    n\ntrain(m)\n", None),  # no such option
        ("EPOCHS = 40\nEPOCHS = 50\ndef train(m, n=EPOCHS):\n    n\ntrain(m)\n", None),  # the constant bound twice
        ("def train(m, n=None):\n    n\ntrain(m)\n", None),  # None: what the function does with it is its own
        ("def train(m, n=size(m)):\n    n\ntrain(m)\n", None),  # a call's result
    ],
)
def test_a_parameter_default_read_from_an_option_or_a_constant(source, expected):
    facts = FileFacts("m.py", (), source)
    read = next(n for n in ast.walk(facts.module()) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Name)).value
    assert default_value(facts, read, None) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("class G:\n    def train(self, epochs, every=50):\n        every\nG().train(3000, every=200)\n", DefaultValue(200)),
        ("def train(every=50):\n    every\ntrain(50)\n", DefaultValue(50)),  # the caller passes the default's value
        ("def train(every=50):\n    every\ntrain()\n", DefaultValue(50, "the default of parameter `every`", DEFAULT)),
        ("def train(every=50):\n    every\n", DefaultValue(50, "the default of parameter `every`", UNCALLED)),  # a library's
        ("def train(every=50):\n    every\napp.run(train)\n", DefaultValue(50, "the default of parameter `every`", DEFAULT)),
        ("def train(every=50):\n    every\nThread(target=train)\n", DefaultValue(50, "the default of parameter `every`", DEFAULT)),
        ("class G:\n    def train(self, every=50):\n        every\n", DefaultValue(50, "the default of parameter `every`", UNCALLED)),
        ("class G:\n    def train(self, every=50):\n        every\n    def go(self):\n        run(self.train)\n",
         DefaultValue(50, "the default of parameter `every`", DEFAULT)),  # a method passed on
        ("def train(every=50):\n    every\ndef main(e=8):\n    train(e)\n",
         DefaultValue(8, "the default of parameter `e`", UNCALLED)),  # train is called, by a function the file never calls
        ("def train(every=50):\n    every\ndef main(e=8):\n    train(e)\nmain()\n", DefaultValue(8, "the default of parameter `e`", DEFAULT)),
        ("def train(every):\n    every\ndef main(e=8):\n    train(e)\ndef run():\n    train(8)\nrun()\n",
         DefaultValue(8)),  # the same value from a function never called and from one that runs: the latter's
        ("def train(every):\n    every\ndef run():\n    train(8)\ndef main(e=8):\n    train(e)\nrun()\n", DefaultValue(8)),
        ("def train(every=50):\n    every\ntrain()\ntrain(every=200)\n", None),  # the default, and 200
        ("def train(every=50):\n    every\ntrain(every=k)\n", None),  # a caller's value is not known
    ],
)
def test_a_parameter_with_a_default_holds_what_its_callers_give(source, expected):
    facts = FileFacts("m.py", (), source)
    read = next(n for n in ast.walk(facts.module()) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Name)).value
    assert default_value(facts, read, None) == expected


def test_signed_defaults_of_a_parameter_and_an_option():
    source = (
        "import argparse\np = argparse.ArgumentParser()\np.add_argument('--steps', default=-1)\n"
        "args = p.parse_args()\ndef train(steps):\n    return steps\ndef tune(budget=-2.5):\n    return budget\n"
        "train(args.steps)\n"
    )
    facts = FileFacts("m.py", (), source)
    returned = sorted((n for n in facts.nodes(None, ast.Return)), key=lambda n: n.lineno)
    returned = [n.value for n in returned]
    assert default_value(facts, returned[0], None) == DefaultValue(-1, "the default of `--steps`", DEFAULT)
    assert default_value(facts, returned[1], None) == DefaultValue(-2.5, "the default of parameter `budget`", UNCALLED)


@pytest.mark.parametrize(
    ("made", "origin"),
    [("T()\n", DEFAULT), ("class U(T):\n    pass\n", DEFAULT), ("", UNCALLED)],  # constructed, a base, never named
)
def test_an_attribute_holds_its_init_default_from_a_class_the_file_names(made, origin):
    source = "class T:\n    def __init__(self, every=50):\n        self.every = every\n    def go(self):\n        self.every\n"
    facts = FileFacts("m.py", (), source + made)
    read = next(n for n in ast.walk(facts.module()) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Attribute)).value
    assert default_value(facts, read, None) == DefaultValue(50, "the default of parameter `every` of `T`", origin)


def test_a_literal_is_its_own_origin():
    facts = FileFacts("m.py", (), "def train(every=50):\n    every\ntrain(every=7)\n")
    read = next(n for n in ast.walk(facts.module()) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Name)).value
    assert default_value(facts, read, None) == DefaultValue(7, "", LITERAL)


@pytest.mark.parametrize(
    ("source", "origin"),
    [
        # a command a CLI framework registers runs with its defaults
        ("import typer\napp = typer.Typer()\n@app.command()\ndef train(every=50):\n    every\n", DEFAULT),
        ("import click\n@click.command()\n@click.option('--x')\ndef train(x, every=50):\n    every\n", DEFAULT),
        # a decorator that hands the function back to its callers: still a library's
        ("import tensorflow as tf\n@tf.function\ndef train(every=50):\n    every\n", UNCALLED),
        ("class G:\n    @staticmethod\n    def train(every=50):\n        every\n", UNCALLED),
        ("import contextlib\n@contextlib.contextmanager\ndef train(every=50):\n    every\n    yield\n", UNCALLED),
        # methods Keras calls on a subclass of a catalogued class, however the base is imported
        ("import tensorflow as tf\nclass L(tf.keras.layers.Layer):\n    def call(self, x, every=50):\n        every\n", DEFAULT),
        ("from tensorflow.keras.callbacks import Callback\nclass C(Callback):\n"
         "    def on_epoch_end(self, epoch, logs=None, every=50):\n        every\n", DEFAULT),
        ("from tensorflow import keras\nclass M(keras.Model):\n    def train_step(self, data, every=50):\n        every\n", DEFAULT),
        ("import keras\nclass B(keras.layers.Layer):\n    pass\nclass L(B):\n    def call(self, x, every=50):\n        every\n",
         DEFAULT),  # through a class of the file
        # not a method the base has, or not a catalogued base: nothing calls it
        ("import tensorflow as tf\nclass L(tf.keras.layers.Layer):\n    def helper(self, every=50):\n        every\n", UNCALLED),
        ("class L(Layer):\n    def call(self, x, every=50):\n        every\n", UNCALLED),  # `Layer` not imported: not known
        ("import torch\nclass L(torch.nn.Module):\n    def call(self, x, every=50):\n        every\n", UNCALLED),
    ],
)
def test_a_function_a_framework_calls_runs_with_its_defaults(source, origin):
    facts = FileFacts("m.py", (), source)
    read = next(n for n in ast.walk(facts.module()) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Name)).value
    assert default_value(facts, read, None) == DefaultValue(50, "the default of parameter `every`", origin)


#: Options with no default: argparse gives each None unless the command line names it.
UNSET = (
    "import argparse\np = argparse.ArgumentParser()\np.add_argument('--steps', type=int)\n{more}a = p.parse_args()\n"
)


@pytest.mark.parametrize(
    ("more", "test", "off"),
    [
        ("", "a.steps is not None", True),
        ("", "a.steps is None", False),
        ("p.set_defaults(steps=10)\n", "a.steps is not None", False),  # given a default after all
        ("a.steps = 10\n", "a.steps is not None", False),  # set by the program
        ("p.add_argument('--steps', type=int)\n", "a.steps is not None", False),  # defined twice
        ("", "self.steps is not None", False),  # not read from the parsed command line
    ],
)
def test_an_option_with_no_default_is_none(more, test, off):
    facts = FileFacts("m.py", (), UNSET.format(more=more) + f"if {test}:\n    run()\n")
    call = next(n for n in ast.walk(facts.module()) if isinstance(n, ast.Call) and ast.unparse(n.func) == "run")
    assert (off_by_default(facts, call, None) is not None) is off


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("    n = 2**32\n    if a.steps is not None:\n        n = a.steps\n", 2**32),  # the option left unset
        ("    n = 10 * 1000\n    n = 3 << 4\n", 48),  # the last binding, folded
        ("    n = 2**32\n    if fast:\n        n = 100\n", None),  # a test the defaults do not decide
        ("    n = 2**32\n    for i in range(3):\n        n = i\n", None),  # bound in a loop
        ("    n = 2**32\n    n = a.steps\n", None),  # not a literal
        ("    n = 2**100\n", None),  # an exponent past any count
    ],
)
def test_the_value_a_name_reaches_a_read_with(body, expected):
    facts = FileFacts("m.py", (), UNSET.format(more="") + "def main(fast):\n" + body + "    use(n)\n")
    read = next(n for n in ast.walk(facts.module()) if isinstance(n, ast.Call) and ast.unparse(n.func) == "use").args[0]
    assert isinstance(read, ast.Name)
    found = reaching_value(facts, read, None)
    assert (found[0].value if found is not None else None) == expected
