"""Push diagnostics: each open file or notebook's findings, published when its analysis lands.

Every `textDocument/publishDiagnostics` carries the version of the document it describes. While
a newer text does not parse, the last good findings stay (moved through the edits since) and the
syntax error is added to them. A notebook is checked as one module (its cells share a namespace)
and each Python cell gets its own diagnostics.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from greenlint.lsp_server.analysis import Analysis
from greenlint.lsp_server.positions import to_range
from greenlint.lsp_server.server import GreenlintServer
from greenlint.rules.diagnostic import Diagnostic

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
    published_cells: dict[str, set[str]] = {}  # notebook URI -> cell URIs given diagnostics
    reported_config_errors: set[str] = set()

    def clear(uris) -> None:
        for uri in uris:
            server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def publish(analysis: Analysis) -> None:
        uri = analysis.uri
        error = analysis.config_error
        if error and error not in reported_config_errors:
            reported_config_errors.add(error)
            message = f"greenlint: {error} (using the default settings)"
            server.window_show_message(types.ShowMessageParams(types.MessageType.Warning, message))
        notebook = server.workspace.get_notebook_document(notebook_uri=uri)
        documents = [uri] if notebook is None else [uri for uri, _ in analysis.documents]
        codec = server.workspace.position_codec
        for view in filter(None, map(server.view_now, documents)):
            diagnostics = [to_lsp(d, view.lines, codec) for d in view.diagnostics]
            server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=view.uri, diagnostics=diagnostics, version=view.version)
            )
        if notebook is not None:  # clear cells deleted or no longer Python
            cells = set(documents)
            clear(published_cells.get(uri, set()) - cells)
            published_cells[uri] = cells

    def closed(owner: str, documents: Sequence[str]) -> None:
        clear({*documents, *published_cells.pop(owner, set())})

    server.analyses.listeners.append(publish)
    server.closed_listeners.append(closed)
