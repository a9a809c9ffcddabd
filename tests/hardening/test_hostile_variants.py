"""Held-out variants of issue 29's hostile repositories (items 1–4), beyond the generated kinds of
tests/hardening/fuzz.py: each builds a repository that a pull request or a clone could hand over
and runs `greenlint diff` on it through `fuzz.check_repo_case`, which fails the case when anything
outside the repository and its cache is written or removed, or a command of its config runs."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from greenlint.review import gitfs
from tests.hardening import fuzz
from tests.hardening.fuzz import _git, _write


@pytest.fixture
def case(tmp_path, own_caches):
    """(case root, repository with one commit, a folder outside it that must stay as it is)."""
    return fuzz.repository_case(tmp_path, fuzz.TF + fuzz.SNIPPETS[0])


def test_a_submodules_own_config_runs_no_command(case):
    """A checked-out submodule whose config names a clean filter, fsmonitor and an external diff:
    comparing the working tree must not make git look inside it (git status there runs the filter)."""
    root, repo, outside = case
    script = fuzz.recording_script(outside)
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


def _forged_snapshots(repo: Path, names: list[str]) -> list[Path]:
    """Folders named and marked as greenlint's snapshots, committed under the project's cache-dir:
    the marker's text is in greenlint's source for anyone to copy."""
    (repo / "pyproject.toml").write_text('[tool.greenlint]\ncache-dir = ".glc"\n')
    forged = []
    for name in names:
        folder = repo / ".glc" / "snapshots" / name
        folder.mkdir(parents=True)
        (folder / gitfs.MARKER).write_bytes(gitfs._MARKER_TEXT)
        (folder / "keep.py").write_text("x = 1\n")
        forged.append(folder)
    _git(repo, "add", "-f", ".")
    _git(repo, "commit", "-qm", "folders that look like snapshots")
    return forged


def test_pruning_never_removes_a_committed_marker(case):
    """A commit's folders under `<cache-dir>/snapshots` with a copied marker: pruning (which keeps
    the 8 newest) must not take them for greenlint's and delete tracked files of the work tree."""
    root, repo, outside = case
    forged = _forged_snapshots(repo, [f"{i:024x}" for i in range(12)])
    for i in range(1, 4):
        _write(repo, "a.py", fuzz.TF + fuzz.SNIPPETS[i])
        _git(repo, "commit", "-qam", f"step {i}")
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD~3", "HEAD"], "forged markers") is None
    assert all((f / "keep.py").exists() for f in forged)
    assert _git(repo, "ls-files", "--deleted") == ""  # no tracked file removed


def _commit_with_project_cache(repo: Path) -> None:
    """A commit that sets the project's cache-dir (`.glc`, inside the repository) and changes a.py."""
    (repo / "pyproject.toml").write_text('[tool.greenlint]\ncache-dir = ".glc"\n')
    _write(repo, "a.py", fuzz.TF + fuzz.SNIPPETS[1])
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "config")


def test_a_committed_snapshot_of_the_right_name_is_never_used(case, monkeypatch):
    """A folder committed under the very name greenlint gives a revision's snapshot (as if the name,
    which holds the user cache's token, were known), holding other code: an error naming it, never
    its figures."""
    root, repo, outside = case
    _commit_with_project_cache(repo)
    monkeypatch.chdir(repo)
    code, _, err = fuzz._main(["diff", "HEAD~1", "HEAD", "--format", "json"])
    assert code in (0, 1), err
    real = {p.name: p for p in (repo / ".glc" / "snapshots").iterdir()}
    for folder in real.values():  # as a commit would bring them: the marker copied, other code inside
        (folder / gitfs.MARKER).write_bytes(gitfs._MARKER_TEXT)
        (folder / "a.py").write_text("x = 1\n")
    code, _, err = fuzz._main(["diff", "HEAD~1", "HEAD"])
    assert code == 2 and "not a snapshot greenlint wrote" in err
    assert all((folder / "a.py").read_text() == "x = 1\n" for folder in real.values())  # neither used nor removed


def test_a_blob_of_gigabytes_compressed_to_kilobytes_is_neither_read_nor_written(case, monkeypatch):
    """A commit holding a huge `.py` of one repeated byte (kilobytes in git): its size is read, not
    its bytes; the snapshot holds a sparse file of that size, which the analysis names as too large."""
    root, repo, outside = case
    size = gitfs._MAX_BLOB + 4 * 1024 * 1024
    big = _git(repo, "hash-object", "-w", "--stdin", data="#" * size)
    tree = fuzz._tree(repo, ("100644", big, "big.py"), ("100644", fuzz._blob(repo, fuzz.TF + fuzz.SNIPPETS[1]), "a.py"))
    hostile = _git(repo, "commit-tree", tree, "-p", "HEAD", "-m", "a bomb")
    read = []
    real_git = gitfs.git

    def counting_git(where, *args, data=None):
        out = real_git(where, *args, data=data)
        read.append(len(out) if args[:2] == ("cat-file", "--batch") else 0)
        return out

    monkeypatch.setattr(gitfs, "git", counting_git)
    monkeypatch.chdir(repo)
    code, out, err = fuzz._main(["diff", "HEAD", hostile])
    assert code in (0, 1) and "big.py" in err and "over the" in err, (code, err)
    assert max(read) < 1024 * 1024  # the big blob's bytes never came through git's output
    written = next((root.parent / "user-cache").rglob("big.py"))
    assert written.stat().st_size == size and written.stat().st_blocks * 512 < 1024 * 1024  # sparse


def test_a_blob_the_repository_lacks_is_named_not_a_crash(case):
    root, repo, outside = case
    present = fuzz._blob(repo, "x = 1\n")
    sizes = gitfs._blobs(repo, sorted([present, "1" * 40]))
    assert sizes["1" * 40] == -1 and sizes[present] == b"x = 1\n"


def test_snapshots_of_another_user_cache_are_left_alone_not_an_error(case, monkeypatch):
    """Two user caches (the editor and a terminal with different GREENLINT_CACHE_DIR) sharing a
    project's cache-dir: each uses and prunes only its own snapshots, neither refuses the other's."""
    root, repo, outside = case
    _commit_with_project_cache(repo)
    monkeypatch.chdir(repo)
    for user in ("editor", "terminal", "editor"):
        monkeypatch.setenv("GREENLINT_CACHE_DIR", str(root.parent / user))
        code, out, err = fuzz._main(["diff", "HEAD~1", "HEAD"])
        assert code in (0, 1) and "not a snapshot greenlint wrote" not in err, (user, err)
    assert len(list((repo / ".glc" / "snapshots").iterdir())) == 4  # two revisions, two user caches


@pytest.mark.parametrize("name", [".git ", ".git.", ".GIT . ", "GIT~1", ".g\u200cit", "\ufeff.git", ".git::$INDEX_ALLOCATION"])
def test_a_git_folder_look_alike_is_refused_by_name(case, monkeypatch, name):
    """Tree entries that NTFS or HFS+ read as `.git` (trailing dots and spaces, the short name, an
    alternate data stream, code points HFS+ ignores), refused as git's own checkout refuses them;
    the rest of the commit compared."""
    root, repo, outside = case
    inner = fuzz._tree(repo, ("100644", fuzz._blob(repo, f"{fuzz.PWNED}\n"), "config.py"))
    top = fuzz._tree(repo, ("040000", inner, name), ("100644", fuzz._blob(repo, fuzz.TF + fuzz.SNIPPETS[1]), "a.py"))
    hostile = _git(repo, "commit-tree", top, "-p", "HEAD", "-m", "a look-alike")
    assert gitfs.unsafe(f"{name}/config.py") is not None
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD", hostile, "--format", "json"], name) is None
    monkeypatch.chdir(repo)
    code, out, err = fuzz._main(["diff", "HEAD", hostile])
    assert code in (0, 1) and "config.py" in err and "'.git'" in err, err
    assert not any(fuzz.PWNED in p.read_text() for p in (root.parent / "user-cache").rglob("config.py"))


@pytest.mark.parametrize("name", [".gitignore", ".github", "git~2", "a.git", ".gitx", "my.git "])
def test_names_only_like_git_s_folder_are_kept(name):
    assert gitfs.unsafe(f"{name}/a.py") is None


def test_a_partial_clone_s_lazy_fetch_runs_no_command(case):
    """A repository configured as a partial clone whose promisor remote names an `uploadpack`
    command, and a commit naming a blob it lacks: reading that blob would make git fetch it, which
    runs the command (`protocol.allow=never` refuses every transport)."""
    root, repo, outside = case
    script = fuzz.recording_script(outside)
    missing = "12" * 20
    tree = _git(repo, "mktree", "--missing", data=f"100644 blob {missing}\tb.py\n100644 blob {fuzz._blob(repo, fuzz.TF)}\ta.py\n")
    hostile = _git(repo, "commit-tree", tree, "-p", "HEAD", "-m", "a blob to fetch")
    remote = outside.parent / "remote"
    remote.mkdir()
    _git(remote, "init", "-q")
    for key, value in [("core.repositoryformatversion", "1"), ("extensions.partialClone", "origin"),
                       ("remote.origin.url", str(remote)), ("remote.origin.promisor", "true"),
                       ("remote.origin.uploadpack", str(script)), ("remote.origin.partialclonefilter", "blob:none")]:
        _git(repo, "config", key, value)
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD", hostile, "--format", "json"], "promisor") is None


def test_a_git_file_pointing_at_another_repository_runs_no_command(case):
    """A checkout whose `.git` is a file (`gitdir: …`, as in a worktree or a submodule) naming
    another repository, whose config names fsmonitor and a clean filter for a stat-dirty file."""
    root, repo, outside = case
    script = fuzz.recording_script(outside)
    other = outside.parent / "other"
    other.mkdir()
    _git(other, "init", "-q", "-b", "main")
    _write(other, "a.py", fuzz.TF + fuzz.SNIPPETS[2])
    _git(other, "add", ".")
    _git(other, "commit", "-qm", "other")
    for key in ("core.fsmonitor", "filter.x.clean", "diff.external"):
        _git(other, "config", key, str(script))
    git_dir = other / ".git"
    shutil.rmtree(repo / ".git")  # the checkout's own .git replaced by a file
    (repo / ".git").write_text(f"gitdir: {git_dir}\n")
    (repo / ".gitattributes").write_text("* filter=x\n")
    os.utime(repo / "a.py", (1, 1))
    for argv in (["HEAD"], ["--staged"], ["HEAD", "--", "a.py"]):
        assert fuzz.check_repo_case(root, repo, outside, argv, "gitdir file") is None


def test_pruning_never_follows_a_snapshot_swapped_for_a_link(case, monkeypatch):
    """Snapshot folders replaced by links to another folder between being judged greenlint's and
    being removed (a race with another process): the removal follows no link."""
    root, repo, outside = case
    (outside / "keep.txt").write_text("mine")
    for i in range(11):
        _write(repo, "a.py", fuzz.TF + fuzz.SNIPPETS[i % 5] + f"# {i}\n")
        _git(repo, "commit", "-qam", f"step {i}")
    monkeypatch.chdir(repo)
    for i in range(10, 0, -1):
        assert fuzz._main(["diff", f"HEAD~{i}", f"HEAD~{i - 1}"])[0] in (0, 1)
    judged, prune, swapped, pruning = gitfs._ours, gitfs._prune, [], []

    def racing(folder: Path) -> bool:
        ours = judged(folder)
        if ours and pruning:  # every snapshot pruning lists, the oldest among them removed
            folder.rename(folder.with_name(folder.name + "-aside"))
            folder.symlink_to(outside, target_is_directory=True)
            swapped.append(folder)
        return ours

    def pruning_with_a_race(cache: Path, keep: Path) -> None:
        snapshots = [p for p in cache.iterdir() if gitfs._SNAPSHOT_NAME.fullmatch(p.name) and not p.is_symlink()]
        pruning[:] = [True] if len(snapshots) > gitfs.SNAPSHOTS_KEPT else []  # one of them to remove
        try:
            prune(cache, keep)
        finally:
            pruning.clear()

    monkeypatch.setattr(gitfs, "_ours", racing)
    monkeypatch.setattr(gitfs, "_prune", pruning_with_a_race)
    _write(repo, "a.py", fuzz.TF + fuzz.SNIPPETS[1] + "# last\n")
    _git(repo, "commit", "-qam", "last")
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD~1", "HEAD"], "swapped for a link") is None
    assert len(swapped) > gitfs.SNAPSHOTS_KEPT and (outside / "keep.txt").read_text() == "mine"
    assert all(folder.is_symlink() for folder in swapped)  # the links themselves are left too
