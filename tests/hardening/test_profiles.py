"""A profile file of the wrong shape is named and ignored by the linter; `profile show/clear` agree."""

from __future__ import annotations

import json

import pytest

from greenlint.cli import main
from greenlint.hardware import hardware_id
from greenlint.profile import store
from greenlint.profile.lookup import for_file
from tests.profile.test_profile import SRC, entry

SHAPES = [
    {"schema_version": 1, "files": {"t.py": 5}},
    {"schema_version": 1, "files": {"t.py": [7]}},
    {"schema_version": 1, "files": {"t.py": [{"line": "4", "column": 9, "api": "x", "statement": "s", "executions": 1}]}},
    {"schema_version": 1, "files": {"t.py": [{**entry(), "time_s": "fast"}]}},
    {"schema_version": 1, "files": {"t.py": [{**entry(), "interval_j": [1]}]}},
    {"schema_version": 2, "files": {}},
    [1, 2],
    b'{"schema_version": 1, \xff}',
    b"[" * 100_000,
]


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "t.py").write_text(SRC)
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".greenlint").mkdir()
    return tmp_path


@pytest.mark.parametrize("shape", SHAPES)
def test_a_profile_file_of_the_wrong_shape(project, shape, capsys):
    target = project / ".greenlint" / "profiles.json"
    target.write_bytes(shape if isinstance(shape, bytes) else json.dumps(shape).encode())
    with pytest.raises(store.ProfileError, match="profile clear"):
        store.load(target)
    assert for_file(project / "t.py") is None
    assert main(["check", "t.py", "--format", "json"]) in (0, 1)
    assert not [d for d in json.loads(capsys.readouterr().out) if d["code"] == "GL002"]
    assert main(["profile", "show"]) == 2
    err = capsys.readouterr().err
    assert "profiles.json" in err and "`greenlint profile clear` (without paths)" in err
    assert main(["profile", "clear", "t.py"]) == 2  # cannot pick one file's profiles out of a broken file
    assert main(["profile", "clear"]) == 0  # what the message says resets it
    assert store.load(target)["files"] == {}


def test_profiles_of_sub_projects_are_found_by_show_and_clear_alike(tmp_path, monkeypatch, capsys):
    sub = tmp_path / "examples"
    sub.mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    (sub / "pyproject.toml").write_text("")
    (sub / "t.py").write_text(SRC)
    monkeypatch.chdir(tmp_path)
    assert main(["profile", "show"]) == 1 and main(["profile", "clear"]) == 1  # nothing anywhere: the same answer
    target = store.profile_file_for_writing(sub / "t.py")
    store.record(target, sub / "t.py", [entry()], hardware_id())
    capsys.readouterr()
    assert main(["profile", "show"]) == 0
    assert "t.py:4:9  tensorflow.matmul" in capsys.readouterr().out
    assert main(["profile", "clear"]) == 0
    assert "removed 1 site profile(s)" in capsys.readouterr().out and store.load(target)["files"] == {}
