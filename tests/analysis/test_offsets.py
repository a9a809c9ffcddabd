"""Byte <-> character columns: `ast` counts UTF-8 bytes, a Span characters (analysis/callsite.py)."""

from __future__ import annotations

import ast

import pytest

from greenlint.analysis import analyse_source
from greenlint.analysis.callsite import byte_offset, char_offset

LINE = 'x = "é😀"; model.fit(x)'


def test_the_two_conversions_are_inverse_where_characters_start():
    call = ast.parse(LINE).body[1].value
    assert call.col_offset == len(LINE.encode()) - len("model.fit(x)")  # bytes: é is 2, the emoji 4
    assert char_offset(LINE, call.col_offset) == LINE.index("model")
    for i in range(len(LINE) + 1):
        assert char_offset(LINE, byte_offset(LINE, i)) == i
    assert char_offset("ascii", 3) == byte_offset("ascii", 3) == 3


@pytest.mark.parametrize("cut", [1, 2, 3])
def test_a_byte_offset_inside_a_character_counts_it_once(cut):
    assert char_offset("😀x", cut) == 1  # a partial character is one replacement character


def test_a_call_site_after_wide_characters_has_character_columns():
    site = next(s for s in analyse_source(f"import tensorflow as tf\nmodel = tf.keras.Sequential()\n{LINE}\n", "a.py").callsites
                if s.api.endswith(".fit"))
    assert (site.span.column, site.span.end_column) == (LINE.index("model") + 1, len(LINE) + 1)
