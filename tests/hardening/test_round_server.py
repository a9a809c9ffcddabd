"""Issue 29 item 9's language-server kinds in variants the other rounds do not spell: positions in
UTF-16 units after astral characters, in UTF-8 where the client asks for it, negative or far past
the text; changes with no content; request ids of every JSON kind; notebook structure changes out
of range; protocol notifications greenlint does not serve; documents nested past the parser; a
known command given the wrong arguments; editor settings of the wrong values. Each test ends with
the session still answering (the shared server must exit 0 after the last)."""

from __future__ import annotations

import re

import pytest

from tests.hardening.rpc import RawClient
from tests.hardening.samples import LOOP

pytestmark = pytest.mark.timeout(300)
ASTRAL = LOOP.replace("    model.predict", '    s = "😀𝔘😀"; model.predict')


def _logged(client, kinds=(1,)) -> list[str]:
    return [m["params"]["message"] for m in client.seen
            if m.get("method") in ("window/logMessage", "window/showMessage") and m["params"]["type"] in kinds]


def _hover_text(answer) -> str:
    return ((answer or {}).get("result") or {}).get("contents", {}).get("value", "")


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _request(client, method: str, params):
    return client.answer(client.request(method, params), 120)


def _still_answers(client, ws, name: str) -> None:
    uri = (ws / f"{name}-after.py").as_uri()
    client.open(uri, LOOP)
    assert "predict" in _hover_text(client.hover(uri))
    assert not [m for m in _logged(client) if "Traceback" in m]


def test_positions_after_astral_characters_count_utf16_units(module_server):
    """Three astral characters (six UTF-16 units) before the call: a hover at the call's UTF-16
    column names it, and the line's hint stands at its UTF-16 end."""
    client, ws = module_server
    uri = (ws / "astral.py").as_uri()
    client.open(uri, ASTRAL)
    line = ASTRAL.splitlines()[3]
    column = _utf16(line[: line.index("predict")])
    assert "predict" in _hover_text(client.hover(uri, 3, column + 2))
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 4, "character": 0}}
    hints = _request(client, "textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole})["result"]
    assert {"line": 3, "character": _utf16(line)} in [h["position"] for h in hints]


def test_hints_of_a_crlf_document_stand_before_the_carriage_return(module_server):
    client, ws = module_server
    uri = (ws / "crlf.py").as_uri()
    client.open(uri, LOOP.replace("\n", "\r\n"))
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 4, "character": 0}}
    hints = _request(client, "textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole})["result"]
    assert {"line": 3, "character": len(LOOP.splitlines()[3])} in [h["position"] for h in hints]


def test_changes_at_negative_positions_are_left_out_and_no_change_keeps_the_text(module_server):
    client, ws = module_server
    uri = (ws / "negative.py").as_uri()
    client.open(uri, LOOP)
    assert client.diagnostics(uri, 1) == [("GL101", 3), ("GL201", 3)]
    below = {"start": {"line": -1, "character": -5}, "end": {"line": -1, "character": 0}}
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"range": below, "text": "X"}]})
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": []})
    text = _hover_text(client.hover(uri))
    assert "predict" in text and "Stale" not in text  # the text analysed is the text now
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 4}, "contentChanges": [
        {"range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}}, "text": "  "}]})
    assert client.diagnostics(uri, 4) == [("GL101", 3), ("GL201", 3)]
    assert any("Position.line" in m for m in _logged(client, (2,)))  # named as the client's fault
    _still_answers(client, ws, "negative")


@pytest.mark.parametrize("position, refused", [({"line": 10**6, "character": 10**6}, False),
                                               ({"line": -3, "character": 2}, True),
                                               ({"line": 2**40, "character": 1}, True)],
                         ids=["past-the-end", "negative", "past-uinteger"])
def test_a_hover_outside_the_text_or_the_protocol_s_integers(module_server, position, refused):
    client, ws = module_server
    uri = (ws / "outside.py").as_uri()
    client.open(uri, LOOP)
    answer = _request(client, "textDocument/hover", {"textDocument": {"uri": uri}, "position": position})
    if refused:
        assert answer["error"]["code"] == -32602, answer
    else:
        assert "error" not in answer and answer["result"] is None
    _still_answers(client, ws, "outside")


@pytest.mark.parametrize("rid", ["a-string", 0, 2**53, -1], ids=["string", "zero", "2**53", "negative"])
def test_a_request_of_any_valid_id_is_answered_with_that_id(module_server, rid):
    client, ws = module_server
    uri = (ws / "ids.py").as_uri()
    client.open(uri, LOOP)
    client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 12}},
                   id_=rid)
    answer = client.answer(rid, 120)
    assert answer is not None and answer["id"] == rid and "predict" in _hover_text(answer)


def test_notebook_structure_changes_out_of_range_leave_the_notebook_working(module_server):
    client, ws = module_server
    notebook = (ws / "range.ipynb").as_uri()
    cell = f"vscode-notebook-cell:{ws}/range.ipynb#W0"
    client.notify("notebookDocument/didOpen", {
        "notebookDocument": {"uri": notebook, "notebookType": "jupyter-notebook", "version": 1,
                             "cells": [{"kind": 2, "document": cell}]},
        "cellTextDocuments": [{"uri": cell, "languageId": "python", "version": 1, "text": LOOP}]})
    for version, array in [(2, {"start": 99, "deleteCount": 5, "cells": [{"kind": 2, "document": cell + "x"}]}),
                           (3, {"start": -1, "deleteCount": -2}), (4, {"start": 0, "deleteCount": 2**31})]:
        change = {"cells": {"structure": {"array": array}}}
        if version == 2:
            change["cells"]["structure"]["didOpen"] = [{"uri": cell + "x", "languageId": "python", "version": 1,
                                                        "text": "x = 1\n"}]
        client.notify("notebookDocument/didChange", {"notebookDocument": {"uri": notebook, "version": version},
                                                     "change": change})
    client.hover(cell)  # answered, whatever the notebook holds now
    _still_answers(client, ws, "notebook-range")


def test_protocol_notifications_greenlint_does_not_serve_are_ignored(module_server):
    client, ws = module_server
    for method, params in [("$/setTrace", {"value": "verbose"}), ("$/cancelRequest", {"id": 99999}),
                           ("$/cancelRequest", {"id": None}), ("$/progress", {"token": 1, "value": {}}),
                           ("$/logTrace", {"message": "x"}), ("workspace/didChangeWatchedFiles",
                                                              {"changes": [{"uri": "file:///nope", "type": 9}]}),
                           ("workspace/didChangeWatchedFiles", {"changes": [{"uri": 5}]}),
                           ("textDocument/didSave", {"textDocument": {"uri": "file:///never.py"}, "text": 5})]:
        client.notify(method, params)
    _still_answers(client, ws, "notifications")


@pytest.mark.parametrize("nested", ["(" * 100_000 + "1" + ")" * 100_000, "-" * 200_000 + "1",
                                    "[" * 5000 + "]" * 5000, "lambda: " * 5000 + "1"],
                         ids=["parentheses", "unary", "lists", "lambdas"])
def test_a_document_nested_past_the_parser_is_named_and_the_session_goes_on(module_server, nested):
    client, ws = module_server
    uri = (ws / f"deep-{len(nested)}-{nested[0]}.py").as_uri()
    client.open(uri, f"import tensorflow as tf\ny = {nested}\ntf.ones(1)\n")
    published = client.find(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                            and m["params"]["uri"] == uri, 120)
    assert published is not None
    messages = [d["message"] for d in published["params"]["diagnostics"]]
    assert not [m for m in messages if "internal error" in m], messages
    _still_answers(client, ws, "deep")


@pytest.mark.parametrize("arguments", [[], [5], ["file:///a.py", 5], [{"uri": "file:///a.py"}]],
                         ids=["none", "a-number", "two", "an-object"])
def test_a_known_command_given_the_wrong_arguments_is_refused_without_a_traceback(module_server, arguments):
    """`greenlint.showHotspots` takes one URI: other arguments are invalid params, logged as one
    warning line (pygls logged an error with its traceback in the editor's output)."""
    client, ws = module_server
    answer = _request(client, "workspace/executeCommand", {"command": "greenlint.showHotspots", "arguments": arguments})
    assert answer["error"]["code"] == -32602 and "takes one argument" in answer["error"]["message"]
    assert any("takes one argument" in m for m in _logged(client, (2,)))
    _still_answers(client, ws, "command-arguments")


def test_a_command_on_a_document_never_opened_answers_null(module_server):
    client, ws = module_server
    answer = _request(client, "workspace/executeCommand",
                      {"command": "greenlint.showHotspots", "arguments": [(ws / "never-opened.py").as_uri()]})
    assert "error" not in answer and answer["result"] is None
    _still_answers(client, ws, "never-opened")


def test_editor_settings_of_the_wrong_values_are_named_and_left_out(module_server):
    client, ws = module_server
    client.notify("workspace/didChangeConfiguration", {"settings": {"greenlint": {
        "unit": "kWh", "inlayHints": {"minJoules": -1, "enabled": "yes", "showNegligible": None}}}})
    uri = (ws / "wrong-settings.py").as_uri()
    client.open(uri, LOOP)
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 4, "character": 0}}
    hints = _request(client, "textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole})["result"]
    # the defaults: auto units (the loop's figure in kJ, not kWh), hints on
    assert any(re.match(r"⚡ [0-9.]+ kJ \(", h["label"]) for h in hints), hints
    shown = " ".join(_logged(client, (1, 2)))
    assert "greenlint.unit" in shown and "greenlint.inlayHints.enabled" in shown and "minJoules" in shown
    _still_answers(client, ws, "settings")


@pytest.mark.parametrize("offered", ["utf-8", "utf-32"])
def test_a_client_asking_for_utf8_or_utf32_positions_gets_them_or_utf16_said(tmp_path, offered):
    """A client offering only UTF-8 (or only UTF-32) positions: the server says which encoding it
    uses, and a hover at the call's column counted in that encoding names the call."""
    (tmp_path / "pyproject.toml").write_text("[tool.greenlint]\n")
    client = RawClient(tmp_path, {"GREENLINT_CACHE_DIR": str(tmp_path / "cache")})
    try:
        rid = client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {
            "general": {"positionEncodings": [offered]}, "textDocument": {"publishDiagnostics": {}}}})
        encoding = client.answer(rid, 120)["result"]["capabilities"].get("positionEncoding", "utf-16")
        client.notify("initialized", {})
        uri = (tmp_path / "utf8.py").as_uri()
        client.open(uri, ASTRAL)
        line = ASTRAL.splitlines()[3]
        before = line[: line.index("predict")]
        column = {"utf-8": len(before.encode()), "utf-32": len(before)}.get(encoding, _utf16(before))
        assert encoding in (offered, "utf-16")
        assert "predict" in _hover_text(client.hover(uri, 3, column + 2))
    finally:
        assert client.close() == 0


@pytest.mark.parametrize("name, language", [("notes.md", "markdown"), ("notes.txt", "plaintext"),
                                            ("data.json", "json"), ("Dockerfile", "dockerfile")])
def test_a_text_document_of_another_language_is_never_read_as_python(module_server, name, language):
    """A client that syncs every document (a broad selector, another editor): a Markdown file with
    a code block was published a GL001 "cannot parse"; only Python (by language or suffix) is read."""
    client, ws = module_server
    uri = (ws / name).as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language, "version": 1,
                                                            "text": "# notes\n```python\n" + LOOP + "```\n"}})
    answer = client.hover(uri, 4, 12)
    assert "error" not in answer and answer["result"] is None
    published = [m for m in client.seen if m.get("method") == "textDocument/publishDiagnostics"
                 and m["params"]["uri"] == uri and m["params"]["diagnostics"]]
    assert published == []
    _still_answers(client, ws, f"language-{language}")


@pytest.mark.parametrize("name", ["script", "stubs.pyi", "tool.PY"])
def test_a_python_document_of_any_file_name_is_analysed(module_server, name):
    client, ws = module_server
    uri = (ws / name).as_uri()
    client.open(uri, LOOP)
    assert client.diagnostics(uri, 1) == [("GL101", 3), ("GL201", 3)]


@pytest.mark.parametrize("params", [
    {"processId": None, "rootUri": None, "workspaceFolders": None, "capabilities": {}, "initializationOptions": [1, 2]},
    {"processId": 2**40, "rootUri": None, "rootPath": "/nonexistent/x", "initializationOptions": "x",
     "capabilities": {"workspace": {"configuration": True}}},
    {"processId": None, "capabilities": {}, "workspaceFolders": [{"uri": "file:///nonexistent", "name": "n"}],
     "trace": "verbose", "locale": 5},
], ids=["no-root", "a-missing-root-path", "a-missing-folder"])
def test_an_initialize_without_a_usable_root_still_serves_documents(tmp_path, params):
    """A client with no workspace (a single file opened), a root that does not exist, options of
    the wrong kind: the session starts and analyses what it is given."""
    client = RawClient(tmp_path, {"GREENLINT_CACHE_DIR": str(tmp_path / "cache")})
    try:
        answer = client.answer(client.request("initialize", params), 120)
        assert "capabilities" in answer["result"]
        client.notify("initialized", {})
        uri = (tmp_path / "a.py").as_uri()
        client.open(uri, LOOP)
        assert "predict" in _hover_text(client.hover(uri))
        assert not _logged(client)
    finally:
        assert client.close() == 0
