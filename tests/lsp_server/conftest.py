"""End-to-end fixtures: `greenlint lsp` in a subprocess, driven over stdio by a pytest-lsp client.

Each test module gets one server (module scope) on a fresh workspace holding a pyproject.toml
with a `[tool.greenlint]` table; tests open their own documents in it. Pushed diagnostics are
recorded with their versions, and every publish, refresh and settings change the server announces
with the order it came in (`arrived`); tests wait on the handlers' event, never on sleeps.
"""

from __future__ import annotations

import asyncio
import sys
from collections import defaultdict
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from pytest_lsp.client import log_message as keep_log_message

from greenlint.lsp_server.settings import EditorSettings

# Waits end on events; these limits are reached only when something is broken, so they are generous
# for a loaded CI machine (at load 7 on 2 cores a test starting its own server took 7 s, and a
# test_lsp_command test failed once in a loaded full run).
TIMEOUT_S = 60.0  # waiting for one notification
E2E_TIMEOUT_S = 180  # one test, server start included
CONVERTER = get_converter()
#: How the server's log announces the editor settings it applies (`features/configuration.py`).
SETTINGS_LOG = "INFO greenlint.lsp_server.features.configuration: settings: "
PYPROJECT = """\
[tool.greenlint]
hotspot-threshold-j = 100.0
# the samples are toy programs of a few kJ, under the default floor of material findings
material-saving-j = 0.0
extend-select = ["GL003"]
"""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the end-to-end tests (marked `e2e`) after the others, for faster feedback; a hung
    server fails its test after E2E_TIMEOUT_S instead of stalling the run."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)
    for item in items:
        if item.get_closest_marker("e2e") is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(E2E_TIMEOUT_S))


def plain(obj):
    """An LSP object as JSON-like data: what came over the wire (tuples) equals what a test builds (lists)."""
    return CONVERTER.unstructure(obj)


def arrived(client: LanguageClient) -> int:
    """Number a message the client records, in the order they come."""
    client.arrivals += 1
    return client.arrivals


async def record_diagnostics(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    """Keep every publish (with its version) and wake the tests waiting for one."""
    client.diagnostics[params.uri] = params.diagnostics
    client.published[params.uri].append(params)
    client.published_at[params.uri].append(arrived(client))
    async with client.publish_event:
        client.publish_event.notify_all()


async def record_refresh(client: LanguageClient, method: str) -> None:
    """Count `workspace/inlayHint/refresh` and `workspace/codeLens/refresh` requests (as VS Code answers them)."""
    client.refreshes[method] += 1
    client.refreshed_at[method].append(arrived(client))
    async with client.publish_event:
        client.publish_event.notify_all()


async def record_log(client: LanguageClient, params: types.LogMessageParams) -> None:
    """Keep a `window/logMessage` (as pytest-lsp does), and the server's settings changes (`settings: …`)
    apart, and wake the tests waiting for one."""
    keep_log_message(client, params)
    if params.message.startswith(SETTINGS_LOG):
        client.settings_applied.append((arrived(client), params.message))
    async with client.publish_event:
        client.publish_event.notify_all()


def make_client(features: dict | None = None) -> LanguageClient:
    """A client recording publishes, refreshes and log messages; *features* replace its handlers
    (a `workspace/configuration` answer, ...)."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = defaultdict(list)
    client.arrivals = 0
    client.published_at = defaultdict(list)  # per publish: its arrival
    client.refreshed_at = defaultdict(list)
    client.settings_applied = []  # (arrival, the log message) of each settings change
    client.refreshes = defaultdict(int)
    client.registrations = []
    client.publish_event = asyncio.Condition()

    async def inlay_refresh(client: LanguageClient, params: None) -> None:
        await record_refresh(client, types.WORKSPACE_INLAY_HINT_REFRESH)

    async def lens_refresh(client: LanguageClient, params: None) -> None:
        await record_refresh(client, types.WORKSPACE_CODE_LENS_REFRESH)

    def register_capability(client: LanguageClient, params: types.RegistrationParams) -> None:
        client.registrations.extend(r.method for r in params.registrations)

    handlers = {
        **DEFAULT_CLIENT_FEATURES,
        types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: record_diagnostics,
        types.WORKSPACE_INLAY_HINT_REFRESH: inlay_refresh,
        types.WORKSPACE_CODE_LENS_REFRESH: lens_refresh,
        types.CLIENT_REGISTER_CAPABILITY: register_capability,
        types.WINDOW_LOG_MESSAGE: record_log,
        **(features or {}),
    }
    register_lsp_features(client, handlers)
    return client


async def wait_until(client: LanguageClient, condition) -> None:
    """Wait on the client's events (publishes, refreshes) until `condition()` holds."""
    async with client.publish_event:
        await asyncio.wait_for(client.publish_event.wait_for(condition), TIMEOUT_S)


async def wait_for_publish(client: LanguageClient, uri: str, condition) -> types.PublishDiagnosticsParams:
    """The first publish for `uri` meeting `condition(params)` (waits on the publish handler's event)."""

    def found():
        return next((p for p in client.published[uri] if condition(p)), None)

    async with client.publish_event:
        await asyncio.wait_for(client.publish_event.wait_for(found), TIMEOUT_S)
    return found()


async def settings_applied(client: LanguageClient, text: str, after: int) -> int:
    """Wait until a settings change holding `text` is announced after arrival `after`; its arrival.
    The server announces a change before it analyses every open document again under it (dropping
    the analyses in flight), so a publish arriving later was made under it."""

    def found():
        return next((n for n, message in client.settings_applied if n > after and text in message), None)

    await wait_until(client, found)
    return found()


def announced(settings: dict, folder: Path | None = None) -> str:
    """How the server's settings log shows `settings` applied as the default ones (or as `folder`'s)."""
    parsed, _ = EditorSettings.parse(settings)
    return f"{folder!r}: {parsed!r}" if folder is not None else f"settings: {parsed!r};"


async def configure(client: LanguageClient, settings: dict) -> int:
    """Set the `greenlint` section, tell the server, and wait until it has pulled and applied it
    (not on a refresh: an analysis made under the settings before, landing, refreshes too); the
    arrival of its announcement (`publish_after`). They must differ from those in force: settings
    that change nothing are not announced."""
    client.set_configuration(settings, section="greenlint")
    before = client.arrivals
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    return await settings_applied(client, announced(settings), before)


async def publish_after(client: LanguageClient, uri: str, after: int) -> types.PublishDiagnosticsParams:
    """The first publish for `uri` arriving after arrival `after`."""

    def found():
        return next((p for p, n in zip(client.published[uri], client.published_at[uri]) if n > after), None)

    await wait_until(client, found)
    return found()


async def wait_for_diagnostics(client: LanguageClient, uri: str, version: int) -> types.PublishDiagnosticsParams:
    """The first publish for `uri` at `version`."""
    return await wait_for_publish(client, uri, lambda p: p.version == version)


async def open_document(client: LanguageClient, path: Path, text: str) -> types.PublishDiagnosticsParams:
    """Write `text` to `path`, open it in the server, and return its first pushed diagnostics."""
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text))
    )
    return await wait_for_diagnostics(client, uri, 1)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("workspace")
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    return root


SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "greenlint", "lsp"], client_factory=make_client)


@pytest_lsp.fixture(scope="module", config=SERVER)
async def client(lsp_client: LanguageClient, workspace: Path):
    capabilities = pytest_lsp.client_capabilities("visual-studio-code")
    # the recorded VS Code (1.65) predates LSP notebook sync, which VS Code declares since 1.74
    capabilities.notebook_document = types.NotebookDocumentClientCapabilities(
        synchronization=types.NotebookDocumentSyncClientCapabilities()
    )
    # and inlay hints (LSP 3.17, VS Code 1.67): VS Code answers workspace/inlayHint/refresh
    capabilities.workspace.inlay_hint = types.InlayHintWorkspaceClientCapabilities(refresh_support=True)
    folder = types.WorkspaceFolder(workspace.as_uri(), "workspace")
    lsp_client.initialize_result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=capabilities, root_uri=folder.uri, workspace_folders=[folder])
    )
    yield
    await lsp_client.shutdown_session()
