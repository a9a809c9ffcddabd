"""Byte <-> character columns: `ast` counts UTF-8 bytes, a Span characters (analysis/callsite.py)."""

from __future__ import annotations

import ast

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.analysis.callsite import char_offset, node_columns
from greenlint.analysis.sources import split_lines

LINE = 'x = "é😀"; model.fit(x)'


def test_a_node_s_columns_count_characters():
    call = ast.parse(LINE).body[1].value
    assert call.col_offset == len(LINE.encode()) - len("model.fit(x)")  # bytes: é is 2, the emoji 4
    assert node_columns(call, split_lines(LINE)) == (LINE.index("model"), len(LINE))
    assert node_columns(call, None) == (call.col_offset, call.end_col_offset)  # None: an ASCII text's


def test_a_node_over_lines_below_others_counts_each_end_on_its_own_line():
    text = 'f("é",\n  "😀")\n'
    call = ast.parse("\n\n" + text).body[0].value  # two lines above the text (a notebook's earlier cells)
    assert node_columns(call, split_lines(text), base=2) == (0, len('  "😀")'))


@pytest.mark.parametrize("cut", [1, 2, 3])
def test_a_byte_offset_inside_a_character_counts_it_once(cut):
    assert char_offset("😀x", cut) == 1  # a partial character is one replacement character


def test_a_call_site_after_wide_characters_has_character_columns():
    site = next(s for s in analyse_source(f"import tensorflow as tf\nmodel = tf.keras.Sequential()\n{LINE}\n", "a.py").callsites
                if s.api.endswith(".fit"))
    assert (site.span.column, site.span.end_column) == (LINE.index("model") + 1, len(LINE) + 1)
