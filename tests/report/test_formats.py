"""Every output format, snapshotted on the shared fixture set, plus the behaviour behind it."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from greenlint import __version__
from greenlint.report import FORMATS, render
from tests.report.fixtures import DIAGNOSTICS, NOTEBOOK, PARSE_ERROR, RULES, SOURCES
from tests.report.snapshot import assert_snapshot

SUFFIX = {"json": "json", "json-lines": "jsonl", "sarif": "sarif.json"}


def _render(fmt: str, diagnostics=DIAGNOSTICS, **kwargs) -> str:
    text = render(fmt, diagnostics, sources=SOURCES, rules=RULES, **kwargs)
    return text.replace(f'"version": "{__version__}"', '"version": "<greenlint version>"')


@pytest.mark.parametrize("fmt", FORMATS)
def test_format_snapshot(fmt):
    assert_snapshot(f"{fmt}.{SUFFIX.get(fmt, 'txt')}", _render(fmt))


@pytest.mark.parametrize("fmt", ["concise", "json"])
def test_statistics_snapshot(fmt):
    assert_snapshot(f"statistics-{fmt}.{'json' if fmt == 'json' else 'txt'}", _render(fmt, statistics=True))


@pytest.mark.parametrize("fmt", FORMATS)
def test_order_does_not_depend_on_input_order(fmt):
    shuffled = DIAGNOSTICS[:]
    random.Random(7).shuffle(shuffled)
    assert _render(fmt, shuffled) == _render(fmt, list(reversed(DIAGNOSTICS)))


def test_unknown_format_is_an_error():
    with pytest.raises(ValueError, match="unknown output format 'xml'"):
        render("xml", DIAGNOSTICS, sources=SOURCES)


def test_concise_lines_and_order():
    assert _render("concise").splitlines() == [
        "notebooks/explore.ipynb:cell 3:3:9: GL101 " + NOTEBOOK.message,
        "src/broken, 100%.py:3:1: GL001 cannot parse: expected ':', got 'x' (file skipped)",
        "src/train.py:8:2: GL101 " + DIAGNOSTICS[3].message,
        "src/train.py:8:2: GL301 `fit()` runs with the default batch size of 32",
        "src/train.py:10:1: GL101 " + DIAGNOSTICS[0].message,
        "Found 5 diagnostics.",
    ]


def test_full_puts_caret_under_the_span_after_a_tab():
    text = _render("full", [DIAGNOSTICS[3]])
    lines = text.splitlines()
    source_row = lines.index(" 8 |     model.fit(x, y, epochs=50)")  # the tab is shown as 4 spaces
    assert lines[source_row + 1] == "   |     " + "^" * 26 + " GL101"
    assert "  = help: Hoist the call out of the loop" in lines


def test_full_help_comes_from_the_rule_without_a_fix():
    lines = _render("full", [DIAGNOSTICS[0]]).splitlines()
    assert "  = help: Run it fewer times or on less data" in lines  # RULES["GL101"].fix_title


def test_full_help_of_a_finding_that_carries_its_own():
    own = replace(DIAGNOSTICS[0], data={"help": "Wrap the optimizer in the graph rewrite"})
    lines = _render("full", [own]).splitlines()
    assert "  = help: Wrap the optimizer in the graph rewrite" in lines
    assert "  = help: Run it fewer times or on less data" not in lines


def test_full_uses_the_notebook_cell_text():
    lines = _render("full", [NOTEBOOK]).splitlines()
    assert "3 |     y = tf.linalg.matmul(x, x)" in lines
    assert "  |         " + "^" * 22 + " GL101" in lines
    assert not any("%timeit" in line for line in lines)


def test_full_without_source_shows_only_the_header():
    text = _render("full", [PARSE_ERROR])
    assert text.splitlines()[0] == "src/broken, 100%.py:3:1: GL001 cannot parse: expected ':', got 'x' (file skipped)"
    assert "|" not in text


def test_json_objects_carry_the_documented_fields():
    objects = json.loads(_render("json"))
    assert isinstance(objects, list) and len(objects) == len(DIAGNOSTICS)
    required = {"schema_version", "code", "name", "message", "severity", "location", "end_location", "cell", "fix", "energy_j", "filename"}
    assert all(required <= set(o) for o in objects)
    nb = objects[0]
    assert (nb["filename"], nb["cell"], nb["location"], nb["end_location"]) == (
        "notebooks/explore.ipynb", 3, {"row": 3, "column": 9}, {"row": 3, "column": 31})
    fixed = next(o for o in objects if o["fix"])
    assert fixed["fix"]["applicability"] == "unsafe"
    assert fixed["fix"]["edits"][0]["content"] == "epochs=5000"


def test_json_lines_is_the_json_array_one_object_per_line():
    lines = _render("json-lines").splitlines()
    assert [json.loads(line) for line in lines] == json.loads(_render("json"))


def test_github_escapes_and_notebook_cells():
    lines = _render("github").splitlines()
    assert len(lines) == len(DIAGNOSTICS)  # the newline in a message is escaped, not emitted
    parse = next(line for line in lines if "GL001" in line)
    assert parse.startswith("::error file=src/broken%2C 100%25.py,line=3,col=1,endLine=3,endColumn=2,title=GL001::")
    assert parse.endswith("%0A(file skipped)")
    nb = next(line for line in lines if "ipynb" in line)
    assert nb.startswith("::warning file=notebooks/explore.ipynb,title=GL101::cell 3:3:9: ")
    assert any(line.startswith("::notice ") for line in lines)


def test_grouped_has_one_header_per_file():
    lines = _render("grouped").splitlines()
    assert [line for line in lines if line.endswith(":") and not line.startswith(" ")] == [
        "notebooks/explore.ipynb:", "src/broken, 100%.py:", "src/train.py:"]


def test_statistics_counts_per_code():
    rows = json.loads(_render("json", statistics=True))
    assert rows[0] == {"code": "GL101", "name": "energy-hotspot", "count": 3, "fixable": 1}
    assert {r["code"]: r["count"] for r in rows} == {"GL101": 3, "GL001": 1, "GL301": 1}
    text = _render("concise", statistics=True).splitlines()
    assert text[0].split() == ["3", "GL101", "energy-hotspot"]


@pytest.mark.parametrize("fmt,expected", [
    ("concise", "All checks passed!\n"), ("full", "All checks passed!\n"), ("grouped", "All checks passed!\n"),
    ("json", "[]\n"), ("json-lines", ""), ("github", ""),
])
def test_no_diagnostics(fmt, expected):
    assert render(fmt, [], sources={}) == expected
