"""Issue 29 item 9's language-server kinds in variants no earlier round spells: positions past the
end of a line (plain and after astral characters), several changes in one notification (each
on the text the one before made, a whole text then a range, a `rangeLength` that disagrees),
rapid edits whose analyses overlap, Markdown cells of a synced notebook, inlay hint ranges past
the end, a second `initialize`, a code action over a reversed range,
lone carriage returns, headers other clients send and a message split across writes, `exit`
without `shutdown`. Each test on the shared server ends with the session still answering."""

from __future__ import annotations

import json

import pytest

from tests.hardening.rpc import RawClient
from tests.hardening.samples import LOOP

pytestmark = pytest.mark.timeout(300)
FOUND = [("GL101", 3), ("GL201", 3)]


def _hover_text(answer) -> str:
    return ((answer or {}).get("result") or {}).get("contents", {}).get("value", "")


def _change(client, uri: str, version: int, *changes: dict) -> None:
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": list(changes)})


def _at(line: int, character: int, end: tuple[int, int] | None = None) -> dict:
    end_line, end_character = end or (line, character)
    return {"start": {"line": line, "character": character}, "end": {"line": end_line, "character": end_character}}


def _opened(module_server, name: str, text: str = LOOP):
    client, ws = module_server
    uri = (ws / name).as_uri()
    client.open(uri, text)
    return client, ws, uri


def _still_answers(client, ws, name: str) -> None:
    uri = (ws / f"{name}-after.py").as_uri()
    client.open(uri, LOOP)
    assert "predict" in _hover_text(client.hover(uri))


# --- positions and changes ------------------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["", 's = "😀𝔘"; '], ids=["ascii", "astral"])
def test_a_change_past_the_end_of_a_line_lands_at_that_line_s_end(module_server, prefix):
    """The protocol: a character past the line's length means its end. A `# noqa` inserted at
    (3, 999) suppresses line 3's findings; spilling onto the next line would suppress nothing."""
    text = LOOP.replace("    model.predict", f"    {prefix}model.predict")
    client, ws, uri = _opened(module_server, f"past-line-{len(prefix)}.py", text)
    assert client.diagnostics(uri, 1) == FOUND
    _change(client, uri, 2, {"range": _at(3, 999), "text": "  # noqa"})
    assert client.diagnostics(uri, 2) == []
    _change(client, uri, 3, {"range": _at(1, 10**6, (1, 10**6)), "text": "  # a comment"})
    assert client.diagnostics(uri, 3) == []  # line 1 took it: the noqa stays on line 3
    _still_answers(client, ws, f"past-line-{len(prefix)}")


def test_changes_in_one_notification_apply_each_to_the_text_before_it(module_server):
    """Two ranges in one notification: the second addresses the text the first made (the
    protocol's order), here the line the first inserted."""
    client, ws, uri = _opened(module_server, "sequence.py")
    _change(client, uri, 2, {"range": _at(1, 0), "text": "y = 1\n"},
            {"range": _at(1, 0, (1, 5)), "text": "z = 2"},
            {"range": _at(4, 999), "text": "  # noqa"})
    assert client.diagnostics(uri, 2) == []  # line 4 now holds the predict and its noqa
    answer = client.answer(client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                                  "position": {"line": 1, "character": 0}}), 120)
    assert "error" not in answer
    _change(client, uri, 3, {"range": _at(4, 0, (4, 999)), "text": "    model.predict(tf.ones((64, 4096)))"})
    assert client.diagnostics(uri, 3) == [("GL101", 4), ("GL201", 4)]
    _still_answers(client, ws, "sequence")


def test_a_whole_text_then_a_range_in_one_notification(module_server):
    client, ws, uri = _opened(module_server, "whole.py", "x = 1\n")
    _change(client, uri, 2, {"text": LOOP}, {"range": _at(3, 999), "text": "  # noqa: GL201"})
    assert client.diagnostics(uri, 2) == [("GL101", 3)]
    _still_answers(client, ws, "whole")


def test_a_range_length_that_disagrees_with_the_range_is_not_read(module_server):
    """`rangeLength` (deprecated) saying 500 characters for an empty range: the range decides."""
    client, ws, uri = _opened(module_server, "length.py")
    _change(client, uri, 2, {"range": _at(3, 999), "rangeLength": 500, "text": "  # noqa: GL101"})
    assert client.diagnostics(uri, 2) == [("GL201", 3)]
    _still_answers(client, ws, "length")


def test_rapid_edits_publish_the_last_text_last(module_server):
    """Thirty edits sent without waiting, each overlapping the analysis of the one before: the
    newest publication is of the last version and its text, and none is older than one before it."""
    client, ws, uri = _opened(module_server, "rapid.py")
    for version in range(2, 32):
        bound = 21000 + version
        _change(client, uri, version, {"range": _at(2, 15, (2, 20)), "text": str(bound)})
    _change(client, uri, 32, {"range": _at(3, 999), "text": "  # noqa: GL201"})
    assert client.diagnostics(uri, 32) == [("GL101", 3)]
    client.hover(uri)  # everything published before this answer has been read
    published = [m["params"].get("version") for m in client.seen if m.get("method") == "textDocument/publishDiagnostics"
                 and m["params"]["uri"] == uri]
    assert published[-1] == 32 and published == sorted(published), published
    _still_answers(client, ws, "rapid")


def test_lone_carriage_returns_end_lines_for_positions(module_server):
    """A document whose lines end in a lone `\\r` (as old Mac editors write): the editor counts
    them as lines, and so does every position the server reads and gives."""
    client, ws, uri = _opened(module_server, "cr.py", LOOP.replace("\n", "\r"))
    assert client.diagnostics(uri, 1) == FOUND
    assert "predict" in _hover_text(client.hover(uri, 3, 10))
    _still_answers(client, ws, "cr")


def test_a_code_action_over_a_reversed_range_is_answered(module_server):
    client, ws, uri = _opened(module_server, "reversed.py")
    assert client.diagnostics(uri, 1) == FOUND
    answer = client.answer(client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": _at(3, 40, (3, 0)), "context": {"diagnostics": []}}), 120)
    assert answer is not None and ("result" in answer or answer["error"]["code"] == -32602), answer
    _still_answers(client, ws, "reversed")


# --- the session --------------------------------------------------------------------------------


def test_a_second_initialize_is_refused_and_the_session_goes_on(module_server):
    client, ws = module_server
    answer = client.answer(client.request("initialize", {"processId": None, "rootUri": ws.as_uri(), "capabilities": {}}), 120)
    assert answer is not None and ("error" in answer or "capabilities" in answer.get("result", {})), answer
    _still_answers(client, ws, "initialize")


def test_headers_other_clients_send_and_a_message_split_across_writes(module_server):
    client, ws, uri = _opened(module_server, "headers.py")
    body = json.dumps({"jsonrpc": "2.0", "id": "h1", "method": "textDocument/hover", "params": {
        "textDocument": {"uri": uri}, "position": {"line": 3, "character": 10}}}).encode()
    header = b"content-length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" % len(body)
    client.proc.stdin.write(header + body)
    client.proc.stdin.flush()
    assert "predict" in _hover_text(client.answer("h1", 120))
    body = body.replace(b'"h1"', b'"h2"')
    message = b"Content-Length: %d\r\n\r\n" % len(body) + body
    for part in (message[:7], message[7:30], message[30:]):
        client.proc.stdin.write(part)
        client.proc.stdin.flush()
    assert "predict" in _hover_text(client.answer("h2", 120))
    _still_answers(client, ws, "headers")


def test_exit_without_shutdown_ends_the_server_with_code_1(tmp_path):
    """The protocol: `exit` before `shutdown` ends the process with exit code 1, at once."""
    (tmp_path / "pyproject.toml").write_text("[tool.greenlint]\n")
    client = RawClient(tmp_path, {"GREENLINT_CACHE_DIR": str(tmp_path / "cache")})
    client.initialize(tmp_path)
    uri = (tmp_path / "a.py").as_uri()
    client.open(uri, LOOP)
    assert client.diagnostics(uri, 1) == FOUND
    client.notify("exit")
    try:
        assert client.proc.wait(timeout=120) == 1
    finally:
        if client.proc.poll() is None:
            client.proc.kill()


def test_a_markdown_cell_of_a_notebook_is_never_read_as_python(module_server):
    """A notebook synced cell by cell: a Markdown cell (kind 1) holding TF code gets no
    diagnostics, the code cell beside it its own."""
    client, ws = module_server
    notebook = (ws / "markdown.ipynb").as_uri()
    markdown, code = (f"vscode-notebook-cell:{ws}/markdown.ipynb#W{i}" for i in range(2))
    client.notify("notebookDocument/didOpen", {
        "notebookDocument": {"uri": notebook, "notebookType": "jupyter-notebook", "version": 1,
                             "cells": [{"kind": 1, "document": markdown}, {"kind": 2, "document": code}]},
        "cellTextDocuments": [{"uri": markdown, "languageId": "markdown", "version": 1, "text": LOOP},
                              {"uri": code, "languageId": "python", "version": 1, "text": LOOP}]})
    assert client.diagnostics(code, 1) == FOUND
    client.hover(code)  # what was published before this answer has been read
    shown = [m for m in client.seen if m.get("method") == "textDocument/publishDiagnostics"
             and m["params"]["uri"] == markdown and m["params"]["diagnostics"]]
    assert not shown, shown
    _still_answers(client, ws, "markdown")


def test_an_inlay_hint_range_past_the_end_is_answered_with_the_document_s_hints(module_server):
    client, ws, uri = _opened(module_server, "hint-range.py")
    assert client.diagnostics(uri, 1) == FOUND
    hints = [client.answer(client.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole}), 120)
             for whole in (_at(0, 0, (4, 0)), _at(0, 0, (10**6, 10**6)))]
    assert "error" not in hints[1] and hints[1]["result"] == hints[0]["result"] and hints[0]["result"], hints
    _still_answers(client, ws, "hint-range")
