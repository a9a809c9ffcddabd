"""Issue 29's repository kinds in variants the other rounds do not spell (items 1, 2, 4, 7, 11):
files git reads from a `.git` that came with a checkout (an order file, attributes), sparse
checkouts, path arguments that look like pathspecs, links that become folders between commits, a
submodule's update command, damaged or redirected object stores, tags of other objects, and the
caller's own git environment. Each repository case also goes through `fuzz.check_repo_case`
(nothing written or removed outside the repository and its cache, no command of its config run)."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from greenlint.review import gitfs
from tests.hardening import fuzz
from tests.hardening.fuzz import _blob, _diff, _git, _write
from tests.hardening.samples import LOOP, edit_loop

pytestmark = pytest.mark.timeout(300)
MORE = LOOP.replace("21000", "42000")


def _files(out: str) -> dict[str, str]:
    """{path: status} of `diff --format json` output."""
    return {f["path"]: f["status"] for f in json.loads(out)["files"]}


# --- files git reads from the repository's `.git` -------------------------------------------------


def test_an_order_file_the_repository_names_is_never_read(case, monkeypatch):
    """`diff.orderFile` naming a FIFO: git's rename detection read it and hung until the time limit.
    The diff names its own order (none), so the comparison runs at once."""
    root, repo, outside = case
    os.mkfifo(outside.parent / "order")
    _git(repo, "config", "diff.orderFile", str(outside.parent / "order"))
    monkeypatch.setattr(gitfs, "GIT_TIMEOUT_S", 5)
    edit_loop(repo)
    code, out, err = _diff(repo, "HEAD", "--format", "json")
    assert code == 0 and _files(out) == {"a.py": "modified"}, err
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD"], "diff.orderFile") is None


@pytest.mark.parametrize("name", ["info/attributes", "info/exclude", "config"])
def test_a_fifo_in_the_git_folder_is_named_at_once(case, monkeypatch, name):
    """`.git/info/attributes` as a FIFO (git opens it for every diff of the working tree, and no
    setting turns that off), or another file git reads whole: the run stopped only at git's time
    limit (120 s). It is refused before git runs, naming the file, and runs nothing."""
    root, repo, outside = case
    edit_loop(repo)
    (repo / ".git" / name).unlink(missing_ok=True)
    os.mkfifo(repo / ".git" / name)
    monkeypatch.setattr(gitfs, "GIT_TIMEOUT_S", 3600)  # a hang would show as the test's own timeout
    code, _, err = _diff(repo, "HEAD")
    assert code == 2 and f"{repo / '.git' / name}: not a regular file" in err and "Traceback" not in err, err


# --- sparse checkouts -----------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["sparse-checkout", "skip-worktree"])
def test_files_outside_a_sparse_checkout_are_not_deleted(case, how):
    """Files a sparse checkout leaves out of the working tree are unchanged for git (`git diff HEAD`
    says nothing): they were reported deleted, their joules taken off the change."""
    root, repo, outside = case
    _write(repo, "sub/b.py", LOOP)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "b")
    if how == "sparse-checkout":
        _git(repo, "sparse-checkout", "set", "--no-cone", "/a.py")
    else:
        _git(repo, "update-index", "--skip-worktree", "sub/b.py")
        (repo / "sub" / "b.py").unlink()
    assert not (repo / "sub" / "b.py").exists()
    code, out, err = _diff(repo, "HEAD", "--format", "json")
    assert code == 0 and _files(out) == {}, err
    assert json.loads(out)["total"]["ratio"] == 1.0
    edit_loop(repo)  # a change inside the checkout is still one
    code, out, _ = _diff(repo, "HEAD", "--format", "json")
    assert _files(out) == {"a.py": "modified"}


def test_a_file_deleted_in_a_sparse_checkout_s_own_part_is_deleted(case):
    root, repo, outside = case
    _write(repo, "b.py", LOOP)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "b")
    _git(repo, "sparse-checkout", "set", "--no-cone", "/a.py", "/b.py")
    (repo / "b.py").unlink()
    code, out, err = _diff(repo, "HEAD", "--format", "json")
    assert code == 0 and _files(out) == {"b.py": "deleted"}, err


# --- path arguments -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["[ab].py", "*.py", "a?.py"])
def test_a_path_argument_is_a_file_name_never_a_pattern(case, name):
    """A file named like a glob: only that file is compared, as `git diff -- NAME` would match
    every file the glob matches."""
    root, repo, outside = case
    for other in (name, "b.py", "ab.py"):
        _write(repo, other, LOOP)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "names")
    for other in (name, "a.py", "b.py", "ab.py"):
        _write(repo, other, MORE)
    code, out, err = _diff(repo, "HEAD", "--format", "json", "--", name)
    assert code == 0 and _files(out) == {name: "modified"}, err


def test_a_file_named_like_an_option_after_the_separator_is_compared(case):
    root, repo, outside = case
    _write(repo, "-x.py", LOOP)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "dash")
    _write(repo, "-x.py", MORE)
    code, out, err = _diff(repo, "HEAD", "--format", "json", "--", "-x.py")
    assert code == 0 and _files(out) == {"-x.py": "modified"}, err


# --- links and folders between commits -----------------------------------------------------------


def test_a_committed_link_to_a_folder_outside_is_never_followed(case):
    """`ext` committed as a link to a folder outside the repository holding Python files: neither
    side reads them (git tracks the link, not what it points to)."""
    root, repo, outside = case
    _write(outside, "secret.py", LOOP)
    (repo / "ext").symlink_to(outside)
    _git(repo, "add", "ext")
    _git(repo, "commit", "-qm", "link")
    _write(outside, "secret.py", MORE)
    for argv in (["HEAD~1"], ["HEAD~1", "HEAD"], ["--staged"]):
        code, out, err = _diff(repo, *argv, "--format", "json")
        assert code == 0 and _files(out) == {}, (argv, err)
        assert "secret" not in out


@pytest.mark.parametrize("order", ["link-then-folder", "folder-then-link"])
def test_a_link_and_a_folder_of_one_name_in_successive_commits(case, order):
    """`pkg` a link to a folder outside in one commit and a folder with `sitecustomize.py` in the
    next: each snapshot holds its own commit's `pkg`, and nothing is written through the link."""
    root, repo, outside = case
    (repo / "pkg").symlink_to(outside)
    _git(repo, "add", "pkg")
    _git(repo, "commit", "-qm", "link")
    (repo / "pkg").unlink()
    _write(repo, "pkg/sitecustomize.py", LOOP)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "folder")
    sides = ["HEAD~1", "HEAD"] if order == "link-then-folder" else ["HEAD", "HEAD~1"]
    assert fuzz.check_repo_case(root, repo, outside, sides, order) is None
    code, out, _ = _diff(repo, *sides, "--format", "json")
    status = "added" if order == "link-then-folder" else "deleted"
    assert code == 0 and _files(out) == {"pkg/sitecustomize.py": status}
    assert [p.name for p in outside.iterdir()] == ["leak.py"]  # only the bait check_repo_case put there


# --- commands and stores named elsewhere ----------------------------------------------------------


def test_a_submodule_s_update_command_never_runs(case):
    """`.gitmodules` naming `update = !command` beside a gitlink: no side runs it."""
    root, repo, outside = case
    script = fuzz.recording_script(outside)
    (repo / ".gitmodules").write_text(f'[submodule "s"]\n\tpath = s\n\turl = ./s\n\tupdate = !{script}\n')
    _git(repo, "update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},s")
    _git(repo, "add", ".gitmodules")
    _git(repo, "commit", "-qm", "submodule")
    for argv in (["HEAD~1"], ["HEAD~1", "HEAD"], ["--staged"]):
        assert fuzz.check_repo_case(root, repo, outside, argv, "submodule update") is None


def test_git_commands_in_the_caller_s_environment_never_run(case, monkeypatch):
    """GIT_EXTERNAL_DIFF, GIT_PAGER and a config of GIT_CONFIG_COUNT naming commands, exported by
    a shell profile or a CI step: greenlint's git runs none of them."""
    root, repo, outside = case
    script = str(fuzz.recording_script(outside))
    for name, value in [("GIT_EXTERNAL_DIFF", script), ("GIT_PAGER", script), ("GIT_CONFIG_COUNT", "2"),
                        ("GIT_CONFIG_KEY_0", "core.fsmonitor"), ("GIT_CONFIG_VALUE_0", script),
                        ("GIT_CONFIG_KEY_1", "diff.external"), ("GIT_CONFIG_VALUE_1", script)]:
        monkeypatch.setenv(name, value)
    edit_loop(repo)
    for argv in (["HEAD"], ["--staged"], ["HEAD", "--format", "json"]):
        assert fuzz.check_repo_case(root, repo, outside, argv, "caller's environment") is None


def test_a_damaged_commit_graph_is_passed_over_as_git_does(case):
    root, repo, outside = case
    _git(repo, "commit-graph", "write", "--reachable")
    graph = repo / ".git" / "objects" / "info" / "commit-graph"
    graph.chmod(0o644)
    data = bytearray(graph.read_bytes())
    data[20:60] = b"\xff" * 40
    graph.write_bytes(bytes(data))
    edit_loop(repo)
    code, out, err = _diff(repo, "HEAD", "--format", "json")
    assert code == 0 and _files(out) == {"a.py": "modified"}, err


def test_an_object_store_named_by_the_environment_that_lacks_the_commit_is_named(case, monkeypatch):
    root, repo, outside = case
    (outside.parent / "empty").mkdir()
    monkeypatch.setenv("GIT_OBJECT_DIRECTORY", str(outside.parent / "empty"))
    code, _, err = _diff(repo, "HEAD")
    assert code == 2 and "HEAD: not a revision of this repository" in err and "Traceback" not in err


def test_a_tag_of_a_blob_is_no_revision_and_a_tag_of_a_commit_is_one(case):
    root, repo, outside = case
    _git(repo, "tag", "-a", "-m", "blob", "vblob", _blob(repo, "x = 1\n"))
    _git(repo, "tag", "-a", "-m", "commit", "v1", "HEAD")
    edit_loop(repo)
    code, _, err = _diff(repo, "vblob")
    assert code == 2 and "vblob: not a revision of this repository" in err
    code, out, err = _diff(repo, "v1", "--format", "json")
    assert code == 0 and _files(out) == {"a.py": "modified"}, err


def test_an_index_that_is_a_link_to_a_device_is_named(case):
    root, repo, outside = case
    (repo / ".git" / "index").unlink()
    (repo / ".git" / "index").symlink_to("/dev/zero")
    edit_loop(repo)
    for argv in (["--staged"], ["HEAD"]):
        code, _, err = _diff(repo, *argv)
        assert code == 2 and "index" in err and "Traceback" not in err, err
    assert fuzz.check_repo_case(root, repo, outside, ["--staged"], "index link") is None
    assert subprocess.run(["git", "-C", str(repo), "cat-file", "-t", "HEAD"], capture_output=True).returncode == 0
