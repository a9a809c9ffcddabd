"""`greenlint/fileTotal` from `greenlint lsp`: a file's or notebook's predicted total (the VS Code
status bar's figure), the same sum as the code lens and as the check pipeline in this process."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from greenlint.check.config import Config
from greenlint.lsp_server.analysis import analyse_text, join_cells
from greenlint.lsp_server.energy_text import HINT_MAX
from greenlint.predict import load_predictor
from greenlint.report.html import calls_html
from greenlint.units import fmt_j
from tests.lsp_server.conftest import open_document, wait_for_diagnostics
from tests.lsp_server.samples import NOTEBOOK, TRAIN

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]
FILE_TOTAL = "greenlint/fileTotal"


def _joules(text: str, path: Path, offsets: tuple[int, ...] | None = None) -> tuple[float, int]:
    """(joules x loops summed, calls with an estimate) of `text`, from the check pipeline in this process."""
    result = analyse_text(text, str(path), Config(), load_predictor().predict, offsets)
    known = [s.total_energy_j for s in result.sites if s.total_energy_j is not None]
    return sum(known), len(known)


async def _total(client: LanguageClient, uri: str):
    return await client.protocol.send_request_async(FILE_TOTAL, {"textDocument": {"uri": uri}})


async def test_a_file_total_is_the_code_lens_figure(client: LanguageClient, workspace: Path):
    path = workspace / "total.py"
    await open_document(client, path, TRAIN)
    total = await _total(client, path.as_uri())
    joules, calls = _joules(TRAIN, path)
    assert total.calls == calls and calls > 0
    assert total.joules == pytest.approx(joules)
    [lens] = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(path.as_uri())))
    assert f"⚡ {total.label}" == lens.command.title
    assert f" in this file ({calls} TF/Keras calls: " in total.label


#: A floor (data read at run time) beside ranges: lens, status bar and report used to disagree here.
WITH_A_FLOOR = TRAIN + 'data = np.loadtxt("data.csv")\nmodel.fit(data, data, epochs=3)\n'


async def test_lens_status_bar_and_report_show_one_total(client: LanguageClient, workspace: Path):
    path = workspace / "one_total.py"
    await open_document(client, path, WITH_A_FLOOR)
    total = await _total(client, path.as_uri())
    [lens] = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(path.as_uri())))
    result = analyse_text(WITH_A_FLOOR, str(path), Config(), load_predictor().predict)
    report = calls_html((s.callsite, s.prediction) for s in result.sites)
    assert " – " in total.short  # the figures are ranges (a floor among them): so is the total
    assert lens.command.title.startswith(f"⚡ {total.short} in this file (")
    assert "; 1 floor (data size or FLOPs unknown))" in lens.command.title
    assert f"{total.short} in all for one run of the program" in report
    assert "1 floor (data size or FLOPs unknown)" in report
    assert total.low <= total.joules <= total.high


async def test_no_total_for_a_file_without_calls_or_not_open(client: LanguageClient, workspace: Path):
    path = workspace / "plain.py"
    await open_document(client, path, "x = 1\n")
    assert await _total(client, path.as_uri()) is None
    assert await _total(client, (workspace / "never_opened.py").as_uri()) is None


async def test_a_notebook_total_sums_every_cell(client: LanguageClient, workspace: Path):
    path = workspace / "total.ipynb"
    cells = [f"vscode-notebook-cell:{path}#W{i}sZmlsZQ%3D%3D" for i in range(len(NOTEBOOK))]
    kinds = {"code": types.NotebookCellKind.Code, "markdown": types.NotebookCellKind.Markup}
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=path.as_uri(),
                notebook_type="jupyter-notebook",
                version=1,
                cells=[types.NotebookCell(kinds[kind], uri) for (kind, _), uri in zip(NOTEBOOK, cells)],
            ),
            cell_text_documents=[
                types.TextDocumentItem(uri, "python" if kind == "code" else "markdown", 1, text)
                for (kind, text), uri in zip(NOTEBOOK, cells)
            ],
        )
    )
    await wait_for_diagnostics(client, cells[3], 1)
    text, offsets = join_cells([text for kind, text in NOTEBOOK if kind == "code"])
    joules, calls = _joules(text, path, offsets)
    # from the notebook or any of its code cells (the status bar asks for the active cell): the whole notebook
    for uri in (path.as_uri(), cells[0], cells[3]):
        total = await _total(client, uri)
        assert (total.calls, total.joules) == (calls, pytest.approx(joules)), uri
        assert " in this notebook (" in total.label, total.label
    assert calls == 5  # every TF/Keras call of the three code cells, not only the active one's


#: TRAIN's ranges beside a floor (data read at run time) in a loop of unknown length (`for path in paths`).
FLOOR_IN_AN_UNKNOWN_LOOP = TRAIN + "for path in paths:\n    data = np.load(path)\n    model.fit(data, data, epochs=3)\n"


async def test_hover_lens_status_bar_report_and_hints_tell_one_story(client: LanguageClient, workspace: Path):
    """Issue 29 items 13–15 and 17 without the real editor: for a file with floors, ranges and a loop
    of unknown length, the lens, the status bar and the report's header show one total (a range);
    the floor's hover starts its figure at the total's own "at least" and says that its count of
    runs is unknown, as the total's label does; every hint fits VS Code's limit."""
    path = workspace / "one_story.py"
    await open_document(client, path, FLOOR_IN_AN_UNKNOWN_LOOP)
    uri = types.TextDocumentIdentifier(path.as_uri())
    total = await _total(client, path.as_uri())
    [lens] = await client.text_document_code_lens_async(types.CodeLensParams(uri))
    result = analyse_text(FLOOR_IN_AN_UNKNOWN_LOOP, str(path), Config(), load_predictor().predict)
    report = calls_html((s.callsite, s.prediction) for s in result.sites)
    assert " – " in total.short and lens.command.title.startswith(f"⚡ {total.short} in this file (")
    assert f"{total.short} in all for one run of the program" in report
    unknown = "1 call run an unknown number of times"
    assert unknown in total.label and unknown in lens.command.title and unknown in report
    [floor] = [s for s in result.sites if s.prediction.floor]
    line = floor.callsite.span.line - 1
    hover = await client.text_document_hover_async(types.HoverParams(uri, types.Position(line, 12)))
    text = hover.contents.value
    assert f"**at least {fmt_j(floor.prediction.energy_j)}** per execution" in text
    assert f"up to {fmt_j(floor.prediction.interval_j[1])} if " in text and "the most stated" not in text
    assert "an unknown number of runs per program run" in text
    assert floor.prediction.energy_j <= total.low and floor.prediction.interval_j[1] <= total.high  # its share
    whole = types.Range(types.Position(0, 0), types.Position(len(FLOOR_IN_AN_UNKNOWN_LOOP.splitlines()), 0))
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(uri, whole))
    assert hints and all(len(h.label) <= HINT_MAX for h in hints), [h.label for h in hints]
