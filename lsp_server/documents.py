"""What an editor document sees of an analysis: a .py file all of it, a notebook cell its own part,
moved through the edits made since the analysed version."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from urllib.parse import unquote

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace

from greenlint.analysis.callsite import Span
from greenlint.analysis.sources import lines_with_endings
from greenlint.lsp_server.analysis import Analysis
from greenlint.lsp_server.edits import LineMap, with_span
from greenlint.lsp_server.positions import contains
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import Site


@dataclass(frozen=True)
class View:
    """One document (a file, or one code cell of a notebook) now, and the analysis covering it."""

    uri: str
    version: int | None  # the document's current version
    text: str  # the document's current text
    analysis: Analysis  # the newest analysis that parsed (else the newest one)
    cell: int | None = None  # 1-based index among the analysed notebook's Python code cells (0: not analysed)
    moved: LineMap = field(default_factory=LineMap)  # the edits made since the analysed version
    #: Diagnostics of a newer analysis that did not parse (its syntax errors), in current positions.
    extra: tuple[Diagnostic, ...] = ()
    #: What features computed from this view (labels), kept as long as the view is current.
    memo: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def stale(self) -> bool:
        """Whether the document changed since the analysis its findings come from."""
        return bool(self.moved) or bool(self.extra)

    @property
    def analysed_version(self) -> int | None:
        """The version of this document the analysis read (its figures are that text's)."""
        return next((version for uri, version in self.analysis.documents if uri == self.uri), self.analysis.version)

    @cached_property
    def lines(self) -> list[str]:
        return lines_with_endings(self.text)

    def covers(self, cell: int | None) -> bool:
        """Whether a span in `cell` belongs here (a notebook's file-level findings go to its first cell)."""
        return cell == self.cell or (self.cell == 1 and cell is None)

    @cached_property
    def sites(self) -> tuple[Site, ...]:
        """This document's call sites where they are now (gone ones left out)."""
        mine = self._mine
        if not self.moved:
            return tuple(mine)
        out = []
        for site in mine:
            span, _ = self.moved.span(site.callsite.span)
            if span is site.callsite.span:
                out.append(site)
            elif span is not None:
                out.append(Site(with_span(site.callsite, span), site.prediction))
        return tuple(out)

    @cached_property
    def _mine(self) -> tuple[Site, ...]:
        return tuple(s for s in self.analysis.sites if self.covers(s.callsite.span.cell))

    @cached_property
    def sites_by_end_line(self) -> dict[int, list[Site]]:
        """Current 0-based line -> the call sites ending on it, in line order (where inlay hints go).
        Cheap after edits: only line numbers move; the sites keep their analysed spans."""
        analysed: dict[int, list[Site]] = {}
        for site in self._mine:
            analysed.setdefault(site.callsite.span.end_line - 1, []).append(site)
        lines: dict[int, list[Site]] = {}
        for line in sorted(analysed):
            now, _ = self.moved.line(line) if self.moved else (line, False)
            if now is not None:
                lines.setdefault(now, []).extend(analysed[line])
        return lines

    def sites_at(self, line: int, character: int) -> list[tuple[Site, Span]]:
        """(call site as analysed, its span now) of the sites holding 0-based (line, character), innermost last."""
        before = self.moved.back(line) if self.moved else line
        if before is None:
            return []  # a line typed since the analysis
        found = []
        for site in self._mine:
            span = site.callsite.span
            if span.line - 1 <= before <= span.end_line - 1:
                now, _ = self.moved.span(span)
                if now is not None and contains(now, line, character):
                    found.append((site, now))
        return sorted(found, key=lambda found: (found[1].line, found[1].column, -found[1].end_line, -found[1].end_column))

    @cached_property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """The analysis' findings where they are now (without fixes: a code action computes one
        on request, while the view is not `stale`), then `extra`."""
        mine = [d for d in self.analysis.diagnostics if self.covers(d.span.cell)]
        if self.stale:
            moved = ((self.moved.span(d.span)[0], d) for d in mine)
            mine = [with_span(d, span) for span, d in moved if span]
        return (*mine, *(d for d in self.extra if self.covers(d.span.cell)))


def python_cells(workspace: Workspace, notebook: types.NotebookDocument) -> list[TextDocument]:
    """The open text documents of a notebook's Python code cells, in order. A cell the notebook
    lists without its text (a client that sent no `cellTextDocuments` entry for it) is left out:
    pygls' `get_text_document` would read its URI from disk, and fail (the analysis died and every
    request on the notebook waited for it)."""
    opened = workspace.text_documents
    code = (opened.get(unquote(c.document)) for c in notebook.cells if c.kind == types.NotebookCellKind.Code)
    return [d for d in code if d is not None and d.language_id in (None, "python")]
