"""`greenlint lsp` options: --config and --isolated choose the configuration of every document."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from greenlint.cli import main
from tests.lsp_server.conftest import make_client, open_document, plain
from tests.lsp_server.samples import MATERIAL_TRAIN

pytestmark = [pytest.mark.e2e]


def test_missing_config_file_is_an_error(tmp_path: Path, capsys):
    assert main(["lsp", "--config", str(tmp_path / "nope.toml")]) == 2
    assert f"{tmp_path / 'nope.toml'}: no such configuration file" in capsys.readouterr().err


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project whose own pyproject.toml ignores GL101."""
    (tmp_path / "project").mkdir()
    # material-saving-j 0, as the workspace's: the sample's batch-2 fit (a few hundred joules) is reported by GL301
    config = '[tool.greenlint]\nignore = ["GL101"]\nmaterial-saving-j = 0.0\n'
    (tmp_path / "project" / "pyproject.toml").write_text(config, encoding="utf-8")
    return tmp_path / "project"


async def _serve(*args: str, options: dict | None = None) -> LanguageClient:
    """`python -m greenlint.lsp_server ARGS` (as VS Code starts it, with --stdio), initialised by a bare client
    (no `workspace/configuration`: editor settings come as `initializationOptions`)."""
    config = ClientServerConfig([sys.executable, "-m", "greenlint.lsp_server", "--stdio", *args], client_factory=make_client)
    client = await config.start()
    await client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities(), initialization_options=options)
    )
    return client


async def _codes_published(client: LanguageClient, path: Path) -> list[str]:
    try:
        published = await open_document(client, path, MATERIAL_TRAIN)
        return [d.code for d in published.diagnostics]
    finally:
        await client.shutdown_session()
        await client.stop()


@pytest_asyncio.fixture
async def configured(tmp_path: Path) -> LanguageClient:
    settings = tmp_path / "settings.toml"
    settings.write_text('[tool.greenlint]\nignore = ["GL301"]\n', encoding="utf-8")
    return await _serve("--config", str(settings))


@pytest.mark.asyncio
async def test_config_file_replaces_the_nearest(configured: LanguageClient, project: Path):
    assert await _codes_published(configured, project / "train.py") == ["GL101"]


@pytest.mark.asyncio
async def test_isolated_ignores_configuration(project: Path):
    client = await _serve("--isolated")
    # the defaults: GL101 is back, and the batch-2 fit's few hundred joules are not material for GL301
    assert await _codes_published(client, project / "train.py") == ["GL101"]


@pytest.mark.asyncio
async def test_settings_from_initialization_options(project: Path):
    client = await _serve(options={"ignore": ["GL301"], "configurationPreference": "editorOnly"})
    assert await _codes_published(client, project / "train.py") == ["GL101"]  # editorOnly: the project's ignore goes


@pytest.mark.asyncio
async def test_trace_and_log_go_to_the_client(project: Path):
    client = await _serve()
    try:
        client.protocol.notify(types.SET_TRACE, types.SetTraceParams(types.TraceValue.Verbose))  # greenlint.trace.server
        await open_document(client, project / "train.py", MATERIAL_TRAIN)
        logged = [m.message for m in client.log_messages]
        assert any("analysed " in m and "train.py version 1" in m for m in logged)  # window/logMessage
        assert not [m for m in client.log_messages if m.type in (types.MessageType.Warning, types.MessageType.Error)]
    finally:
        await client.shutdown_session()
        await client.stop()


@pytest.mark.asyncio
async def test_workspace_edit_without_document_changes(project: Path):
    client = await _serve()
    path = project / "train.py"
    try:
        published = await open_document(client, path, MATERIAL_TRAIN)
        [small_batch] = published.diagnostics  # the project ignores GL101
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                types.TextDocumentIdentifier(path.as_uri()), small_batch.range, types.CodeActionContext([small_batch])
            )
        )
        [action] = actions
        insert = types.Position(6, 51)
        edit = types.TextEdit(types.Range(insert, insert), "  # noqa: GL301")
        assert plain(action.edit) == plain(types.WorkspaceEdit(changes={path.as_uri(): [edit]}))
    finally:
        await client.shutdown_session()
        await client.stop()


@pytest.mark.asyncio
async def test_utf8_position_encoding(project: Path):
    """A client that offers only UTF-8 positions gets byte columns (`é` is 2 bytes, `😀` 4)."""
    config = ClientServerConfig([sys.executable, "-m", "greenlint", "lsp"], client_factory=make_client)
    client = await config.start()
    capabilities = types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf8])
    )
    result = await client.initialize_session(types.InitializeParams(capabilities=capabilities))
    try:
        assert result.capabilities.position_encoding == types.PositionEncodingKind.Utf8
        path = project / "bytes.py"
        await open_document(client, path, MATERIAL_TRAIN)
        hover = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(path.as_uri()), types.Position(7, 35))
        )
        assert hover.contents.value.startswith("**`tensorflow.zeros`**")
        assert hover.range == types.Range(types.Position(7, 33), types.Position(7, 49))
    finally:
        await client.shutdown_session()
        await client.stop()
