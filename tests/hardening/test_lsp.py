"""The language server answers every request, bad ones with the right JSON-RPC error, and recovers
from bad edits: raw JSON-RPC over stdio (tests/hardening/rpc.py)."""

from __future__ import annotations

import sys
import time

import pytest

from tests.hardening.rpc import RawClient

pytestmark = pytest.mark.timeout(300)

TEXT = (  # literal data: the work is known, so the fit in a loop is a hotspot
    "import tensorflow as tf\nfor i in range(10):\n"
    "    tf.keras.Sequential([tf.keras.layers.Dense(64)]).fit(tf.zeros([5000, 32]), tf.zeros([5000, 1]), epochs=100)\n"
)
DS = "import tensorflow as tf\nds = tf.data.Dataset.range(n).map(lambda x: x + tf.random.uniform([], 0, 9, tf.int64))\n"  # a random map: GL402 on any TF


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    ws = tmp_path_factory.mktemp("ws")
    (ws / "pyproject.toml").write_text("[tool.greenlint]\n")
    return ws


@pytest.fixture
def client(workspace, tmp_path):
    c = RawClient(workspace, {"GREENLINT_CACHE_DIR": str(tmp_path / "cache")})
    yield c
    assert c.close() == 0


def _diagnostics(client, uri, version=None, timeout=120):
    return client.wait_for(
        lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
        and (version is None or m["params"].get("version") == version),
        timeout,
    )


def _published(client, uri, version, timeout=120):
    """Like `_diagnostics`, also among the messages already read (another wait may have passed it)."""
    return client.find(
        lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
        and m["params"].get("version") == version,
        timeout,
    )


def test_a_request_before_initialize_is_server_not_initialized(client, workspace):
    rid = client.request("textDocument/hover", {"textDocument": {"uri": "file:///x.py"}, "position": {"line": 0, "character": 0}})
    assert client.answer(rid, 30)["error"]["code"] == -32002
    client.notify("textDocument/didOpen", {"textDocument": {"uri": "file:///x.py", "languageId": "python", "version": 1,
                                                            "text": TEXT}})  # dropped: not initialized
    assert "capabilities" in client.initialize(workspace)["result"]


INVALID = [
    ("textDocument/hover", {"textDocument": {"uri": "URI"}, "position": {"line": 2**31, "character": 0}}),
    ("textDocument/hover", {"textDocument": {"uri": "URI"}, "position": {"line": -1, "character": 0}}),
    ("textDocument/hover", {"textDocument": {"uri": "URI"}}),
    ("textDocument/hover", None),
    ("textDocument/codeAction", {"textDocument": {"uri": "URI"}, "range": 5, "context": {"diagnostics": []}}),
    ("textDocument/inlayHint", {"textDocument": {"uri": 7}, "range": {}}),
    ("workspace/executeCommand", {"command": "greenlint.showHotspots", "arguments": None}),
    ("workspace/executeCommand", {"command": "greenlint.showHotspots", "arguments": [None]}),
    ("workspace/executeCommand", {"command": "greenlint.showHotspots", "arguments": ["a", "b"]}),
]


def test_invalid_params_are_answered_with_invalid_params(module_server):
    client, workspace = module_server
    uri = (workspace / "a.py").as_uri()
    client.open(uri, TEXT)
    for method, params in INVALID:
        if isinstance(params, dict) and params.get("textDocument", {}).get("uri") == "URI":
            params = {**params, "textDocument": {"uri": uri}}
        rid = client.request(method, params)
        assert client.answer(rid, 60)["error"]["code"] == -32602, (method, params)
    rid = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 30}})
    assert "result" in client.answer(rid, 120)  # still serving


def test_fix_all_works_with_an_unknown_code_in_the_editors_ignore(client, workspace):
    client.initialize(workspace)
    client.notify("workspace/didChangeConfiguration", {"settings": {"greenlint": {"ignore": ["GL999", "GL101"]}}})
    uri = (workspace / "ds.py").as_uri()
    client.open(uri, DS)
    published = _diagnostics(client, uri)
    assert published is not None
    rid = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
        "context": {"diagnostics": [], "only": ["source.fixAll.greenlint"]}})
    answer = client.answer(rid, 120)
    assert "error" not in answer, answer
    (action,) = answer["result"]
    assert action["kind"] == "source.fixAll.greenlint" and "num_parallel_calls" in str(action["edit"])
    logged = client.find(lambda m: m.get("method") in ("window/showMessage", "window/logMessage")
                             and "GL999" in m["params"]["message"], 30)
    assert logged is not None and "pyproject.toml" not in logged["params"]["message"]


def test_a_lone_surrogate_edit_recovers(module_server):
    client, workspace = module_server
    uri = (workspace / "s.py").as_uri()
    client.open(uri, TEXT)
    assert _diagnostics(client, uri, 1)
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "# \ud800\n"}]})
    second = _diagnostics(client, uri, 2)
    assert second is not None
    assert not any("internal error" in d["message"] for d in second["params"]["diagnostics"])
    assert any(d["code"] == "GL101" and d["range"]["start"]["line"] == 3 for d in second["params"]["diagnostics"])


def test_one_heavy_document_does_not_hold_back_the_others(client, workspace):
    client.initialize(workspace)
    heavy = (workspace / "heavy.py").as_uri()
    light = (workspace / "light.py").as_uri()
    # 8,000 statements of three calls each: seconds of resolving and pricing
    calls = "".join(f"y{i} = tf.reduce_sum(tf.ones([{i % 7 + 1}, 3]) * {i})\n" for i in range(8_000))
    other = (workspace / "other.py").as_uri()
    client.open(light, TEXT)  # two documents at once: both analysis processes start (and load)
    client.open(other, DS)
    published = [_published(client, uri, 1) for uri in (light, other)]  # in either order
    assert all(published), published
    client.open(heavy, DS + calls + TEXT)
    time.sleep(0.5)
    client.notify("textDocument/didChange", {"textDocument": {"uri": light, "version": 2}, "contentChanges": [
        {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "# edit\n"}]})
    first = client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                            and m["params"]["uri"] in (heavy, light), 240)
    assert first["params"]["uri"] == light, ("the light document waited for the heavy one", str(first)[:600])
    assert _diagnostics(client, heavy, 1, timeout=240)


def _rss_kb(pid: int) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_memory_does_not_grow_with_edits(client, workspace):
    """Edits to a document that never parses (no analysis lands to trim its edit log) leave the
    server's memory as it was. Each of 2,000 notifications carries 10 changes: without the edit
    log's bound (~200 bytes a change), or with pygls' notification futures kept (~2 KB a
    notification), it grows ~4 MB; with both mended ~0.3 MB (measured, each mutation by hand)."""
    client.initialize(workspace)
    uri = (workspace / "m.py").as_uri()
    client.open(uri, TEXT + "def f(:\n")  # does not parse: no analysis ever trims the edit log
    assert _diagnostics(client, uri, 1)
    version = 2
    insert = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "#\n"}
    remove = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}, "text": ""}
    changes = [insert, remove] * 5  # the text stays as it was: its size is not what grows

    def edits(n):
        nonlocal version
        for _ in range(n):
            client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                     "contentChanges": changes})
            version += 1
        rid = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
        assert client.answer(rid, 120) is not None

    edits(300)  # warm up: allocator pools, caches, the log up to its bound
    before = _rss_kb(client.proc.pid)
    edits(2000)
    assert _rss_kb(client.proc.pid) - before < 2000


def test_the_edit_log_is_bounded():
    from lsprotocol import types

    from greenlint.lsp_server.edits import MAX_CHANGES, EditLog

    log = EditLog()
    change = types.TextDocumentContentChangePartial(range=types.Range(types.Position(0, 0), types.Position(0, 0)), text="\n")
    for version in range(1, MAX_CHANGES + 10):
        log.record("u", version, [change])
    assert len(log.since("u", 0)) <= MAX_CHANGES
    assert log.since("u", 0)[0].map(5) == (None, True)  # the older places are lost, never wrong


def test_a_second_initialize_is_refused_and_the_open_documents_stay(client, workspace, tmp_path):
    """Issue 29 item 9, a held-out ordering: `initialize` twice (pygls started over, forgetting
    every open document: hovers then answered null without a word)."""
    client.initialize(workspace)
    uri = (workspace / "twice.py").as_uri()
    client.open(uri, TEXT)
    assert _diagnostics(client, uri, 1) is not None
    rid = client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
    assert client.answer(rid, 30)["error"]["code"] == -32600
    rid = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 58}})
    answer = client.answer(rid, 60)
    assert answer.get("result") and "greenlint energy" in answer["result"]["contents"]["value"], answer


@pytest.mark.parametrize("method", [5, None, ["textDocument/hover"], {"name": "x"}])
def test_a_request_whose_method_is_not_a_string_is_an_invalid_request(module_server, request, method):
    """Issue 29 item 9, a held-out message shape: `"method": 5` was answered with an internal error
    (-32603, pygls' TypeError and traceback); it is an invalid request, and the session goes on (one
    session for every case, each on its own document)."""
    client, workspace = module_server
    client.send({"jsonrpc": "2.0", "id": 900, "method": method, "params": {}})
    answer = client.answer(900, 30)
    assert answer["error"]["code"] == -32600 and "method" in answer["error"]["message"], answer
    uri = (workspace / f"after{request.node.callspec.indices['method']}.py").as_uri()
    client.open(uri, TEXT)
    rid = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 58}})
    assert "greenlint energy" in client.answer(rid, 60)["result"]["contents"]["value"]


def test_a_notebook_listing_a_cell_it_never_opened_is_answered(module_server):
    """Issue 29 item 9, a held-out ordering: `notebookDocument/didOpen` whose `cells` name a cell
    with no entry in `cellTextDocuments`. pygls read that cell's URI from disk, the analysis died
    (FileNotFoundError) and every hover on the notebook waited forever; the cell is left out."""
    client, workspace = module_server
    notebook = (workspace / "listed.ipynb").as_uri()
    cell = [f"vscode-notebook-cell:{workspace / 'listed.ipynb'}#C{i}" for i in (1, 2)]
    client.notify("notebookDocument/didOpen", {
        "notebookDocument": {"uri": notebook, "notebookType": "jupyter-notebook", "version": 1,
                             "cells": [{"kind": 2, "document": cell[0]}, {"kind": 2, "document": cell[1]}]},
        "cellTextDocuments": [{"uri": cell[0], "languageId": "python", "version": 1, "text": TEXT}],
    })
    rid = client.request("textDocument/hover", {"textDocument": {"uri": cell[0]}, "position": {"line": 2, "character": 58}})
    answer = client.answer(rid, 90)
    assert answer and "greenlint energy" in answer["result"]["contents"]["value"], answer
    rid = client.request("textDocument/hover", {"textDocument": {"uri": cell[1]}, "position": {"line": 0, "character": 0}})
    assert client.answer(rid, 30) == {"id": rid, "jsonrpc": "2.0", "result": None}


def test_a_nul_in_a_document_uri_is_no_syntax_error_of_its_code(module_server):
    """A held-out URI: `file:///…/a%00.py` is a valid URI whose path holds a NUL. compile() refused
    the file *name*, and the code was reported as `GL001 cannot parse: embedded null character`,
    its findings and hovers gone; the name is the editor's, the code is analysed."""
    client, workspace = module_server
    uri = workspace.as_uri() + "/a%00.py"
    client.open(uri, TEXT)
    published = _diagnostics(client, uri, 1)
    assert published is not None and {d["code"] for d in published["params"]["diagnostics"]} >= {"GL101"}, published
    assert all(d["code"] != "GL001" for d in published["params"]["diagnostics"]), published
    rid = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 58}})
    assert "greenlint energy" in client.answer(rid, 60)["result"]["contents"]["value"]


def test_a_cell_sent_as_a_text_document_is_analysed_as_code(module_server):
    """A held-out ordering: a client without notebook sync sends a cell by `textDocument/didOpen`
    (`vscode-notebook-cell:…/n.ipynb#W0`, languageId python). Its name ends in `.ipynb`, so its
    Python was read as the notebook's JSON: `GL002 malformed notebook: invalid JSON`, no finding."""
    client, workspace = module_server
    cell = f"vscode-notebook-cell:{workspace / 'sent.ipynb'}#W0sZmlsZQ=="
    client.open(cell, TEXT)
    codes = {d["code"] for d in _diagnostics(client, cell, 1)["params"]["diagnostics"]}
    assert "GL101" in codes and "GL002" not in codes, codes
