"""The session's edges in `greenlint lsp`: hovers after many quick edits, shutdown and exit,
odd `workspace/configuration` answers, changes to documents that are not open, unusable paths.

Every wait ends on an event the client records (publishes, log messages), never on a sleep."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from greenlint.units import TIMES, fmt_energy
from tests.lsp_server.conftest import (
    TIMEOUT_S,
    make_client,
    open_document,
    publish_after,
    settings_applied,
    wait_for_diagnostics,
    wait_until,
)
from tests.lsp_server.samples import MATERIAL_TRAIN, TRAIN, predicted

pytestmark = [pytest.mark.e2e]
module_loop = pytest.mark.asyncio(loop_scope="module")
FIT = "tensorflow.keras.Sequential.fit"


def _hover_params(path: Path, line: int, character: int) -> types.HoverParams:
    return types.HoverParams(types.TextDocumentIdentifier(path.as_uri()), types.Position(line, character))


def _logged(client: LanguageClient, *words: str) -> list[str]:
    return [m.message for m in client.log_messages if all(w in m.message for w in words)]


@module_loop
async def test_a_hover_after_many_quick_edits_says_its_figures_are_stale(client: LanguageClient, workspace: Path):
    path = workspace / "quick_edits.py"
    await open_document(client, path, TRAIN)
    uri = path.as_uri()
    at = types.Position(5, 40)  # after `epochs=20` of the looped fit
    version, text = 1, TRAIN
    for _ in range(250):  # type a digit and take it back, 500 edits faster than any analysis
        for change in ("0", ""):
            version += 1
            end = at if change else types.Position(5, 41)
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    [types.TextDocumentContentChangePartial(range=types.Range(at, end), text=change)],
                )
            )
    version += 1  # then `epochs=2000`: a hundred times the work
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [types.TextDocumentContentChangePartial(range=types.Range(at, at), text="00")],
        )
    )
    text = TRAIN.replace("epochs=20)", "epochs=2000)", 1)
    now = predicted(text, 6, FIT)
    current = f"{TIMES} 4 runs per program run = **{fmt_energy(now.energy_j, now.interval_j, 4)}**"
    hover = (await client.text_document_hover_async(_hover_params(path, 5, 11))).contents.value
    if current not in hover:  # answered from an older analysis: it must say so, and of which version
        assert hover.startswith("⚠ **Stale**: the figures below are of version ")
        assert f"which has changed since (now version {version})" in hover
    await wait_for_diagnostics(client, uri, version)
    hover = (await client.text_document_hover_async(_hover_params(path, 5, 11))).contents.value
    assert current in hover and "Stale" not in hover


@module_loop
async def test_changes_to_a_notebook_or_cell_not_open_are_left_out(client: LanguageClient, workspace: Path):
    notebook = (workspace / "never_opened.ipynb").as_uri()
    change = types.TextDocumentContentChangeWholeDocument(text="x = 1\n")
    cell = types.NotebookDocumentCellContentChanges(types.VersionedTextDocumentIdentifier(version=2, uri=f"{notebook}#c0"), [change])
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            types.VersionedNotebookDocumentIdentifier(version=2, uri=notebook),
            types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(text_content=[cell])),
        )
    )
    await wait_until(client, lambda: _logged(client, "ignored a change to notebook", "never_opened.ipynb"))
    # a notebook that is open, and a change naming a cell it does not have, beside one it has
    path = workspace / "open.ipynb"
    cells = [f"vscode-notebook-cell:{path}#W0", f"vscode-notebook-cell:{path}#W1"]
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            types.NotebookDocument(path.as_uri(), "jupyter-notebook", 1, [types.NotebookCell(types.NotebookCellKind.Code, cells[0])]),
            [types.TextDocumentItem(cells[0], "python", 1, "import tensorflow as tf\n")],
        )
    )
    await wait_for_diagnostics(client, cells[0], 1)
    edits = [
        types.NotebookDocumentCellContentChanges(types.VersionedTextDocumentIdentifier(version=2, uri=cells[1]), [change]),
        types.NotebookDocumentCellContentChanges(
            types.VersionedTextDocumentIdentifier(version=2, uri=cells[0]),
            [types.TextDocumentContentChangeWholeDocument(text="import tensorflow as tf\nz = tf.zeros((2, 2))\n")],
        ),
    ]
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            types.VersionedNotebookDocumentIdentifier(version=2, uri=path.as_uri()),
            types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(text_content=edits)),
        )
    )
    await wait_for_diagnostics(client, cells[0], 2)  # the known cell's change was applied and analysed
    assert _logged(client, "ignored a cell change", cells[1])
    assert not [m for m in client.log_messages if m.type == types.MessageType.Error or "Traceback" in m.message]


@module_loop
async def test_a_path_too_long_for_the_system_is_said_plainly(client: LanguageClient, workspace: Path):
    uri = (workspace / f"{'a' * 300}.py").as_uri()  # a name over NAME_MAX: never on disk
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "python", 1, TRAIN)))
    [error] = (await wait_for_diagnostics(client, uri, 1)).diagnostics
    assert error.code == "GL002"
    assert error.message.startswith("cannot analyse: its path cannot be used on this system (File name too long")
    assert "internal error" not in error.message


async def _started(features: dict | None = None, capabilities: types.ClientCapabilities | None = None) -> LanguageClient:
    config = ClientServerConfig([sys.executable, "-m", "greenlint", "lsp"], client_factory=lambda: make_client(features))
    client = await config.start()
    await client.initialize_session(types.InitializeParams(capabilities=capabilities or types.ClientCapabilities()))
    return client


@pytest.mark.asyncio
async def test_a_request_after_shutdown_is_refused_and_exit_ends_with_0(workspace: Path):
    client = await _started()
    try:
        await client.shutdown_async(None)
        with pytest.raises(JsonRpcException) as refused:
            await client.text_document_hover_async(_hover_params(workspace / "any.py", 0, 0))
        assert refused.value.code == -32600  # InvalidRequest
        assert "after shutdown" in refused.value.message
        client.exit(None)
        assert await client._server.wait() == 0
    finally:
        await client.stop()


@pytest.mark.asyncio
async def test_shutdown_while_the_client_has_not_answered_a_request():
    asked, answer, answered = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def configuration(client: LanguageClient, params: types.ConfigurationParams):
        asked.set()
        await answer.wait()  # the settings the server pulls at `initialized` come after `shutdown`
        answered.set()

    capabilities = types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(configuration=True))
    client = await _started({types.WORKSPACE_CONFIGURATION: configuration}, capabilities)
    try:
        await asyncio.wait_for(asked.wait(), TIMEOUT_S)
        assert await client.shutdown_async(None) is None
        answer.set()  # too late: dropped (before `exit`, so that the client's own handler is done)
        await asyncio.wait_for(answered.wait(), TIMEOUT_S)
        client.exit(None)
        assert await client._server.wait() == 0
    finally:
        await client.stop()


@pytest.mark.asyncio
async def test_exit_without_shutdown_ends_with_1():
    client = await _started()
    try:
        client.exit(None)
        assert await client._server.wait() == 1
    finally:
        await client.stop()


@pytest.mark.asyncio
@pytest.mark.parametrize("answer, shown", [([], "[]"), (None, "null")])
async def test_a_configuration_answer_that_does_not_fit_falls_back_to_defaults(answer, shown: str, workspace: Path):
    capabilities = types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(configuration=True))

    def configuration(client: LanguageClient, params: types.ConfigurationParams):
        return answer

    client = await _started({types.WORKSPACE_CONFIGURATION: configuration}, capabilities)
    try:
        await wait_until(client, lambda: _logged(client, "workspace/configuration answered"))
        [message] = _logged(client, "workspace/configuration answered")
        assert f"answered {shown} for 1 item(s): the settings fall back to their defaults" in message
        published = await open_document(client, workspace / "defaults.py", TRAIN)  # and it serves as before
        assert {d.code for d in published.diagnostics} >= {"GL101", "GL301"}
        assert not [m for m in client.log_messages if m.type == types.MessageType.Error or "Traceback" in m.message]
    finally:
        await client.shutdown_session()
        await client.stop()


@pytest.mark.asyncio
async def test_an_older_configuration_answer_coming_last_is_left_out(workspace: Path):
    """A client may answer `workspace/configuration` requests out of order: the answer to the older
    one, coming after the newer settings were applied, must not bring the older settings back."""
    asked, release = [], asyncio.Event()
    answers = [{}, {"ignore": ["GL301"]}, {"ignore": ["GL101"]}]  # at `initialized`, then two changes

    async def configuration(client: LanguageClient, params: types.ConfigurationParams):
        asked.append(params)
        answer = answers[len(asked) - 1]
        async with client.publish_event:
            client.publish_event.notify_all()
        if len(asked) == 2:
            await release.wait()
        return [answer] * len(params.items)

    capabilities = types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(configuration=True))
    client = await _started({types.WORKSPACE_CONFIGURATION: configuration}, capabilities)
    try:
        path = workspace / "answered_late.py"
        await open_document(client, path, MATERIAL_TRAIN)
        await wait_until(client, lambda: len(asked) == 1)
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        await wait_until(client, lambda: len(asked) == 2)
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        applied = await settings_applied(client, "ignore=('GL101',)", 0)
        assert [d.code for d in (await publish_after(client, path.as_uri(), applied)).diagnostics] == ["GL301"]
        release.set()  # now the older request's answer
        later = lambda: [message for n, message in client.settings_applied if n > applied]  # noqa: E731
        await wait_until(client, lambda: _logged(client, "older workspace/configuration") or later())
        assert later() == [] and _logged(client, "older workspace/configuration")
        seen = len(client.published[path.as_uri()])
        client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(path.as_uri())))
        await wait_until(client, lambda: len(client.published[path.as_uri()]) > seen)
        assert [d.code for d in client.published[path.as_uri()][seen].diagnostics] == ["GL301"]  # still the newer settings
    finally:
        release.set()
        await client.shutdown_session()
        await client.stop()
