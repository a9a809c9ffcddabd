"""Issue 29's input kinds in variants no earlier round spells (items 5, 6, 8, 10-12): every
configuration key given a TOML value of a kind no key takes (a date, a table); path arguments
that are empty or a file with a trailing slash; identifiers Python reads through NFKC (fullwidth
letters); direction overrides in every text format; files that are only a BOM or a form feed; a
latin-1 file's columns; notebooks with raw and Markdown cells, nbformat 3 `heading` cells and
`input` strings; `noqa` in one notebook cell; rule and kb names holding terminal escapes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from greenlint.check.config import BUDGET_KEYS, SETTINGS, _rule_options
from tests.hardening import fuzz
from tests.hardening.fuzz import _main, _write
from tests.hardening.samples import LOOP, codes

pytestmark = pytest.mark.timeout(300)
FOUND = [("GL101", 4), ("GL201", 4)]
#: Every `[tool.greenlint]` key and `[tool.greenlint.budget]` key (rule options from the rules).
KEYS = sorted({*SETTINGS, *_rule_options()} - {"budget"})


def _check(*argv: str) -> tuple[int, str, str]:
    return _main(["check", *argv])


# --- configuration values of a kind no key takes ----------------------------------------------------


@pytest.mark.parametrize("value", ["1979-05-27T07:32:00Z", "07:32:00", "{ a = 1 }", "[{ a = 1 }]"])
@pytest.mark.parametrize("key", KEYS)
def test_every_key_given_a_date_or_a_table_is_a_config_error_naming_it(tmp_path, own_caches, key, value):
    """TOML's dates, times and tables are values no key takes: each is a config error naming the
    key (exit 2), never a traceback nor a value taken as another."""
    (tmp_path / "pyproject.toml").write_text(f"[tool.greenlint]\n{key} = {value}\n")
    _write(tmp_path, "a.py", LOOP)
    code, out, err = _check(str(tmp_path), "--format", "json")
    assert code == 2 and f"`{key}`" in err and "Traceback" not in err, err


@pytest.mark.parametrize("value", ["1979-05-27", "{ a = true }", "[1, 2]", '"x"'])
@pytest.mark.parametrize("key", BUDGET_KEYS)
def test_every_budget_key_given_a_value_of_the_wrong_kind_is_a_config_error(tmp_path, own_caches, key, value):
    (tmp_path / "pyproject.toml").write_text(f"[tool.greenlint.budget]\n{key} = {value}\n")
    _write(tmp_path, "a.py", LOOP)
    code, out, err = _check(str(tmp_path), "--format", "json")
    assert code == 2 and key in err and "Traceback" not in err, err


# --- path arguments -------------------------------------------------------------------------------


def test_an_empty_path_argument_is_a_usage_error(tmp_path, own_caches, monkeypatch):
    """`greenlint check "" sub` (an unset shell variable): a usage error, never the current folder
    read in its place."""
    _write(tmp_path, "sub/b.py", LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, err = _check("", "sub", "--format", "json")
    assert code == 2 and "empty path" in err and "Traceback" not in err, err


def test_a_file_named_with_a_trailing_slash_is_named_not_read(tmp_path, own_caches, monkeypatch):
    """`a.py/` is no path to a file (the system refuses it): named, never read as `a.py`."""
    _write(tmp_path, "a.py", LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, err = _check("a.py/", "--format", "json")
    assert code == 2 and "a.py/" in err and "Traceback" not in err, err


# --- identifiers and text Python reads another way --------------------------------------------------


def test_fullwidth_identifiers_resolve_as_python_resolves_them(tmp_path, own_caches):
    """Python reads identifiers through NFKC: `ｔｆ.keras` is `tf.keras` and `ｍｏｄｅｌ.ｐｒｅｄｉｃｔ`
    runs `model.predict`. The findings are those of the ASCII spelling."""
    wide = str.maketrans({c: chr(ord(c) + 0xFEE0) for c in "abcdefghijklmnopqrstuvwxyz"})
    source = LOOP.replace("tf.", "tf.".translate(wide)).replace("as tf", "as " + "tf".translate(wide))
    source = source.replace("model", "model".translate(wide)).replace("predict", "predict".translate(wide))
    assert source != LOOP
    _write(tmp_path, "a.py", source)
    code, out, err = _check(str(tmp_path), "--format", "json")
    assert code == 1 and codes(out) == FOUND, err


@pytest.mark.parametrize("fmt", ["concise", "full", "grouped", "github"])
def test_direction_overrides_in_names_and_lines_are_escaped_in_every_text_format(tmp_path, own_caches, fmt):
    """Trojan Source: a name and a line holding RLO/LRI/PDI reorder what a terminal shows."""
    name = "a\u202eyp.\u2066b\u2069.py"
    _write(tmp_path, name, LOOP.replace("    model.predict", "    s = '\u202e\u2067'; model.predict"))
    code, out, err = _check(str(tmp_path), "--format", fmt)
    assert code == 1 and "Traceback" not in err, err
    assert not fuzz.RAW_CONTROL.search(out + err) and "\\u202e" in out


def test_calls_text_output_escapes_direction_overrides(tmp_path, own_caches):
    _write(tmp_path, "a\u202e.py", LOOP.replace("Dense(4096)", "Dense(4096, name='\u202e\u2066x')"))
    code, out, err = _main(["calls", str(tmp_path)])
    assert code == 0 and "predict" in out and not fuzz.RAW_CONTROL.search(out + err), err


@pytest.mark.parametrize("data", [b"\xef\xbb\xbf", b"\x0c", b"\xef\xbb\xbf\x0c\n", b"\\\n", b"\r", b"\xef\xbb\xbf\r\n"])
def test_a_file_of_only_a_bom_a_form_feed_or_a_line_end_parses_as_python_says(tmp_path, own_caches, data):
    """The file alone (no TF: nothing to report) and after a TF import, where it is a parse error
    (GL001) exactly when Python's compiler refuses it (a continuation at the end of the file)."""
    _write(tmp_path, "a.py", data)
    code, out, err = _check(str(tmp_path), "--format", "json")
    assert (code, out.strip()) == (0, "[]"), err
    bom = data.startswith(b"\xef\xbb\xbf")
    source = (b"\xef\xbb\xbf" if bom else b"") + fuzz.TF.encode() + data[3 if bom else 0:]
    try:
        compile(source, "a.py", "exec")
        expected = (0, [])
    except SyntaxError:
        expected = (1, ["GL001"])
    _write(tmp_path, "a.py", source)
    code, out, err = _check(str(tmp_path), "--format", "json")
    assert (code, [d["code"] for d in json.loads(out)]) == expected, err


def test_a_latin1_file_s_columns_count_characters(tmp_path, own_caches):
    """`# coding: latin-1` with `é` before the call on its line: the column is the character's, as
    in the UTF-8 spelling of the same code."""
    text = LOOP.replace("    model.predict", "    s = 'ééé'; model.predict")
    _write(tmp_path, "u.py", text)
    _write(tmp_path, "l.py", ("# coding: latin-1\n" + text).encode("latin-1"))
    code, out, err = _check(str(tmp_path), "--format", "json")
    found = {(d["filename"][-4:], d["code"]): (d["location"]["row"], d["location"]["column"]) for d in json.loads(out)}
    assert code == 1 and found[("l.py", "GL101")] == (found[("u.py", "GL101")][0] + 1, found[("u.py", "GL101")][1]), err


# --- notebooks --------------------------------------------------------------------------------------


def _nb(cells, nbformat: int = 4) -> str:
    return json.dumps({"cells": cells, "nbformat": nbformat, "nbformat_minor": 5, "metadata": {}})


def _notebook_codes(tmp_path, text: str) -> list[tuple[str, int]]:
    _write(tmp_path, "n.ipynb", text)
    code, out, err = _check(str(tmp_path), "--format", "json")
    assert code in (0, 1) and "Traceback" not in err, err
    return sorted((d["code"], d["location"]["row"]) for d in json.loads(out))


@pytest.mark.parametrize("kind", ["raw", "markdown", "heading", "unknown-kind"])
def test_cells_that_are_not_code_are_never_read_as_python(tmp_path, own_caches, kind):
    """A raw or Markdown cell holding TF code does not run: no finding in it, and the code cell
    after it keeps its own."""
    cells = [{"cell_type": kind, "source": LOOP, "metadata": {}},
             {"cell_type": "code", "source": LOOP, "metadata": {}, "outputs": [], "execution_count": None}]
    found = _notebook_codes(tmp_path, _nb(cells))
    assert found == FOUND


@pytest.mark.parametrize("source", [LOOP, LOOP.splitlines(keepends=True)])
def test_an_nbformat3_notebook_with_heading_cells_and_input_strings_is_read(tmp_path, own_caches, source):
    doc = {"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": [{"cells": [
        {"cell_type": "heading", "level": 1, "source": ["import tensorflow as tf\n", "tf.zeros(1)\n"], "metadata": {}},
        {"cell_type": "code", "input": source, "language": "python", "outputs": [], "metadata": {}},
    ]}]}
    assert _notebook_codes(tmp_path, json.dumps(doc)) == FOUND


def test_a_noqa_in_one_cell_suppresses_that_cell_s_line_only(tmp_path, own_caches):
    quiet = LOOP.replace("4096)))\n", "4096)))  # noqa: GL101\n")
    cells = [{"cell_type": "code", "source": src, "metadata": {}, "outputs": [], "execution_count": None}
             for src in (quiet, LOOP)]
    _write(tmp_path, "n.ipynb", _nb(cells))
    code, out, err = _check(str(tmp_path), "--format", "json")
    found = sorted((d["code"], d.get("cell"), d["location"]["row"]) for d in json.loads(out))
    assert code == 1 and [c for c, *_ in found] == ["GL101", "GL201", "GL201"], found
    cells_of = {c: {cell for code_, cell, _ in found if code_ == c} for c in ("GL101", "GL201")}
    assert len(cells_of["GL101"]) == 1 and len(cells_of["GL201"]) == 2, found


# --- names of rules and measurements ----------------------------------------------------------------


@pytest.mark.parametrize("argv", [["rule", "GL1\x1b[2J"], ["rule", "\u202eGL101"], ["rule", ""],
                                  ["kb", "show", "tf.\x9b31m"], ["kb", "predict", "tensorflow.\u2066x"]])
def test_rule_and_kb_names_holding_escapes_are_named_escaped(argv):
    """Refused (2) or found nothing (1), saying so with the name escaped."""
    code, out, err = _main(argv)
    assert code in (1, 2) and (out + err).strip() and "Traceback" not in err and not fuzz.RAW_CONTROL.search(out + err), (out, err)


# --- exclude patterns on the command line -----------------------------------------------------------


@pytest.mark.parametrize("option", ["--exclude", "--extend-exclude"])
@pytest.mark.parametrize("pattern", ["!", "\\", "a[b-a]"])
def test_an_exclude_pattern_git_cannot_use_is_an_error_whatever_the_paths(tmp_path, own_caches, monkeypatch, option, pattern):
    """A pattern pathspec refuses was an error only on a run that walked a folder: `check a.py
    --exclude '!'` (a pre-commit hook names files) passed it silently, `check .` refused it."""
    _write(tmp_path, "a.py", LOOP)
    monkeypatch.chdir(tmp_path)
    for path in ("a.py", "."):
        code, out, err = _check(path, f"{option}={pattern}")
        assert code == 2 and "not a valid gitignore-style pattern" in err and "Traceback" not in err, (path, err)


def test_valid_exclude_patterns_still_leave_named_files_checked(tmp_path, own_caches, monkeypatch):
    _write(tmp_path, "a.py", LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, err = _check("a.py", "--extend-exclude=a.py", "--format", "json")
    assert code == 1 and codes(out) == FOUND, err
    code, out, err = _check(".", "--extend-exclude=a.py", "--format", "json")
    assert code == 0 and codes(out) == [], err


def test_a_path_longer_than_the_system_allows_is_named_and_the_run_goes_on(tmp_path, own_caches, monkeypatch):
    """A file 40 folders of 200 characters down (past PATH_MAX, which git checkouts can make):
    GL002 naming the length, the file beside the deep folder checked."""
    _write(tmp_path, "a.py", LOOP)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deep").mkdir()
    monkeypatch.chdir(tmp_path / "deep")
    for _ in range(40):
        os.mkdir("d" * 200)
        os.chdir("d" * 200)
    Path("b.py").write_text(LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, err = _check(".", "--format", "json")
    found = [(d["code"], "too long" in d["message"]) for d in json.loads(out)]
    assert code == 1 and sorted(found) == [("GL002", True), ("GL101", False), ("GL201", False)], err


# --- noqa where another comment or a stray separator stands beside it -------------------------------


@pytest.mark.parametrize("comment, found", [
    ("# type: ignore  # noqa: GL101", [("GL201", 4)]),
    ("# pragma: no cover # noqa", []),
    ("# noqa: GL101,,GL201", []),
    ("# noqa: GL101 ,  GL201,", []),
])
def test_noqa_beside_other_comments_and_stray_separators(tmp_path, own_caches, comment, found):
    _write(tmp_path, "a.py", LOOP.replace("4096)))\n", f"4096)))  {comment}\n"))
    code, out, err = _check(str(tmp_path), "--format", "json")
    assert codes(out) == found, (comment, err)
