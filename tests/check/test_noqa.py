from __future__ import annotations

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
