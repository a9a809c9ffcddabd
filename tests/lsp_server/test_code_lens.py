"""Code lens from `greenlint lsp`: a document's predicted total, and the command listing its hotspots."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import LanguageClient

from greenlint.check.config import Config
from greenlint.lsp_server.analysis import analyse_text
from greenlint.predict import load_predictor
from greenlint.predict.prediction import Basis
from greenlint.units import fmt_energy
from tests.lsp_server.conftest import TIMEOUT_S, open_document
from tests.lsp_server.samples import TRAIN

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def document(client: LanguageClient, workspace: Path) -> Path:
    path = workspace / "lens.py"
    await open_document(client, path, TRAIN)
    return path


def _sites(path: Path):
    result = analyse_text(TRAIN, str(path), Config(), load_predictor().predict)
    return [s for s in result.sites if s.total_energy_j is not None]


def _totals(path: Path) -> list[tuple[int, str, float]]:
    """(line, api, joules x loops) of each call site, from the check pipeline in this process."""
    return [(s.callsite.span.line, s.api, s.total_energy_j) for s in _sites(path)]


def _intervals(path: Path) -> tuple[float, float]:
    """The sums of the call sites' 80 % interval ends, times their loops."""
    sites = _sites(path)
    low = sum(s.prediction.interval_j[0] * s.program_runs for s in sites)
    high = sum(s.prediction.interval_j[1] * s.program_runs for s in sites)
    return low, high


async def test_capabilities(client: LanguageClient):
    capabilities = client.initialize_result.capabilities
    assert capabilities.code_lens_provider is not None
    assert sorted(capabilities.execute_command_provider.commands) == ["greenlint.showChangesSinceBase", "greenlint.showHotspots"]


async def test_lens_and_hotspots(client: LanguageClient, document: Path):
    totals = _totals(document)
    assert len(totals) == 6
    [lens] = await client.text_document_code_lens_async(
        types.CodeLensParams(types.TextDocumentIdentifier(document.as_uri()))
    )
    total = sum(j for _, _, j in totals)
    assert lens.range == types.Range(types.Position(0, 0), types.Position(0, 0))
    # the figure: the sum, or the range of the sums when it is over 100x wide; then the calls per basis label
    low, high = _intervals(document)
    labels = [s.prediction.label for s in sorted(_sites(document), key=lambda s: list(Basis).index(s.prediction.basis))]
    per_basis = ", ".join(f"{labels.count(label)} {label}" for label in dict.fromkeys(labels))
    figure = fmt_energy(total, (low, high))
    assert lens.command.title == f"⚡ {figure} in this file (6 TF/Keras calls: {per_basis})"
    assert lens.command.command == "greenlint.showHotspots"

    shown = client.protocol.wait_for_notification("window/showMessage")  # sent before the command's reply
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(lens.command.command, list(lens.command.arguments))
    )
    message = await asyncio.wait_for(asyncio.wrap_future(shown), TIMEOUT_S)
    ranked = sorted(totals, key=lambda t: t[2], reverse=True)
    line, api, joules = ranked[0]
    assert message.type == types.MessageType.Info
    top = next(s for s in _sites(document) if s.callsite.span.line == line and s.api == api)
    p = top.prediction
    top_figure = fmt_energy(p.energy_j, p.interval_j, top.program_runs)
    first = f"line {line} `{api}` {top_figure} ({joules / total:.0%}, {p.label})"  # the top one is no <1% share
    assert message.message.startswith(f"greenlint: lens.py: {fmt_energy(total, (low, high))} in 6 calls; most: {first}")
    assert message.message.count("; line ") == 4  # the top five
