from __future__ import annotations

import pytest

from greenlint.analysis.callsite import Span
from greenlint.check import noqa
from greenlint.rules.diagnostic import Diagnostic


def diag(code, line, cell=None):
    return Diagnostic("f.py", Span(line, 1, line, 5, cell), code, "x", "m")


def test_line_codes_bare_and_other_tools():
    s = noqa.parse("a()  # noqa: GL101\nb()  # NOQA\nc()  # noqa: E501,GL201\nd()\n")
    found = [diag("GL101", 1), diag("GL201", 1), diag("GL301", 2), diag("GL201", 3), diag("GL101", 4)]
    kept, used = noqa.apply(found, s)
    assert [(d.code, d.span.line) for d in kept] == [("GL201", 1), ("GL101", 4)]
    assert used == {(None, 1): {"GL101"}, (None, 2): {"GL301"}, (None, 3): {"GL201"}}


def test_file_level():
    assert noqa.apply([diag("GL101", 3)], noqa.parse("# greenlint: noqa\nx = 1\n"))[0] == []
    s = noqa.parse("x = 1\n# greenlint: noqa: GL101\n")
    kept, _ = noqa.apply([diag("GL101", 1), diag("GL201", 1)], s)
    assert [d.code for d in kept] == ["GL201"]
    # the file directive is not a line noqa for its own line
    assert s.lines == {}


def test_notebook_cells_are_separate():
    s = noqa.parse(["a()  # noqa: GL101\n", "a()\n"])
    kept, _ = noqa.apply([diag("GL101", 1, cell=1), diag("GL101", 1, cell=2)], s)
    assert [d.span.cell for d in kept] == [2]


def test_unused_reports_only_known_codes():
    s = noqa.parse("a()  # noqa: GL101, E501\nb()  # noqa\nc()  # noqa: GL201\n")
    _, used = noqa.apply([diag("GL201", 3)], s)
    assert noqa.unused(s, used, {"GL101", "GL201"}) == [((None, 1), ["GL101"])]


def test_only_comments_suppress():
    """A noqa inside a string or docstring is text, not a directive: the tokenizer's comments only."""
    text = '"""Docs.\n\n# greenlint: noqa\n"""\na("#noqa")\nb = """x  # noqa\n"""\nc()  # noqa: GL101\n'
    s = noqa.parse(text)
    assert s.file_codes is False
    assert s.lines == {(None, 8): frozenset({"GL101"})}
    kept, _ = noqa.apply([diag("GL101", 5), diag("GL101", 6), diag("GL101", 8)], s)
    assert [d.span.line for d in kept] == [5, 6]


@pytest.mark.parametrize(
    ("comment", "codes"),
    [
        ("# noqa", noqa.ALL),
        ("#noqa", noqa.ALL),
        ("# NOQA because it is measured", noqa.ALL),
        ("# noqa: GL101, GL102", frozenset({"GL101", "GL102"})),
        ("# noqa:GL101 GL102", frozenset({"GL101", "GL102"})),
        ("# noqa: GL101 - measured on purpose", frozenset({"GL101"})),
        ("# type: ignore  # noqa: GL101", frozenset({"GL101"})),
        ("# noqa_later: GL101", False),
        ("# noqa-ish", False),
        ("# noqa:", False),  # ruff too ignores a colon naming no code
        ("# nonoqa", False),
    ],
)
def test_noqa_is_matched_as_ruff_matches_it(comment, codes):
    assert noqa.parse(f"a()  {comment}\n").lines.get((None, 1), False) == codes


def test_file_directive_is_a_comment_alone_on_its_line():
    assert noqa.parse("x = 1\n  # greenlint: noqa: GL101\n").file_codes == frozenset({"GL101"})
    assert noqa.parse("x = 1  # greenlint: noqa\n").file_codes is False
    assert noqa.parse("s = '# greenlint: noqa'\n").file_codes is False


def test_code_that_does_not_parse_keeps_the_comments_above_the_fault():
    s = noqa.parse("a()  # noqa: GL101\nb = (  # noqa\n")
    assert s.lines == {(None, 1): frozenset({"GL101"}), (None, 2): noqa.ALL}


def test_a_cells_magics_do_not_stop_its_comments():
    s = noqa.parse(["!pip install x\n%time a()\nb()  # noqa: GL101\n"])
    assert s.lines == {(1, 3): frozenset({"GL101"})}
