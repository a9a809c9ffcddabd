"""The editor's documents as pygls keeps them, their lines split where the LSP splits them.

pygls applies an incremental change by the document's `lines`, which it splits with
`str.splitlines`: that also breaks at a form feed (PEP 8's page break), U+2028/9, \\x1c-\\x1e and
NEL, which the LSP and Python do not. Below such a character every edit landed a line off, and the
server's text drifted from the editor's without a word. `SourceWorkspace` makes every document
(a file, a notebook cell) a `SourceDocument`, whose lines are `sources.lines_with_endings`.
It overrides pygls' private `Workspace._create_text_document`: pyproject.toml keeps pygls below 3,
and tests/hardening/test_line_breaks.py fails if a release stops calling it.
"""

from __future__ import annotations

from pygls.workspace import TextDocument, Workspace

from greenlint.analysis.sources import lines_with_endings


class SourceDocument(TextDocument):
    """A pygls document whose lines are split at `\\n`, `\\r\\n` and `\\r` only."""

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(lines_with_endings(self.source)) if self.source else ()


class SourceWorkspace(Workspace):
    """pygls' workspace, making `SourceDocument`s."""

    def _create_text_document(self, doc_uri, source=None, version=None, language_id=None) -> TextDocument:
        return SourceDocument(doc_uri, source=source, version=version, language_id=language_id,
                              sync_kind=self._sync_kind, position_codec=self._position_codec)
