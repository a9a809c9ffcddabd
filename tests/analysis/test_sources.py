"""Bad input becomes a FileError (never an exception); notebooks and magics; the text pre-check."""

from __future__ import annotations

import json

import pytest

from greenlint.analysis import exercises
from greenlint.analysis.analyse import analyse_file, analyse_source
from greenlint.analysis.sources import blank_magics, joined


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def only_error(result):
    assert result.callsites == []
    assert len(result.errors) == 1
    return result.errors[0]


def test_syntax_error_names_file_line_and_problem(tmp_path):
    path = write(tmp_path, "bad.py", "import tensorflow as tf\n\ndef f(:\n    tf.zeros(1)\n")
    error = only_error(analyse_file(path))
    assert (error.code, error.kind, error.line) == ("GL001", "syntax-error", 3)
    assert str(path) in error.message and "syntax error" in error.message


def test_binary_file(tmp_path):
    error = only_error(analyse_file(write(tmp_path, "blob.py", b"import tensorflow\x00\x01\x02")))
    assert (error.code, error.kind) == ("GL002", "binary") and "binary" in error.message


def test_not_utf8(tmp_path):
    error = only_error(analyse_file(write(tmp_path, "latin.py", "import tensorflow\n# café\n".encode("latin-1"))))
    assert (error.code, error.kind, error.line) == ("GL002", "not-utf8", 2)
    assert "UTF-8" in error.message


def test_utf8_bom_is_accepted(tmp_path):
    path = write(tmp_path, "bom.py", "\ufeffimport tensorflow as tf\ntf.zeros(1)\n")
    result = analyse_file(path)
    assert result.errors == [] and [s.span.column for s in result.callsites] == [1]


@pytest.mark.parametrize(
    "content, why",
    [
        ("{not json", "invalid JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"nbformat": 4}', "no 'cells' list"),
        ('{"cells": [{"cell_type": "code", "source": 3}]}', "cell 1"),
    ],
)
def test_malformed_notebook(tmp_path, content, why):
    error = only_error(analyse_file(write(tmp_path, "nb.ipynb", content)))
    assert (error.code, error.kind) == ("GL002", "bad-notebook") and why in error.message and "nb.ipynb" in error.message


def test_nbformat_3_notebooks_are_read(tmp_path):
    nb = {"nbformat": 3, "worksheets": [{"cells": [{"cell_type": "code", "input": ["import tensorflow as tf\n", "tf.ones(2)"]}]}]}
    result = analyse_file(write(tmp_path, "old.ipynb", json.dumps(nb)))
    assert [(s.span.cell, s.span.line, s.api) for s in result.callsites] == [(1, 2, "tensorflow.ones")]


def test_notebooks_in_other_languages_are_not_parsed(tmp_path):
    nb = {"nbformat": 4, "metadata": {"kernelspec": {"language": "R"}}, "cells": [{"cell_type": "code", "source": "library(keras)\nfit(model, x <- 1)"}]}
    result = analyse_file(write(tmp_path, "r.ipynb", json.dumps(nb)))
    assert result.errors == [] and result.callsites == []


def test_huge_file_is_skipped_with_a_message(tmp_path):
    path = write(tmp_path, "big.py", "import tensorflow as tf\n" + "x = 1\n" * 1000)
    error = only_error(analyse_file(path, max_bytes=1000))
    assert (error.code, error.kind) == ("GL002", "too-large") and "limit" in error.message


def test_missing_file_and_directory(tmp_path):
    assert only_error(analyse_file(tmp_path / "absent.py")).kind == "unreadable"
    assert only_error(analyse_file(tmp_path)).kind == "unreadable"


def test_deeply_nested_code_is_an_error_not_a_crash(tmp_path):
    code = "import tensorflow as tf\nx = " + "(" * 5000 + "1" + ")" * 5000 + "\n"
    error = only_error(analyse_file(write(tmp_path, "deep.py", code)))
    assert error.code == "GL001"


def test_long_flat_expression_chains_are_analysed():
    code = "import tensorflow as tf\nx = " + " + ".join(["tf.zeros(1)"] * 3000) + "\n"
    result = analyse_source(code, "long.py")
    assert result.errors == [] and len(result.callsites) == 3000


def test_the_run_goes_on_after_a_bad_file(tmp_path):
    bad = write(tmp_path, "a.py", b"\x00")
    good = write(tmp_path, "b.py", "import tensorflow as tf\ntf.zeros(1)\n")
    results = [analyse_file(bad), analyse_file(good)]
    assert results[0].errors and results[1].callsites


def test_text_precheck_skips_parsing_files_without_tf():
    result = analyse_source("def broken(:\n", "plain.py")
    assert result.parsed is False and result.errors == [] and result.callsites == []


def test_no_tf_import_means_no_calls_even_if_tf_is_mentioned():
    result = analyse_source("# uses tensorflow later\ntf.zeros(1)\n", "c.py")
    assert result.parsed is True and result.callsites == []


def test_cell_offsets_report_positions_per_cell():
    text = "import tensorflow as tf\n%time x = 1\ntf.zeros(1)\ntf.ones(2)\n"
    result = analyse_source(text, "nb.py", cell_offsets=[0, 1, 3])
    assert [(s.span.cell, s.span.line, s.api) for s in result.callsites] == [
        (2, 2, "tensorflow.zeros"),
        (3, 1, "tensorflow.ones"),
    ]


@pytest.mark.parametrize(
    "source, expected",
    [
        ("%matplotlib inline\nx = 1", "\nx = 1"),
        ("!pip install tensorflow\nx = 1", "\nx = 1"),
        ("files = !ls\nout = %time f()\nx = 1", "\n\nx = 1"),
        ("tf.zeros?\nx = 1", "\nx = 1"),
        ("%%time\nx = 1", "\nx = 1"),
        ("%%bash\necho hi\nls", "\n\n"),
        ("!echo a \\\n  b\nx = 1", "\n\nx = 1"),
        ("y = (10\n     % 3)\nz = a != b", "y = (10\n     % 3)\nz = a != b"),  # Python, not magics
    ],
)
def test_magics_are_blanked_keeping_line_numbers(source, expected):
    assert blank_magics(source) == expected


def test_a_block_whose_only_statement_is_a_magic_still_parses():
    assert blank_magics("for i in range(3):\n    %time f(i)\n", "pass") == "for i in range(3):\n    pass\n"
    code = "import tensorflow as tf\nfor i in range(3):\n    %time tf.zeros(i)\ntf.ones(1)\n"
    nb = {"nbformat": 4, "cells": [{"cell_type": "code", "source": code}]}
    result = analyse_source(json.dumps(nb), "loop.ipynb")
    assert result.errors == [] and [(s.span.line, s.api) for s in result.callsites] == [(4, "tensorflow.ones")]


def test_joined_is_a_text_or_its_cells_joined_by_newlines():
    assert joined("a = 1\n") == "a = 1\n"
    assert joined(("a = 1", "", "b = 2\n")) == "a = 1\n\nb = 2\n"
    assert joined(()) == ""


def _exercise(tmp_path, blanks):
    cells = ["import tensorflow as tf\nx = tf.ones(2)\n", *blanks, "y = tf.zeros(3)\n"]
    nb = {"nbformat": 4, "cells": [{"cell_type": "code", "source": c} for c in cells]}
    return analyse_file(write(tmp_path, "exercise.ipynb", json.dumps(nb)))


def test_a_notebooks_unparsable_cells_are_said_once_and_the_others_analysed(tmp_path):
    result = _exercise(tmp_path, ["batch_size = 1 +\n", "model = (\nmodel.fit(x)\n"])
    assert [(e.code, e.cell, e.line) for e in result.errors] == [("GL001", 2, 1)]
    assert "2 code cells do not parse and are skipped (cells 2, 3)" in result.errors[0].message
    assert {c.span.cell for c in result.callsites} == {1, 4}


def test_a_notebooks_one_unparsable_cell_keeps_its_own_error(tmp_path):
    result = _exercise(tmp_path, ["batch_size = 1 +\n"])
    assert [(e.code, e.cell, e.line) for e in result.errors] == [("GL001", 2, 1)]
    assert "do not parse and are skipped" not in result.errors[0].message


def test_an_exercises_blanks_are_a_gl004_said_once_and_apart_from_real_errors(tmp_path):
    blanks = ["batch_size = \n", "def f(:\n    pass\n", "for x in data:\n    # YOUR CODE HERE\n\nmodel = \n"]
    result = _exercise(tmp_path, [*blanks, "model.fit(x, epochs= , verbose=1)\n"])
    assert [(e.code, e.cell, e.line) for e in result.errors] == [("GL004", 2, 1), ("GL001", 3, 1)]
    assert "(the first: `batch_size =`)" in result.errors[0].message
    assert "3 code cells are an exercise's blanks and are skipped (cells 2, 4, 5)" in result.errors[0].message
    assert {c.span.cell for c in result.callsites} == {1, 6}


@pytest.mark.parametrize(
    ("cell", "first"),
    [
        ("image_batch, label_batch = \n\npredicted = \npredicted = tf.squeeze(predicted)\n", (1, "image_batch, label_batch =")),
        ("(train, valid), info = \n", (1, "(train, valid), info =")),
        ("x = 1\nmodel.fit(x,\n    epochs=  # fill in\n)\n", (3, "epochs=  # fill in")),
        ("def build():\n    # YOUR CODE HERE\n", (1, "def build():")),
        ("epochs = # TODO\n", (1, "epochs = # TODO")),
    ],
)
def test_a_blank_is_a_right_side_or_a_body_left_empty(cell, first):
    assert exercises.blank(cell) == first


@pytest.mark.parametrize(
    "cell",
    ["x = 1\n", "x == \n", "x += \n", "x = 1 +\n", "x = = 2\n", "if ready:\nx = 1\n", "def f(:\n    pass\n", "a = \nb = (\n"],
)
def test_anything_else_is_no_blank(cell):
    assert exercises.blank(cell) is None


def test_a_file_errors_reason_is_its_message_less_the_path_and_skipped(tmp_path):
    """`FileError.reason`: what a configuration or a profile that cannot be read is reported with."""
    from greenlint.analysis.sources import read_bytes

    path = tmp_path / "pyproject.toml"
    path.write_bytes(b"x" * 11)
    data, error = read_bytes(path, 10)
    assert data is None and error.message == f"{path}: {error.reason}; skipped"
    assert error.reason == "file is 11 bytes, over the 10-byte limit"
