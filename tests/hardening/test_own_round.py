"""A round of issue 29's kinds written before the kept-apart judge (items 1–12; the line-break
kinds are in test_line_breaks.py): names a CI log reads as workflow commands or a terminal as
controls, revisions and branch names git reads as options, replace refs, other hash formats, damaged
indexes and unrelated histories, tree entries the file system refuses, greenlint's own snapshots and
token inside a project, `.gitignore` links, wide encodings and odd notebooks, very long lines and
chains, profile files on a full disk, odd command-line values, and the language server under
unknown commands, odd versions, URIs, folders and settings. Each case states what must hold;
repository cases also go through `fuzz.check_repo_case` (nothing written or removed outside the
repository and its cache, no command of its config run)."""

from __future__ import annotations

import errno
import json
import os
import re
import socket
import subprocess
import sys

import pytest

from greenlint.review import gitfs
from tests.hardening import fuzz
from tests.hardening.fuzz import _blob, _diff, _git, _main, _tree, _write
from tests.hardening.samples import LOOP, codes, edit_loop

pytestmark = pytest.mark.timeout(300)

#: A line GitHub Actions reads as a workflow command: `::name` after optional blanks.
COMMAND = re.compile(r"^\s*::", re.M)
NAMES = ["::error title=pwned::x.py", "  ::add-mask::secret.py", "::stop-commands::token.py"]


# --- names a CI log would read as workflow commands ---------------------------------------------


@pytest.mark.parametrize("fmt", ["concise", "full", "grouped"])
def test_a_file_name_never_starts_a_line_of_check_output_with_a_command(tmp_path, own_caches, monkeypatch, fmt):
    for name in NAMES:
        _write(tmp_path, name, LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, err = _main(["check", ".", "--format", fmt, "--show-fixes"])
    assert code == 1 and "./::error title=pwned::x.py" in out  # named, the same file
    assert not COMMAND.search(out) and not COMMAND.search(err), out


def test_a_file_name_never_starts_a_line_of_calls_output_with_a_command(tmp_path, own_caches, monkeypatch):
    for name in NAMES:
        _write(tmp_path, name, LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, _ = _main(["calls", "."])
    assert code == 0 and "./::stop-commands::token.py:4:5" in out
    assert not COMMAND.search(out), out


def test_a_committed_name_never_starts_a_line_of_diff_text_with_a_command(case):
    root, repo, outside = case
    for name in NAMES:
        _write(repo, name, LOOP)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "names")
    for name in NAMES:
        _write(repo, name, LOOP.replace("21000", "42000"))
    code, out, _ = _diff(repo, "HEAD")
    assert code == 0 and "./  ::add-mask::secret.py: " in out and "  ./::error title=pwned::x.py:4:5: " in out
    assert not COMMAND.search(out), out


def test_a_committed_profile_never_starts_a_line_of_profile_show_with_a_command(tmp_path, own_caches, monkeypatch):
    site = {"line": 4, "column": 5, "end_line": 4, "end_column": 9, "cell": None, "statement": "0" * 16,
            "api": "tensorflow.keras.Model.predict", "median_j": 1.0, "executions": 3,
            "time_s": 0.1, "counter": "rapl", "hardware_id": "h", "date": "2026-01-01"}
    _write(tmp_path, ".greenlint/profiles.json", json.dumps({"schema_version": 1, "files": {"::warning::a.py": [site]}}))
    monkeypatch.chdir(tmp_path)
    code, out, err = _main(["profile", "show"])
    assert code == 0 and "  ./::warning::a.py:4:5  " in out, err
    assert not COMMAND.search(out), out


@pytest.mark.parametrize("argv", [["check", "--format", "concise"], ["check", "--format", "full"],
                                  ["check", "--format", "grouped"], ["calls"]])
def test_a_name_s_raw_c1_byte_is_shown_escaped(tmp_path, own_caches, monkeypatch, argv):
    """A file name that is not UTF-8 holding the byte 0x9B (CSI to a terminal reading 8-bit
    controls, as ESC [ is): shown `\\x9b`; it was written back raw. Other bytes keep their name."""
    _write(tmp_path, os.fsdecode(b"a\x9b31mb\xe9.py"), LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, _ = _main([*argv, "."])
    assert code in (0, 1) and "\udc9b" not in out and "a\\x9b31mb" in out
    assert os.fsdecode(b"\xe9") in out  # 0xE9 is no control: the name as it is


def test_a_committed_name_s_raw_c1_byte_is_shown_escaped_in_a_diff(case):
    _, repo, _ = case
    listing = b"".join(b"100644 blob %s\t%s\n" % (_blob(repo, text).encode(), name) for name, text in (
        (b"a.py", LOOP), (b"a\x9b31mb.py", LOOP.replace("21000", "42000"))))
    top = subprocess.run(["git", "-C", str(repo), "mktree"], input=listing, capture_output=True, check=True).stdout
    commit = _git(repo, "commit-tree", top.decode().strip(), "-p", "HEAD", "-m", "odd bytes")
    code, out, err = _diff(repo, "HEAD", commit)
    assert code == 0 and "a\\x9b31mb.py" in out and "\udc9b" not in out, err


# --- revisions and branch names git would read as options ----------------------------------------


@pytest.mark.parametrize("revision", ["^HEAD", "HEAD^!", "HEAD^@", "HEAD:a.py", "HEAD^{tree}", "-", "@{upstream}"])
def test_a_revision_naming_no_single_commit_is_named(case, revision):
    _, repo, _ = case
    code, _, err = _diff(repo, revision)
    assert code == 2 and f"{revision}: not a revision of this repository" in err, err


def test_a_default_branch_named_like_an_option_is_the_base(case):
    """`origin/HEAD` naming the branch `--all` (a clone takes the remote's name): the base is that
    branch, never an option of `git merge-base` (a usage error before)."""
    root, repo, outside = case
    _git(repo, "update-ref", "refs/heads/--all", "HEAD")
    (repo / ".git" / "refs" / "remotes" / "origin").mkdir(parents=True)
    (repo / ".git" / "refs" / "remotes" / "origin" / "HEAD").write_text("ref: refs/heads/--all\n")
    edit_loop(repo)
    code, out, err = _diff(repo, "--format", "json")
    assert code == 0, err
    assert json.loads(out)["base"]["label"] == "--all"
    assert fuzz.check_repo_case(root, repo, outside, [], "--all") is None


# --- git objects as committed, whatever the repository's settings --------------------------------


def test_a_replace_ref_never_changes_what_a_commit_holds(case):
    """`git replace` of HEAD's a.py by an edited blob: HEAD is compared as committed (the working tree
    is unchanged: nothing changed), as its hash says, not as the replacement shows it."""
    _, repo, _ = case
    original = _git(repo, "rev-parse", "HEAD:a.py")
    _git(repo, "replace", original, _blob(repo, LOOP.replace("21000", "42000")))
    code, out, err = _diff(repo, "HEAD", "--format", "json")
    assert code == 0 and json.loads(out)["files"] == [], out + err


def test_a_sha256_repository_is_compared(case):
    _, repo, _ = case
    other = repo.parent / "sha256"
    other.mkdir()
    _git(other, "init", "-q", "--object-format=sha256", "-b", "main")
    _write(other, "a.py", LOOP)
    _git(other, "add", ".")
    _git(other, "commit", "-qm", "base")
    _write(other, "a.py", LOOP.replace("21000", "42000"))
    code, out, err = _diff(other, "HEAD", "--format", "json")
    assert code == 0, err
    reasons = {r["text"] for f in json.loads(out)["files"] for c in f["changes"] for r in c["reasons"]}
    assert any("21000 → 42000" in r for r in reasons), reasons


def test_a_bare_repository_config_is_an_error_naming_it(case):
    _, repo, _ = case
    _git(repo, "config", "core.bare", "true")
    edit_loop(repo)
    code, _, err = _diff(repo, "HEAD")
    assert code == 2 and "work tree" in err


def test_a_cut_index_is_named_not_read_as_files_deleted(case):
    """An index cut short (a crash, a full disk): git 2.39 lists what it could read and entries of
    mode 000000 without an error; `--staged` reported the other files deleted (×0) and exit 0."""
    _, repo, _ = case
    _write(repo, "b.py", LOOP)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "two files")
    index = repo / ".git" / "index"
    index.write_bytes(index.read_bytes()[:100])
    code, out, err = _diff(repo, "--staged")
    assert code == 2 and "the index is damaged" in err and "deleted" not in out


@pytest.mark.parametrize("argv", [[], ["main...HEAD"]], ids=["default-base", "three-dot-range"])
def test_an_orphan_branch_names_the_missing_common_commit(case, argv):
    """HEAD on an orphan branch shares no commit with main: git's merge-base says nothing (exit 1),
    and the error was the whole git command line, `-c` settings and all."""
    _, repo, _ = case
    _git(repo, "checkout", "-q", "--orphan", "other")
    _git(repo, "commit", "-qm", "orphan")
    code, _, err = _diff(repo, *argv)
    assert code == 2 and "share no commit (unrelated histories): name the base revision" in err, err
    assert "-c core" not in err


def test_a_config_including_a_fifo_is_named_after_one_wait(case, monkeypatch):
    """A `.git` that came with a checkout, its config including a FIFO: git reads it until stopped.
    The run ends at the first call stopped, naming it (the filter read used to swallow the timeout
    and go on without its overrides, then wait again)."""
    root, repo, outside = case
    os.mkfifo(repo / ".git" / "never")
    with open(repo / ".git" / "config", "a", encoding="utf-8") as fh:
        fh.write("[include]\n\tpath = never\n")
    monkeypatch.setattr(gitfs, "GIT_TIMEOUT_S", 2)
    calls = []
    real = subprocess.run
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: calls.append(a) or real(*a, **k))
    edit_loop(repo)
    code, _, err = _diff(repo, "HEAD")
    assert code == 2 and "git config did not finish in 2 s" in err and "FIFO" in err, err
    assert len(calls) == 1


# --- tree entries the snapshot cannot hold --------------------------------------------------------


@pytest.mark.parametrize("entries, refused, why", [
    ([("100644", "x" * 300 + ".py")], "x" * 40, "File name too long"),
    ([("100644", "x.py"), ("040000", "x.py")], "x.py/evil.py", "Not a directory"),
], ids=["name-over-NAME_MAX", "file-and-folder-of-one-name"])
def test_an_entry_the_file_system_refuses_is_named_and_the_rest_compared(case, entries, refused, why):
    root, repo, outside = case
    evil = _blob(repo, fuzz.PWNED + "\n")
    inner = _tree(repo, ("100644", evil, "evil.py"))
    listed = [(mode, inner if mode == "040000" else evil, name) for mode, name in entries]
    commit = _git(repo, "commit-tree", _tree(repo, *listed, ("100644", _blob(repo, LOOP.replace("21000", "9")), "a.py")),
                  "-p", "HEAD", "-m", "odd entries")
    code, out, err = _diff(repo, "HEAD", commit, "--format", "json")
    assert code == 0 and refused in err and why in err, err
    assert [f["path"] for f in json.loads(out)["files"]] == ["a.py"]
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD", commit], "refused entry") is None


def test_a_backslash_name_is_one_file_inside_the_snapshot(case):
    root, repo, outside = case
    name = "..\\..\\..\\evil.py"
    commit = _git(repo, "commit-tree", _tree(repo, ("100644", _blob(repo, fuzz.PWNED + "\n"), name),
                                             ("100644", _blob(repo, LOOP), "a.py")), "-p", "HEAD", "-m", "backslashes")
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD", commit, "--format", "json"], "backslash") is None


def test_links_in_a_loop_or_too_long_are_named(case):
    _, repo, _ = case
    commit = _git(repo, "commit-tree", _tree(
        repo, ("120000", _blob(repo, "b.py"), "a2.py"), ("120000", _blob(repo, "a2.py"), "b.py"),
        ("120000", _blob(repo, "c.py"), "c.py"), ("120000", _blob(repo, "x/" * 2000 + "y.py"), "long.py"),
        ("100644", _blob(repo, LOOP.replace("21000", "9")), "a.py")), "-p", "HEAD", "-m", "links")
    code, out, err = _diff(repo, "HEAD", commit, "--format", "json")
    assert code == 0 and "Too many levels of symbolic links" in err
    assert {e["path"] for e in json.loads(out)["errors"]} >= {"a2.py", "b.py", "c.py", "long.py"}
    assert [f["path"] for f in json.loads(out)["files"]] == ["a.py"]


def test_a_committed_profile_linked_to_dev_zero_is_never_read(case):
    root, repo, outside = case
    (repo / ".greenlint").mkdir()
    (repo / ".greenlint" / "profiles.json").symlink_to("/dev/zero")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "a profile link")
    edit_loop(repo)
    for argv in (["HEAD~1", "HEAD"], ["HEAD"]):
        assert fuzz.check_repo_case(root, repo, outside, argv, "profile link") is None


def test_findings_are_the_same_beside_a_repository_of_hostile_names(tmp_path, own_caches, monkeypatch):
    _write(tmp_path, "a.py", LOOP)
    monkeypatch.chdir(tmp_path)
    plain = codes(_main(["check", ".", "--format", "json"])[1])
    for name in NAMES:
        _write(tmp_path, name, "x = 1\n")
    assert codes(_main(["check", ".", "--format", "json"])[1]) == plain == [("GL101", 4), ("GL201", 4)]


# --- greenlint's own snapshots under a project's cache-dir ---------------------------------------


@pytest.mark.parametrize("cache_dir", ["src", "build/greenlint"])
def test_snapshots_under_a_project_cache_dir_are_not_the_project_s_files(case, cache_dir):
    """`cache-dir = "src"` (not hidden, not ignored): the snapshots `diff` writes there are copies of
    other revisions; `check` reported each copy's findings, and the working-tree side of `diff`
    counted them as added files (a clean tree failing `--max-added-j`)."""
    _, repo, _ = case
    _write(repo, "pyproject.toml", f'[tool.greenlint]\ncache-dir = "{cache_dir}"\n')
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "a cache-dir in the project")
    edit_loop(repo)
    _git(repo, "commit", "-qam", "edit")
    assert _diff(repo, "HEAD~2", "HEAD")[0] == 0
    assert len(list((repo / cache_dir / "snapshots").iterdir())) >= 2
    code, out, err = _diff(repo, "HEAD", "--format", "json", "--max-added-j", "1")
    assert code == 0 and json.loads(out)["files"] == [], out + err
    code, out, _ = _main(["check", str(repo), "--format", "json"])
    assert {d["filename"] for d in json.loads(out)} == {str(repo / "a.py")}


# --- .gitignore files git would not read ---------------------------------------------------------


def test_a_gitignore_that_is_a_link_is_not_followed_as_in_git(tmp_path, own_caches):
    """git (2.32 on) never follows a `.gitignore` link ("unable to access '.gitignore'"): its
    patterns ignore nothing, and greenlint says so; it read the link's target and ignored a.py."""
    _write(tmp_path, "patterns", "a.py\n")
    (tmp_path / ".gitignore").symlink_to("patterns")
    _write(tmp_path, "a.py", LOOP)
    code, out, err = _main(["check", str(tmp_path), "--format", "json"])
    assert code == 1 and codes(out) == [("GL101", 4), ("GL201", 4)]
    assert ".gitignore: a symbolic link, which git does not follow; it ignores nothing" in err


def test_a_committed_gitignore_link_ignores_nothing_in_a_diff(case):
    root, repo, outside = case
    _write(repo, "patterns", "a.py\n")
    (repo / ".gitignore").symlink_to("patterns")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "a .gitignore link")
    edit_loop(repo)
    code, out, err = _diff(repo, "HEAD~1", "HEAD", "--format", "json")
    assert code == 0 and [f["path"] for f in json.loads(out)["files"]] == [], err  # a.py unchanged between them
    code, out, err = _diff(repo, "HEAD", "--format", "json")
    assert code == 0 and [f["path"] for f in json.loads(out)["files"]] == ["a.py"], err
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD"], "gitignore link") is None


def test_a_gitignore_warning_shows_its_folder_name_escaped(tmp_path, own_caches):
    folder = tmp_path / "x\x1b]52;c;aGk=\x07"
    _write(folder, ".gitignore", "*a*a*a*a*b\n")
    _write(tmp_path, "a.py", LOOP)
    code, _, err = _main(["check", str(tmp_path), "--format", "json"])
    assert code == 1 and "more than" in err and "\x1b" not in err and "\\x1b" in err


# --- files: encodings and notebooks ---------------------------------------------------------------


def _file_check(folder, name: str, data: bytes) -> list[tuple[str, str, str]]:
    """(file, code, message) of `check --format json` on *folder* holding *name* and a plain LOOP."""
    (folder / name).write_bytes(data)
    _write(folder, "ok.py", LOOP)
    assert fuzz.check_case(folder, folder.parent / "cache", name) is None
    code, out, err = _main(["check", str(folder), "--format", "json", "--cache-dir", str(folder.parent / "cache")])
    assert code == 1, err
    found = [(d["filename"].rsplit("/", 1)[-1], d["code"], d["message"]) for d in json.loads(out)]
    assert [(f, c) for f, c, _ in found if f == "ok.py"] == [("ok.py", "GL101"), ("ok.py", "GL201")]  # the run goes on
    return [d for d in found if d[0] != "ok.py"]


@pytest.mark.parametrize("encoding, named", [("utf-16", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32", "UTF-32")])
@pytest.mark.parametrize("name", ["a.py", "n.ipynb"])
def test_a_utf16_or_utf32_file_is_named_as_such_not_binary(tmp_path, own_caches, encoding, named, name):
    text = LOOP if name == "a.py" else json.dumps({"cells": [{"cell_type": "code", "source": LOOP}], "nbformat": 4})
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    (tmp_path / "f").mkdir()
    ((_, code, message),) = _file_check(tmp_path / "f", name, data)
    assert code == "GL002" and f"{named} text" in message and "UTF-8" in message and "binary" not in message


@pytest.mark.parametrize("text", [
    "# coding: latin-1\ns = 'é'\n" + LOOP,  # UTF-8 bytes read as Latin-1, as Python reads them: it parses
    "\n\n# coding: nope-42\n" + LOOP,  # a cookie below line 2 is a comment
])
def test_a_coding_cookie_is_read_where_python_reads_it(tmp_path, own_caches, text):
    (tmp_path / "f").mkdir()
    found = _file_check(tmp_path / "f", "a.py", text.encode("utf-8"))
    assert [(f, c) for f, c, _ in found] == [("a.py", "GL101"), ("a.py", "GL201")]


def test_a_notebook_of_another_language_is_not_read_as_python(tmp_path, own_caches):
    notebook = {"cells": [{"cell_type": "code", "source": LOOP, "metadata": {}, "outputs": []}], "nbformat": 4,
                "metadata": {"kernelspec": {"language": "R", "name": "ir"}, "language_info": {"name": "R"}}}
    (tmp_path / "f").mkdir()
    assert _file_check(tmp_path / "f", "n.ipynb", json.dumps(notebook).encode()) == []


@pytest.mark.parametrize("source, why", [
    (["x = 1\n", 5, None], "cell 1"), ({"text": LOOP}, "cell 1"),
], ids=["list-of-non-strings", "an-object"])
def test_a_cell_source_of_the_wrong_type_is_named(tmp_path, own_caches, source, why):
    notebook = {"cells": [{"cell_type": "code", "source": source}, {"cell_type": "code", "source": LOOP}],
                "nbformat": 4, "metadata": {}}
    (tmp_path / "f").mkdir()
    ((_, code, message),) = _file_check(tmp_path / "f", "n.ipynb", json.dumps(notebook).encode())
    assert code == "GL002" and "malformed notebook" in message and why in message


def test_cell_sources_with_lone_carriage_returns_keep_their_lines(tmp_path, own_caches, monkeypatch):
    notebook = {"cells": [{"cell_type": "code", "source": LOOP.replace("\n", "\r")}], "nbformat": 4, "metadata": {}}
    (tmp_path / "f").mkdir()
    _file_check(tmp_path / "f", "n.ipynb", json.dumps(notebook).encode())
    code, out, _ = _main(["check", str(tmp_path / "f" / "n.ipynb"), "--format", "json"])
    assert code == 1 and sorted((d["code"], d["cell"], d["location"]["row"]) for d in json.loads(out)) == [
        ("GL101", 1, 4), ("GL201", 1, 4)]


def test_a_socket_named_like_a_module_is_never_opened(tmp_path, own_caches):
    folder = tmp_path / "f"
    folder.mkdir()
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(folder / "x.py"))
        found = _file_check(folder, "y.py", b"x = 1\n")
    assert [(f, c) for f, c, _ in found] == [("x.py", "GL002")] and "not a regular file" in found[0][2]


# --- the language server ------------------------------------------------------------------------


def _errors_logged(client) -> list[str]:
    return [m["params"]["message"] for m in client.seen
            if m.get("method") in ("window/logMessage", "window/showMessage") and m["params"]["type"] == 1]


def test_an_unknown_command_is_refused_without_a_traceback(module_server):
    client, ws = module_server
    for command in ("nope", "greenlint.fixAll", "greenlint.showHotspots\u202e"):
        rid = client.request("workspace/executeCommand", {"command": command, "arguments": [5]})
        answer = client.answer(rid, 120)
        assert answer["error"]["code"] == -32602 and "is not defined" in answer["error"]["message"]
    uri = (ws / "after-command.py").as_uri()
    client.open(uri, LOOP)
    assert "predict" in client.hover(uri)["result"]["contents"]["value"]
    assert not [m for m in _errors_logged(client) if "Traceback" in m]


def test_a_change_of_an_older_version_is_applied_and_published_as_that_version(module_server):
    """A client out of step sends version 3 after 5: its text is the document's now (nothing newer
    exists), published under the version it came with, and hovers answer on it."""
    client, ws = module_server
    uri = (ws / "versions.py").as_uri()
    client.open(uri, "x = 1\n", version=5)
    assert client.diagnostics(uri, 5) == []
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": LOOP}]})
    assert client.diagnostics(uri, 3) == [("GL101", 3), ("GL201", 3)]
    assert "predict" in client.hover(uri)["result"]["contents"]["value"]


@pytest.mark.parametrize("version", [2**70, None], ids=["over-int32", "null"])
def test_an_open_with_a_version_of_the_wrong_kind_is_left_out(module_server, version):
    client, ws = module_server
    uri = (ws / f"odd-version-{type(version).__name__}.py").as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": version,
                                                            "text": LOOP}})
    answer = client.hover(uri)
    assert "result" in answer and answer["result"] is None  # not open: nothing to answer on
    good = (ws / "good.py").as_uri()
    client.open(good, LOOP)
    assert "predict" in client.hover(good)["result"]["contents"]["value"]


def test_requests_for_a_closed_document_get_empty_answers(module_server):
    client, ws = module_server
    uri = (ws / "closed.py").as_uri()
    client.open(uri, LOOP)
    assert client.diagnostics(uri, 1) == [("GL101", 3), ("GL201", 3)]
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}}
    for method, params, empty in [
        ("textDocument/hover", {"position": {"line": 3, "character": 10}}, None),
        ("textDocument/codeLens", {}, []), ("textDocument/inlayHint", {"range": whole}, []),
        ("textDocument/codeAction", {"range": whole, "context": {"diagnostics": []}}, []),
    ]:
        rid = client.request(method, {"textDocument": {"uri": uri}, **params})
        answer = client.answer(rid, 120)
        assert answer.get("result", "missing") in (empty, None), (method, answer)


@pytest.mark.parametrize("uri", ["untitled:Untitled-1", "http://example.com/a.py", "file://host/share/a.py",
                                 "file:///C:/a.py", "file:///tmp/%ZZ.py", "file:relative.py", "file:///tmp/caf%E9.py",
                                 "file:///tmp/a%9B31m.py", "file:///tmp/x%2Fy.py", "file:///tmp/a%5C..%5C..%5Cb.py"])
def test_documents_of_odd_uris_are_analysed(module_server, uri):
    client, _ = module_server
    client.open(uri, LOOP)
    assert "predict" in client.hover(uri)["result"]["contents"]["value"]


def test_workspace_folders_of_odd_uris_leave_the_session_working(module_server):
    client, ws = module_server
    file_uri = (ws / "plain.py").as_uri()
    for event in [{"added": [{"uri": "untitled:x", "name": "x"}], "removed": []},
                  {"added": [{"uri": file_uri, "name": "a file"}], "removed": []},
                  {"added": [], "removed": [{"uri": "file:///never/added", "name": "n"}]},
                  {"added": [{"uri": "file:///tmp/a%00b", "name": "nul"}], "removed": []},
                  {"added": [{"uri": "file:///" + "x" * 5000, "name": "long"}], "removed": []},
                  {"added": [{"uri": ws.as_uri(), "name": "twice"}], "removed": [{"uri": ws.as_uri(), "name": "twice"}]}]:
        client.notify("workspace/didChangeWorkspaceFolders", {"event": event})
    client.open(file_uri, LOOP)
    assert client.diagnostics(file_uri, 1) == [("GL101", 3), ("GL201", 3)]
    assert not [m for m in _errors_logged(client) if "Traceback" in m]


def test_settings_of_the_wrong_kind_are_named_and_the_session_goes_on(module_server):
    client, ws = module_server
    for settings in (5, "x", [1], {"greenlint": 5},
                     {"greenlint": {"select": 5, "ignore": [None, 3], "hotspotThresholdJ": "big"}}):
        client.notify("workspace/didChangeConfiguration", {"settings": settings})
    uri = (ws / "settings.py").as_uri()
    client.open(uri, LOOP)
    assert "predict" in client.hover(uri)["result"]["contents"]["value"]
    shown = " ".join(_errors_logged(client) + [m["params"]["message"] for m in client.seen
                                                if m.get("method") == "window/showMessage"])
    assert "greenlint.select" in shown and "greenlint.hotspotThresholdJ" in shown


def test_an_edit_inside_a_surrogate_pair_keeps_the_document_working(module_server):
    """An insertion at the UTF-16 unit between the two halves of 😀 (a client that counts code
    units of another encoding): the document stays analysable and answers."""
    client, ws = module_server
    uri = (ws / "pair.py").as_uri()
    client.open(uri, LOOP.replace("    model.predict", '    s = "😀"; model.predict'), version=1)
    at = {"line": 3, "character": 10}
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"range": {"start": at, "end": at}, "text": "X"}]})
    assert client.diagnostics(uri, 2) == [("GL101", 3), ("GL201", 3)]
    rid = client.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": {
        "start": {"line": 50, "character": 0}, "end": {"line": 0, "character": 0}}})
    assert client.answer(rid, 120)["result"] in ([], None)


# --- output: very long lines ------------------------------------------------------------------------


@pytest.mark.parametrize("before, after", [("x = '" + "a" * 700_000 + "'; ", ""), ("", "; x = '" + "a" * 700_000 + "'")],
                         ids=["call-at-the-end", "call-at-the-start"])
def test_a_very_long_line_is_shown_cut_around_the_finding(tmp_path, own_caches, before, after):
    """A 700 KB source line (a literal of data) printed whole gave 2.8 MB of `--format full` for two
    findings; it is cut around the call, `…` at each cut, the caret still under the call."""
    _write(tmp_path, "a.py", LOOP.replace("    model.predict(tf.ones((64, 4096)))",
                                          f"    {before}model.predict(tf.ones((64, 4096))){after}"))
    code, out, _ = _main(["check", str(tmp_path), "--format", "full", "--select", "GL201"])
    assert code == 1 and len(out) < 3000
    lines = out.splitlines()
    (shown,) = [line for line in lines if line.startswith("4 | ")]
    caret = lines[lines.index(shown) + 1]
    assert "…" in shown and len(shown) < 260
    assert caret.index("^") == shown.index("model.predict") and caret.rstrip().endswith("^ GL201")
    assert caret.count("^") == len("model.predict(tf.ones((64, 4096)))")


# --- the user cache --------------------------------------------------------------------------------


@pytest.mark.parametrize("xdg", ["rel", "./.cache", "greenlint-cache/x"])
def test_a_relative_xdg_cache_home_is_ignored_as_the_spec_says(tmp_path, monkeypatch, xdg):
    """Taken, XDG_CACHE_HOME=rel would put the user cache (lint cache, the token marking greenlint's
    own snapshots) in whatever folder a run starts in: a project, which may commit a token of its own."""
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    _write(project, "a.py", LOOP)
    monkeypatch.delenv("GREENLINT_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(project)
    from greenlint.paths import cache_dir

    assert cache_dir() == home / ".cache" / "greenlint"
    code, out, _ = _main(["check", ".", "--format", "json"])
    assert code == 1 and codes(out) == [("GL101", 4), ("GL201", 4)]
    assert sorted(p.name for p in project.iterdir()) == ["a.py"]


def test_a_repository_another_user_owns_is_refused_with_git_s_advice(case):
    """A checkout another user owns (a CI container mounting a host's clone): git refuses it
    (`safe.directory`), greenlint never overrides that, and the error says how to trust it."""
    _, repo, _ = case
    if os.geteuid() != 0:
        pytest.skip("needs root to give the repository to another user")  # by nature of the machine
    for path in [repo, *repo.rglob("*")]:
        os.lchown(path, 65534, 65534)
    code, _, err = _diff(repo, "HEAD")
    assert code == 2 and "dubious ownership" in err and "safe.directory" in err, err


# --- profile files ------------------------------------------------------------------------------------


def _profile(folder, files: dict) -> None:
    site = {"line": 4, "column": 5, "end_line": 4, "end_column": 9, "cell": None, "statement": "0" * 16,
            "api": "tensorflow.keras.Model.predict", "median_j": 1.0, "executions": 3, "time_s": 0.1,
            "counter": "rapl", "hardware_id": "h", "date": "2026-01-01"}
    _write(folder, ".greenlint/profiles.json", json.dumps({"schema_version": 1, "files": {k: [site] * n for k, n in files.items()}}))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="os.fsync patched by descriptor")
def test_profile_clear_on_a_full_disk_says_so_and_keeps_the_file(tmp_path, own_caches, monkeypatch):
    _profile(tmp_path, {"a.py": 2})
    before = (tmp_path / ".greenlint" / "profiles.json").read_bytes()
    monkeypatch.chdir(tmp_path)

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    code, out, err = _main(["profile", "clear"])
    assert code == 2 and "cannot write it (No space left on device); left as it was" in err and "Traceback" not in err
    assert (tmp_path / ".greenlint" / "profiles.json").read_bytes() == before
    assert os.listdir(tmp_path / ".greenlint") == ["profiles.json"]  # no temporary left


def test_profile_clear_of_a_hard_linked_profile_leaves_the_other_name(tmp_path, own_caches, monkeypatch):
    _profile(tmp_path / "outside", {"a.py": 1})
    (tmp_path / "p" / ".greenlint").mkdir(parents=True)
    kept = (tmp_path / "outside" / ".greenlint" / "profiles.json").read_bytes()
    os.link(tmp_path / "outside" / ".greenlint" / "profiles.json", tmp_path / "p" / ".greenlint" / "profiles.json")
    monkeypatch.chdir(tmp_path / "p")
    code, out, _ = _main(["profile", "clear"])
    assert code == 0 and "removed 1 site profile(s)" in out
    assert (tmp_path / "outside" / ".greenlint" / "profiles.json").read_bytes() == kept


def test_profile_clear_names_its_folder_escaped(tmp_path, own_caches, monkeypatch):
    folder = tmp_path / "p\x1b]52;c;aGk=\x07"
    _profile(folder, {"a.py": 1})
    monkeypatch.chdir(folder)
    code, out, _ = _main(["profile", "clear"])
    assert code == 0 and "removed 1 site profile(s)" in out and "\x1b" not in out and "\\x1b" in out


# --- deeply nested and long chained expressions ---------------------------------------------------

N = 20_000
CHAINS = {
    "attribute": "x = tf" + ".a" * N, "call": "x = tf.keras.Sequential()" + "()" * N,
    "subscript": "x = tf.ones(3)" + "[0]" * N, "method": "ds = tf.data.Dataset.range(3)" + ".map(lambda x: x)" * (N // 8),
    "comparison": "x = 1" + " < 1" * N, "boolean": "x = a" + " and a" * N,
    "lambda": "f = " + "lambda: " * 3000 + "tf.ones(3)", "decorator": "@tf.function\n" * N + "def f():\n    return tf.ones(3)",
    "elif": "if a:\n    pass\n" + "elif a:\n    tf.ones(3)\n" * N, "f-string": "x = " + "f'{" * 150 + "tf.ones(3)" + "}'" * 150,
    "with": "with " + ", ".join(["tf.device('/cpu:0')"] * N) + ":\n    tf.ones(3)",
}


@pytest.mark.parametrize("kind", list(CHAINS))
def test_a_long_chain_is_checked_or_named_and_the_run_goes_on(tmp_path, own_caches, kind):
    """Chains the resolver walks recursively (attributes, calls, decorators, `elif`, `with` items):
    checked cold, cached and listed without a traceback, the file beside them still checked."""
    (tmp_path / "f").mkdir()
    found = _file_check(tmp_path / "f", "a.py", f"import tensorflow as tf\n{CHAINS[kind]}\n".encode())
    assert all(code != "GL002" or "internal" not in message for _, code, message in found)


def test_a_token_committed_in_a_user_cache_inside_the_repository_is_not_trusted(case, monkeypatch):
    """GREENLINT_CACHE_DIR inside the work tree (a CI job caching `.cache`): the repository can
    commit the token that marks greenlint's snapshots, then folders marked with it, which pruning
    took for greenlint's own and removed (tracked files of the work tree)."""
    root, repo, outside = case
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(repo / ".cache"))
    token = "0" * 32
    _write(repo, ".cache/snapshot-token", token + "\n")
    forged = []
    for i in range(12):
        folder = repo / ".cache" / "snapshots" / f"{i:024x}"
        _write(folder, gitfs.MARKER, gitfs._MARKER_TEXT.decode() + f"token {token}\n")
        _write(folder, "keep.py", "x = 1\n")
        forged.append(folder)
    _git(repo, "add", "-f", ".")
    _git(repo, "commit", "-qm", "a user cache with a token")
    gitfs._token.cache_clear()
    for i in range(3):
        _write(repo, "a.py", LOOP.replace("21000", str(30000 + i)))
        _git(repo, "commit", "-qam", f"step {i}")
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD~3", "HEAD"], "committed token") is None
    assert _diff(repo, "HEAD~2", "HEAD~1")[0] == 0
    assert all((f / "keep.py").exists() for f in forged) and _git(repo, "ls-files", "--deleted") == ""
    gitfs._token.cache_clear()


def test_a_pyproject_broken_then_mended_while_the_server_runs(server):
    """Bad TOML, a key of the wrong type and a cache-dir outside the project, each announced by the
    watcher: shown naming the file and key, the defaults used meanwhile, the findings kept."""
    client, ws = server
    uri = (ws / "a.py").as_uri()
    client.open(uri, LOOP, version=1)
    assert client.diagnostics(uri, 1) == [("GL101", 3), ("GL201", 3)]
    for version, (text, found) in enumerate([
        ('[tool.greenlint\nselect = ["GL2"]\n', [("GL101", 3), ("GL201", 3)]),
        ('[tool.greenlint]\nselect = ["GL201"]\n', [("GL201", 3)]),
        ("[tool.greenlint]\nselect = 5\n", [("GL101", 3), ("GL201", 3)]),
        ('[tool.greenlint]\ncache-dir = "/"\n', [("GL101", 3), ("GL201", 3)]),
        ("[tool.greenlint]\n", [("GL101", 3), ("GL201", 3)]),
    ], start=2):
        (ws / "pyproject.toml").write_text(text)
        client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": (ws / "pyproject.toml").as_uri(), "type": 2}]})
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"text": LOOP + f"# {version}\n"}]})
        assert client.diagnostics(uri, version) == found, text
    shown = [m["params"]["message"] for m in client.seen if m.get("method") == "window/showMessage"]
    assert any("pyproject.toml: cannot read configuration" in m for m in shown)
    assert any("key `select`" in m for m in shown) and any("key `cache-dir`" in m for m in shown)


# --- command-line values -----------------------------------------------------------------------------


@pytest.mark.parametrize("value, found", [("a:b.py:GL201", [("GL101", 4)]), ("a:b.py:GL201,GL101", []),
                                          ("*:*.py:GL1", [("GL201", 4)])])
def test_a_per_file_pattern_holding_a_colon_is_split_at_its_last(tmp_path, own_caches, monkeypatch, value, found):
    _write(tmp_path, "a:b.py", LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, err = _main(["check", ".", "--format", "json", "--per-file-ignores", value])
    assert code == (1 if found else 0) and codes(out) == found, err


@pytest.mark.parametrize("path, says", [("-", "-: no such file or directory"), ("/dev/stdin", "not a regular file"),
                                        ("/proc/self/environ", "binary file")])
def test_paths_that_are_no_source_file_are_named(tmp_path, own_caches, monkeypatch, path, says):
    _write(tmp_path, "a.py", LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, err = _main(["check", path, "a.py"])
    assert code in (1, 2) and says in out + err and "Traceback" not in err


def test_a_repository_s_rename_limit_does_not_set_the_work_of_rename_detection(case):
    """`diff.renameLimit = 0` (no limit) in the repository's config made rename detection
    quadratic in the files renamed; git's own default (1,000) holds whatever the config says."""
    _, repo, _ = case
    for i in range(1001):
        _write(repo, f"m{i}.py", "".join(f"x{j} = {i * 100 + j}\n" for j in range(20)))
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "many")
    for i in range(1001):
        (repo / f"m{i}.py").rename(repo / f"n{i}.py")
        with open(repo / f"n{i}.py", "a", encoding="utf-8") as fh:
            fh.write("z = 1\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "renamed, each edited")
    base, head = gitfs.commit_side(repo, "HEAD~1"), gitfs.commit_side(repo, "HEAD")
    plain = gitfs.renames(repo, base, head)
    _git(repo, "config", "diff.renameLimit", "0")
    assert gitfs.renames(repo, base, head) == plain
