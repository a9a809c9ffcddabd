"""More hostile and odd input of issue 29's kinds, each case its own test: git configuration that
names commands or changes git's output, links in a project's cache-dir, configuration files built
to exhaust the parser or the pattern matcher, names and text a CI log or a terminal would act on,
notebooks and sources of odd shapes, argument combinations, and JSON-RPC out of order.

A repository case runs `greenlint diff` through `fuzz.check_repo_case` (nothing written or removed
outside the repository and its cache, no command of its config run, JSON that parses); a file case
runs `check` through `fuzz.check_case` (cold, cached, `--format full` and `calls` agree, nothing
printed raw) unless it asserts more."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.hardening import fuzz
from tests.hardening.fuzz import _git, _main, _write
from tests.hardening.samples import LOOP, codes, edit_loop

pytestmark = pytest.mark.timeout(300)



def _check(*argv: str) -> tuple[int, str, str]:
    return _main(["check", *argv])



# --- repositories: git configuration -----------------------------------------------------------




def test_commands_named_through_include_path_never_run(case):
    """`include.path` to a file naming fsmonitor, a filter driver in capitals, textconv, an external
    diff, a pager, hooks and `gpg.program` with `log.showSignature`: none runs on any side."""
    root, repo, outside = case
    script = fuzz.recording_script(outside)
    included = outside.parent / "included.cfg"
    included.write_text(
        f'[core]\n\tfsmonitor = {script}\n\tpager = {script}\n\thooksPath = {outside.parent}\n'
        f'[filter "Evil"]\n\tclean = {script}\n\tsmudge = {script}\n\tprocess = {script}\n'
        f'[diff "x"]\n\ttextconv = {script}\n\tcommand = {script}\n[diff]\n\texternal = {script}\n'
        f'[log]\n\tshowSignature = true\n[gpg]\n\tprogram = {script}\n[pager]\n\tdiff = {script}\n'
    )
    for hook in ("post-index-change", "reference-transaction"):
        (outside.parent / hook).write_bytes(script.read_bytes())
        (outside.parent / hook).chmod(0o755)
    _git(repo, "config", "include.path", str(included))
    (repo / ".gitattributes").write_text("* filter=Evil diff=x\n")
    edit_loop(repo)
    for argv in (["HEAD"], ["--staged"], [], ["HEAD", "--", "a.py"]):
        assert fuzz.check_repo_case(root, repo, outside, argv, "include.path") is None


@pytest.mark.parametrize("driver", ["a.b", "UPPER", "sp ace"])
def test_filter_drivers_of_odd_names_are_turned_off(case, driver):
    """A driver name holding a dot, capitals or a space: `-c filter.<name>.clean=` still names it."""
    root, repo, outside = case
    script = fuzz.recording_script(outside)
    _git(repo, "config", f"filter.{driver}.clean", str(script))
    _git(repo, "config", f"filter.{driver}.process", str(script))
    (repo / ".gitattributes").write_text(f'* filter="{driver}"\n' if " " in driver else f"* filter={driver}\n")
    edit_loop(repo)
    for argv in (["HEAD"], []):
        assert fuzz.check_repo_case(root, repo, outside, argv, f"filter {driver!r}") is None


def test_display_settings_change_nothing_greenlint_reads(case, monkeypatch):
    """`diff.renames=copies`, `color.ui=always`, `diff.noprefix`, `diff.relative`, `core.quotePath`:
    the comparison (a rename followed) is the one without them."""
    root, repo, outside = case
    _git(repo, "mv", "a.py", "b.py")
    _write(repo, "b.py", LOOP.replace("100", "1000"))
    _git(repo, "commit", "-qam", "rename")
    argv = ["diff", "HEAD~1", "HEAD", "--format", "json"]
    monkeypatch.chdir(repo)
    plain = _main(argv)
    for key, value in (("diff.renames", "copies"), ("color.ui", "always"), ("color.diff", "always"),
                       ("diff.noprefix", "true"), ("diff.relative", "true"), ("core.quotePath", "true"),
                       ("diff.renameLimit", "1")):
        _git(repo, "config", key, value)
    assert _main(argv) == plain
    assert "b.py" in plain[1] and plain[0] in (0, 1)


def test_a_gitlink_to_a_missing_commit_is_left_out(case):
    """A commit whose tree holds a submodule entry (mode 160000) of a commit the repository lacks."""
    root, repo, outside = case
    code = fuzz._blob(repo, LOOP)
    top = _git(repo, "mktree", data=f"100644 blob {code}\ta.py\n160000 commit {'1' * 40}\tsub\n")
    commit = _git(repo, "commit-tree", top, "-p", "HEAD", "-m", "gitlink")
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD", commit, "--format", "json"], "gitlink") is None


@pytest.mark.parametrize("name", ["a\nb.py", "x\x1b]52;c;cm0=\x07.py", "`<img src=x>`.py", "tab\there.py"])
def test_committed_names_a_log_would_act_on_are_shown_escaped(case, name):
    """Tree entries whose names hold a newline, OSC 52, backticks and HTML, a tab, in every format."""
    root, repo, outside = case
    code = fuzz._blob(repo, LOOP.replace("100", "500"))
    top = _git(repo, "mktree", "-z", data=f"100644 blob {fuzz._blob(repo, LOOP)}\ta.py\0100644 blob {code}\t{name}\0")
    commit = _git(repo, "commit-tree", top, "-p", "HEAD", "-m", "odd name")
    for fmt in ("text", "markdown", "json"):
        assert fuzz.check_repo_case(root, repo, outside, ["HEAD", commit, "--format", fmt], f"{name!r} {fmt}") is None


def test_a_committed_link_to_this_process_environment_leaks_nothing(case, monkeypatch):
    """`env.py -> /proc/self/environ` in a commit: never shown (its NULs make it no source)."""
    root, repo, outside = case
    monkeypatch.setenv("GREENLINT_TEST_SECRET", "hunter2-do-not-print")
    (repo / "env.py").symlink_to("/proc/self/environ")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "a link")
    monkeypatch.chdir(repo)
    for fmt in ("text", "json", "markdown"):
        code, out, err = _main(["diff", "HEAD~1", "HEAD", "--format", fmt])
        assert code in (0, 1, 2) and "hunter2" not in out + err


# --- a project's cache-dir holding links ---------------------------------------------------------


@pytest.fixture
def project(tmp_path, own_caches):
    """(a project whose pyproject.toml keeps its cache in `.glcache`, a folder outside it)."""
    root, outside = tmp_path / "project", tmp_path / "outside"
    (root / ".glcache").mkdir(parents=True)
    outside.mkdir()
    (root / "pyproject.toml").write_text('[tool.greenlint]\ncache-dir = ".glcache"\n')
    _write(root, "a.py", LOOP)
    return root, outside


@pytest.mark.parametrize("name", ["lint.sqlite", "lint.sqlite-wal", "lint.sqlite-shm", "lint.sqlite-journal"])
def test_a_cache_file_committed_as_a_dangling_link_creates_nothing_outside(project, name):
    root, outside = project
    (root / ".glcache" / name).symlink_to(outside / "created")
    code, out, err = _check(str(root), "--format", "json")
    assert code == 1 and codes(out) == [("GL101", 4), ("GL201", 4)]
    assert not (outside / "created").exists() and not list(outside.iterdir())
    assert f"{name}: a link" in err
    assert _check(str(root), "--format", "json")[:2] == (code, out)  # the cache works from then on


def test_a_cache_file_committed_as_a_link_to_an_empty_file_leaves_it_empty(project):
    root, outside = project
    (outside / "empty.txt").write_bytes(b"")
    (root / ".glcache" / "lint.sqlite").symlink_to(outside / "empty.txt")
    code, out, _ = _check(str(root), "--format", "json")
    assert code == 1 and (outside / "empty.txt").read_bytes() == b"" and sorted(os.listdir(outside)) == ["empty.txt"]
    assert not (root / ".glcache" / "lint.sqlite").is_symlink()


def test_a_cache_dir_that_is_a_link_out_of_the_project_is_refused(tmp_path, own_caches):
    root, outside = tmp_path / "project", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / ".glcache").symlink_to(outside)
    (root / "pyproject.toml").write_text('[tool.greenlint]\ncache-dir = ".glcache"\n')
    _write(root, "a.py", LOOP)
    code, _, err = _check(str(root))
    assert code == 2 and "outside the project folder" in err and not list(outside.iterdir())


# --- configuration and ignore files built to exhaust -------------------------------------------


@pytest.mark.parametrize("text", [
    "[tool.greenlint]\n" + "a." * 100_000 + "b = 1\n",
    "[tool.greenlint]\n[" + "a." * 100_000 + "b]\n",
    "[tool.greenlint]\n" + "'q'." * 100_000 + "b = 1\n",
])
def test_a_key_of_a_hundred_thousand_parts_is_refused_before_parsing(tmp_path, own_caches, text):
    """tomllib's work grows with the square of a key's parts (8,000: 5 s, 270 MB; 100,000: killed)."""
    (tmp_path / "pyproject.toml").write_text(text)
    _write(tmp_path, "a.py", LOOP)
    code, _, err = _check(str(tmp_path))
    assert code == 2 and "line 2 has a key of more than 100 dotted parts" in err


def test_keys_of_a_few_parts_still_configure(tmp_path, own_caches):
    (tmp_path / "pyproject.toml").write_text(
        "[tool.greenlint]\nignore = [\"GL201\"]\n[tool.x.\"a.b\".c.d.e.f.g.h]\nv = \"1.2.3.4.5.6.7.8.9\"\n")
    _write(tmp_path, "a.py", LOOP)
    code, out, _ = _check(str(tmp_path), "--format", "json")
    assert code == 1 and codes(out) == [("GL101", 4)]


@pytest.mark.parametrize("text", ["x = " + "[" * 100_000 + "]" * 100_000, "x = " + "{a=" * 50_000 + "1" + "}" * 50_000])
def test_deeply_nested_toml_values_are_a_config_error(tmp_path, own_caches, text):
    (tmp_path / "pyproject.toml").write_text("[tool.greenlint]\n" + text + "\n")
    _write(tmp_path, "a.py", LOOP)
    code, _, err = _check(str(tmp_path))
    assert code == 2 and "pyproject.toml: cannot read configuration" in err


def test_deeply_nested_profiles_are_named_and_ignored(tmp_path, own_caches):
    _write(tmp_path, ".greenlint/profiles.json", "[" * 100_000 + "]" * 100_000)
    (tmp_path / "pyproject.toml").write_text("")
    _write(tmp_path, "a.py", LOOP)
    assert fuzz.check_case(tmp_path, tmp_path / "cache", "nested profiles") is None
    code, _, err = _main(["profile", "show", str(tmp_path)])
    assert code == 2 and "profiles.json: not valid JSON" in err


@pytest.mark.parametrize("name", ["requirements.txt", "requirements-dev.txt", "pyproject.toml", "setup.cfg", "environment.yml"])
def test_a_pin_file_that_is_a_fifo_is_never_opened(tmp_path, own_caches, name):
    """The TensorFlow version a project pins is read from its pin files: opening a FIFO waits for
    a writer forever (the long fuzz run hung here); a link to /dev/zero is no pin either."""
    os.mkfifo(tmp_path / name)
    (tmp_path / "setup.py").symlink_to("/dev/zero")
    _write(tmp_path, "a.py", LOOP)
    code, out, _ = _check(str(tmp_path), "--format", "json")
    found = {(Path(d["filename"]).name, d["code"], d["location"]["row"]) for d in json.loads(out)}
    assert code == 1 and found == {("setup.py", "GL002", 1), ("a.py", "GL101", 4), ("a.py", "GL201", 4)}


@pytest.mark.parametrize("make", [os.mkfifo, lambda path: path.symlink_to("/dev/zero" if path.stem == "cb" else "/dev/urandom")],
                         ids=["fifo", "device"])
def test_imported_modules_that_are_no_regular_files_are_named_not_read(tmp_path, own_caches, make):
    """Rules read the modules a file imports (a callback's class, standalone `keras`): never a FIFO or a device."""
    make(tmp_path / "helper.py")
    make(tmp_path / "cb.py")
    _write(tmp_path, "a.py", "import keras\nimport helper\nfrom cb import MyCb\n" + LOOP.replace("model.predict(", "model.fit(callbacks=[MyCb()], x=")
           .replace("tf.keras.", "keras."))
    code, out, _ = _check(str(tmp_path), "--format", "json", "-j", "1")
    found = {(Path(d["filename"]).name, d["code"]) for d in json.loads(out)}
    assert code == 1 and {("helper.py", "GL002"), ("cb.py", "GL002")} <= found


SLOW = "*a" * 12 + "b"  # a regular expression backtracks through every `*`: minutes on one name


def test_a_gitignore_line_of_many_wildcards_is_named_and_skipped(tmp_path, own_caches):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text(f"ignored.py\n{SLOW}\n# {SLOW}\n")
    _write(tmp_path, "a" * 60 + ".py", LOOP)
    _write(tmp_path, "ignored.py", LOOP)
    code, out, err = _check(str(tmp_path), "--format", "json")
    assert code == 1 and {Path(d["filename"]).name for d in json.loads(out)} == {"a" * 60 + ".py"}
    assert ".gitignore:2: more than 3 `*`" in err and ".gitignore:3" not in err  # a comment matches nothing


def test_a_committed_gitignore_of_many_wildcards_in_a_diff(case):
    """Built with git's plumbing: `git add` itself matches such a line for minutes."""
    root, repo, outside = case
    entries = [("100644", fuzz._blob(repo, SLOW + "\n"), ".gitignore"), ("100644", fuzz._blob(repo, LOOP), "a" * 60 + ".py")]
    commit = _git(repo, "commit-tree", fuzz._tree(repo, *entries), "-p", "HEAD", "-m", "slow ignore")
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD", commit, "--format", "json"], "slow gitignore") is None


@pytest.mark.parametrize("argv, named", [
    (["--exclude", SLOW], "exclude pattern"),
    (["--extend-exclude", "x/" + SLOW], "exclude pattern"),
    (["--per-file-ignores", f"{SLOW}:GL101"], "--per-file-ignores"),
])
def test_exclude_and_per_file_patterns_of_many_wildcards_are_a_config_error(tmp_path, own_caches, argv, named):
    _write(tmp_path, "a" * 60 + ".py", LOOP)
    code, _, err = _check(str(tmp_path), *argv)
    assert code == 2 and named in err and "bounded time" in err


def test_patterns_of_a_few_wildcards_still_match(tmp_path, own_caches):
    _write(tmp_path, "a_b_c.py", LOOP)
    _write(tmp_path, "keep.py", LOOP)
    code, out, _ = _check(str(tmp_path), "--format", "json", "--exclude", "*_*_*.py", "--per-file-ignores", "k**p*.py:GL201")
    assert code == 1 and {(Path(d["filename"]).name, d["code"]) for d in json.loads(out)} == {("keep.py", "GL101")}


# --- names and text a CI log, a terminal or a renderer would act on -----------------------------


def test_a_file_name_cannot_inject_a_github_workflow_command(tmp_path, own_caches):
    _write(tmp_path, "a\n::error file=x::pwned%0A\r.py", LOOP)
    _write(tmp_path, "b::warning::c%,=.py", LOOP)
    code, out, _ = _check(str(tmp_path), "--format", "github")
    assert code == 1 and len(out.splitlines()) == 4
    assert all(line.startswith("::warning file=") and "\r" not in line for line in out.splitlines())
    assert "pwned%250A" in out and "b%3A%3Awarning%3A%3Ac%25%2C=.py" in out


@pytest.mark.parametrize("line", [
    'x = "# noqa"; model.predict(tf.ones((64, 4096)))',
    "x = f'{1}# noqa'; model.predict(tf.ones((64, 4096)))",
    "x = b'# greenlint: noqa'; model.predict(tf.ones((64, 4096)))",
    "x = '''\n# noqa\n'''; model.predict(tf.ones((64, 4096)))",
])
def test_noqa_inside_a_string_suppresses_nothing(tmp_path, own_caches, line):
    _write(tmp_path, "a.py", LOOP.replace("model.predict(tf.ones((64, 4096)))", line))
    row = 4 + line.count("\n")
    code, out, _ = _check(str(tmp_path), "--format", "json")
    assert code == 1 and codes(out) == [("GL101", row), ("GL201", row)]


@pytest.mark.parametrize("transform", [
    lambda t: b"\xef\xbb\xbf" + t.replace("\n", "\r\n").encode(),
    lambda t: t.replace("    ", "\t").encode(),
    lambda t: t.replace("for", "\x0cfor").encode(),
    lambda t: t.replace("\n", "\r").encode(),
], ids=["bom-crlf", "tabs", "form-feed", "lone-cr"])
def test_odd_line_ends_and_indentation_keep_every_finding(tmp_path, own_caches, transform):
    _write(tmp_path, "a.py", transform(LOOP))
    code, out, _ = _check(str(tmp_path), "--format", "json")
    assert code == 1 and [c for c, _ in codes(out)] == ["GL101", "GL201"]
    assert fuzz.check_case(tmp_path, tmp_path / "cache", "odd line ends") is None


def test_tabs_and_spaces_mixed_is_a_parse_error_naming_the_line(tmp_path, own_caches):
    _write(tmp_path, "a.py", LOOP + "if 1:\n\tx = 1\n        y = 2\n")
    code, out, _ = _check(str(tmp_path), "--format", "json")
    assert code == 1 and codes(out) == [("GL001", 7)]


# --- notebooks -------------------------------------------------------------------------------------


def _notebook(folder: Path, *sources, raw: bytes | None = None) -> None:
    cells = [{"cell_type": "code", "metadata": {}, "source": s, "outputs": [], "execution_count": None} for s in sources]
    _write(folder, "n.ipynb", raw if raw is not None else json.dumps({"cells": cells, "nbformat": 4, "metadata": {}}))


@pytest.mark.parametrize("magic", ["%%bash\nfor f in *; do echo $f; done\nif [ -x ]; then fi\n",
                                   "%%html\n<div>{{ x }}</div>\n", "%%writefile x.sh\nrm -rf ~\n"])
def test_a_cell_magic_of_another_language_hides_no_other_cell(tmp_path, own_caches, magic):
    _notebook(tmp_path, magic, LOOP)
    code, out, _ = _check(str(tmp_path), "--format", "json")
    assert code == 1 and [c for c, _ in codes(out)] == ["GL101", "GL201"]


def test_a_notebook_with_a_bom_and_crlf_sources_is_read(tmp_path, own_caches):
    nb = {"cells": [{"cell_type": "code", "source": [line + "\r\n" for line in LOOP.splitlines()]}], "nbformat": 4, "metadata": {}}
    _notebook(tmp_path, raw=b"\xef\xbb\xbf" + json.dumps(nb).encode())
    code, out, _ = _check(str(tmp_path), "--format", "json")
    assert code == 1 and [c for c, _ in codes(out)] == ["GL101", "GL201"]


@pytest.mark.parametrize("raw", [
    json.dumps({"cells": [{"cell_type": "code", "source": LOOP}], "nbformat": 4}).encode("utf-16"),
    b'{"cells": [{"cell_type": "code", "source": "x"}], "cells": 5}',
    b'{"cells": [{"cell_type": "code", "source": "' + b"\\ud800" * 3 + b'"}]}',
    json.dumps({"cells": [{"cell_type": "code", "source": None}]}).encode(),
])
def test_broken_notebook_json_is_named_and_the_run_goes_on(tmp_path, own_caches, raw):
    _notebook(tmp_path, raw=raw)
    _write(tmp_path, "b.py", LOOP)
    code, out, _ = _check(str(tmp_path), "--format", "json")
    found = json.loads(out)
    assert code == 1 and {d["code"] for d in found if d["filename"].endswith("b.py")} == {"GL101", "GL201"}
    assert fuzz.check_case(tmp_path, tmp_path / "cache", "broken notebook") is None


# --- argument combinations ---------------------------------------------------------------------


@pytest.mark.parametrize("argv, says", [
    (["-j", "0"], "--jobs"), (["-j", "-3"], "--jobs"), (["--hotspot-threshold-j", "nan"], "--hotspot-threshold-j"),
    (["--hotspot-threshold-j", "inf"], "--hotspot-threshold-j"), (["--per-file-ignores", ":GL101"], "--per-file-ignores"),
    (["--extend-select", "GL999"], "GL999"), (["--device", "\x1b[2J"], "--device"),
])
def test_odd_option_values_are_usage_errors(tmp_path, own_caches, argv, says):
    _write(tmp_path, "a.py", LOOP)
    code, out, err = _check(str(tmp_path), *argv)
    assert code == 2 and says in err and not fuzz.RAW_CONTROL.search(out + err)


def test_one_file_named_four_ways_is_reported_once(tmp_path, own_caches, monkeypatch):
    _write(tmp_path, "a.py", LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, _ = _check("a.py", "./a.py", str(tmp_path / "a.py"), ".", "--format", "json")
    assert code == 1 and codes(out) == [("GL101", 4), ("GL201", 4)]


def test_select_all_then_ignore_all_finds_nothing_and_says_so(tmp_path, own_caches):
    _write(tmp_path, "a.py", LOOP)
    assert _check(str(tmp_path), "--select", "ALL", "--ignore", "ALL", "--format", "json")[:2] == (0, "[]\n")


# --- the language server, messages out of order ------------------------------------------------


def test_edits_and_closes_of_documents_never_opened_then_a_normal_session(module_server):
    client, ws = module_server
    never, uri = (ws / "never.py").as_uri(), (ws / "closed-then-opened.py").as_uri()
    client.notify("textDocument/didChange", {"textDocument": {"uri": never, "version": 2}, "contentChanges": [{"text": LOOP}]})
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert client.hover(never)["result"] is None
    client.open(uri, LOOP)
    assert "predict" in client.hover(uri)["result"]["contents"]["value"]
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert client.hover(uri)["result"] is None


def test_a_batch_and_a_duplicated_id_leave_the_session_working(module_server):
    """LSP has no JSON-RPC batches: an array is dropped; a body naming `id` twice is one request."""
    client, ws = module_server
    uri = (ws / "batch.py").as_uri()
    client.open(uri, LOOP)
    hover = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}
    client.send_raw(json.dumps([{"jsonrpc": "2.0", "id": 500, "method": "textDocument/hover", "params": hover}]).encode())
    client.send_raw(b'{"jsonrpc": "2.0", "id": 700, "method": "textDocument/hover", "params": %s, "id": 701}'
                    % json.dumps(hover).encode())
    answered = client.find(lambda m: m.get("id") == 701, 120)  # the body's last `id` names its one request
    assert "error" not in answered and answered["result"] == client.hover(uri, 0, 0)["result"]
    assert "predict" in client.hover(uri)["result"]["contents"]["value"]
    assert client.proc.poll() is None


def test_positional_params_and_requests_after_shutdown_get_errors(server):
    client, ws = server
    rid = client.request("textDocument/hover", ["x", 1])
    assert client.answer(rid, 60)["error"]["code"] == -32602
    rid = client.request("shutdown")
    assert client.answer(rid, 60)["result"] is None
    for method in ("shutdown", "textDocument/hover"):
        rid = client.request(method, {"textDocument": {"uri": (ws / "a.py").as_uri()}, "position": {"line": 0, "character": 0}})
        assert client.answer(rid, 60)["error"]["code"] == -32600
