"""How counts read in messages (greenlint/units.py): one helper for every rule."""

from __future__ import annotations

import pytest

from greenlint.units import fmt_count


@pytest.mark.parametrize(
    ("value", "text"),
    [(12, "12"), (999, "999"), (1000, "1,000"), (100_000, "100,000"), (2.5, "2.5"), (14_000.0, "14,000"), ("n", "n")],
)
def test_a_count_is_thousands_separated(value, text):
    assert fmt_count(value) == text
