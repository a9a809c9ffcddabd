"""The real-world benchmark's labels still point at their lines; its scoring and sampling."""

from __future__ import annotations

import json
import re

import pytest

from bench.realworld.corpora import CORPORA, VENDORED, ensure
from bench.realworld.labels import SECOND_JUDGE, Label, read_labels, sample, source_line
from bench.realworld.score import score, stale_labels
from bench.realworld.vendor import provenance, strip_notebook
from tools.gendocs import realworld_section


def test_every_label_resolves_to_its_line():
    """Downloads the pinned PyPI corpora when they are not cached (a failed download fails the test)."""
    labels = read_labels()
    assert len(labels) >= 100
    assert not stale_labels(labels)


def test_labels_cover_every_style_and_verdict():
    labels = read_labels()
    assert len({label.corpus for label in labels}) >= 6
    assert {label.verdict for label in labels} == {"true", "debatable", "false"}
    assert all(label.reason and label.text for label in labels)


def test_a_moved_line_is_reported():
    label = read_labels()[0]
    moved = Label(**{**label.__dict__, "line": label.line + 1})
    gone = Label(**{**label.__dict__, "file": label.file + ".missing"})
    assert len(stale_labels([moved, gone])) == 2


def test_corpora_are_pinned_and_licensed():
    assert len({c.style for c in CORPORA}) >= 6
    for corpus in CORPORA:
        assert corpus.licence and corpus.licence_file
        if corpus.vendored:
            folder = VENDORED / corpus.name
            assert (folder / "LICENSE").is_file() and corpus.origin.split("@")[1] in (folder / "PROVENANCE.md").read_text()
        else:
            assert len(corpus.sha256) == 64 and corpus.url.startswith("https://files.pythonhosted.org/")
            assert any(p.name.startswith("LICENCE-") for p in ensure(corpus).iterdir())


def test_provenance_is_what_vendor_writes():
    for corpus in CORPORA:
        if corpus.vendored:
            text = (VENDORED / corpus.name / "PROVENANCE.md").read_text()
            assert text == provenance(corpus, re.findall(r"^- `(.+)`$", text, re.MULTILINE)), corpus.name


def test_borrowed_code_is_named_in_its_corpus_notice():
    """A kept file that says part of it comes from another repository (whose licence may differ) is named in
    its corpus's notice, which PROVENANCE.md repeats."""
    said = re.compile(r"(?:borrowed|taken) from https://github\.com/", re.IGNORECASE)
    for corpus in CORPORA:
        if corpus.vendored:
            for path in (VENDORED / corpus.name).rglob("*.py"):
                if said.search(path.read_text(errors="replace")):
                    assert f"`{path.relative_to(VENDORED / corpus.name)}`" in corpus.notice, path


def test_vendored_notebooks_have_no_outputs():
    for notebook in VENDORED.rglob("*.ipynb"):
        cells = json.loads(notebook.read_text())["cells"]
        assert all(not c.get("outputs") and c.get("execution_count") is None for c in cells if c["cell_type"] == "code")


def test_strip_notebook_keeps_sources_and_drops_outputs(tmp_path):
    notebook = {
        "cells": [
            {"cell_type": "code", "source": ["x = 1\n", "y = 2"], "outputs": [{"text": "big"}], "execution_count": 3,
             "metadata": {"colab": {}}},
            {"cell_type": "markdown", "source": "# t", "attachments": {"a.png": {}}, "metadata": {}},
        ],
        "metadata": {"kernelspec": {"name": "python3"}, "colab": {"provenance": []}},
        "nbformat": 4, "nbformat_minor": 0,
    }
    stripped = json.loads(strip_notebook(json.dumps(notebook)))
    code, markdown = stripped["cells"]
    assert code["source"] == ["x = 1\n", "y = 2"] and code["outputs"] == [] and code["execution_count"] is None
    assert "attachments" not in markdown and stripped["metadata"] == {"kernelspec": {"name": "python3"}}
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps(stripped))
    assert source_line(tmp_path, "n.ipynb", 1, 2) == "y = 2"
    with pytest.raises(LookupError):
        source_line(tmp_path, "n.ipynb", 2, 1)  # one code cell only


def test_sample_keeps_its_members_when_others_appear():
    keys = [("a" if i % 3 else "b", f"f{i}.py", 0, i, "GL101") for i in range(60)]
    first = sample(keys, 20, "seed")
    assert len(first) == 20 and {k[0] for k in first} == {"a", "b"}
    second = sample(keys + [("a", "new.py", 0, 1, "GL101")], 20, "seed")
    assert len(set(first) & set(second)) >= 19
    assert sample(keys[:5], 20, "seed") == sorted(keys[:5])


def _finding(file: str, line: int, code: str) -> dict:
    return {"filename": file, "cell": None, "location": {"row": line, "column": 1}, "code": code, "message": "m"}


def test_score_counts_verdicts_and_drift():
    findings = [_finding("a.py", n, "GL101") for n in (1, 2, 3, 4)] + [_finding("a.py", 9, "GL301")]
    collected = {
        "findings": [(("c", f["filename"], 0, f["location"]["row"], f["code"]), f) for f in findings],
        "sites": [{"energy_j": 1.0, "interval_j": [1.0, 50.0]}, {"energy_j": 1.0, "interval_j": [1.0, 5000.0]},
                  {"energy_j": None, "interval_j": None}, {"energy_j": 2.0, "interval_j": [0.0, 2.0]},
                  {"energy_j": 3.0, "interval_j": [1.0, 1e6], "floor": True},
                  {"energy_j": 0.0, "interval_j": [0.0, 0.0], "basis": "symbolic"}],
        "sizes": {}, "defaults": {"GL101": True, "GL301": True, "GL601": False},
        "widths": {"c": {"sites": 6, "figured": 2, "bounds": 1, "floors": 1, "symbolic": 1, "wider_100x": 0.5,
                         "wider_1000x": 0.5, "median_width": 2525.0},
                   "d": {"sites": 3, "figured": 0, "bounds": 3, "floors": 0, "symbolic": 0}},
    }
    labels = [Label("c", "a.py", 0, n, "GL101", v, "r", "t") for n, v in ((1, "true"), (2, "false"), (3, "debatable"))]
    labels.append(Label("c", "gone.py", 0, 1, "GL301", "false", "r", "t"))
    results = score(collected, labels)
    gl101 = results["rules"]["GL101"]
    assert (gl101["findings"], gl101["judged"], gl101["true"], gl101["debatable"], gl101["false"]) == (4, 3, 1, 1, 1)
    assert gl101["precision"] == pytest.approx(2 / 3, abs=1e-4)
    assert results["rules"]["GL601"]["findings"] == 0 and results["gl101_share"] == 0.8
    assert results["drift"]["vanished"] == [["c", "gone.py", 0, 1, "GL301", "false"]]
    assert [row[:5] for row in results["drift"]["unlabelled"]] == [["c", "a.py", 0, 4, "GL101"], ["c", "a.py", 0, 9, "GL301"]]
    # a bound, a floor and a symbolic call (0 J at its line, its work counted where the graph runs) apart
    assert results["calls"] == {"sites": 6, "figured": 2, "bounds": 1, "floors": 1, "symbolic": 1,
                                "wider_100x": 0.5, "wider_1000x": 0.5, "median_width": 2525.0}
    text = "\n".join(realworld_section({**results, "corpora": [{"name": "c"}]}))
    assert "| [GL101](GL101.md) | yes | 4 | 3 | 1 | 1 | 1 | 67% | **missed** |" in text
    assert "| GL101's share of the default findings | 80% (4 of 5) | ≤ 40% | **missed** |" in text
    assert "| upper bounds (`bounded`, `negligible`: at most the figure) | 1 | | |" in text
    assert "| c | 6 | 2 | 2525× (over the goal) | 50.0% | 50.0% | 1 | 1 | 1 |" in text
    assert "| d | 3 | 0 | – | – | – | 3 | 0 | 0 |" in text


def test_a_second_judge_is_compared_with_the_labels():
    findings = [_finding("a.py", n, "GL101") for n in (1, 2, 3)]
    collected = {"findings": [(("c", f["filename"], 0, f["location"]["row"], f["code"]), f) for f in findings],
                 "sites": [], "sizes": {}, "defaults": {"GL101": True}, "widths": {}}
    first = [Label("c", "a.py", 0, n, "GL101", v, "r", "t") for n, v in ((1, "true"), (2, "debatable"), (3, "debatable"))]
    second = [Label("c", "a.py", 0, n, "GL101", v, "r", "t") for n, v in ((1, "true"), (2, "false"), (3, "debatable"))]
    second.append(Label("c", "gone.py", 0, 1, "GL101", "false", "r", "t"))  # no longer reported: not in precision
    judged = score(collected, first, second)["second_judge"]
    assert judged["pairs"] == {"debatable->debatable": 1, "debatable->false": 1, "none->false": 1, "true->true": 1}
    assert (judged["judged"], judged["still_reported"], judged["verdicts"]["false"]) == (4, 3, 1)
    assert judged["precision"] == pytest.approx(2 / 3, abs=1e-4) and judged["false_by_rule"] == {"GL101": 1}
    text = "\n".join(realworld_section({**score(collected, first, second), "corpora": [{"name": "c"}]}))
    assert "re-judged 4 labelled default findings" in text and "precision 67% (goal ≥ 90%: **missed**)" in text


def test_the_second_judge_labels_resolve_to_their_lines():
    second = read_labels(SECOND_JUDGE)
    assert len(second) >= 50 and not stale_labels(second)


def test_merge_adds_filled_rows_only(tmp_path):
    from bench.realworld.__main__ import main

    labels = tmp_path / "labels.csv"
    rows = tmp_path / "todo.csv"
    rows.write_text(
        "corpus,file,cell,line,code,verdict,reason,text,message\n"
        "c,a.ipynb,2,3,GL101,false,no work,x = f(),m\n"
        "c,b.py,,7,GL301,,,y = g(),m\n"
    )
    assert main(["merge", str(rows), "--labels", str(labels)]) == 0
    assert read_labels(labels) == [Label("c", "a.ipynb", 2, 3, "GL101", "false", "no work", "x = f()")]
