"""Another round of issue 29's kinds, written as its held-out fuzzer would: git transports a
repository's config re-enables, other config keys naming commands, links around the cache-dir,
configuration values of the wrong type, odd encodings and notebooks, concurrent `diff`s sharing
snapshots, and language-server notifications and requests of the wrong shape.

Repository cases go through `fuzz.check_repo_case` (nothing written or removed outside the
repository and its cache, no command of its config run), file cases through `fuzz.check_case`
(cold, cached, `--format full` and `calls` agree, nothing printed raw) unless they assert more."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hardening import fuzz
from tests.hardening.fuzz import _git, _main, _write
from tests.hardening.samples import LOOP, codes, edit_loop

pytestmark = pytest.mark.timeout(300)






# --- git: transports a repository's own config allows again ---------------------------------------


def _lazy_fetch(repo: Path, url: str, settings: list[tuple[str, str]]) -> list[str]:
    """A partial clone whose promisor remote is *url*, and a commit naming a blob it lacks: reading
    that blob makes git fetch it through the remote's transport."""
    tree = _git(repo, "mktree", "--missing", data=f"100644 blob {'12' * 20}\tb.py\n100644 blob {fuzz._blob(repo, fuzz.TF)}\ta.py\n")
    commit = _git(repo, "commit-tree", tree, "-p", "HEAD", "-m", "a blob to fetch")
    for key, value in [("core.repositoryformatversion", "1"), ("extensions.partialClone", "origin"),
                       ("remote.origin.url", url), ("remote.origin.promisor", "true"),
                       ("remote.origin.partialclonefilter", "blob:none"), *settings]:
        _git(repo, "config", key, value)
    return ["HEAD", commit, "--format", "json"]


@pytest.mark.parametrize("transport", ["ext-always", "ext-user", "file-uploadpack", "git-proxy", "ssh-command"])
def test_a_transport_the_repository_allows_again_runs_no_command(case, transport):
    """`protocol.allow=never` on git's command line is only the default for protocols without a
    policy of their own: a repository's `protocol.ext.allow=always` beat it, and the lazy fetch of a
    missing blob ran `ext::<command>` (or `uploadpack`, `core.gitProxy`), which then waited on its
    input for git's 120 s timeout. GIT_ALLOW_PROTOCOL refuses every transport whatever the config."""
    root, repo, outside = case
    script = fuzz.recording_script(outside)
    remote = outside.parent / "remote"
    remote.mkdir()
    _git(remote, "init", "-q")
    url, settings = {
        "ext-always": (f"ext::{script}", [("protocol.ext.allow", "always")]),
        "ext-user": (f"ext::{script}", [("protocol.ext.allow", "user")]),
        "file-uploadpack": (str(remote), [("protocol.file.allow", "always"), ("remote.origin.uploadpack", str(script))]),
        "git-proxy": ("git://example.invalid/x", [("protocol.git.allow", "always"), ("core.gitProxy", str(script))]),
        "ssh-command": ("ssh://example.invalid/x", [("protocol.ssh.allow", "always"), ("core.sshCommand", str(script))]),
    }[transport]
    argv = _lazy_fetch(repo, url, settings)
    assert fuzz.check_repo_case(root, repo, outside, argv, transport) is None


# --- git: other config naming commands, read through other files ---------------------------------


def _include_if(repo: Path, outside: Path, script: Path) -> list[str]:
    included = outside.parent / "included.cfg"
    included.write_text(f'[core]\n\tfsmonitor = {script}\n[filter "x"]\n\tclean = {script}\n')
    _git(repo, "config", f"includeIf.gitdir:{repo}/.git.path", str(included))
    _git(repo, "config", "includeIf.onbranch:main.path", str(included))
    (repo / ".gitattributes").write_text("* filter=x\n")
    return ["HEAD"]


def _worktree_config(repo: Path, outside: Path, script: Path) -> list[str]:
    _git(repo, "config", "extensions.worktreeConfig", "true")
    (repo / ".git" / "config.worktree").write_text(f'[core]\n\tfsmonitor = {script}\n[filter "y"]\n\tclean = {script}\n\tprocess = {script}\n')
    (repo / ".gitattributes").write_text("* filter=y\n")
    _git(repo, "-c", "filter.y.clean=cat", "-c", "filter.y.process=", "-c", "core.fsmonitor=false", "add", "a.py")
    return ["--staged"]


def _info_attributes(repo: Path, outside: Path, script: Path) -> list[str]:
    _git(repo, "config", "filter.z.clean", str(script))
    _git(repo, "config", "diff.z.textconv", str(script))
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "attributes").write_text("* filter=z diff=z\n")
    return []


def _attributes_file(repo: Path, outside: Path, script: Path) -> list[str]:
    attributes = outside.parent / "attributes"
    attributes.write_text("*.py filter=w\n")
    _git(repo, "config", "core.attributesFile", str(attributes))
    _git(repo, "config", "filter.w.clean", str(script))
    return ["HEAD", "--", "a.py"]


def _relative_hooks(repo: Path, outside: Path, script: Path) -> list[str]:
    hooks = repo / "hooks"
    hooks.mkdir()
    for hook in ("post-index-change", "reference-transaction", "post-checkout", "pre-auto-gc", "fsmonitor-watchman"):
        (hooks / hook).write_bytes(script.read_bytes())
        (hooks / hook).chmod(0o755)
    for key, value in (("core.hooksPath", "hooks"), ("gc.auto", "1"), ("gc.autoDetach", "false")):
        _git(repo, "config", key, value)
    return ["--staged"]


def _other_command_keys(repo: Path, outside: Path, script: Path) -> list[str]:
    for key in ("core.editor", "sequence.editor", "core.askPass", "diff.tool", "difftool.x.cmd", "merge.x.driver",
                "core.alternateRefsCommand", "web.browser", "gpg.ssh.program", "core.fsmonitorHookVersion"):
        _git(repo, "config", key, str(script) if key != "core.fsmonitorHookVersion" else "2")
    _git(repo, "config", "credential.helper", f"!{script}")
    _git(repo, "config", "core.fsmonitor", str(script))
    return ["HEAD"]


def _cached_textconv_rename(repo: Path, outside: Path, script: Path) -> list[str]:
    """textconv with `cachetextconv` on a renamed file: rename detection reads both blobs."""
    _git(repo, "config", "diff.t.textconv", str(script))
    _git(repo, "config", "diff.t.cachetextconv", "true")
    (repo / ".gitattributes").write_text("*.py diff=t\n")
    _git(repo, "add", ".gitattributes")
    _git(repo, "commit", "-qm", "attributes")
    _git(repo, "mv", "a.py", "b.py")
    _write(repo, "b.py", LOOP.replace("100", "9"))
    _git(repo, "commit", "-qam", "rename")
    return ["HEAD~1", "HEAD"]


@pytest.mark.parametrize("make", [_include_if, _worktree_config, _info_attributes, _attributes_file, _relative_hooks,
                                  _other_command_keys, _cached_textconv_rename],
                         ids=lambda f: f.__name__.strip("_"))
def test_commands_named_through_other_config_files_never_run(case, make):
    root, repo, outside = case
    script = fuzz.recording_script(outside)
    edit_loop(repo)
    argv = make(repo, outside, script)
    assert fuzz.check_repo_case(root, repo, outside, argv, make.__name__) is None


def test_a_worktree_configured_outside_the_repository_is_refused(case, monkeypatch):
    """`core.worktree` naming a folder outside: an error, nothing of that folder compared or written."""
    root, repo, outside = case
    (outside / "a.py").write_text(LOOP)
    _git(repo, "config", "core.worktree", str(outside))
    assert fuzz.check_repo_case(root, repo, outside, ["HEAD"], "core.worktree") is None


def test_concurrent_diffs_share_their_snapshots(case, tmp_path):
    """Three `greenlint diff` processes at once on a fresh user cache and project cache-dir: each
    writes or reuses the same two snapshots (and the user cache's token) and says the same."""
    root, repo, outside = case
    (repo / "pyproject.toml").write_text('[tool.greenlint]\ncache-dir = ".glc"\n')
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "config")
    _write(repo, "a.py", LOOP.replace("100", "1000"))
    _git(repo, "commit", "-qam", "more")
    env = {**os.environ, "GREENLINT_CACHE_DIR": str(tmp_path / "fresh-user-cache")}
    runs = [subprocess.Popen([sys.executable, "-m", "greenlint", "diff", "HEAD~1", "HEAD", "--format", "json"], cwd=repo,
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    results = [(p.wait(timeout=240), *p.communicate()) for p in runs]
    assert all(code == 0 and "Traceback" not in err for code, _, err in results), results
    assert len({out for _, out, _ in results}) == 1 and json.loads(results[0][1])
    assert len(list((repo / ".glc" / "snapshots").iterdir())) == 2


# --- links around the cache-dir ------------------------------------------------------------------


@pytest.mark.parametrize("cache_dir, link, target", [
    ("build/.glcache", "build", "../outside"),
    ("x/b/c/d", "x/b", "../../outside"),
    ("sub/../../outside/c", None, None),
])
def test_a_cache_dir_leading_out_through_a_parent_is_refused(tmp_path, own_caches, cache_dir, link, target):
    root, outside = tmp_path / "project", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    if link:
        (root / link).parent.mkdir(parents=True, exist_ok=True)
        (root / link).symlink_to(target)
    (root / "pyproject.toml").write_text(f'[tool.greenlint]\ncache-dir = "{cache_dir}"\n')
    _write(root, "a.py", LOOP)
    code, _, err = _main(["check", str(root)])
    assert code == 2 and "outside the project folder" in err and not list(outside.iterdir())


def test_a_lint_cache_hard_linked_to_a_file_outside_leaves_that_file(tmp_path, own_caches):
    root, outside = tmp_path / "project", tmp_path / "outside"
    (root / ".glc").mkdir(parents=True)
    outside.mkdir()
    (outside / "victim").write_text("keep")
    os.link(outside / "victim", root / ".glc" / "lint.sqlite")
    (root / "pyproject.toml").write_text('[tool.greenlint]\ncache-dir = ".glc"\n')
    _write(root, "a.py", LOOP)
    for _ in range(2):
        code, out, _ = _main(["check", str(root), "--format", "json"])
        assert code == 1 and codes(out) == [("GL101", 4), ("GL201", 4)]
    assert (outside / "victim").read_text() == "keep" and sorted(os.listdir(outside)) == ["victim"]


# --- configuration values of the wrong type ------------------------------------------------------


@pytest.mark.parametrize("line, says", [
    ('per-file-ignores = {"a.py" = [1]}', "per-file-ignores"), ("per-file-ignores = []", "per-file-ignores"),
    ("jobs = true", "jobs"), ("jobs = 1.5", "jobs"), ("hotspot-threshold-j = true", "hotspot-threshold-j"),
    ('hotspot-threshold-j = "5"', "hotspot-threshold-j"), ("hotspot-threshold-j = -1", "hotspot-threshold-j"),
    ('respect-gitignore = "false"', "respect-gitignore"), ("respect-gitignore = 0", "respect-gitignore"),
    ("cache-dir = 5", "cache-dir"), ('exclude = "b.py"', "exclude"), ("extend-exclude = [[]]", "extend-exclude"),
    ("output-format = 5", "output-format"), ('force-exclude = "yes"', "force-exclude"), ("select = [true]", "select"),
    ('select = ["GL1\\u001b[2J"]', "GL1\\x1b[2J"), ('device = "\\u001b]52;c;aGk=\\u0007"', "device"),
    ('per-file-ignores = {"\\u001b[31m*.py" = ["GL101"]}', "per-file-ignores"),
])
def test_a_value_of_the_wrong_type_is_a_config_error_shown_escaped(tmp_path, own_caches, line, says):
    (tmp_path / "pyproject.toml").write_text(f"[tool.greenlint]\n{line}\n")
    _write(tmp_path, "a.py", LOOP)
    code, out, err = _main(["check", str(tmp_path)])
    assert code == 2 and "pyproject.toml" in err and says in err and not fuzz.RAW_CONTROL.search(out + err)


@pytest.mark.parametrize("line, found", [
    ('select = "GL101"', [("GL101", 4)]), ('ignore = "GL201"', [("GL101", 4)]),
    ('per-file-ignores = {"a.py" = "GL101"}', [("GL201", 4)]),
])
def test_a_string_where_a_list_goes_reads_as_its_codes(tmp_path, own_caches, line, found):
    (tmp_path / "pyproject.toml").write_text(f"[tool.greenlint]\n{line}\n")
    _write(tmp_path, "a.py", LOOP)
    code, out, _ = _main(["check", str(tmp_path), "--format", "json"])
    assert code == 1 and codes(out) == found


# --- odd encodings, line ends and nesting ------------------------------------------------------------

_NB = lambda cells, **top: json.dumps({"cells": cells, "nbformat": 4, "metadata": {}, **top}).encode()  # noqa: E731
_CELL = lambda source, **more: {"cell_type": "code", "source": source, "metadata": {}, "outputs": [], **more}  # noqa: E731

FILES = {  # name: (file, bytes, the codes and rows of its findings)
    "utf-16 with a BOM": ("a.py", LOOP.encode("utf-16"), [("GL002", 1)]),
    "utf-16-le": ("a.py", LOOP.encode("utf-16-le"), [("GL002", 1)]),
    "utf-32": ("a.py", LOOP.encode("utf-32"), [("GL002", 1)]),
    "cookie on line 2": ("a.py", ("#!/usr/bin/env python\n# -*- coding: latin-1 -*-\n" + LOOP + "x = 'é'\n").encode("latin-1"),
                         [("GL101", 6), ("GL201", 6)]),
    "cookie on line 3 (not one)": ("a.py", ("#!/usr/bin/env python\n\n# coding: latin-1\n" + LOOP + "x = 'é'\n").encode("latin-1"),
                                   [("GL002", 8)]),
    "BOM and a latin-1 cookie": ("a.py", b"\xef\xbb\xbf# coding: latin-1\n" + LOOP.encode(), [("GL002", 1)]),
    "utf-8-sig cookie": ("a.py", b"# coding: utf-8-sig\n" + LOOP.encode(), [("GL101", 5), ("GL201", 5)]),
    "euc-jp cookie": ("a.py", b"# coding: euc-jp\n" + LOOP.encode() + "s = '日本'\n".encode("euc-jp"), [("GL101", 5), ("GL201", 5)]),
    "utf-7 cookie": ("a.py", b"# coding: utf-7\n" + LOOP.encode() + b"s = '+ZeVnLIqe-'\n", [("GL101", 5), ("GL201", 5)]),
    "a 10 MB line": ("a.py", (LOOP + "x = '" + "a" * (10 * 1024 * 1024) + "'\n").encode(), [("GL002", 1)]),
    "a form feed alone": ("a.py", b"\x0c", []),
    "a form feed in the indentation": ("a.py", LOOP.replace("    model", "\x0c    model").encode(), [("GL101", 4), ("GL201", 4)]),
    "U+2028 in a string, NEL in a comment": ("a.py", (LOOP + "s = 'a\u2028b'\n# a\u0085b\n").encode(), [("GL101", 4), ("GL201", 4)]),
    "CRLF then lone CR": ("a.py", LOOP.replace("\n", "\r\n", 2).replace("\n", "\r").encode(), [("GL101", 6), ("GL201", 6)]),
    "a continuation at the end": ("a.py", (LOOP + "x = 1 + \\").encode(), [("GL001", 5)]),
    "a chain of 20,000 calls": ("a.py", (LOOP + "y = tf.ones(1)" + ".numpy()" * 20_000 + "\n").encode(), [("GL001", 1)]),
    "20,000 subscripts": ("a.py", (LOOP + "y = x" + "[0]" * 20_000 + "\n").encode(), [("GL001", 1)]),
    "5,000 nested lambdas": ("a.py", (LOOP + "f = " + "lambda: " * 5_000 + "1\n").encode(), [("GL001", 1)]),
    "20,000 TF calls added": ("a.py", (LOOP + "y = " + " + ".join(["tf.ones(1)"] * 20_000) + "\n").encode(), [("GL001", 1)]),
    "20,000 elifs": ("a.py", (LOOP + "if x: pass\n" + "elif x: pass\n" * 20_000).encode(), [("GL001", 1)]),
    "100,000 `and`s": ("a.py", (LOOP + "y = " + " and ".join(["x"] * 100_000) + "\n").encode(), [("GL101", 4), ("GL201", 4)]),
    "20,000 decorators": ("a.py", (LOOP + "@tf.function\n" * 20_000 + "def f(): pass\n").encode(), [("GL101", 4), ("GL201", 4)]),
    "99 nested defs": ("a.py", (LOOP + "".join(" " * i + "def f():\n" for i in range(99)) + " " * 99 + "pass\n").encode(),
                       [("GL101", 4), ("GL201", 4)]),
    "notebook: a source that is an object": ("n.ipynb", _NB([_CELL({"a": 1}), _CELL(LOOP)]), [("GL002", 1)]),
    "notebook: a source of lists": ("n.ipynb", _NB([_CELL([["a"]]), _CELL(LOOP)]), [("GL002", 1)]),
    "notebook: no cells": ("n.ipynb", json.dumps({"nbformat": 4, "metadata": {}}).encode(), [("GL002", 1)]),
    "notebook: a cell with no source": ("n.ipynb", _NB([{"cell_type": "code"}, _CELL(LOOP)]), [("GL101", 4), ("GL201", 4)]),
    "notebook: an R kernel": ("n.ipynb", _NB([_CELL("x <- c(1, 2)\nfor (i in 1:10) { print(i) }\n")],
                                              metadata={"language_info": {"name": "R"}}), []),
    "notebook: terminal escapes in a source": ("n.ipynb", _NB([_CELL(LOOP.replace("4)))", "4)))  # \x1b]52;c;aGk=\x07\x1b[2J\x9b1m\u202e"))]),
                                               [("GL101", 4), ("GL201", 4)]),
    "notebook: metadata a list, nbformat a string": ("n.ipynb", json.dumps({"cells": [_CELL(LOOP)], "nbformat": "4", "metadata": [1]}).encode(),
                                                     [("GL101", 4), ("GL201", 4)]),
    "notebook: utf-16": ("n.ipynb", _NB([_CELL(LOOP)]).decode().encode("utf-16"), [("GL002", 1)]),
    "notebook: a 5 MB output": ("n.ipynb", _NB([_CELL(LOOP, outputs=[{"output_type": "stream", "text": "x" * 5_000_000}])]),
                                [("GL101", 4), ("GL201", 4)]),
    "notebook: a 10 MB cell": ("n.ipynb", _NB([_CELL(LOOP + "#" + "a" * 10_000_000 + "\n")]), [("GL002", 1)]),
    "notebook: %%capture over Python": ("n.ipynb", _NB([_CELL("%%capture out\n" + LOOP)]), [("GL101", 5), ("GL201", 5)]),
    "notebook: a magic continued on the next line": ("n.ipynb", _NB([_CELL("%pip install \\\n  tensorflow\n" + LOOP)]),
                                                     [("GL101", 6), ("GL201", 6)]),
}


@pytest.mark.parametrize("kind", list(FILES))
def test_odd_files_are_read_as_python_reads_them(tmp_path, own_caches, kind):
    name, data, found = FILES[kind]
    (tmp_path / "code").mkdir()
    (tmp_path / "code" / name).write_bytes(data)
    code, out, _ = _main(["check", str(tmp_path / "code"), "--format", "json"])
    assert code == (1 if found else 0) and codes(out) == found
    assert fuzz.check_case(tmp_path / "code", tmp_path / "cache", kind) is None


# --- names a terminal or a log would act on, in every format and command ---------------------------


@pytest.mark.parametrize("name", ["[/]", "[link=http://x]a", "\x1b]52;c;aGk=\x07x\u2028", "a\\"])
def test_kb_show_of_an_odd_name_says_it_has_none(name):
    """`kb show '[/]'` raised rich's MarkupError (a traceback): the name went into console markup,
    its escapes printed raw."""
    code, out, err = _main(["kb", "show", name])
    assert code == 1 and "No measurements of" in out and "Traceback" not in out + err
    assert not fuzz.RAW_CONTROL.search(out + err) and ("[/]" in out if name == "[/]" else True)


@pytest.mark.parametrize("argv", [["check"], ["check", "--format", "full"], ["check", "--format", "grouped"],
                                  ["check", "--statistics"], ["check", "--format", "github"], ["check", "--format", "json-lines"],
                                  ["check", "--format", "sarif"], ["check", "--diff"], ["calls"]],
                         ids=lambda a: " ".join(a))
def test_names_with_line_separators_and_escapes_are_shown_escaped(tmp_path, own_caches, argv):
    """A line or paragraph separator, NEL, a lone CR or CSI in file names, OSC 52 in a comment and
    a notebook's source: one line per finding in GitHub's annotations, nothing raw anywhere."""
    source = LOOP.replace("4)))", "4)))  # \x1b]52;c;aGk=\x07\x1b[2J")
    for name in ("c\u2028d.py", "e\x85f.py", "g\rh.py", "x\x1b[31m.py"):
        _write(tmp_path / "code", name, source)
    _write(tmp_path / "code", "n\x1b[1m.ipynb", _NB([_CELL(source.replace("# ", "# \x9b2J \u202e"))]))
    code, out, err = _main([*argv, str(tmp_path / "code")])
    assert code in (0, 1) and "Traceback" not in err and not fuzz.RAW_CONTROL.search(out + err)
    if "github" in argv:
        assert len(out.splitlines()) == 10 and all(line.startswith("::warning file=") for line in out.splitlines())


def test_profile_show_of_a_committed_profile_prints_nothing_raw(tmp_path, own_caches):
    """A repository's `.greenlint/profiles.json` whose API, file name and note hold OSC 52, CSI and
    rich markup: `profile show` printed them raw."""
    site = {"api": "tensorflow.matmul[/]\x1b]52;c;aGk=\x07", "line": 4, "column": 9, "statement": "y = tf.matmul(a, b)",
            "executions": 9, "median_j": None, "note": "\x1b[2J\u202e"}
    _write(tmp_path, ".greenlint/profiles.json", json.dumps({"schema_version": 1, "files": {"a.py": [site], "b\x1b[31m.py": [site]}}))
    (tmp_path / "pyproject.toml").write_text("")
    _write(tmp_path, "a.py", "import tensorflow as tf\nx = 1\nfor i in range(9):\n    y = tf.matmul(a, b)\n")
    code, out, err = _main(["profile", "show", str(tmp_path)])
    assert code == 0 and len(out.splitlines()) == 3 and "tensorflow.matmul[/]\\x1b]52" in out
    assert not fuzz.RAW_CONTROL.search(out + err)


# --- the language server: notifications and requests of the wrong shape ---------------------------


def _errors_shown(messages: list[dict]) -> list[str]:
    """The error and warning messages the server showed or logged for the user, beyond our own warnings."""
    return [m["params"]["message"] for m in messages if m.get("method") in ("window/showMessage", "window/logMessage")
            and m["params"]["type"] == 1]


def _range(a: int, b: int, c: int, d: int) -> dict:
    return {"start": {"line": a, "character": b}, "end": {"line": c, "character": d}}


BAD_NOTIFICATIONS = [
    ("textDocument/didChange", {"textDocument": {"uri": "URI", "version": 2}, "contentChanges": [{"range": _range(-1, -1, -1, -1), "text": "y"}]}),
    ("textDocument/didChange", {"textDocument": {"uri": "URI", "version": 3}, "contentChanges": None}),
    ("textDocument/didOpen", {"textDocument": {"uri": "URI", "languageId": "python", "version": "x", "text": 5}}),
    ("workspace/didChangeWatchedFiles", {"changes": [{"uri": "file:///x/pyproject.toml", "type": 9}]}),
    ("$/setTrace", {"value": "nonsense"}),
    ("$/unknown", None),
    ("$/cancelRequest", {"id": {"a": 1}}),
    ("$/cancelRequest", {"id": [1]}),
    (5, {}),
]


def test_notifications_of_the_wrong_shape_are_logged_and_left_out(module_server):
    """pygls logged a traceback for each (`Unable to deserialize message`) and showed the user
    "Error in server: Invalid Params" (or "unhashable type: 'dict'" for a cancel of an object id):
    a notification gets no answer, so the server logs a warning and goes on. On the module's
    session, judged on the messages after its own (read in order: all before the hover's answer)."""
    client, ws = module_server
    start = len(client.seen)
    uri = (ws / "wrong-shape.py").as_uri()
    client.open(uri, LOOP)
    for method, params in BAD_NOTIFICATIONS:
        client.send({"jsonrpc": "2.0", "method": method, **({} if params is None else
                     {"params": json.loads(json.dumps(params).replace('"URI"', json.dumps(uri)))})})
    rid = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 10}})
    assert "predict" in client.answer(rid, 120)["result"]["contents"]["value"]
    since = client.seen[start:]
    assert _errors_shown(since) == []
    warnings = [m["params"]["message"] for m in since if m.get("method") == "window/logMessage"]
    assert sum("notification" in w and w.startswith("WARNING greenlint") for w in warnings) == 7, warnings


@pytest.mark.parametrize("method, params, error", [
    ("textDocument/hover", {"textDocument": {"uri": "URI"}, "position": {"line": -1, "character": -5}}, -32602),
    ("textDocument/codeAction", {"textDocument": {"uri": "URI"}, "range": _range(-3, 0, -1, 0), "context": {"diagnostics": []}}, -32602),
    ("textDocument/inlayHint", {"textDocument": {"uri": "URI"}, "range": _range(-5, 0, -1, 0)}, -32602),
    ("workspace/executeCommand", {"command": "nope.command", "arguments": []}, -32602),
    ("workspace/executeCommand", {"command": "\u001b]52;c;aGk=\u0007"}, -32602),
    ("workspace/executeCommand", {"command": "greenlint.showHotspots", "arguments": [{"uri": "URI"}]}, -32602),
    ("codeLens/resolve", {"range": _range(0, 0, 0, 0), "data": 5}, -32601),
    ("textDocument/completion", {"textDocument": {"uri": "URI"}, "position": {"line": 0, "character": 0}}, -32601),
    ("textDocument/codeAction", {"textDocument": {"uri": "URI"}, "range": _range(9, 0, 2, 0), "context": {"diagnostics": []}}, None),
    ("textDocument/inlayHint", {"textDocument": {"uri": "URI"}, "range": _range(50, 0, 2, 0)}, None),
    ("textDocument/codeLens", {"textDocument": {"uri": "file:///nowhere/x.py"}}, None),
    ("workspace/executeCommand", {"command": "greenlint.showHotspots", "arguments": ["file:///nowhere.py"]}, None),
])
def test_odd_requests_get_an_error_or_an_empty_answer(module_server, request, method, params, error):
    """Negative positions, reversed ranges, unknown commands and methods: the right error, or an
    empty answer, never an internal error; the session goes on (one session for every case, each
    on its own document)."""
    client, ws = module_server
    uri = (ws / f"case{request.node.callspec.indices['method']}.py").as_uri()
    client.open(uri, LOOP)
    rid = client.request(method, json.loads(json.dumps(params).replace('"URI"', json.dumps(uri))))
    answer = client.answer(rid, 120)
    assert (answer.get("error") or {}).get("code") == error, answer
    if error is None:
        assert answer["result"] in (None, []), answer
    assert not fuzz.RAW_CONTROL.search(json.dumps(answer, ensure_ascii=False))
    rid = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 10}})
    assert "predict" in client.answer(rid, 120)["result"]["contents"]["value"]


@pytest.mark.parametrize("body", [b'{"jsonrpc": "2.0", "id": 7, "method": ', b'{"jsonrpc": "2.0", "method": "x\xff\xfe"}', b"\x1b]52;c;aGk=\x07"],
                         ids=["cut short", "not utf-8", "escape"])
def test_a_body_that_is_no_json_is_logged_not_shown(module_server, request, body):
    """pygls showed the user "Error in server: Expecting value: line 1 column 43" for a body that is
    no JSON; it is a warning in the log (its id unknown, nothing answers it), and the session goes on.
    One session for every case: each reads only the messages that came after its own body (the server
    reads in order, so its log of the body comes before the hover's answer that ends the case)."""
    client, ws = module_server
    start = len(client.seen)
    client.send_raw(body)
    uri = (ws / f"no-json{request.node.callspec.indices['body']}.py").as_uri()
    client.open(uri, LOOP)
    rid = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 10}})
    assert "predict" in client.answer(rid, 120)["result"]["contents"]["value"]
    since = client.seen[start:]
    assert not [m for m in since if m.get("method") == "window/showMessage"]
    assert any("ignored a message that is not JSON" in m["params"]["message"] for m in since if m.get("method") == "window/logMessage")
