"""The profile file and its lookup: location, versioning, merging, matching by statement, staleness,
this machine only, the lint cache key, and `greenlint profile show|clear`."""

from __future__ import annotations

import json

import pytest

from greenlint.analysis.callsite import CallSite, Span
from greenlint.check.file_result import from_analysis
from greenlint.cli import main
from greenlint.hardware import hardware_id
from greenlint.predict.prediction import Basis, Evidence, Prediction
from greenlint.profile import store
from greenlint.profile.lookup import apply_profiles, for_file, statement_hash
from greenlint.profile.store import stamp

SRC = "import tensorflow as tf\nx = tf.ones((4, 4))\nfor i in range(9):\n    y = tf.matmul(x, x)\n"
FORECAST = Prediction(2.0, (1.0, 4.0), 2.0, None, None, Basis.FROM_DATA, Evidence(records=7, api="tensorflow.matmul"))


def entry(line=4, column=9, api="tensorflow.matmul", source=SRC, hw=None, **over):
    lines = source.splitlines()
    site = {
        "api": api, "line": line, "column": column, "end_line": line, "end_column": column + 15, "cell": None,
        "statement": statement_hash(lines, line, line), "executions": 9, "median_j": 0.25, "iqr_j": [0.2, 0.3],
        "interval_j": [0.15, 0.4], "time_s": 0.01, "cpu_j": 0.2, "gpu_j": None, "ram_j": 0.05,
        "counter": "cpu: rapl, ram: rapl", "estimated": False, "resolved": True, "hardware_id": hw or hardware_id(),
        "date": "2026-11-24T01:00:00+00:00", "note": "9 executions",
    }
    return {**site, **over}


def matmul(line=4, column=9):
    return CallSite("t.py", Span(line, column, line, column + 15), "tensorflow.matmul", {})


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    script = tmp_path / "pkg" / "t.py"
    script.write_text(SRC)
    return tmp_path, script


def test_written_at_the_project_root_and_found_from_below(project):
    root, script = project
    target = store.profile_file_for_writing(script)
    assert target == root / ".greenlint" / "profiles.json"
    store.record(target, script, [entry()], hardware_id())
    assert store.find_profile_file(script) == target
    data = json.loads(target.read_text())
    assert data["schema_version"] == 1 and list(data["files"]) == ["pkg/t.py"]


def test_a_new_measurement_replaces_that_files_profiles_from_this_machine_only(project):
    _, script = project
    target = store.profile_file_for_writing(script)
    other = script.parent / "u.py"
    store.record(target, other, [entry(median_j=9.0)], hardware_id())
    store.record(target, script, [entry(median_j=1.0), entry(line=2, column=5, api="tensorflow.ones")], hardware_id())
    store.record(target, script, [entry(median_j=3.0, hw="another-machine")], "another-machine")
    store.record(target, script, [entry(median_j=2.0)], hardware_id())
    files = store.load(target)["files"]
    assert sorted(s["median_j"] for s in files["pkg/t.py"]) == [2.0, 3.0]  # this machine's old ones replaced
    assert files["pkg/u.py"][0]["median_j"] == 9.0
    mine = for_file(script)
    assert [s["median_j"] for s in mine.sites] == [2.0]  # "measured here": only this machine's


def test_profiled_figure_with_the_forecast_beside_it(project):
    _, script = project
    store.record(store.profile_file_for_writing(script), script, [entry()], hardware_id())
    p = apply_profiles(for_file(script), matmul(), FORECAST, SRC)
    assert p.basis is Basis.PROFILED and p.energy_j == 0.25 and p.interval_j == (0.15, 0.4)
    assert p.forecast is FORECAST and p.profile["stale"] is False and p.profile["executions"] == 9
    assert p.profile["iqr_j"] == [0.2, 0.3] and p.evidence.level == "site" and p.evidence.records == 9
    est = entry(estimated=True)
    store.record(store.profile_file_for_writing(script), script, [est], hardware_id())
    assert apply_profiles(for_file(script), matmul(), FORECAST, SRC).basis is Basis.PROFILED_ESTIMATED
    json.dumps(p.to_json())  # serialisable as the calls JSON's `profile` and `forecast`


def test_moved_statement_keeps_its_profile_and_an_edited_one_is_stale(project):
    _, script = project
    store.record(store.profile_file_for_writing(script), script, [entry()], hardware_id())
    moved = "# new first line\n" + SRC
    p = apply_profiles(for_file(script), matmul(line=5), FORECAST, moved)
    assert p.basis is Basis.PROFILED
    edited = SRC.replace("tf.matmul(x, x)", "tf.matmul(x, x + 1)")
    p = apply_profiles(for_file(script), matmul(), FORECAST, edited)
    assert p.basis is Basis.FROM_DATA and p.energy_j == 2.0 and p.forecast is None
    assert p.profile["stale"] is True and p.profile["median_j"] == 0.25
    assert apply_profiles(for_file(script), matmul(line=2, column=5), FORECAST, SRC) is FORECAST  # never profiled


def test_an_unresolved_profile_leaves_the_forecast_as_the_figure(project):
    _, script = project
    store.record(store.profile_file_for_writing(script), script, [entry(median_j=None, resolved=False)], hardware_id())
    p = apply_profiles(for_file(script), matmul(), FORECAST, SRC)
    assert p.energy_j == 2.0 and p.basis is Basis.FROM_DATA and p.profile["median_j"] is None


def test_bad_or_foreign_files_are_named_and_ignored_by_the_linter(project):
    root, script = project
    target = root / ".greenlint" / "profiles.json"
    target.parent.mkdir()
    target.write_text("{broken")
    with pytest.raises(store.ProfileError, match="profiles.json: not valid JSON"):
        store.load(target)
    assert for_file(script) is None
    target.write_text(json.dumps({"schema_version": 99, "files": {}}))
    with pytest.raises(store.ProfileError, match="schema version 99"):
        store.load(target)


def test_from_analysis_substitutes_and_the_stamp_changes_with_the_file(project):
    from greenlint.analysis.analyse import analyse_source

    _, script = project
    assert stamp(script) == ""
    target = store.profile_file_for_writing(script)
    store.record(target, script, [entry(line=2, column=5, api="tensorflow.ones")], hardware_id())
    first = stamp(script)
    assert first.startswith("profile:")
    result = from_analysis(analyse_source(SRC, path=str(script)), lambda api, features: FORECAST)
    bases = {s.callsite.api: s.prediction.basis for s in result.sites}
    assert bases == {"tensorflow.ones": Basis.PROFILED, "tensorflow.matmul": Basis.FROM_DATA}
    store.record(target, script, [entry(line=2, column=5, api="tensorflow.ones", median_j=0.5)], hardware_id())
    assert stamp(script) != first


def test_check_cache_is_invalidated_by_a_new_profile(project, monkeypatch, capsys):
    root, script = project
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(root / "cache"))
    monkeypatch.chdir(root)
    assert main(["calls", "--format", "json", "pkg/t.py"]) == 0
    first = {c["api"]: c for c in json.loads(capsys.readouterr().out)["call_sites"]}
    assert first["tensorflow.matmul"]["profile"] is None
    store.record(store.profile_file_for_writing(script), script, [entry()], hardware_id())
    assert main(["calls", "--format", "json", "pkg/t.py"]) == 0
    second = {c["api"]: c for c in json.loads(capsys.readouterr().out)["call_sites"]}
    assert second["tensorflow.matmul"]["basis"] == "profiled" and second["tensorflow.matmul"]["energy_j"] == 0.25
    assert second["tensorflow.matmul"]["forecast"]["energy_j"] == first["tensorflow.matmul"]["energy_j"]


def test_profile_show_and_clear(project, monkeypatch, capsys):
    root, script = project
    target = store.profile_file_for_writing(script)
    store.record(target, script, [entry()], hardware_id())
    store.record(target, root / "other.py", [entry()], hardware_id())
    monkeypatch.chdir(root)
    assert main(["profile", "show"]) == 0
    out = capsys.readouterr().out
    assert "pkg/t.py:4:9  tensorflow.matmul  0.25 J per execution (measured, 9 executions" in out
    assert main(["profile", "show", "pkg", "--format", "json"]) == 0
    assert list(json.loads(capsys.readouterr().out)["files"]) == ["pkg/t.py"]
    assert main(["profile", "clear", "pkg"]) == 0
    assert "removed 1 site profile(s)" in capsys.readouterr().out
    assert list(store.load(target)["files"]) == ["other.py"]
    assert main(["profile", "clear", str(root)]) == 0  # the project's own folder: everything
    assert store.load(target)["files"] == {}
    store.record(target, script, [entry()], hardware_id())
    assert main(["profile", "clear"]) == 0
    assert store.load(target)["files"] == {}


def test_a_notebook_site_is_matched_by_its_cell(project):
    from greenlint.analysis.analyse import analyse_source

    root, _ = project
    cells = ["import tensorflow as tf\n", "%time x = 1\ny = tf.ones((2, 2))\n"]
    nb = {"cells": [{"cell_type": "code", "source": c} for c in cells],
          "metadata": {"language_info": {"name": "python"}}}
    path = root / "nb.ipynb"
    path.write_text(json.dumps(nb))
    site = entry(line=2, column=5, api="tensorflow.ones", source=cells[1], cell=2)
    store.record(store.profile_file_for_writing(path), path, [site], hardware_id())
    result = from_analysis(analyse_source(path.read_text(), path=str(path)), lambda api, features: FORECAST)
    (s,) = result.sites
    assert (s.callsite.span.cell, s.prediction.basis) == (2, Basis.PROFILED)


def test_the_measurements_doc_quotes_gl101_as_check_prints_it(tmp_path, monkeypatch, capsys):
    """docs/measurements.md's GL101 line for the profiled sweep is what `greenlint check` prints for
    that profile (46.5 J per fit, 44.4–50.4 J, estimated) on a copy of examples/."""
    import shutil

    from greenlint.paths import REPO_DIR

    examples = tmp_path / "examples"
    shutil.copytree(REPO_DIR / "examples", examples, ignore=shutil.ignore_patterns(".greenlint", ".data"))
    script = examples / "train.py"
    lines = script.read_text().splitlines()
    fit = entry(line=19, column=5, api="tensorflow.keras.Model.fit", source=script.read_text(), end_column=56,
                statement=statement_hash(lines, 19, 19), executions=8, median_j=46.5, iqr_j=[45.8, 49.6],
                interval_j=[44.4, 50.4], estimated=True, cpu_j=46.5, ram_j=None, note="")
    store.record(store.profile_file_for_writing(script), script, [fit], hardware_id())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    main(["check", "examples/", "--exit-zero", "--no-calibration"])
    (line,) = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("examples/train.py:19:5: GL101")]
    assert line in (REPO_DIR / "docs" / "measurements.md").read_text()
