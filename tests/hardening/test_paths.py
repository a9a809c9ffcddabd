"""Paths no file can have, and links where greenlint writes (issue 29, item 12): a name longer than
NAME_MAX or a path longer than PATH_MAX given to `check`, `calls` or `profile show` is named with
its problem and the run goes on; `profile clear` never writes through a symbolic link."""

from __future__ import annotations

import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout

import pytest

from greenlint.cli import main
from greenlint.profile import store
from tests.hardening.samples import TRAIN

NAME_TOO_LONG = "a" * 300 + ".py"  # over NAME_MAX (255)
PATH_TOO_LONG = "/".join(["b" * 200] * 25) + "/x.py"  # over PATH_MAX (4096)


@pytest.fixture(autouse=True)
def _here(tmp_path, monkeypatch):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.py").write_text(TRAIN)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("bad", [NAME_TOO_LONG, PATH_TOO_LONG], ids=["NAME_MAX", "PATH_MAX"])
@pytest.mark.parametrize("first", [True, False], ids=["first", "second"])
def test_check_names_a_path_too_long_and_goes_on(bad, first):
    code, out, err = run("check", *((bad, "ok.py") if first else ("ok.py", bad)))
    assert code == 1 and "Traceback" not in err
    assert f"{bad}:1:1: GL002 cannot analyse: cannot read file: File name too long" in out
    assert "ok.py:3:5: " in out


@pytest.mark.parametrize("bad", [NAME_TOO_LONG, PATH_TOO_LONG], ids=["NAME_MAX", "PATH_MAX"])
def test_calls_names_a_path_too_long_and_goes_on(bad):
    code, out, err = run("calls", bad, "ok.py", "--format", "json")
    assert code == 2 and f"{bad}:1:1: GL002 cannot analyse: cannot read file: File name too long" in err
    assert {c["path"] for c in json.loads(out)["call_sites"]} == {"ok.py"}


@pytest.mark.parametrize("bad", [NAME_TOO_LONG, PATH_TOO_LONG], ids=["NAME_MAX", "PATH_MAX"])
def test_profile_show_names_a_path_too_long_and_goes_on(tmp_path, bad):
    (tmp_path / ".greenlint").mkdir()
    store.save(tmp_path / ".greenlint" / "profiles.json", {"files": {}})
    code, out, err = run("profile", "show", bad, "ok.py")
    assert code == 2 and f"greenlint profile: {bad}: File name too long; skipped" in err
    assert str(tmp_path / ".greenlint" / "profiles.json") in out  # the other path is still shown
    code, _, err = run("profile", "show", bad)
    assert code == 2 and "File name too long" in err and "Traceback" not in err


def test_profile_clear_never_writes_through_a_linked_greenlint_folder(tmp_path):
    other = tmp_path / "other-project" / ".greenlint"
    other.mkdir(parents=True)
    theirs = json.dumps({"schema_version": 1, "files": {"t.py": []}})
    (other / "profiles.json").write_text(theirs)
    project = tmp_path / "project"
    project.mkdir()
    (project / ".greenlint").symlink_to(other)  # committed by someone else
    code, out, err = run("profile", "clear", str(project))
    assert code == 2 and ".greenlint: is a symbolic link; greenlint never writes a profile through a link" in err
    assert (other / "profiles.json").read_text() == theirs and sorted(os.listdir(other)) == ["profiles.json"]


def test_profile_clear_never_replaces_a_linked_profile_file(tmp_path):
    other = tmp_path / "elsewhere.json"
    other.write_text("not a profile file: someone's data")
    (tmp_path / ".greenlint").mkdir()
    (tmp_path / ".greenlint" / "profiles.json").symlink_to(other)
    code, _, err = run("profile", "clear")
    assert code == 2 and "profiles.json: is a symbolic link" in err
    assert other.read_text() == "not a profile file: someone's data"
    assert (tmp_path / ".greenlint" / "profiles.json").is_symlink()


def test_a_profile_file_that_is_a_device_is_named_not_read(tmp_path):
    (tmp_path / ".greenlint").mkdir()
    (tmp_path / ".greenlint" / "profiles.json").symlink_to("/dev/zero")
    code, _, err = run("profile", "show")
    assert code == 2 and "profiles.json: cannot read (not a regular file" in err
