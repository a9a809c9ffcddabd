"""Issue 29's cache, output and input kinds in variants the other rounds do not spell (items 5, 8,
10-12): lint caches behind links, cut short, locked by another process or in the project root; file
names that GitHub's annotations, SARIF URIs, the HTML report and a PR's Markdown must keep as
data; committed profiles whose numbers are no measurement; configuration an editor saved with a
byte-order mark or a key twice; source files whose BOM and coding cookie disagree; names that
look like options."""

from __future__ import annotations

import json
import os
import sqlite3
from urllib.parse import unquote

import pytest

from greenlint.check import cache as lint_cache
from greenlint.profile.lookup import _hardware_id, statement_hash
from tests.hardening import fuzz
from tests.hardening.fuzz import _git, _main, _write
from tests.hardening.samples import LOOP, codes

pytestmark = pytest.mark.timeout(300)


def _json(*argv: str) -> list:
    code, out, err = _main(["check", *argv, "--format", "json"])
    assert code == 1, err
    return codes(out)


# --- lint caches ----------------------------------------------------------------------------------


def test_a_cache_dir_that_is_a_link_to_a_folder_is_used(tmp_path, own_caches):
    """A cache the user placed on another disk through a link (their own choice on the command
    line): written through, and read back by the next run."""
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    _write(tmp_path, "p/a.py", LOOP)
    first = _json(str(tmp_path / "p"), "--cache-dir", str(tmp_path / "link"))
    assert (tmp_path / "real" / lint_cache.FILE_NAME).is_file()
    assert _json(str(tmp_path / "p"), "--cache-dir", str(tmp_path / "link")) == first == [("GL101", 4), ("GL201", 4)]


def test_a_user_cache_that_is_a_link_to_a_folder_is_used(tmp_path, own_caches, monkeypatch):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "link"))
    _write(tmp_path, "p/a.py", LOOP)
    assert _json(str(tmp_path / "p")) == [("GL101", 4), ("GL201", 4)]
    assert list((tmp_path / "real").iterdir())


def test_a_lint_cache_cut_in_half_leaves_the_findings(tmp_path, own_caches):
    _write(tmp_path, "p/a.py", LOOP)
    first = _json(str(tmp_path / "p"), "--cache-dir", str(tmp_path / "c"))
    cache = tmp_path / "c" / lint_cache.FILE_NAME
    lint_cache.close_all()  # this process's connection: the file is cut as another process would find it
    data = cache.read_bytes()
    cache.write_bytes(data[: len(data) // 2])
    assert _json(str(tmp_path / "p"), "--cache-dir", str(tmp_path / "c")) == first


def test_a_cache_another_process_holds_locked_leaves_the_findings(tmp_path, own_caches, monkeypatch):
    """Another process (an editor's server, a hung run) holding the cache in an exclusive
    transaction: the run waits at most its busy timeout, then gives every finding. The timeout is
    set before the first run: the process keeps that run's connection (opened with the timeout of
    then) for the next, which otherwise waited the default 30 s."""
    monkeypatch.setattr(lint_cache, "BUSY_TIMEOUT_S", 1.0)
    _write(tmp_path, "p/a.py", LOOP)
    first = _json(str(tmp_path / "p"), "--cache-dir", str(tmp_path / "c"))
    _write(tmp_path, "p/b.py", LOOP)
    holder = sqlite3.connect(tmp_path / "c" / lint_cache.FILE_NAME, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        found = _json(str(tmp_path / "p"), "--cache-dir", str(tmp_path / "c"))
    finally:
        holder.close()
    assert found == sorted(first * 2)


def test_a_cache_dir_that_is_the_project_root_lints_the_same_twice(tmp_path, own_caches, monkeypatch):
    _write(tmp_path, "p/a.py", LOOP)
    monkeypatch.chdir(tmp_path / "p")
    first = _json(".", "--cache-dir", ".")
    assert (tmp_path / "p" / lint_cache.FILE_NAME).is_file()
    assert _json(".", "--cache-dir", ".") == first == [("GL101", 4), ("GL201", 4)]


# --- names output formats must keep as data --------------------------------------------------------


def test_github_annotations_escape_a_name_s_percent_comma_and_colons(tmp_path, own_caches, monkeypatch):
    """GitHub decodes `%0A` in a property and splits properties at `,` and the message at `::`:
    a name holding them is escaped (`%250A`, `%2C`, `%3A`), never read as a new line or property."""
    for name in ("a%0Ab.py", "c,line=1::d.py"):
        _write(tmp_path, name, LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, _ = _main(["check", ".", "--format", "github"])
    assert code == 1
    files = {line.split("file=", 1)[1].split(",line=", 1)[0] for line in out.splitlines()}
    assert files == {"a%250Ab.py", "c%2Cline=1%3A%3Ad.py"}, files


def test_github_annotations_escape_a_hyperlink_and_direction_marks_in_a_name(tmp_path, own_caches, monkeypatch):
    for name in ("e\x1b]8;;http://x\x07f.py", "g\u200fh\u061ci.py"):
        _write(tmp_path, name, LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, _ = _main(["check", ".", "--format", "github"])
    # the name is a folder `e…http:` holding a file `x…f.py`
    assert code == 1 and "e\\x1b]8;;http%3A/x\\x07f.py" in out and "g\\u200fh\\u061ci.py" in out
    assert not fuzz.RAW_CONTROL.search(out) and "\u200f" not in out and "\u061c" not in out


def test_sarif_uris_of_odd_names_are_uri_references_that_name_the_file(tmp_path, own_caches, monkeypatch):
    names = ("a b#c?d%e.py", "x\\y.py", "ü.py")
    for name in names:
        _write(tmp_path, name, LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, _ = _main(["check", ".", "--format", "sarif"])
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in json.loads(out)["runs"][0]["results"]}
    assert code == 1 and {unquote(u) for u in uris} == set(names)
    assert not any(c in u for u in uris for c in " #?\\ü")


def test_the_html_report_keeps_a_name_that_closes_its_script_as_text(tmp_path, own_caches, monkeypatch):
    for name in ("</script><script>alert(1)<!--.py", 'q"onmouseover="x.py'):
        _write(tmp_path, name, LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, _ = _main(["calls", ".", "--format", "html"])
    assert code == 0 and "<script>alert" not in out and 'q"onmouseover' not in out
    assert out.count("</script>") == out.count("<script")  # only the report's own


def test_a_pr_comment_keeps_names_with_table_and_html_syntax_in_code(case):
    root, repo, outside = case
    names = ["a|b.py", "<!--c.py", "d](javascript:alert(1)).py"]
    for name in names:
        _write(repo, name, LOOP)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "names")
    for name in names:
        _write(repo, name, LOOP.replace("21000", "42000"))
    here = os.getcwd()
    os.chdir(repo)
    try:
        code, out, err = _main(["diff", "HEAD", "--format", "markdown"])
    finally:
        os.chdir(here)
    assert code == 0, err
    rows = [line for line in out.splitlines() if line.startswith("| `")]
    assert rows and all(line.count(" | ") == line.replace("\\|", "").count(" | ") for line in rows)
    for line in rows:  # every name inside a code span; every cell split only at unescaped pipes
        cells = [c.strip() for c in line.replace("\\|", "\0").split("|")[1:-1]]
        assert cells[0].startswith("`") and cells[0].endswith("`"), line
    assert "`a\\|b.py:4:5`" in out and "`<!--c.py`" in out


# --- committed profiles whose numbers are no measurement ------------------------------------------


@pytest.mark.parametrize("field, value", [("executions", float("inf")), ("executions", float("nan")),
                                          ("median_j", float("nan")), ("median_j", -5.0), ("median_j", 1e308),
                                          ("interval_j", [float("inf"), 1.0]), ("cpu_j", "x")],
                         ids=["executions-inf", "executions-nan", "median-nan", "median-negative",
                              "median-1e308", "interval-inf", "cpu-a-string"])
def test_a_profile_whose_numbers_are_no_measurement_is_named_and_never_a_figure(tmp_path, own_caches, monkeypatch,
                                                                                field, value):
    """A profile of this machine and statement (as `measure` writes it) with an infinite, NaN,
    negative or absurd number: `check` and `calls` crashed (GL002 internal error), wrote `NaN` into
    their JSON or showed `inf MJ`; the profile is now named malformed and the forecast stands."""
    lines = LOOP.splitlines()
    site = {"line": 4, "column": 5, "end_line": 4, "end_column": 38, "cell": None,
            "statement": statement_hash(lines, 4, 4), "api": "tensorflow.keras.Sequential.predict", "median_j": 1.0,
            "executions": 30, "time_s": 0.1, "counter": "rapl", "hardware_id": _hardware_id(), "date": "2026-01-01",
            field: value}
    _write(tmp_path, ".greenlint/profiles.json", json.dumps({"schema_version": 1, "files": {"a.py": [site]}}))
    _write(tmp_path, "a.py", LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, err = _main(["calls", "a.py", "--format", "json", "--no-cache"])
    assert code == 0 and "NaN" not in out and "Infinity" not in out, err
    assert all(s["basis"] != "profiled" for s in json.loads(out)["call_sites"])
    code, out, err = _main(["check", "a.py", "--format", "full", "--no-cache"])
    assert code == 1 and "internal error" not in out and "inf MJ" not in out and "measured here" not in out
    code, _, err = _main(["profile", "show"])
    assert code == 2 and f"`{field}`" in err and "malformed" in err


# --- configuration and sources an editor saved oddly ---------------------------------------------


def test_a_pyproject_with_a_byte_order_mark_is_named_as_such(tmp_path, own_caches):
    _write(tmp_path, "pyproject.toml", b'\xef\xbb\xbf[tool.greenlint]\nselect = ["GL201"]\n')
    _write(tmp_path, "a.py", LOOP)
    code, _, err = _main(["check", str(tmp_path)])
    assert code == 2 and "pyproject.toml" in err and "byte-order mark" in err, err


def test_a_key_given_twice_is_a_config_error_naming_its_line(tmp_path, own_caches):
    _write(tmp_path, "pyproject.toml", '[tool.greenlint]\n"select" = ["GL201"]\nselect = ["GL101"]\n')
    _write(tmp_path, "a.py", LOOP)
    code, _, err = _main(["check", str(tmp_path)])
    assert code == 2 and "pyproject.toml" in err and "line 3" in err, err


def test_a_bom_beside_a_cookie_naming_another_encoding_is_named_as_python_names_it(tmp_path, own_caches):
    _write(tmp_path, "a.py", b"\xef\xbb\xbf# -*- coding: latin-1 -*-\n" + LOOP.encode())
    _write(tmp_path, "b.py", LOOP)
    code, out, _ = _main(["check", str(tmp_path), "--format", "json"])
    found = json.loads(out)
    bad = [d for d in found if d["filename"].endswith("a.py")]
    assert code == 1 and [d["code"] for d in bad] == ["GL002"] and "byte-order mark" in bad[0]["message"]
    assert codes(json.dumps([d for d in found if d["filename"].endswith("b.py")])) == [("GL101", 4), ("GL201", 4)]


@pytest.mark.parametrize("name", ["-", "--help.py", "-j.py"])
def test_a_file_named_like_an_option_after_the_separator_is_checked(tmp_path, own_caches, monkeypatch, name):
    _write(tmp_path, name, LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, err = _main(["check", "--format", "json", "--", name])
    assert code == 1 and codes(out) == [("GL101", 4), ("GL201", 4)], err
    code, out, err = _main(["calls", "--", name])
    assert code == 0 and f"{name}:4:5" in out, err


def test_a_per_file_pattern_naming_the_file_by_its_absolute_path_matches_it(tmp_path, own_caches):
    _write(tmp_path, "a.py", LOOP)
    _write(tmp_path, "pyproject.toml", f'[tool.greenlint]\nper-file-ignores = {{"{tmp_path / "a.py"}" = ["GL201"]}}\n')
    assert _json(str(tmp_path)) == [("GL101", 4)]


@pytest.mark.parametrize("chain", ["x" + "[0]" * 20_000, "f" + "()" * 20_000, "ds" + ".map(g)" * 8_000],
                         ids=["subscripts", "calls", "methods"])
@pytest.mark.parametrize("container", ["file", "notebook"])
def test_code_nested_past_the_parser_says_cannot_parse_once(tmp_path, own_caches, chain, container):
    """Chains Python's own parser cannot nest: one GL001 "cannot parse: too deeply nested" (it read
    "cannot parse: cannot parse: …"), the file beside it still checked."""
    code = f"import tensorflow as tf\ny = {chain}\n"
    if container == "file":
        _write(tmp_path, "deep.py", code)
    else:
        _write(tmp_path, "deep.ipynb", json.dumps({"cells": [{"cell_type": "code", "source": code}]}))
    _write(tmp_path, "b.py", LOOP)
    status, out, _ = _main(["check", str(tmp_path), "--format", "json"])
    found = json.loads(out)
    deep = [d for d in found if "deep" in d["filename"]]
    assert status == 1 and [(d["code"], d["message"]) for d in deep] == [("GL001", "cannot parse: too deeply nested")]
    assert sorted((d["code"], d["location"]["row"]) for d in found if d["filename"].endswith("b.py")) == [
        ("GL101", 4), ("GL201", 4)]
