"""Characters `str.splitlines` takes for line breaks and Python, git and the LSP do not: a form feed
(PEP 8's page break), U+2028/9, the C0 separators \\x1c-\\x1e, NEL (U+0085) and a vertical tab in a
comment or string. A line of source is where Python's tokenizer puts it (`\\n`, `\\r\\n`, `\\r`), so
every view of a file (the full format's context, a `# noqa` quick fix, a hover between astral
characters, `.gitignore` patterns) must count lines as it does, or each such character shifts every
later line by one."""

from __future__ import annotations

import json

import pytest

from greenlint.analysis.sources import lines_with_endings, split_lines
from tests.hardening.fuzz import _main, _write
from tests.hardening.samples import LOOP

pytestmark = pytest.mark.timeout(300)

SEPARATORS = ["\x0c", "\u2028", "\u2029", "\x1c", "\x1d", "\x1e", "\x85", "\x0b"]
PREDICT = "    model.predict(tf.ones((64, 4096)))"


def _with_comment(separator: str) -> str:
    """LOOP with a comment holding *separator* on its second line: the predict is on line 5."""
    return LOOP.replace("model = ", f"# page{separator}break\nmodel = ", 1)


@pytest.mark.parametrize("separator", SEPARATORS, ids=ascii)
def test_lines_split_only_where_python_splits_them(separator):
    text = f"a{separator}b\r\nc\rd\n"
    assert split_lines(text) == [f"a{separator}b", "c", "d", ""]
    assert lines_with_endings(text) == [f"a{separator}b\r\n", "c\r", "d\n"]


@pytest.mark.parametrize("separator", SEPARATORS, ids=ascii)
def test_the_full_format_shows_the_line_of_the_finding(tmp_path, own_caches, separator):
    _write(tmp_path, "a.py", _with_comment(separator))
    code, out, _ = _main(["check", str(tmp_path), "--format", "full", "--select", "GL201"])
    assert code == 1
    shown = [line for line in out.splitlines() if line.startswith("5 |")]
    assert shown == [f"5 | {PREDICT}"], out
    assert not any(line.startswith("6 |") for line in out.splitlines())  # the file has five lines


@pytest.mark.parametrize("separator", ["\x0c", "\u2028", "\x1c"], ids=ascii)
def test_a_gitignore_pattern_holding_a_separator_is_one_pattern(tmp_path, own_caches, separator):
    """git reads `keep.py<FF>x` as one pattern (matching no file); split at the form feed it would be
    `keep.py`, and the file would be ignored."""
    _write(tmp_path, ".gitignore", f"keep.py{separator}x\r\nother.py\r\n")
    _write(tmp_path, "keep.py", LOOP)
    _write(tmp_path, "other.py", LOOP)
    code, out, _ = _main(["check", str(tmp_path), "--format", "json", "--select", "GL201"])
    assert code == 1 and {d["filename"].rsplit("/", 1)[-1] for d in json.loads(out)} == {"keep.py"}


@pytest.mark.parametrize("separator", ["", "\x0c", "\u2028"], ids=ascii)
def test_a_comment_declaring_a_function_slow_is_read_on_its_own_line(tmp_path, own_caches, separator):
    """`# deliberately slow` on a function's last line drops its findings (code slow on purpose);
    lines counted by `splitlines` put the comment a line below the function, and the findings stayed."""
    body = "def slow():\n    for i in range(21000):\n        model.predict(tf.ones((64, 4096)))"
    program = _with_comment(separator or " ").replace("for i in range(21000):\n" + PREDICT, body)
    _write(tmp_path, "plain.py", program)
    _write(tmp_path, "declared.py", program.replace("4096)))\n", "4096)))  # deliberately slow\n"))
    code, out, _ = _main(["check", str(tmp_path), "--format", "json"])
    assert code == 1 and {(d["filename"].rsplit("/", 1)[-1], d["code"]) for d in json.loads(out)} == {
        ("plain.py", "GL101"), ("plain.py", "GL201")}


# --- the language server -------------------------------------------------------------------------


def _diagnostics(client, uri, version):
    found = client.find(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
                        and m["params"].get("version") == version, 120)
    assert found is not None
    return found["params"]["diagnostics"]


@pytest.mark.parametrize("separator", ["\u2028", "\x0c"], ids=ascii)
def test_the_noqa_quick_fix_ends_the_line_the_client_sees(module_server, separator):
    """The `# noqa` edit goes at the end of the finding's line as the client counts lines; counted
    by `splitlines` it went at the length of another line, into the middle of the code."""
    client, ws = module_server
    uri = (ws / f"noqa{ord(separator)}.py").as_uri()
    text = _with_comment(separator)
    client.open(uri, text)
    (gl201,) = [d for d in _diagnostics(client, uri, 1) if d["code"] == "GL201"]
    assert gl201["range"]["start"]["line"] == 4
    rid = client.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": gl201["range"],
                                                     "context": {"diagnostics": [gl201]}})
    actions = client.answer(rid, 120)["result"]
    (noqa,) = [a for a in actions if "noqa" in a["title"] and "GL201" in a["title"]]
    edits = noqa["edit"].get("changes", {}).get(uri) or noqa["edit"]["documentChanges"][0]["edits"]
    (edit,) = edits
    at = edit["range"]["start"]
    assert (at["line"], at["character"]) == (4, len(PREDICT)) and edit["range"]["end"] == at


def test_a_hover_after_a_separator_line_converts_columns_on_its_own_line(module_server):
    """UTF-16 columns are converted on the line the position names: two astral characters before the
    call on that line (two UTF-16 units each), a U+2028 in a comment above it. Converted on another
    line, the call's last character was read two characters further, past the call."""
    client, ws = module_server
    uri = (ws / "hover.py").as_uri()
    text = _with_comment("\u2028").replace(PREDICT, '    s = "😀😀"; model.predict(tf.ones((64, 4096)))')
    client.open(uri, text)
    line = text.split("\n")[4]
    character = len(line[: line.rindex(")")].encode("utf-16-le")) // 2  # the call's last character
    rid = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                "position": {"line": 4, "character": character}})
    answer = client.answer(rid, 120)
    assert answer["result"] is not None and "predict" in answer["result"]["contents"]["value"]


def test_an_edit_inserting_lone_carriage_returns_moves_the_lines_below(module_server):
    """Text inserted with `\\r` line ends (an old Mac file pasted) adds lines as `\\n` does: the
    finding below it moves down by as many lines."""
    client, ws = module_server
    uri = (ws / "cr.py").as_uri()
    client.open(uri, LOOP, version=1)
    assert {d["range"]["start"]["line"] for d in _diagnostics(client, uri, 1)} == {3}
    top = {"line": 1, "character": 0}
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": {"start": top, "end": top}, "text": "x = 1\ry = 2\r"}]})
    assert {d["range"]["start"]["line"] for d in _diagnostics(client, uri, 2)} == {5}


@pytest.mark.parametrize("separator", ["\x0c", "\u2028"], ids=ascii)
def test_a_fix_below_a_separator_edits_its_own_line(tmp_path, own_caches, monkeypatch, separator):
    """`--fix` below a comment holding a form feed or U+2028: the call on its own line is fixed and
    every other byte kept (the separator too)."""
    source = (f"import tensorflow as tf\n# page{separator}break\n"
              "ds = tf.data.Dataset.range(n).map(lambda x: x + tf.random.uniform([], 0, 9, tf.int64))\n")
    _write(tmp_path, "a.py", source)
    monkeypatch.chdir(tmp_path)
    _main(["check", "a.py", "--fix", "--unsafe-fixes"])
    fixed = (tmp_path / "a.py").read_text(encoding="utf-8")
    assert fixed.startswith(f"import tensorflow as tf\n# page{separator}break\nds = ") and "num_parallel_calls" in fixed
    compile(fixed, "a.py", "exec")  # the edit landed where the call is: the result parses


@pytest.mark.parametrize("separator", ["\x0c", "\u2028", "\x1c"], ids=ascii)
def test_an_edit_below_a_separator_lands_on_the_line_the_client_names(module_server, separator):
    """pygls split a document's lines with `splitlines` to apply an incremental change: below a form
    feed the edit (21000 -> 42000 in `range(...)`) landed in the line above, and the server's text
    was no longer the editor's."""
    client, ws = module_server
    uri = (ws / f"edit{ord(separator)}.py").as_uri()
    text = _with_comment(separator)
    client.open(uri, text, version=1)
    assert {d["code"] for d in _diagnostics(client, uri, 1)} == {"GL101", "GL201"}
    line = text.split("\n")[3]
    assert line == "for i in range(21000):"
    start, end = {"line": 3, "character": line.index("21000")}, {"line": 3, "character": line.index(")")}
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": {"start": start, "end": end}, "text": "42000"}]})
    (gl101,) = [d for d in _diagnostics(client, uri, 2) if d["code"] == "GL101"]
    assert gl101["range"]["start"]["line"] == 4 and "42,000 runs" in gl101["message"]
