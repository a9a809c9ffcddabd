"""README.md shows the Markdown summary of a real `greenlint diff` run (tests/review/readme_example.py)."""

from __future__ import annotations

from tests.review.readme_example import README, render, updated


def test_readme_example_is_current():
    text = README.read_text(encoding="utf-8")
    assert updated(text, render()) == text, "README.md's greenlint diff example is stale: python -m tests.review.readme_example"
