"""What an editor document sees of an analysis: a .py file all of it, a notebook cell its own part."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace

from greenlint.rules.base import Site
from greenlint.rules.diagnostic import Diagnostic
from lsp_server.analysis import Analysis


@dataclass(frozen=True)
class View:
    """One document (a file, or one code cell of a notebook) and the analysis covering it."""

    uri: str
    version: int | None
    text: str  # the text the analysis saw for this document
    analysis: Analysis
    cell: int | None = None  # 1-based index among the notebook's Python code cells

    @cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines(keepends=True)

    def covers(self, cell: int | None) -> bool:
        """Whether a span in `cell` belongs here (a notebook's file-level findings go to its first cell)."""
        return cell == self.cell or (self.cell == 1 and cell is None)

    @cached_property
    def sites(self) -> tuple[Site, ...]:
        return tuple(s for s in self.analysis.sites if self.covers(s.callsite.span.cell))

    @cached_property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.analysis.diagnostics if self.covers(d.span.cell))


def python_cells(workspace: Workspace, notebook: types.NotebookDocument) -> list[TextDocument]:
    """The text documents of a notebook's Python code cells, in order."""
    code = (cell.document for cell in notebook.cells if cell.kind == types.NotebookCellKind.Code)
    return [d for d in map(workspace.get_text_document, code) if d.language_id in (None, "python")]
