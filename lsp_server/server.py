"""The greenlint language server: shared state, plus one module per feature under `features/`."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from greenlint import __version__
from lsp_server.analysis import Analyses, Settings, join_cells
from lsp_server.documents import View, python_cells

#: Notebooks whose Python cells are synchronised as one notebook (LSP 3.17 notebook sync).
NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        types.NotebookDocumentFilterWithCells(
            cells=[types.NotebookCellLanguage(language="python")], notebook="jupyter-notebook"
        )
    ],
    save=True,
)


class GreenlintServer(LanguageServer):
    """A pygls server holding the analyses of open documents; features register on it."""

    def __init__(self, settings: Settings = Settings()):
        super().__init__(
            "greenlint",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=NOTEBOOK_SYNC,
        )
        self.analyses = Analyses(settings)

    def path_of(self, uri: str, name: str | None = None) -> Path:
        """The file behind a URI (another scheme's document is placed in the workspace root, for configuration)."""
        path = to_fs_path(uri) if uri.startswith("file:") else None
        if path:
            return Path(path)
        root = Path(self.workspace.root_path) if self.workspace.root_path else Path.cwd()
        name = name or "untitled.py"
        return root / (name if name.endswith((".py", ".ipynb")) else f"{name}.py")

    def is_open(self, uri: str) -> bool:
        return uri in self.workspace.text_documents

    async def views(self, uri: str) -> list[View]:
        """The current analysis of a text document (one view) or of a notebook (one view per Python cell)."""
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is not None:
            return await self._notebook_views(notebook)
        document: TextDocument = self.workspace.get_text_document(uri)
        version, text = document.version, document.source
        analysis = await self.analyses.get(uri, version, text, self.path_of(uri, document.filename))
        return [View(uri, version, text, analysis)]

    async def view(self, uri: str) -> View | None:
        """The view of one document (a notebook cell's within its notebook's analysis); None for a non-Python cell."""
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        if notebook is None:
            return (await self.views(uri))[0]
        return next((v for v in await self._notebook_views(notebook) if v.uri == uri), None)

    async def _notebook_views(self, notebook: types.NotebookDocument) -> list[View]:
        cells = [(d.uri, d.version, d.source) for d in python_cells(self.workspace, notebook)]
        text, offsets = join_cells([source for _, _, source in cells])
        path = self.path_of(notebook.uri, "notebook.ipynb")
        analysis = await self.analyses.get(notebook.uri, notebook.version, text, path, offsets)
        return [View(uri, version, source, analysis, index) for index, (uri, version, source) in enumerate(cells, 1)]


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
