"""The greenlint language server: shared state, plus one module per feature under `features/`."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from greenlint import __version__
from lsp_server.analysis import Analyses, Analysis, Settings


class GreenlintServer(LanguageServer):
    """A pygls server holding the analyses of open documents; features register on it."""

    def __init__(self, settings: Settings = Settings()):
        super().__init__("greenlint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.analyses = Analyses(settings)

    def document_path(self, document: TextDocument) -> Path:
        """The file a document is (an untitled one is placed in the workspace root, for configuration)."""
        if document.uri.startswith("file:"):
            return Path(document.path)
        root = Path(self.workspace.root_path) if self.workspace.root_path else Path.cwd()
        name = document.filename or "untitled.py"
        return root / (name if name.endswith(".py") else f"{name}.py")

    def is_open(self, uri: str) -> bool:
        return uri in self.workspace.text_documents

    async def analysis(self, uri: str) -> Analysis:
        """The analysis of the document's current text (computed now if need be)."""
        document = self.workspace.get_text_document(uri)
        return await self.analyses.get(uri, document.version, document.source, self.document_path(document))


def build_server(settings: Settings = Settings()) -> GreenlintServer:
    """A server with every feature registered."""
    from lsp_server.features import FEATURES

    server = GreenlintServer(settings)
    for feature in FEATURES:
        feature.register(server)

    @server.feature(types.SHUTDOWN)
    def shutdown(params: None) -> None:
        server.analyses.close()

    return server
