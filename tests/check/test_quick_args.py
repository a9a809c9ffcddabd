"""`greenlint check`'s arguments read without argparse (`check_cmd.quick_args`) are exactly what the
parser gives, and whatever they do not plainly cover is left to the parser."""

from __future__ import annotations

import pytest

from greenlint.cli import build_parser
from greenlint.cli.check_cmd import quick_args

COVERED = [
    [],
    ["a.py"],
    ["a.py", "b.ipynb", "dir"],
    ["--exit-zero", "a.py"],
    ["a.py", "--exit-zero"],
    ["--exit-zero", "a.py", "b.py", "--statistics"],
    ["--format", "json", "a.py"],
    ["--format=sarif", "a.py"],
    ["--output-format", "grouped", "a.py", "--output-format", "full"],
    ["--no-cache", "--isolated", "--no-calibration", "--force-exclude", "--no-respect-gitignore", "a.py"],
    ["--fix", "--unsafe-fixes", "--show-fixes", "a.py"],
    ["--diff", "a.py"],
    ["--config", "pyproject.toml", "--cache-dir=.cache", "a.py"],
    ["--select", "gl1, GL201", "--extend-select", "GL003", "--ignore=gl301", "a.py"],
    ["--jobs", "2", "a.py"],
    ["--jobs=auto", "a.py"],
    ["--jobs", "0", "a.py"],  # the parser takes it; `run` refuses it, as it does after the parser
    ["", "a.py"],
    ["--config=", "a.py"],
]

LEFT_TO_THE_PARSER = [
    ["--exit", "a.py"],  # an abbreviation argparse accepts
    ["-h"],
    ["--help"],
    ["--", "-a.py"],
    ["-"],
    ["a.py", "--exit-zero", "b.py"],  # two runs of paths: the parser's error
    ["--format", "xml", "a.py"],
    ["--format"],
    ["--format", "--exit-zero"],
    ["--exit-zero=1", "a.py"],
    ["-j", "2", "a.py"],
    ["-j2", "a.py"],
    ["--jobs", "two", "a.py"],
    ["--jobs", "-1", "a.py"],
    ["--jobs", "²", "a.py"],
    ["--per-file-ignores", "a.py:GL1", "a.py"],
    ["--exclude", "x", "a.py"],
    ["--hotspot-threshold-j", "5", "a.py"],
    ["--bogus", "a.py"],
    ["--select", "", "a.py"],  # no code at all: the parser's usage error
    ["--select=,", "a.py"],
    ["--ignore", " , ", "a.py"],
]


def parsed(argv: list[str]) -> dict:
    return vars(build_parser("check").parse_args(["check", *argv]))


@pytest.mark.parametrize("argv", COVERED, ids=" ".join)
def test_covered_arguments_are_what_the_parser_gives(argv):
    quick = quick_args(argv)
    assert quick is not None
    assert vars(quick) == parsed(argv)


def test_no_option_gives_every_default_of_the_parser():
    """A new option of `greenlint check` must be added to DEFAULTS (or the parser and the quick
    reading would disagree on its value)."""
    assert vars(quick_args(["a.py"])) == parsed(["a.py"])


@pytest.mark.parametrize("argv", LEFT_TO_THE_PARSER, ids=" ".join)
def test_anything_else_is_left_to_the_parser(argv):
    assert quick_args(argv) is None
