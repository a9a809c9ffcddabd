"""Python 2 modules (analysis/python2.py): read as Python 3 with every call where the file has it,
so a TF1-era program written in Python 2 is analysed instead of refused; other syntax errors are
still reported as the file has them."""

from __future__ import annotations

import ast

import pytest

from greenlint.analysis import python2
from greenlint.analysis.analyse import analyse_source

PROGRAM = """\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
model.compile("adam", "mse")
for epoch in xrange(3):
    print "epoch", epoch, model.fit(np.zeros((100, 4)), np.zeros((100, 10)), epochs=1)
try:
    model.save("m.h5")
except IOError, e:
    print >>sys.stderr, "cannot save: %s" % e
    raise ValueError, "no model"
os.makedirs("out", 0755)
"""


def test_a_python2_program_is_analysed_with_its_calls_where_the_file_has_them() -> None:
    result = analyse_source(PROGRAM, "train.py")
    assert result.errors == []
    (fit,) = [s for s in result.callsites if s.api.endswith(".fit")]
    assert (fit.span.line, fit.span.column) == (7, PROGRAM.splitlines()[6].index("model.fit") + 1)
    assert fit.runs.to_json()["count"] == 3
    assert any(s.api.endswith(".save") for s in result.callsites)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('print "a", b\n', 'print("a", b)\n'),
        ("print\n", "print()\n"),
        ("if x: print x; y = 1\n", "if x: print(x); y = 1\n"),
        ('print >>f, "x"  # noqa\n', 'print(  f, "x")  # noqa\n'),
        ("except IOError, e:\n", None),  # not a module on its own: the tokenizer reads it, the rewrite is checked below
        ("print sess.run(loss,\n    feed_dict={x: 1})\n", "print(sess.run(loss,\n    feed_dict={x: 1}))\n"),
        ('raise ValueError, "bad"\n', 'raise ValueError( "bad")\n'),
        ("n = 10L + 0755\n", "n = 10 + 0o755\n"),
        ("print(x)\n", None),  # already Python 3: nothing to rewrite
        ("x = data[1:2]\n", None),
    ],
)
def test_python2_statements_become_python3_forms(source: str, expected: str | None) -> None:
    got = python2.readable(source)
    if source.startswith("except"):
        got = python2.readable("try:\n    pass\n" + source + "    pass\n")
        assert got == "try:\n    pass\nexcept IOError as e:\n    pass\n"
        return
    assert got == expected
    if got is not None:
        ast.parse(got)


def test_a_statement_keeps_its_columns() -> None:
    source = "print sess.run(train_op, feed_dict=feed)\n"
    call = ast.parse(python2.readable(source)).body[0].value.args[0]
    assert call.col_offset == source.index("sess.run")


@pytest.mark.parametrize(
    "source",
    [
        "import tensorflow as tf\nprint `tf.__version__`\n",  # backticks: no reading of ours, the file's error stands
        "import tensorflow as tf\ndef f(:\n    pass\n",  # not Python 2 either
    ],
)
def test_other_syntax_errors_are_reported_as_the_file_has_them(source: str) -> None:
    result = analyse_source(source, "old.py")
    (error,) = result.errors
    assert error.code == "GL001" and error.line == 2
    assert "syntax error" in error.message


def test_the_reading_is_tried_only_where_the_error_is_one_python2_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    tried: list[str] = []
    monkeypatch.setattr(python2, "readable", lambda text: tried.append(text))
    analyse_source("import tensorflow as tf\nx = (\n", "unclosed.py")
    assert tried == []
    analyse_source("import tensorflow as tf\nprint tf.__version__\n", "old.py")
    assert len(tried) == 1
