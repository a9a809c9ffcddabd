"""Code that says it is slow on purpose (`deliberate.declared_slow`): which scopes the words
declare, which they do not, and that a file that says nothing costs no tree; the calls an
exercise left blank (`deliberate.left_blank`)."""

from __future__ import annotations

import pytest

from greenlint.rules import deliberate
from greenlint.rules.base import FileFacts


def _scopes(source: str | tuple[str, ...]) -> list[tuple[int | None, int, int]]:
    return deliberate.declared_slow(FileFacts("m.py" if isinstance(source, str) else "m.ipynb", (), source))


def test_a_module_docstring_declares_the_whole_file():
    source = '"""An input pipeline created by deoptimizing the fast one, for profiling."""\nimport tensorflow as tf\nx = 1\n'
    assert _scopes(source) == [(None, 1, 4)]


def test_a_function_declares_itself_by_its_docstring_or_a_comment_in_its_body_a_class_by_its_docstring():
    source = (
        "def fast():\n    return 1\n\n\n"
        "def slow():\n    # BEGIN_DEOPTIMIZE\n    # END_DEOPTIMIZE\n    return 2\n\n\n"
        'def naive():\n    """Deliberately slow: the baseline of the benchmark."""\n    return 3\n\n\n'
        'class Baseline:\n    """Inefficient on purpose."""\n\n    def run(self):\n        return 4\n'
    )
    assert _scopes(source) == [(None, 5, 8), (None, 11, 13), (None, 16, 20)]


@pytest.mark.parametrize(
    "source",
    [
        "# this pipeline was deoptimized on purpose\nimport tensorflow as tf\n",  # a comment outside any function
        '"""Python control flow here would deoptimize the trace; avoid deoptimizing it."""\nimport tensorflow as tf\n',
        "def deoptimized_baseline():\n    return 1\n",  # a name
        '"""An optimized pipeline; profile it to see what is slow."""\nimport tensorflow as tf\n',
        '"""Slow start-up is deliberate: the weights load lazily."""\n',
    ],
)
def test_words_elsewhere_or_other_words_declare_nothing(source):
    assert _scopes(source) == []


def test_a_notebook_cell_declares_itself_alone():
    cells = ("import tensorflow as tf\n", '"""Intentionally unoptimized: profile this cell."""\nx = 1\n', "y = 2\n")
    assert _scopes(cells) == [(2, 1, 3)]


def test_a_file_without_the_words_is_never_parsed():
    facts = FileFacts("m.py", (), "import tensorflow as tf\nx = tf.ones(1)\n")
    assert deliberate.declared_slow(facts) == [] and facts._trees == {}


def test_a_call_with_an_ellipsis_argument_is_left_blank_an_index_or_a_docstring_is_not(predictor):
    from greenlint.check.config import Config
    from greenlint.check.pipeline import check_source

    source = (
        '"""Fill in the ... below."""\nimport tensorflow as tf\nmodel = tf.keras.models.load_model("m.keras")\n'
        "for x in inputs:\n    model.predict(...)\n    model.fit(x[..., 0], epochs=...)\n"
        "for x in inputs:\n    model.predict(x[..., None])\n"
    )
    found = check_source(source, "exercise.py", Config(select=("GL201",), no_cache=True), predictor)
    assert [d.span.line for d in found] == [8]


def test_a_call_in_a_branch_the_code_never_takes_carries_no_finding(predictor):
    """`if workers > 1:` where every call gives workers 1: its sites are `unreached`, their findings moot;
    given 4 by one call, the branch may run and keeps its finding."""
    from greenlint.check.config import Config
    from greenlint.check.pipeline import check_source

    source = (
        'import tensorflow as tf\nmodel = tf.keras.models.load_model("m.keras")\n'
        "def evaluate(rows, workers):\n    if workers > 1:\n        return [model.predict(r) for r in rows]\n"
        "    return model.predict(rows)\n"
        "evaluate([1, 2], 1)\nevaluate([3], {workers})\n"
    )
    config = Config(select=("GL201",), no_cache=True)
    assert check_source(source.format(workers=1), "evaluate.py", config, predictor) == []
    assert [d.span.line for d in check_source(source.format(workers=4), "evaluate.py", config, predictor)] == [5]
