"""Push diagnostics: each open file or notebook is checked on open, on save and, debounced, after edits.

Every `textDocument/publishDiagnostics` carries the version of the text it was computed from;
results for a text the user has since changed are dropped, not published. A notebook is checked
as one module (its cells share a namespace) and each Python cell gets its own diagnostics.
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
    published_cells: dict[str, set[str]] = {}  # notebook URI -> cell URIs given diagnostics
    reported_config_errors: set[str] = set()

    def clear(uris) -> None:
        for uri in uris:
            server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def current_version(uri: str) -> int | None | bool:
        """The version of the open file or notebook `uri`; False when it is not open."""
        notebook = server.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is not None:
            return notebook.version
        document = server.workspace.text_documents.get(uri)
        return False if document is None else document.version

    async def publish(uri: str, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        if current_version(uri) is False:
            return
        views = await server.views(uri)
        if not views or current_version(uri) != views[0].analysis.version:
            return  # closed or edited meanwhile: a newer task publishes
        error = views[0].analysis.config_error
        if error and error not in reported_config_errors:
            reported_config_errors.add(error)
            message = f"greenlint: {error} (using the default settings)"
            server.window_show_message(types.ShowMessageParams(types.MessageType.Warning, message))
        codec = server.workspace.position_codec
        for view in views:
            diagnostics = [to_lsp(d, view.lines, codec) for d in view.diagnostics]
            server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=view.uri, diagnostics=diagnostics, version=view.version)
            )
        if views[0].cell is not None:  # clear cells deleted or no longer Python
            cells = {view.uri for view in views}
            clear(published_cells.get(uri, set()) - cells)
            published_cells[uri] = cells

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

    def close(uri: str, documents: Sequence[str]) -> None:
        task = pending.pop(uri, None)
        if task is not None:
            task.cancel()
        server.analyses.forget(uri)
        clear({*documents, *published_cells.pop(uri, set())})

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
        close(params.text_document.uri, [params.text_document.uri])

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_opened(params: types.DidOpenNotebookDocumentParams) -> None:
        schedule(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_changed(params: types.DidChangeNotebookDocumentParams) -> None:
        schedule(params.notebook_document.uri, DEBOUNCE_S)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_saved(params: types.DidSaveNotebookDocumentParams) -> None:
        schedule(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_closed(params: types.DidCloseNotebookDocumentParams) -> None:
        close(params.notebook_document.uri, [cell.uri for cell in params.cell_text_documents])

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched_files_changed(params: types.DidChangeWatchedFilesParams) -> None:
        """A pyproject.toml changed: re-check every open document under the configuration now in force."""
        notebooks = server.workspace.notebook_documents
        in_notebooks = {cell.document for notebook in notebooks.values() for cell in notebook.cells}
        for uri in [*notebooks, *(u for u in server.workspace.text_documents if u not in in_notebooks)]:
            schedule(uri)
