"""Resolution over the fixture set: every marked call found with its canonical API, nothing else."""

from __future__ import annotations

from collections import Counter

import pytest

from greenlint.analysis.analyse import analyse_file
from tests.analysis.expectations import FIXTURES, expected_calls, fixture_files


@pytest.mark.parametrize("fixture", fixture_files(), ids=lambda p: p.name)
def test_fixture_calls_match_markers(fixture):
    result = analyse_file(fixture)
    assert result.errors == []
    found = Counter((site.span.line, site.api) for site in result.callsites)
    expected = expected_calls(fixture.read_text(encoding="utf-8"))
    assert expected or fixture.name == "negatives.py", "a fixture without markers tests nothing"
    missing, extra = expected - found, found - expected
    assert not missing and not extra, f"missing {sorted(missing)}, extra {sorted(extra)}"


def test_negatives_fixture_reports_nothing():
    assert analyse_file(FIXTURES / "negatives.py").callsites == []


def test_notebook_cells_share_one_namespace_and_positions_stay_per_cell():
    result = analyse_file(FIXTURES / "notebook.ipynb")
    found = [(s.span.cell, s.span.line, s.span.column, s.api) for s in result.callsites]
    assert found == [
        (2, 2, 9, "tensorflow.keras.Sequential"),  # after the %%time line, imports from cell 1
        (2, 2, 27, "tensorflow.keras.layers.Dense"),
        (2, 3, 1, "tensorflow.keras.Sequential.compile"),
        (3, 2, 5, "tensorflow.zeros"),  # `files = !ls` on line 1 blanked, not removed
        (3, 4, 1, "tensorflow.keras.Sequential.fit"),  # `%time model.predict(x)` is a magic line
        (5, 4, 1, "tensorflow.ones"),  # cell 4 is %%bash: skipped, but still counted
        (7, 1, 13, "tensorflow.reduce_sum"),  # columns count characters, not bytes
    ]
    # the cell that does not parse is reported and the others are still analysed
    assert [(e.code, e.cell, e.line) for e in result.errors] == [("GL001", 6, 1)]
    assert "cell 6" in result.errors[0].message
    assert result.cells[0].startswith("%matplotlib inline")  # cells are kept as written


def test_fixture_positions_are_one_based_characters_with_exclusive_end():
    result = analyse_file(FIXTURES / "positions.py")
    sites = {(s.span.line, s.api): s.span for s in result.callsites}
    span = sites[(3, "tensorflow.zeros")]  # print(tf.zeros(1))
    assert (span.column, span.end_line, span.end_column, span.cell) == (7, 3, 18, None)
    multi = sites[(52, "tensorflow.print")]
    assert (multi.line, multi.column, multi.end_line, multi.end_column) == (52, 1, 55, 2)


def test_columns_count_characters_across_line_endings_and_non_ascii():
    from greenlint.analysis.analyse import analyse_source

    text = "import tensorflow as tf\r\nnom_été = 'ü'; x = tf.zeros(1)\r\nif x:\r\n\tt = tf.ones(\r\n  2)\r\n"
    result = analyse_source(text, "x.py")
    assert result.errors == []
    spans = [(s.api, s.span.line, s.span.column, s.span.end_line, s.span.end_column) for s in result.callsites]
    assert spans == [
        ("tensorflow.zeros", 2, 20, 2, 31),  # bytes would say 23
        ("tensorflow.ones", 4, 6, 5, 5),  # a tab is one character
    ]
