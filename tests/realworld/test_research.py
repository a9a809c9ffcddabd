"""The research benchmark: its readings still point at their lines, and its matching (on a synthetic
reading, without running greenlint)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bench.realworld.corpora import BY_NAME, CORPORA, VENDORED, ensure
from bench.realworld.research import (
    KINDS,
    call_site,
    read_kinds,
    read_reading,
    read_readings,
    read_reviews,
    score,
    section,
    stale_readings,
)

READING = """
corpus = "{name}"

[[call]]
id = "fit"
file = "train.py"
line = 10
text = "model.fit(x, y, epochs=100)"
call = "fit"
size = "100 epochs"

[[call]]
id = "nb-predict"
file = "nb.ipynb"
cell = 3
line = 2
text = "model.predict(x)"
call = "predict"
size = "one item"

[[change]]
file = "train.py"
line = 4
text = "x = load()"
call = "fit"
kind = "no-early-stopping"
change = "stop early"
why = "100 epochs"
sure = "high"

[[change]]
file = "train.py"
line = 20
also = [30]
text = "for i in range(9):"
kind = "predict-per-item"
rules = ["GL999"]
change = "batch"
why = "per item"
sure = "medium"

[[change]]
file = "nb.ipynb"
cell = 3
line = 2
text = "model.predict(x)"
kind = "host-input-pipeline"
change = "workers"
why = "one core"
sure = "low"
"""

KINDS_TEXT = """
[kinds]
no-early-stopping = ["GL308"]
predict-per-item = ["GL201", "GL204"]
host-input-pipeline = []
"""


def _synthetic(tmp_path, name="synthetic", reading=READING):
    (tmp_path / "kinds.toml").write_text(KINDS_TEXT)
    path = tmp_path / f"{name}.toml"
    path.write_text(reading.format(name=name))
    kinds = read_kinds(tmp_path / "kinds.toml")
    return read_reading(path, kinds), kinds


def _site(path, line, api, energy=1.0, cell=None, end_line=None, floor=False, runs=1):
    return {"path": path, "line": line, "end_line": end_line or line, "api": api, "cell": cell, "energy_j": energy,
            "floor": floor, "runs": {"count": runs, "note": None if runs else "its loop runs 0 times"}}


def _finding(file, row, code, cell=None, end_row=None):
    return {"filename": file, "cell": cell, "location": {"row": row, "column": 1}, "code": code,
            "end_location": {"row": end_row or row, "column": 2}}


def test_every_reading_points_at_its_vendored_lines():
    readings = read_readings()
    assert len(readings) >= 6
    assert not stale_readings(readings)
    for reading in readings:
        assert reading.calls and reading.changes, reading.corpus
        corpus = BY_NAME[reading.corpus]
        if corpus.vendored:
            assert (VENDORED / corpus.name / "LICENSE").is_file()
        else:  # a pinned PyPI archive, extracted into the cache with its licence
            assert any(p.name.startswith("LICENCE-") for p in ensure(corpus).iterdir())
    assert set(read_kinds()) >= {c.kind for r in readings for c in r.changes}
    assert {r.corpus for r in readings} == {c.name for c in CORPORA if c.style.startswith("research")}


def test_a_moved_or_missing_line_is_stale(tmp_path):
    reading, _ = _synthetic(tmp_path)
    real = read_readings()[0]
    call = real.calls[0]
    moved = replace(real, calls=(replace(call, line=call.line + 1), replace(call, file=call.file + ".gone")), changes=())
    assert len(stale_readings([moved])) == 2
    assert stale_readings([reading]) == ["synthetic: no such corpus in corpora.py"]


def test_call_sites_match_by_name_and_nearby_line(tmp_path):
    reading, _ = _synthetic(tmp_path)
    fit, predict = reading.calls
    assert call_site(fit, [_site("./train.py", 12, "tensorflow.keras.Model.fit")])  # within 2 lines
    assert call_site(fit, [_site("train.py", 8, "keras.Model.fit", end_line=11)])  # spans it
    assert call_site(fit, [_site("train.py", 13, "keras.Model.fit")]) is None  # 3 lines away
    assert call_site(fit, [_site("train.py", 11, "keras.Model.evaluate")]) is None  # another call, another line
    assert call_site(fit, [_site("train.py", 10, "project.step")])  # whatever greenlint names the call on the line
    assert call_site(fit, [_site("other.py", 10, "keras.Model.fit")]) is None
    assert call_site(predict, [_site("nb.ipynb", 2, "keras.Model.predict", cell=3)])
    assert call_site(predict, [_site("nb.ipynb", 2, "keras.Model.predict", cell=4)]) is None


def test_changes_are_found_by_their_kinds_rules_near_their_lines(tmp_path):
    reading, kinds = _synthetic(tmp_path)
    sites = [_site("train.py", 10, "keras.Model.fit", energy=None), _site("nb.ipynb", 2, "keras.Model.predict", cell=3,
                                                                            floor=True),
             _site("train.py", 40, "keras.Model.evaluate", runs=0), _site("train.py", 41, "keras.Model.save", runs=None)]
    default = [
        _finding("train.py", 11, "GL308"),  # near the fit call the first change names: found
        _finding("train.py", 27, "GL201"),  # 3 lines from 30: not found
        _finding("nb.ipynb", 2, "GL201", cell=3),  # a rule of another kind: not found
    ]
    every = default + [_finding("train.py", 32, "GL999")]  # the change's own rule, near its `also` line
    results = score([reading], {"synthetic": {"sites": sites, "default": default, "every": every}}, kinds)
    row = results["corpora"][0]
    assert (row["calls_listed"], row["call_sites"], row["with_figure"]) == (2, 2, 1)
    assert [c["found_by"] for c in row["changes"]] == [["GL308"], [], []]
    assert [c["found_by_any_rule"] for c in row["changes"]] == [["GL308"], ["GL999"], []]
    assert (row["changes_listed"], row["changes_found"], row["changes_found_any_rule"]) == (3, 1, 2)
    assert results["total"]["changes_found"] == 1
    assert results["rules"] == {"GL201": {"listed": 1, "found": 0}, "GL204": {"listed": 1, "found": 0},
                                "GL308": {"listed": 1, "found": 1}}
    text = "\n".join(section(results))
    assert "| synthetic | 2 | 2 / 2 (100%) | 1 / 2 (50%) | 1 / 3 (33%) | 2 / 3 (67%) | 0 | 0 | 1 |" in text
    assert "- synthetic `train.py:40` keras.Model.evaluate: its loop runs 0 times" in text  # a count unknown is not 0
    assert "| host-input-pipeline | none yet | 0 / 1 |" in text
    assert "| [GL308](rules/GL308.md) | 1 / 1 (100%) |" in text


def test_a_finding_spanning_lines_finds_a_change_near_its_last(tmp_path):
    """A finding at a call written over several lines covers them all: a change listed within NEAR lines of
    its last line is found, one further away is not."""
    reading, kinds = _synthetic(tmp_path)
    near = [_finding("train.py", 24, "GL201", end_row=29)]  # spans 24-29: line 30 (an `also`) is 1 away
    collected = {"synthetic": {"sites": [], "default": near, "every": near}}
    assert score([reading], collected, kinds)["corpora"][0]["changes"][1]["found_by"] == ["GL201"]
    far = [_finding("train.py", 24, "GL201", end_row=26)]  # 26 is 4 from 30 and from 20
    collected = {"synthetic": {"sites": [], "default": far, "every": far}}
    assert score([reading], collected, kinds)["corpora"][0]["changes"][1]["found_by"] == []


def test_a_finding_judged_false_finds_no_change(tmp_path, monkeypatch):
    """Recall counts only findings not judged false: a false GL308 near the listed change finds nothing."""
    from bench.realworld import research
    from bench.realworld.labels import Label

    reading, kinds = _synthetic(tmp_path)
    default = [_finding("train.py", 11, "GL308")]
    collected = {"synthetic": {"sites": [], "default": default, "every": default}}
    assert score([reading], collected, kinds)["total"]["changes_found"] == 1
    false = Label("synthetic", "train.py", 0, 11, "GL308", "false", "not the fit it names", "x = load()")
    monkeypatch.setattr(research, "read_labels", lambda: [false])
    assert score([reading], collected, kinds)["total"]["changes_found"] == 0


def test_a_change_only_false_findings_would_find_is_disputed(tmp_path, monkeypatch):
    """The reading and the judge disagree where a change is found only by findings judged false: counted and
    listed as disputed; a change also found by a finding not judged false is found, not disputed."""
    from bench.realworld import research
    from bench.realworld.labels import Label

    reading, kinds = _synthetic(tmp_path)
    default = [_finding("train.py", 11, "GL308")]
    collected = {"synthetic": {"sites": [], "default": default, "every": default}}
    false = Label("synthetic", "train.py", 0, 11, "GL308", "false", "not the fit it names", "x = load()")
    monkeypatch.setattr(research, "read_labels", lambda: [false])
    results = score([reading], collected, kinds)
    assert results["total"]["changes_disputed"] == 1
    assert "- synthetic `train.py:4` no-early-stopping (high): GL308" in "\n".join(section(results))
    also = [*default, _finding("train.py", 5, "GL308")]
    collected = {"synthetic": {"sites": [], "default": also, "every": also}}
    results = score([reading], collected, kinds)
    assert (results["total"]["changes_disputed"], results["total"]["changes_found"]) == (0, 1)
    assert "Disputed" not in "\n".join(section(results))


def test_a_change_a_review_disputes_stays_listed_and_says_why(tmp_path, monkeypatch):
    """A second reading's dispute (readings/reviews.toml) never removes the change: it stays in the denominator,
    counted as reviewed and listed with its evidence; a review naming no listed change is an error."""
    from bench.realworld import research

    reading, kinds = _synthetic(tmp_path)
    reviews = tmp_path / "reviews.toml"
    reviews.write_text('[[review]]\ncorpus = "synthetic"\nfile = "train.py"\nline = 4\nkind = "no-early-stopping"\n'
                       'by = "a second reader"\nreason = "the loop stops at a convergence test"\n', encoding="utf-8")
    monkeypatch.setattr(research, "REVIEWS", reviews)
    collected = {"synthetic": {"sites": [], "default": [], "every": []}}
    results = score([reading], collected, kinds)
    assert (results["total"]["changes_listed"], results["total"]["changes_reviewed"]) == (3, 1)
    assert [c["reviewed"] for c in results["corpora"][0]["changes"]] == ["the loop stops at a convergence test", None, None]
    assert "- synthetic `train.py:4` no-early-stopping (high): the loop stops at a convergence test" in "\n".join(section(results))
    reviews.write_text(reviews.read_text(encoding="utf-8").replace("line = 4", "line = 5"), encoding="utf-8")
    with pytest.raises(ValueError, match="names no change a reading lists"):
        score([reading], collected, kinds)


def test_the_reviews_name_listed_changes():
    assert read_reviews(read_readings())  # each names a change a reading lists (else ValueError)


@pytest.mark.parametrize("field, value, message", [
    ('kind = "no-early-stopping"', 'kind = "faster"', "kind 'faster'"),
    ('sure = "high"', 'sure = "maybe"', "sure = 'maybe'"),
    ('call = "fit"\nkind', 'call = "gone"\nkind', "names call 'gone'"),
    ('size = "100 epochs"\n', "", "lacks or mistypes a field"),
])
def test_a_bad_reading_names_its_file_and_problem(tmp_path, field, value, message):
    assert field in READING
    with pytest.raises(ValueError, match=message) as error:
        _synthetic(tmp_path, reading=READING.replace(field, value, 1))
    assert "synthetic.toml" in str(error.value)


def test_the_kinds_file_parses():
    assert all(code.startswith("GL") for codes in read_kinds(KINDS).values() for code in codes)


@pytest.mark.parametrize("command", ["run", "research"])
def test_results_written_elsewhere_leave_the_doc_alone(tmp_path, monkeypatch, command):
    """docs/realworld.md shows the benchmark's own results: `--out` elsewhere writes that file only."""
    import argparse

    from bench.realworld import __main__ as cli
    from bench.realworld import research

    edits = []
    monkeypatch.setattr(cli, "replace_section", lambda *a, **k: edits.append(a))
    monkeypatch.setattr(research, "collect", lambda readings: {})
    monkeypatch.setattr(research, "score", lambda *a: {"total": {}})
    monkeypatch.setattr(research, "section", lambda results: [])
    monkeypatch.setattr(cli, "collect", lambda corpora: {})
    monkeypatch.setattr(cli, "score", lambda *a: {"drift": {"vanished": [], "unlabelled": []}})
    monkeypatch.setattr("tools.gendocs.realworld_section", lambda results, level: [])
    run = cli.cmd_run if command == "run" else cli.cmd_research
    out = tmp_path / "results.json"
    run(argparse.Namespace(corpus=None, out=out))
    assert out.exists() and edits == []
