"""Held-out variants of issue 29's hostile repositories (items 1–4), beyond the generated kinds of
tests/hardening/fuzz.py: each builds a repository that a pull request or a clone could hand over
and runs `greenlint diff` on it through `fuzz.check_repo_case`, which fails the case when anything
outside the repository and its cache is written or removed, or a command of its config runs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.hardening import fuzz
from tests.hardening.fuzz import _git, _write


@pytest.fixture
def case(tmp_path, monkeypatch):
    """(case root, repository with one commit, a folder outside it that must stay as it is)."""
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "user-cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    base = tmp_path / "case" / "1" / "2" / "3"
    repo, outside = base / "repo", base / "outside"
    repo.mkdir(parents=True)
    outside.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _write(repo, "a.py", fuzz.TF + fuzz.SNIPPETS[0])
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "base")
    return tmp_path / "case", repo, outside


def _script(outside: Path) -> Path:
    """A command that records that it ran (in *outside*, where `check_repo_case` looks)."""
    script = outside.parent / "run.sh"
    script.write_text(f"#!/bin/sh\necho ran >> {outside / 'ran'}\ncat\n")
    script.chmod(0o755)
    return script


def test_a_submodules_own_config_runs_no_command(case):
    """A checked-out submodule whose config names a clean filter, fsmonitor and an external diff:
    comparing the working tree must not make git look inside it (git status there runs the filter)."""
    root, repo, outside = case
    script = _script(outside)
    sub = outside.parent / "subsrc"
    sub.mkdir()
    _git(sub, "init", "-q", "-b", "main")
    _write(sub, "m.py", "x = 1\n")
    _git(sub, "add", ".")
    _git(sub, "commit", "-qm", "sub")
    _git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "sub")
    _git(repo, "commit", "-qm", "a submodule")
    for key in ("filter.x.clean", "core.fsmonitor", "diff.external"):
        _git(repo / "sub", "config", key, str(script))
    (repo / "sub" / ".gitattributes").write_text("* filter=x\n")
    os.utime(repo / "sub" / "m.py", (1, 1))  # its stat differs from the submodule's index: git must read it
    _write(repo, "a.py", fuzz.TF + fuzz.SNIPPETS[1])
    for argv in (["HEAD"], ["HEAD", "--", "a.py"]):
        assert fuzz.check_repo_case(root, repo, outside, argv, "submodule") is None
