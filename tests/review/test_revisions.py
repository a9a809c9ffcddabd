"""`greenlint diff`'s words read as git reads them (greenlint/review/revisions.py): the paths, relative
to the repository root, and the sides."""

from __future__ import annotations

import pytest

from greenlint.review import gitfs, revisions
from tests.review.history import git


def test_paths_are_relative_to_the_repository_root_and_stay_inside_it(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / "src" / "pkg").mkdir(parents=True)
    monkeypatch.chdir(repo / "src")
    assert revisions.repo_paths(repo, []) == ["src"]  # the working directory's part
    assert revisions.repo_paths(repo, ["pkg", "../README.md"]) == ["src/pkg", "README.md"]
    monkeypatch.chdir(repo)
    assert revisions.repo_paths(repo, []) == [""]  # all of it
    with pytest.raises(ValueError, match=r"\.\./elsewhere: outside the repository"):
        revisions.repo_paths(repo, ["../elsewhere"])


def test_leading_commits_are_the_sides_and_the_rest_paths(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "a.py").write_text("x = 1\n")
    git(repo, "add", "a.py")
    git(repo, "commit", "-qm", "one")
    monkeypatch.chdir(repo)
    base, head, paths = revisions.resolve(repo, ["HEAD", "a.py"], None, staged=False)
    assert (base.label, head, paths) == ("HEAD", gitfs.WORKTREE, ["a.py"])
    base, head, paths = revisions.resolve(repo, [], None, staged=True)
    assert (base.label, head, paths) == ("HEAD", gitfs.INDEX, [])
    base, head, paths = revisions.resolve(repo, ["HEAD", "HEAD"], ["a.py"], staged=False)
    assert (base.commit, head.commit, paths) == (base.commit, base.commit, ["a.py"])
    with pytest.raises(gitfs.GitError, match="nope: not a revision"):
        revisions.resolve(repo, ["nope"], [], staged=False)  # before `--`, only revisions
