"""Push diagnostics: each open document is checked on open, on save and, debounced, after edits.

Every `textDocument/publishDiagnostics` carries the version of the text it was computed from;
results for a text the user has since changed are dropped, not published.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from greenlint.rules.diagnostic import Diagnostic
from lsp_server.positions import to_range
from lsp_server.server import GreenlintServer

#: Seconds of quiet after an edit before the document is checked again.
DEBOUNCE_S = 0.3
SOURCE = "greenlint"
SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}


def to_lsp(d: Diagnostic, lines: Sequence[str], codec: PositionCodec) -> types.Diagnostic:
    """A greenlint Diagnostic as the LSP sees it (an empty span covers the rest of its line)."""
    return types.Diagnostic(
        range=to_range(d.span, lines, codec, widen_empty=True),
        message=d.message,
        severity=SEVERITY.get(d.severity, types.DiagnosticSeverity.Warning),
        code=d.code,
        source=SOURCE,
        data={"name": d.name},
    )


def register(server: GreenlintServer) -> None:
    pending: dict[str, asyncio.Task] = {}
    reported_config_errors: set[str] = set()

    async def publish(uri: str, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        if not server.is_open(uri):
            return
        analysis = await server.analysis(uri)
        document = server.workspace.text_documents.get(uri)
        if document is None or document.version != analysis.version:
            return  # closed or edited meanwhile: a newer task publishes
        if analysis.config_error and analysis.config_error not in reported_config_errors:
            reported_config_errors.add(analysis.config_error)
            server.window_show_message(
                types.ShowMessageParams(
                    types.MessageType.Warning, f"greenlint: {analysis.config_error} (using the default settings)"
                )
            )
        codec = server.workspace.position_codec
        diagnostics = [to_lsp(d, analysis.lines, codec) for d in analysis.diagnostics if d.span.cell is None]
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=analysis.version)
        )

    def schedule(uri: str, delay: float = 0.0) -> None:
        previous = pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        task = asyncio.ensure_future(publish(uri, delay))
        pending[uri] = task

        def finished(done: asyncio.Task) -> None:
            if pending.get(uri) is done:
                del pending[uri]

        task.add_done_callback(finished)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        schedule(params.text_document.uri, DEBOUNCE_S)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        task = pending.pop(uri, None)
        if task is not None:
            task.cancel()
        server.analyses.forget(uri)
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched_files_changed(params: types.DidChangeWatchedFilesParams) -> None:
        """A pyproject.toml changed: re-check every open document under the configuration now in force."""
        for uri in list(server.workspace.text_documents):
            schedule(uri)
