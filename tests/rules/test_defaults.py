"""`defaults.module_constant` and flag defaults given as module constants: a name is known only
when the file binds it once, at its top level, to a literal."""

from __future__ import annotations

import ast

import pytest

from greenlint.rules.base import FileFacts
from greenlint.rules.defaults import default_value, module_constant


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
    ],
)
def test_module_constant(source, expected):
    assert module_constant(FileFacts("m.py", (), source), "EVERY") == expected


def test_a_notebook_constant_is_read_across_cells():
    facts = FileFacts("n.ipynb", (), ("EVERY = 50\n", "print(EVERY)\n"))
    assert module_constant(facts, "EVERY") == 50


def test_a_flag_default_given_as_a_module_constant():
    source = (
        "import argparse\nEVERY = 50\np = argparse.ArgumentParser()\n"
        "p.add_argument('--checkpoint_every', type=int, default=EVERY)\nargs = p.parse_args()\nargs.checkpoint_every\n"
    )
    facts = FileFacts("m.py", (), source)
    read = facts.module().body[-1].value
    assert isinstance(read, ast.Attribute)
    assert default_value(facts, read, None) == (50, "the default of `--checkpoint_every`")


FLAG = "import argparse\np = argparse.ArgumentParser()\np.add_argument('--epochs', type=int, default=100)\nargs = p.parse_args()\n"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (FLAG + "epochs = args.epochs\nepochs\n", (100, "the default of `--epochs`")),  # at the top of the module
        (FLAG + "def main():\n    n = args.epochs\n    n\n", (100, "the default of `--epochs`")),  # in the function
        (FLAG + "n = args.epochs\ndef main():\n    n\n", (100, "the default of `--epochs`")),  # a global the function reads
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
        (FLAG + "def train(m, n):\n    n\ntrain(m, args.epochs)\n", (100, "the default of `--epochs`")),
        (FLAG + "def train(m, n):\n    n\ndef main(e):\n    train(m, n=e)\nmain(args.epochs)\n",
         (100, "the default of `--epochs`")),  # two callers up
        (FLAG + "class T:\n    def fit(self, n):\n        n\nT().fit(args.epochs)\n", (100, "the default of `--epochs`")),
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


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("class G:\n    def train(self, epochs, every=50):\n        every\nG().train(3000, every=200)\n", (200, "")),
        ("def train(every=50):\n    every\ntrain(50)\n", (50, "")),  # the caller passes the default's value
        ("def train(every=50):\n    every\ntrain()\n", (50, "the default of parameter `every`")),
        ("def train(every=50):\n    every\n", (50, "the default of parameter `every`")),  # never called in the file
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
    assert default_value(facts, returned[0], None) == (-1, "the default of `--steps`")
    assert default_value(facts, returned[1], None) == (-2.5, "the default of parameter `budget`")
