"""A judge's round of issue 29's kinds not covered before: git settings reached through the
environment, a linked worktree, a `.git` link or alternates; relative includes; files that are
FIFOs, devices or folders where greenlint expects a file (command line, `--config`, the lint
cache); a notebook nested past the JSON reader's depth or carrying a 50 MB output; invisible
direction marks; odd `# noqa` spellings; odd `-j` values; the language server under duplicate
opens, edits past the end or reversed, cancellation and a deleted cache; a full disk and an
interrupt while a fix, the cache or a diff snapshot is written; two `--fix` runs at once.

Repository cases go through `fuzz.check_repo_case` (nothing written or removed outside the
repository and its cache, no command of its config run), file cases through `fuzz.check_case`
unless they assert more."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from greenlint.check.cache import FILE_NAME
from greenlint.cli import main
from greenlint.review import gitfs
from tests.hardening import fuzz
from tests.hardening.fuzz import _git, _main, _write
from tests.hardening.samples import LOOP, codes, edit_loop

pytestmark = pytest.mark.timeout(300)

FOUND = [("GL101", 4), ("GL201", 4)]


# --- git: settings that reach git other than through .git/config ----------------------------------


def test_a_global_config_named_by_the_environment_runs_no_command(case, monkeypatch):
    """GIT_CONFIG_GLOBAL (or HOME's .gitconfig) naming fsmonitor, a clean filter and textconv: the
    commands are turned off whatever file names them."""
    root, repo, outside = case
    script = fuzz.recording_script(outside)
    glob = outside.parent / "global.cfg"
    glob.write_text(f'[core]\n\tfsmonitor = {script}\n[filter "g"]\n\tclean = {script}\n[diff "g"]\n\ttextconv = {script}\n')
    (repo / ".gitattributes").write_text("* filter=g diff=g\n")
    edit_loop(repo)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(glob))
    for argv in (["HEAD"], []):
        assert fuzz.check_repo_case(root, repo, outside, argv, "GIT_CONFIG_GLOBAL") is None


def test_a_relative_include_reads_a_committed_file_and_runs_nothing(case):
    """`include.path = ../cfg/evil.cfg` resolves against `.git/`, to a file the commit brought."""
    root, repo, outside = case
    script = fuzz.recording_script(outside)
    _write(repo, "cfg/evil.cfg", f'[core]\n\tfsmonitor = {script}\n\tpager = {script}\n[diff]\n\texternal = {script}\n')
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "a config file")
    _git(repo, "config", "include.path", "../cfg/evil.cfg")
    edit_loop(repo)
    for argv in (["HEAD"], ["HEAD~1", "HEAD"]):
        assert fuzz.check_repo_case(root, repo, outside, argv, "relative include") is None


def test_an_include_if_on_a_remote_url_runs_no_command(case):
    root, repo, outside = case
    script = fuzz.recording_script(outside)
    included = outside.parent / "remote.cfg"
    included.write_text(f'[core]\n\tfsmonitor = {script}\n[filter "r"]\n\tclean = {script}\n')
    _git(repo, "config", "remote.origin.url", "https://example.invalid/x.git")
    _git(repo, "config", "includeIf.hasconfig:remote.*.url:https://example.invalid/**.path", str(included))
    (repo / ".gitattributes").write_text("* filter=r\n")
    edit_loop(repo)
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD"], "includeIf hasconfig") is None


def test_a_linked_worktree_compares_its_own_files_and_runs_nothing(case, monkeypatch):
    """`git worktree add`: the worktree's `.git` is a file into the main repository, whose config
    names fsmonitor; the diff is the worktree's own change."""
    root, repo, outside = case
    script = fuzz.recording_script(outside)
    tree = repo / "wt"
    _git(repo, "worktree", "add", "-q", "-b", "side", str(tree))
    _git(repo, "config", "core.fsmonitor", str(script))
    edit_loop(tree)
    assert fuzz.check_repo_case(root, tree, outside, ["HEAD"], "linked worktree") is None
    monkeypatch.chdir(tree)
    code, out, err = _main(["diff", "HEAD", "--format", "json"])
    assert code in (0, 1) and _changed(out) == ["a.py"], err


def test_a_git_folder_that_is_a_link_runs_no_command(case):
    """`.git` a symbolic link to a repository elsewhere whose config names a clean filter."""
    root, repo, outside = case
    script = fuzz.recording_script(outside)
    elsewhere = outside.parent / "gitdir"
    (repo / ".git").rename(elsewhere)
    (repo / ".git").symlink_to(elsewhere)
    _git(repo, "config", "filter.x.clean", str(script))
    _git(repo, "config", "core.fsmonitor", str(script))
    (repo / ".gitattributes").write_text("* filter=x\n")
    edit_loop(repo)
    for argv in (["HEAD"], ["--staged"]):
        assert fuzz.check_repo_case(root, repo, outside, argv, ".git link") is None


def test_objects_borrowed_through_alternates_are_read_not_written(case):
    """`objects/info/alternates` naming another repository's object store (outside, left as it is)."""
    root, repo, outside = case
    lender = outside / "lender"
    _git(outside, "init", "-q", "-b", "main", str(lender))
    _write(lender, "a.py", LOOP.replace("100", "7"))
    _git(lender, "add", ".")
    _git(lender, "commit", "-qm", "lent")
    lent = _git(lender, "rev-parse", "HEAD")
    (repo / ".git" / "objects" / "info" / "alternates").write_text(str(lender / ".git" / "objects") + "\n")
    _git(repo, "update-ref", "refs/heads/lent", lent)
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD", "lent", "--format", "json"], "alternates") is None


def test_a_repository_of_an_unknown_format_is_an_error_naming_it(case, monkeypatch):
    """`extensions.*` git does not know: git refuses the repository, greenlint says so (exit 2)."""
    root, repo, outside = case
    _git(repo, "config", "core.repositoryformatversion", "1")
    _git(repo, "config", "extensions.noSuchThing", "true")
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD"], "unknown extension") is None
    monkeypatch.chdir(repo)
    code, _, err = _main(["diff", "HEAD"])
    assert code == 2 and "unknown repository extension found: nosuchthing" in err, err


def test_a_shallow_clone_s_missing_parent_is_named(case, tmp_path, monkeypatch):
    root, repo, outside = case
    edit_loop(repo)
    _git(repo, "commit", "-qam", "second")
    shallow = repo.parent / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", repo.as_uri(), str(shallow)], check=True, capture_output=True)
    monkeypatch.chdir(shallow)
    code, _, err = _main(["diff", "HEAD~1", "HEAD"])
    assert code == 2 and "HEAD~1" in err and "Traceback" not in err, err


def test_the_index_a_commit_hook_names_is_the_staged_side(case, monkeypatch):
    """`git commit -a` runs the pre-commit hook with GIT_INDEX_FILE naming a temporary index: that
    index, not `.git/index`, is what is about to be committed."""
    root, repo, outside = case
    edit_loop(repo)
    temporary = repo / ".git" / "next-index"
    monkeypatch.setenv("GIT_INDEX_FILE", str(temporary))
    _git(repo, "read-tree", "HEAD")
    _git(repo, "add", "a.py")
    monkeypatch.chdir(repo)
    code, out, err = _main(["diff", "--staged", "--format", "json"])
    assert code in (0, 1) and _changed(out) == ["a.py"], err
    monkeypatch.delenv("GIT_INDEX_FILE")
    code, out, _ = _main(["diff", "--staged", "--format", "json"])
    assert _changed(out) == []  # the real index holds no change


def test_git_dir_set_by_a_hook_is_honoured(case, monkeypatch):
    """Hooks run at the work tree's top with GIT_DIR set, relative (`.git`): the staged side is
    that repository's index."""
    root, repo, outside = case
    edit_loop(repo)
    _git(repo, "add", "a.py")
    monkeypatch.chdir(repo)
    monkeypatch.setenv("GIT_DIR", ".git")
    code, out, err = _main(["diff", "--staged", "--format", "json"])
    assert code in (0, 1) and _changed(out) == ["a.py"], err


def _changed(out: str) -> list[str]:
    return [f["path"] for f in json.loads(out)["files"]]


def test_a_work_tree_named_by_the_environment_is_not_written(case, monkeypatch):
    """GIT_WORK_TREE naming the outside folder: what greenlint writes stays in its caches."""
    root, repo, outside = case
    (outside / "a.py").write_text(LOOP.replace("100", "3"))
    monkeypatch.setenv("GIT_WORK_TREE", str(outside))
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD"], "GIT_WORK_TREE") is None


def test_line_end_conversion_settings_keep_the_comparison(case, monkeypatch):
    """`core.autocrlf` and an `eol=crlf` attribute: git converts line ends, greenlint compares the
    same code (no command involved), its totals and files unchanged."""
    root, repo, outside = case
    monkeypatch.chdir(repo)
    edit_loop(repo)

    def compared() -> tuple:
        code, out, err = _main(["diff", "HEAD", "--format", "json"])
        document = json.loads(out)
        return code, document["total"], document["files"]

    plain = compared()
    _git(repo, "config", "core.autocrlf", "true")
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "attributes").write_text("*.py text eol=crlf\n")
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD", "--format", "json"], "autocrlf") is None
    assert compared() == plain and plain[2]


# --- files that are not regular files, where greenlint expects one ---------------------------------


def _within(seconds: float, argv: list[str]) -> tuple[int, str, str]:
    """`_main(argv)`, failing the test where it does not return in *seconds* (a read that waits)."""
    result: dict = {}
    worker = threading.Thread(target=lambda: result.update(r=_main(argv)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert "r" in result, f"{argv}: still running after {seconds} s"
    return result["r"]


def _no_file(path, kind: str):
    """*path* made a FIFO, a link to /dev/zero or a folder: a name that is no regular file."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    return path


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder"])
def test_a_path_on_the_command_line_that_is_no_file_is_named_and_the_run_goes_on(tmp_path, own_caches, kind):
    (tmp_path / "good.py").write_text(LOOP)
    odd = _no_file(tmp_path / "odd.py", kind)
    if kind == "folder":
        (odd / "inner.py").write_text(LOOP)
    code, out, err = _within(60, ["check", str(odd), str(tmp_path / "good.py"), "--format", "json", "-j", "1"])
    found = json.loads(out)
    assert code == 1 and any(d["filename"].endswith("good.py") and d["code"] == "GL101" for d in found)
    if kind == "folder":
        assert any(d["filename"].endswith("inner.py") for d in found)
    else:
        assert any(d["filename"].endswith("odd.py") and d["code"] == "GL002" and "not a regular file" in d["message"]
                   for d in found)


def test_a_dangling_link_on_the_command_line_is_named_as_missing(tmp_path, own_caches):
    (tmp_path / "odd.py").symlink_to(tmp_path / "gone.py")
    code, _, err = _main(["check", str(tmp_path / "odd.py")])
    assert code == 2 and "odd.py: no such file or directory" in err


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder"])
def test_a_config_option_naming_no_regular_file_is_a_usage_error(tmp_path, own_caches, kind):
    odd = _no_file(tmp_path / "cfg.toml", kind)
    (tmp_path / "a.py").write_text(LOOP)
    code, _, err = _within(60, ["check", str(tmp_path / "a.py"), "--config", str(odd)])
    assert code == 2 and "cfg.toml" in err and "Traceback" not in err, err


@pytest.mark.parametrize("kind", ["fifo", "folder", "dev-zero"])
def test_a_lint_cache_that_is_no_regular_file_leaves_the_findings(tmp_path, own_caches, kind):
    root = tmp_path / "project"
    (root / ".glc").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.greenlint]\ncache-dir = ".glc"\n')
    _write(root, "a.py", LOOP)
    _no_file(root / ".glc" / "lint.sqlite", kind)
    code, out, err = _within(90, ["check", str(root), "--format", "json", "-j", "1"])
    assert code == 1 and codes(out) == FOUND and "Traceback" not in err, err


def test_a_user_cache_that_is_a_file_leaves_the_findings(tmp_path, monkeypatch):
    (tmp_path / "cachefile").write_text("mine")
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cachefile"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    _write(tmp_path, "code/a.py", LOOP)
    code, out, err = _main(["check", str(tmp_path / "code"), "--format", "json"])
    assert code == 1 and codes(out) == FOUND and f"{tmp_path / 'cachefile'}: cannot hold the lint cache (not a folder)" in err
    assert (tmp_path / "cachefile").read_text() == "mine"


def test_a_folder_holding_a_link_to_itself_is_walked_once(tmp_path, own_caches):
    _write(tmp_path, "code/sub/a.py", LOOP)
    (tmp_path / "code" / "sub" / "loop").symlink_to("..")
    (tmp_path / "code" / "self").symlink_to("self")
    code, out, err = _main(["check", str(tmp_path / "code"), "--format", "json"])
    assert code == 1 and codes(out) == FOUND, err


# --- odd sources and notebooks ----------------------------------------------------------------------


def test_a_notebook_nested_past_the_json_reader_s_depth_is_named(tmp_path, own_caches):
    """`[[[[…]]]]` 100,000 deep: json.loads raises RecursionError, which is no JSON error."""
    _write(tmp_path, "code/n.ipynb", "[" * 100_000 + "]" * 100_000)
    _write(tmp_path, "code/a.py", LOOP)
    code, out, err = _main(["check", str(tmp_path / "code"), "--format", "json", "-j", "1"])
    assert code == 1 and ("GL002", 1) in codes(out) and ("GL101", 4) in codes(out) and "Traceback" not in err
    assert fuzz.check_case(tmp_path / "code", tmp_path / "cache", "deep notebook") is None


def test_a_notebook_with_a_50_mb_output_is_named_as_too_large_and_the_run_goes_on(tmp_path, own_caches):
    """Over the notebook limit (16 × the code limit, 12 MiB): named with its size, never parsed."""
    cell = {"cell_type": "code", "source": LOOP, "metadata": {}, "execution_count": 1,
            "outputs": [{"output_type": "stream", "name": "stdout", "text": "x" * 50_000_000}]}
    _write(tmp_path, "code/n.ipynb", json.dumps({"cells": [cell], "nbformat": 4, "nbformat_minor": 5, "metadata": {}}))
    _write(tmp_path, "code/a.py", LOOP)
    code, out, err = _main(["check", str(tmp_path / "code"), "--format", "json", "-j", "1"])
    [named] = [d for d in json.loads(out) if d["filename"].endswith("n.ipynb")]
    assert code == 1 and codes(out) == [("GL002", 1), *FOUND], err
    assert named["code"] == "GL002" and "50000" in named["message"] and "limit" in named["message"]


def test_a_million_line_file_is_checked_or_named(tmp_path, own_caches):
    _write(tmp_path, "code/a.py", LOOP + "x = 1\n" * 1_000_000)
    code, out, err = _main(["check", str(tmp_path / "code"), "--format", "json", "-j", "1"])
    assert code == 1 and "Traceback" not in err
    assert codes(out) in (FOUND, [("GL002", 1)])


@pytest.mark.parametrize("mark", ["\u200e", "\u200f", "\u061c", "\u2067", "\u200b", "\u2060", "\ufeff"])
@pytest.mark.parametrize("where", ["name", "source"])
def test_invisible_direction_marks_are_shown_escaped(tmp_path, own_caches, mark, where):
    """Marks that reorder or hide text (LRM, RLM, ALM, RLI, a zero-width space, a word joiner, a
    BOM inside the text) in a file name or a source line printed by `--format full`."""
    name = f"a{mark}b.py" if where == "name" else "a.py"
    text = LOOP.replace("4096)))", f"4096)))  # {mark}evil") if where == "source" else LOOP
    _write(tmp_path, f"code/{name}", text)
    for fmt in ("concise", "full", "grouped"):
        code, out, err = _main(["check", str(tmp_path / "code"), "--format", fmt])
        assert code == 1 and mark not in out + err, (fmt, out)


@pytest.mark.parametrize("comment, found", [
    ("# noqa:GL101", [("GL201", 4)]),
    ("# NOQA: GL101", [("GL201", 4)]),
    ("#noqa:GL101,GL201", []),
    ("# noqa: GL101, GL201  -- measured, fine", []),
    ("# noqa: GL999", FOUND),
    ("# noqa:", FOUND),  # as ruff reads it: a colon and no codes is no directive
    ("# noqa GL101", []),
])
def test_noqa_spellings_suppress_as_flake8_reads_them(tmp_path, own_caches, comment, found):
    _write(tmp_path, "code/a.py", LOOP.replace("4096)))\n", f"4096)))  {comment}\n"))
    code, out, err = _main(["check", str(tmp_path / "code"), "--format", "json"])
    assert codes(out) == found, (comment, err)


@pytest.mark.parametrize("jobs", ["0", "-1", "x", "1e9", ""])
def test_odd_job_counts_are_usage_errors(tmp_path, own_caches, jobs):
    _write(tmp_path, "code/a.py", LOOP)
    with contextlib.redirect_stderr(io.StringIO()) as err:
        try:
            code = main(["check", str(tmp_path / "code"), "-j", jobs])
        except SystemExit as exc:  # argparse's usage error
            code = exc.code
    assert code == 2 and "--jobs" in err.getvalue() and "positive integer" in err.getvalue()


def test_a_huge_job_count_is_capped(tmp_path, own_caches):
    _write(tmp_path, "code/a.py", LOOP)
    code, out, err = _main(["check", str(tmp_path / "code"), "-j", "100000", "--format", "json"])
    assert code == 1 and codes(out) == FOUND, err


# --- a full disk, an interrupt, two runs at once ------------------------------------------------------

MAP = "import tensorflow as tf\nds = tf.data.Dataset.range(n).map(lambda x: x + tf.random.uniform([], 0, 9, tf.int64))\n"
FIXED = "num_parallel_calls=tf.data.AUTOTUNE"


def _failing_fsync(monkeypatch, exc: BaseException, folder: Path) -> None:
    """os.fsync fails with *exc* on files in *folder* (a full disk shows at the flush or sync)."""
    real = os.fsync

    def fsync(fd):
        if os.path.dirname(os.readlink(f"/proc/self/fd/{fd}")) == str(folder):
            raise exc
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/fd")
def test_a_full_disk_while_a_fix_is_written_keeps_the_file_and_says_so(tmp_path, own_caches, monkeypatch, capsys):
    (tmp_path / "ro").mkdir()
    (tmp_path / "ro" / "a.py").write_text(MAP)
    (tmp_path / "b.py").write_text(MAP)
    monkeypatch.chdir(tmp_path)
    _failing_fsync(monkeypatch, OSError(errno.ENOSPC, "No space left on device"), tmp_path / "ro")
    main(["check", "--fix", "ro/a.py", "b.py"])
    err = capsys.readouterr().err
    assert "ro/a.py: not fixed" in err and "No space left on device" in err and "Traceback" not in err
    assert (tmp_path / "ro" / "a.py").read_text() == MAP and os.listdir(tmp_path / "ro") == ["a.py"]  # no temporary left
    assert FIXED in (tmp_path / "b.py").read_text()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/fd")
def test_an_interrupt_while_a_fix_is_written_leaves_the_old_file_whole(tmp_path, own_caches, monkeypatch, capsys):
    (tmp_path / "a.py").write_text(MAP)
    monkeypatch.chdir(tmp_path)
    _failing_fsync(monkeypatch, KeyboardInterrupt(), tmp_path)
    assert main(["check", "--fix", "a.py"]) == 130
    assert "interrupted" in capsys.readouterr().err
    assert (tmp_path / "a.py").read_text() == MAP and not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_two_fixes_of_one_file_at_once_apply_it_once(tmp_path, own_caches):
    """Two `--fix` processes on the same file: each writes only over the text it read, so the fix
    is applied once and the file parses."""
    (tmp_path / "a.py").write_text(MAP)
    env = {**os.environ, "GREENLINT_CACHE_DIR": str(own_caches)}
    runs = [subprocess.Popen([sys.executable, "-m", "greenlint", "check", "--fix", "a.py"], cwd=tmp_path, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [(p.wait(timeout=240), *p.communicate()) for p in runs]
    assert all("Traceback" not in err for _, _, err in results), results
    text = (tmp_path / "a.py").read_text()
    assert text.count(FIXED) == 1 and compile(text, "a.py", "exec")


def test_a_full_lint_cache_leaves_the_findings(tmp_path, own_caches, monkeypatch):
    """SQLite's own 'database or disk is full' (its page count capped where the file stands): the
    findings still come, and a later run with room caches again."""
    from greenlint.check import cache as lint_cache

    _write(tmp_path, "code/a.py", LOOP)
    argv = ["check", str(tmp_path / "code"), "--format", "json", "-j", "1", "--cache-dir", str(tmp_path / "c")]
    assert _main(argv)[0] == 1  # the cache created
    (tmp_path / "code" / "b.py").write_text(LOOP.replace("4096", "2048"))
    real = lint_cache.Cache._open

    def full(file):
        db = real(file)
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")
        return db

    monkeypatch.setattr(lint_cache.Cache, "_open", staticmethod(full))
    code, out, err = _main(argv)
    assert code == 1 and codes(out) == sorted([*FOUND, *FOUND]) and "Traceback" not in err, err
    monkeypatch.setattr(lint_cache.Cache, "_open", staticmethod(real))
    assert _main(argv)[:2] == (code, out)


@pytest.mark.parametrize("name", ["a.py", gitfs.MARKER])
def test_a_full_disk_while_a_snapshot_is_written_keeps_no_snapshot(case, monkeypatch, name):
    """ENOSPC on one file of a snapshot, or on its marker: an error naming the disk, and no
    snapshot kept that lacks the file, so the run after space is freed compares the whole commit."""
    root, repo, outside = case
    edit_loop(repo)
    _git(repo, "commit", "-qam", "more")
    monkeypatch.chdir(repo)
    real = gitfs._put

    def full(root_, parts, data=b"", link=None, replace=False):
        if parts[-1] == name:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(root_, parts, data, link, replace)

    monkeypatch.setattr(gitfs, "_put", full)
    code, out, err = _main(["diff", "HEAD~1", "HEAD", "--format", "json"])
    assert code == 2 and "No space left on device" in err, (code, err)
    monkeypatch.setattr(gitfs, "_put", real)
    code, out, err = _main(["diff", "HEAD~1", "HEAD", "--format", "json"])
    assert code in (0, 1) and "cannot be written" not in out + err and json.loads(out)["files"], err


# --- the language server ------------------------------------------------------------------------------


def test_a_second_did_open_of_an_open_document_takes_its_text(module_server):
    client, ws = module_server
    uri = (ws / "reopened.py").as_uri()
    client.open(uri, "x = 1\n", version=1)
    client.open(uri, LOOP, version=2)
    assert client.diagnostics(uri, 2) == [("GL101", 3), ("GL201", 3)]
    assert "predict" in client.hover(uri)["result"]["contents"]["value"]


def test_an_edit_past_the_end_of_the_document_is_applied_at_its_end(module_server):
    """A range beyond the last line (a client out of step): as the LSP says of a character past
    a line's end, the position is taken back to the end; the document stays consistent."""
    client, ws = module_server
    uri = (ws / "past-end.py").as_uri()
    client.open(uri, LOOP, version=1)
    far = {"line": 40, "character": 7}
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": {"start": far, "end": far}, "text": "y = 2\n"}]})
    assert client.diagnostics(uri, 2) == [("GL101", 3), ("GL201", 3)]
    assert "predict" in client.hover(uri)["result"]["contents"]["value"]
    assert client.proc.poll() is None


def test_a_cancelled_hover_is_answered_and_the_session_goes_on(module_server):
    client, ws = module_server
    uri = (ws / "cancelled.py").as_uri()
    client.open(uri, LOOP)
    rid = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 10}})
    client.notify("$/cancelRequest", {"id": rid})
    answer = client.answer(rid, 120)
    assert answer is not None and ("result" in answer or answer["error"]["code"] == -32800)
    assert "predict" in client.hover(uri)["result"]["contents"]["value"]


def test_a_deleted_cache_announced_by_the_watcher_is_made_again(server):
    client, ws = server
    uri = (ws / "a.py").as_uri()
    client.open(uri, LOOP, version=1)
    assert client.diagnostics(uri, 1) == [("GL101", 3), ("GL201", 3)]
    cache = ws / "cache"
    import shutil

    shutil.rmtree(cache, ignore_errors=True)
    client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": (cache / "lint.sqlite").as_uri(), "type": 3}]})
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": LOOP.replace("4096", "2048")}]})
    assert client.diagnostics(uri, 2) == [("GL101", 3), ("GL201", 3)]
    shown = [m for m in client.seen if m.get("method") == "window/showMessage" and m["params"]["type"] <= 2]
    assert not shown, shown


def test_two_servers_sharing_one_cache_both_answer(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.greenlint]\n")
    from tests.hardening.rpc import RawClient

    env = {"GREENLINT_CACHE_DIR": str(tmp_path / "shared-cache")}
    clients = [RawClient(tmp_path, env) for _ in range(2)]
    try:
        for client in clients:
            client.initialize(tmp_path)
        uri = (tmp_path / "a.py").as_uri()
        for client in clients:
            client.open(uri, LOOP)
        assert [c.diagnostics(uri, 1) for c in clients] == [[("GL101", 3), ("GL201", 3)]] * 2
        for version, client in enumerate(clients, start=2):  # each edits, each reads the other's entries
            client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                     "contentChanges": [{"text": LOOP.replace("4096", str(version))}]})
            assert ("GL201", 3) in client.diagnostics(uri, version)
    finally:
        assert [c.close() for c in clients] == [0, 0]


def test_a_ten_megabyte_document_is_named_and_holds_back_no_other(server):
    client, ws = server
    big, small = (ws / "big.py").as_uri(), (ws / "a.py").as_uri()
    client.open(big, LOOP + "x = '" + "a" * (10 * 1024 * 1024) + "'\n")
    client.open(small, LOOP)
    assert client.diagnostics(small, 1) == [("GL101", 3), ("GL201", 3)]
    assert "predict" in client.hover(small)["result"]["contents"]["value"]
    assert [code for code, _ in client.diagnostics(big, 1)] == ["GL002"]


# --- configuration through links, and an interrupt from outside ----------------------------------------


def test_a_linked_pyproject_keeps_the_cache_in_the_project_it_configures(tmp_path, own_caches):
    """`pyproject.toml` committed as a link to another project's, whose `cache-dir = ".glc"`: the
    cache goes below the project checked, never beside the link's target."""
    root, other = tmp_path / "project", tmp_path / "other"
    other.mkdir()
    (other / "pyproject.toml").write_text('[tool.greenlint]\ncache-dir = ".glc"\n')
    _write(root, "a.py", LOOP)
    (root / "pyproject.toml").symlink_to(other / "pyproject.toml")
    code, out, err = _main(["check", str(root), "--format", "json"])
    assert code == 1 and codes(out) == FOUND and "Traceback" not in err
    assert sorted(os.listdir(other)) == ["pyproject.toml"] and (root / ".glc" / "lint.sqlite").is_file()


def test_a_cache_dir_that_is_one_of_the_project_s_files_is_named_and_left(tmp_path, own_caches):
    """Before, the run went on without a cache and said nothing: every run cold, no word why."""
    (tmp_path / "pyproject.toml").write_text('[tool.greenlint]\ncache-dir = "a.py"\n')
    _write(tmp_path, "a.py", LOOP)
    code, out, err = _main(["check", str(tmp_path), "--format", "json"])
    assert code == 1 and codes(out) == FOUND and (tmp_path / "a.py").read_text() == LOOP
    assert f"{tmp_path / 'a.py'}: cannot hold the lint cache (not a folder); running without it" in err, err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigint_during_a_run_ends_it_quietly_and_the_cache_still_serves(tmp_path, own_caches):
    import signal
    import time

    for i in range(40):
        _write(tmp_path, f"code/m{i}.py", LOOP.replace("4096", str(4096 + i)))
    env = {**os.environ, "GREENLINT_CACHE_DIR": str(own_caches)}
    argv = [sys.executable, "-m", "greenlint", "check", "code", "--format", "json", "-j", "1"]
    run = subprocess.Popen(argv, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120  # bounds a hang only
    # analysing: the first file's lookup opened the cache (a fixed sleep sent the signal during the
    # imports on a loaded machine, and after the run's end on a quiet one)
    while not any(own_caches.rglob(FILE_NAME)) and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=120)
    assert run.returncode in (1, 130) and "Traceback" not in err, err
    again = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 1 and "Traceback" not in again.stderr and "not a usable lint cache" not in again.stderr
    assert len(codes(again.stdout)) == 80


def test_an_edit_whose_range_ends_before_it_starts_leaves_the_text(module_server):
    """A reversed range (end before start): no text of the client's is lost or doubled; the next
    whole-text change is analysed as sent."""
    client, ws = module_server
    uri = (ws / "reversed.py").as_uri()
    client.open(uri, LOOP, version=1)
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": {"start": {"line": 3, "character": 4}, "end": {"line": 1, "character": 0}}, "text": "#"}]})
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": LOOP}]})
    assert client.diagnostics(uri, 3) == [("GL101", 3), ("GL201", 3)]
    assert client.proc.poll() is None


def test_a_save_of_a_document_never_opened_is_left_out(module_server):
    client, ws = module_server
    uri = (ws / "never.py").as_uri()
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}, "text": LOOP})
    assert client.hover(uri)["result"] is None
    opened = (ws / "opened-after-a-save.py").as_uri()
    client.open(opened, LOOP)
    assert "predict" in client.hover(opened)["result"]["contents"]["value"]


def test_a_head_naming_a_branch_that_does_not_exist_is_named(case, monkeypatch):
    """`.git/HEAD` pointing at a branch with no commit (an unborn branch): `diff HEAD` names it."""
    root, repo, outside = case
    _git(repo, "symbolic-ref", "HEAD", "refs/heads/nowhere")
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD"], "unborn HEAD") is None
    monkeypatch.chdir(repo)
    code, _, err = _main(["diff", "HEAD"])
    assert code == 2 and "HEAD" in err and "Traceback" not in err, err


def test_an_interrupt_while_a_snapshot_is_written_leaves_no_partial_folder(case, monkeypatch):
    root, repo, outside = case
    edit_loop(repo)
    _git(repo, "commit", "-qam", "more")
    (repo / "pyproject.toml").write_text('[tool.greenlint]\ncache-dir = ".glc"\n')
    monkeypatch.chdir(repo)
    real = gitfs._put

    def interrupted(root_, parts, data=b"", link=None, replace=False):
        if parts[-1] == "a.py":
            raise KeyboardInterrupt
        return real(root_, parts, data, link, replace)

    monkeypatch.setattr(gitfs, "_put", interrupted)
    assert _main(["diff", "HEAD~1", "HEAD"])[0] == 130
    assert os.listdir(repo / ".glc" / "snapshots") == []  # neither a partial folder nor a snapshot without a.py
    monkeypatch.setattr(gitfs, "_put", real)
    code, out, err = _main(["diff", "HEAD~1", "HEAD", "--format", "json"])
    assert code in (0, 1) and _changed(out) == ["a.py"], err
