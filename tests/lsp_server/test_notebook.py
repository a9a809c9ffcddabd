"""Jupyter notebooks in `greenlint lsp` (LSP notebook sync): one analysis, diagnostics per cell."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import LanguageClient

from greenlint.check.config import load_config
from greenlint.check.pipeline import check_source
from tests.lsp_server.conftest import wait_for_diagnostics, wait_for_publish
from tests.lsp_server.samples import NOTEBOOK, TRAIN

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]
KIND = {"code": types.NotebookCellKind.Code, "markdown": types.NotebookCellKind.Markup}


def _range(line: int, start: int, end: int) -> types.Range:
    return types.Range(types.Position(line, start), types.Position(line, end))


class Notebook:
    def __init__(self, path: Path):
        self.path = path
        self.uri = path.as_uri()
        # as VS Code names cells: a base64 fragment whose `=` is percent-encoded (pygls keys documents unquoted)
        self.cells = [f"vscode-notebook-cell:{path}#W{i}sZmlsZQ%3D%3D" for i in range(len(NOTEBOOK))]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def notebook(client: LanguageClient, workspace: Path) -> Notebook:
    nb = Notebook(workspace / "explore.ipynb")
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=nb.uri,
                notebook_type="jupyter-notebook",
                version=1,
                cells=[types.NotebookCell(KIND[kind], uri) for (kind, _), uri in zip(NOTEBOOK, nb.cells)],
            ),
            cell_text_documents=[
                types.TextDocumentItem(uri, "python" if kind == "code" else "markdown", 1, text)
                for (kind, text), uri in zip(NOTEBOOK, nb.cells)
            ],
        )
    )
    await wait_for_diagnostics(client, nb.cells[3], 1)
    return nb


async def test_capabilities(client: LanguageClient):
    sync = client.initialize_result.capabilities.notebook_document_sync
    [selector] = sync.notebook_selector
    assert selector.notebook == "jupyter-notebook"
    assert [c.language for c in selector.cells] == ["python"]


async def test_diagnostics_per_cell(client: LanguageClient, notebook: Notebook, workspace: Path):
    # the same findings as the .py file holding the same code, at cell-relative positions
    [hotspot] = [d for d in check_source(TRAIN, str(workspace / "t.py"), load_config([workspace])) if d.code == "GL101"]
    [published] = [p for p in client.published[notebook.cells[3]] if p.version == 1]
    assert [(d.code, d.range, d.source) for d in published.diagnostics] == [
        ("GL101", _range(1, 4, 42), "greenlint"),
        ("GL301", _range(2, 0, 51), "greenlint"),
    ]
    assert published.diagnostics[0].message == hotspot.message
    for cell in (notebook.cells[0], notebook.cells[2]):
        assert [list(p.diagnostics) for p in client.published[cell]] == [[]]
    assert notebook.cells[1] not in client.published  # markdown


async def test_hover_and_hints_in_a_cell(client: LanguageClient, notebook: Notebook):
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(notebook.cells[3]), types.Position(1, 11))
    )
    assert hover.contents.value.startswith("**`tensorflow.keras.Sequential.fit`**")
    assert "× 4 runs per program run" in hover.contents.value
    assert hover.range == _range(1, 4, 42)
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            types.TextDocumentIdentifier(notebook.cells[2]), types.Range(types.Position(0, 0), types.Position(2, 0))
        )
    )
    assert [h.position for h in hints] == [types.Position(0, 56), types.Position(1, 43)]


async def test_noqa_action_edits_the_cell(client: LanguageClient, notebook: Notebook):
    [small_batch] = [d for d in client.diagnostics[notebook.cells[3]] if d.code == "GL301"]
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(notebook.cells[3]), small_batch.range, types.CodeActionContext([small_batch])
        )
    )
    [action] = actions
    [change] = action.edit.document_changes
    assert (change.text_document.uri, change.text_document.version) == (notebook.cells[3], 1)
    assert list(change.edits) == [types.TextEdit(_range(2, 51, 51), "  # noqa: GL301")]


def _edit_cell(client: LanguageClient, notebook: Notebook, cell: int, version: int, range_: types.Range, text: str):
    """Change one cell's text; the cell and the notebook both take `version`."""
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            types.VersionedNotebookDocumentIdentifier(version=version, uri=notebook.uri),
            types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    text_content=[
                        types.NotebookDocumentCellContentChanges(
                            types.VersionedTextDocumentIdentifier(uri=notebook.cells[cell], version=version),
                            [types.TextDocumentContentChangePartial(range=range_, text=text)],
                        )
                    ]
                )
            ),
        )
    )


async def test_typing_in_a_cell_keeps_its_findings_while_it_does_not_parse(client: LanguageClient, notebook: Notebook):
    _edit_cell(client, notebook, 3, 2, _range(0, 0, 0), "model.evaluate(\n")
    hover = await client.text_document_hover_async(  # answered at once, moved one line down
        types.HoverParams(types.TextDocumentIdentifier(notebook.cells[3]), types.Position(2, 11))
    )
    assert hover.range == _range(2, 4, 42)
    broken = await wait_for_diagnostics(client, notebook.cells[3], 2)
    assert [(d.code, d.range.start.line) for d in broken.diagnostics] == [("GL101", 2), ("GL301", 3), ("GL001", 0)]
    _edit_cell(client, notebook, 3, 3, types.Range(types.Position(0, 0), types.Position(1, 0)), "")
    again = await wait_for_diagnostics(client, notebook.cells[3], 3)
    assert [(d.code, d.range) for d in again.diagnostics] == [("GL101", _range(1, 4, 42)), ("GL301", _range(2, 0, 51))]


async def test_cell_edits_and_close(client: LanguageClient, notebook: Notebook):
    # drop the loop's fit() from cell 4: the hotspot goes, the small batch stays
    _edit_cell(client, notebook, 3, 4, _range(1, 4, 42), "pass")
    edited = await wait_for_diagnostics(client, notebook.cells[3], 4)
    assert [(d.code, d.range) for d in edited.diagnostics] == [("GL301", _range(2, 0, 51))]

    client.notebook_document_did_close(
        types.DidCloseNotebookDocumentParams(
            types.NotebookDocumentIdentifier(notebook.uri),
            [types.TextDocumentIdentifier(uri) for uri in notebook.cells],
        )
    )
    cleared = await wait_for_publish(client, notebook.cells[3], lambda p: p.version is None)
    assert list(cleared.diagnostics) == []
