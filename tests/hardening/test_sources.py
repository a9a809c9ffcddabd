"""Wrong results on odd input: unreadable folders, compiler-only errors, IPython syntax, malformed notebooks."""

from __future__ import annotations

import dataclasses
import json
import os
import sys

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.check.config import Config
from greenlint.check.pipeline import check_source, run_check

TF = "import tensorflow as tf\n"


def _errors(text, path="a.py"):
    return [(e.code, e.message) for e in analyse_source(text, path=path).errors]


@pytest.mark.parametrize(
    "code, why",
    [
        ("return 1\n", "'return' outside function"),
        ("def f(a, a):\n    pass\n", "duplicate argument"),
        ("nonlocal x\n", "nonlocal declaration not allowed at module level"),
        ("for i in x:\n    pass\nbreak\n", "'break' outside loop"),
        ("await f()\n", "outside"),
    ],
)
def test_errors_only_the_compiler_finds_are_gl001(code, why):
    (error,) = _errors(TF + code)
    assert error[0] == "GL001" and why in error[1]


def test_a_notebook_cell_may_await_at_top_level():
    nb = {"cells": [{"cell_type": "code", "source": TF + "await tf.constant(1)\n"}], "nbformat": 4}
    assert _errors(json.dumps(nb), "n.ipynb") == []


def test_gl001_says_which_python_parsed():
    (error,) = _errors(TF + "def f(:\n    pass\n")
    assert f"as parsed by Python {sys.version_info.major}.{sys.version_info.minor}" in error[1]


@pytest.mark.parametrize("line", ["??tf.constant", "?tf.constant", "tf.constant??", "! ls -l", "!ls", "x = ! ls", "%time 1"])
def test_ipython_syntax_in_a_cell_is_not_a_syntax_error(line):
    nb = {"cells": [{"cell_type": "code", "source": f"{TF}{line}\ntf.constant(1)\n"}], "nbformat": 4}
    assert _errors(json.dumps(nb), "n.ipynb") == []


MAP = "ds = tf.data.Dataset.range(100).map(lambda x: x * tf.random.uniform([], 0, 9, tf.int64)).batch(8)\n"  # GL402: a random map without parallel calls


@pytest.mark.parametrize(
    "cell",
    [
        f"%time x = 1\n{TF}{MAP}",
        f"!pip install tensorflow\n{TF}{MAP}",
        f"%%capture\n{TF}{MAP}",
        f"{TF}files = !ls\n{MAP}",
        f"{TF}for i in range(2):\n    %time f()\n{MAP}",  # read with `pass` in the magic's place
    ],
    ids=["line-magic", "shell", "cell-magic", "assigned-shell", "magic-alone-in-a-block"],
)
def test_a_magic_in_a_cell_hides_no_finding_of_a_rule_reading_its_tree(cell):
    """GL402 reads the call's syntax (`FileFacts.node`): the cell's tree must be the analysis' own
    reading of it, magics blanked, not a parse of the raw cell that fails on `%`/`!`."""
    nb = json.dumps({"cells": [{"cell_type": "code", "source": cell}], "nbformat": 4})
    found = check_source(nb, "n.ipynb", Config(select=("GL402",), no_cache=True))
    assert [(d.code, d.span.cell, d.span.line) for d in found] == [("GL402", 1, cell.split("\n").index(MAP[:-1]) + 1)]


@pytest.mark.parametrize(
    "text",
    [
        "[" * 200_000 + "]" * 200_000,
        json.dumps({"cells": [{"cell_type": "code", "source": "\ud800 = 1"}]}),
        json.dumps({"cells": [{"cell_type": "code", "source": ["x", "\udfff"]}]}),
        json.dumps({"worksheets": [{"cells": 5}], "nbformat": 3}),
        json.dumps({"worksheets": [{"cells": [{"cell_type": "code", "input": 3}]}], "nbformat": 3}),
        json.dumps({"worksheets": [None, {"cells": "abc"}], "nbformat": 3}),
        json.dumps({"cells": {"a": 1}}),
    ],
)
def test_a_malformed_notebook_is_named_so(text):
    (error,) = analyse_source(text, path="n.ipynb").errors
    assert error.code == "GL002" and "malformed notebook" in error.message


def test_an_unreadable_folder_gets_a_diagnostic(tmp_path, config, monkeypatch):
    (tmp_path / "ok.py").write_text(TF)
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "hidden.py").write_text(TF)
    real = os.scandir

    def scandir(path="."):
        if os.fspath(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    result = run_check([tmp_path], dataclasses.replace(config, cache_dir=None, no_cache=True))
    (error,) = result.errors
    assert error.code == "GL002" and error.path.endswith("locked")
    assert "cannot read directory: Permission denied" in error.message


@pytest.mark.parametrize("cell_type", [None, 5, ["code"], "missing"])
def test_a_cell_without_a_cell_type_is_named_not_skipped(cell_type):
    """A cell with no `cell_type` string (nbformat requires one): it was skipped as if it were
    Markdown, so a notebook of such cells passed every rule without a word."""
    cell = {"source": f"{TF}for x in data:\n    model.predict(x)\n"}
    if cell_type != "missing":
        cell["cell_type"] = cell_type
    text = json.dumps({"cells": [{"cell_type": "markdown", "source": "# t"}, cell], "nbformat": 4})
    (error,) = analyse_source(text, path="n.ipynb").errors
    assert error.code == "GL002" and "cell 2 has no 'cell_type' string" in error.message, error.message


def test_a_heading_cell_of_nbformat_3_is_still_skipped():
    text = json.dumps({"worksheets": [{"cells": [{"cell_type": "heading", "source": "T", "level": 1},
                                                 {"cell_type": "code", "input": TF}]}], "nbformat": 3})
    assert analyse_source(text, path="n.ipynb").errors == []


def test_a_nul_in_the_file_name_is_not_a_syntax_error_of_the_code():
    """The language server analyses documents by their URI's path, which may hold a NUL (`a%00.py`):
    compile() refuses such a *name*, and the code read as unparsable (GL001)."""
    text = f"{TF}for x in data:\n    tf.keras.Model().predict(x)\n"
    found = analyse_source(text, path="/tmp/a\0.py")
    assert found.errors == [] and "tensorflow.keras.Model.predict" in [c.api for c in found.callsites]
