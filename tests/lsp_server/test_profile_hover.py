"""A call site profiled on this machine (`greenlint measure`'s profile file) as the editor shows it:
measured here, with the forecast beside it; profile stale once the statement is edited."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from greenlint.hardware import hardware_id
from greenlint.profile import store
from greenlint.profile.lookup import statement_hash
from tests.lsp_server.conftest import open_document, wait_for_diagnostics
from tests.lsp_server.samples import TRAIN

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


def _profile_fit(path: Path) -> None:
    """A profile of the `fit` on line 7 of TRAIN, as `greenlint measure` records it (0.25 J per execution)."""
    lines = TRAIN.splitlines()
    site = {
        "api": "tensorflow.keras.Sequential.fit", "line": 7, "column": 1, "end_line": 7, "end_column": 52,
        "cell": None, "statement": statement_hash(lines, 7, 7), "executions": 9, "median_j": 0.25,
        "iqr_j": [0.2, 0.3], "interval_j": [0.15, 0.4], "time_s": 0.01, "cpu_j": 0.2, "gpu_j": None,
        "ram_j": 0.05, "counter": "cpu: rapl", "estimated": False, "resolved": True, "hardware_id": hardware_id(),
        "date": "2026-11-24T01:00:00+00:00", "note": "9 executions",
    }  # fmt: skip
    store.record(store.profile_file_for_writing(path), path, [site], hardware_id())


async def _hover(client: LanguageClient, uri: str) -> str:
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(6, 7))
    )
    return hover.contents.value


async def _hint(client: LanguageClient, uri: str) -> str:
    [hint] = await client.text_document_inlay_hint_async(
        types.InlayHintParams(types.TextDocumentIdentifier(uri), types.Range(types.Position(6, 0), types.Position(6, 60)))
    )
    return hint.label


async def test_measured_here_then_stale(client: LanguageClient, workspace: Path):
    path = workspace / "profiled" / "train.py"
    path.parent.mkdir()
    path.write_text(TRAIN, encoding="utf-8")
    _profile_fit(path)
    await open_document(client, path, TRAIN)
    uri = path.as_uri()
    text = await _hover(client, uri)
    assert text.startswith("**`tensorflow.keras.Sequential.fit`** · greenlint energy (measured here)")
    assert "**Measured here**: **0.25 J** per execution (IQR 0.2 J – 0.3 J) over 9 executions (cpu: rapl," in text
    assert "- forecast beside it: " in text and "(from data)" in text.split("forecast beside it: ")[1]
    assert await _hint(client, uri) == "⚡ 0.25 J (measured here)"

    edit = types.Range(types.Position(6, 39), types.Position(6, 40))  # `batch_size=2` -> `batch_size=4`
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [types.TextDocumentContentChangePartial(edit, "4")],
        )
    )
    await wait_for_diagnostics(client, uri, 2)
    text = await _hover(client, uri)
    assert "greenlint energy (from data, profile stale)" in text
    assert "**Profile stale**: the statement changed since it was measured; figures above are the forecast" in text
    assert (await _hint(client, uri)).endswith("(from data, profile stale)")
