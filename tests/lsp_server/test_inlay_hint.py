"""Inlay hints from `greenlint lsp`: predicted energy at the end of each line ending TF calls."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import LanguageClient

from greenlint.units import TIMES, fmt_energy
from tests.lsp_server.conftest import open_document
from tests.lsp_server.samples import TRAIN, predicted

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def document(client: LanguageClient, workspace: Path) -> Path:
    path = workspace / "hints.py"
    await open_document(client, path, TRAIN)
    return path


async def _hints(client: LanguageClient, path: Path, first: int, last: int) -> list[types.InlayHint]:
    return await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            types.TextDocumentIdentifier(path.as_uri()),
            types.Range(types.Position(first, 0), types.Position(last, 0)),
        )
    )


async def test_capabilities(client: LanguageClient):
    assert client.initialize_result.capabilities.inlay_hint_provider


def _bracketed(text: str) -> str:
    return f"({text})" if " – " in text else text


async def test_capabilities_resolve(client: LanguageClient):
    assert client.initialize_result.capabilities.inlay_hint_provider.resolve_provider is True


async def test_hints_in_range(client: LanguageClient, document: Path):
    hints = await _hints(client, document, 5, 6)
    in_loop = predicted(TRAIN, 6, "tensorflow.keras.Sequential.fit")
    once = predicted(TRAIN, 7, "tensorflow.keras.Sequential.fit")
    per_run = fmt_energy(in_loop.energy_j, in_loop.interval_j)
    # the figure and the basis first; the factor's per-run figure only where VS Code's 43 characters allow it
    looped = f"⚡ {fmt_energy(in_loop.energy_j, in_loop.interval_j, 4)} ({in_loop.basis.label}; "
    looped += f"4 {TIMES} {_bracketed(per_run)})" if len(looped) + len(f"4 {TIMES} {_bracketed(per_run)})") <= 43 else f"{TIMES} 4)"
    assert [(h.position, h.label, h.padding_left) for h in hints] == [
        (types.Position(5, 42), looped, True),
        (types.Position(6, 51), f"⚡ {fmt_energy(once.energy_j, once.interval_j)} ({once.basis.label})", True),
    ]
    assert "measured" not in hints[0].label  # from-data figures are not this line's measurements
    assert hints[0].tooltip is None  # filled in by inlayHint/resolve
    resolved = await client.inlay_hint_resolve_async(hints[0])
    assert resolved.tooltip.value == (
        f"- `tensorflow.keras.Sequential.fit`: 4 {TIMES} {_bracketed(per_run)} = "
        f"{fmt_energy(in_loop.energy_j, in_loop.interval_j, 4)} ({in_loop.basis.label})"
    )


async def test_whole_document(client: LanguageClient, document: Path):
    hints = await _hints(client, document, 0, 8)
    assert [h.position for h in hints] == [
        types.Position(2, 56),  # Sequential and Dense end on this line: Dense does no tensor work
        types.Position(3, 43),
        types.Position(5, 42),
        types.Position(6, 51),
        types.Position(7, 46),  # after the emoji: UTF-16 units
    ]
    assert "calls, " not in hints[0].label and "negligible" not in hints[0].label  # Sequential's figure alone
    resolved = await client.inlay_hint_resolve_async(hints[0])
    assert resolved.tooltip.value.count("\n- ") == 1  # the tooltip lists both calls
    assert "tensorflow.keras.layers.Dense" in resolved.tooltip.value and "(negligible)" in resolved.tooltip.value
