"""While the user types: requests answer from the last analysis moved through the edits, a text
that does not parse keeps the last good findings, hints and lenses are refreshed when a newer
analysis lands, and a cancelled request is no cause for a warning."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp_server.conftest import open_document, wait_for_diagnostics, wait_until
from tests.lsp_server.samples import TRAIN

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


def _at(line: int, character: int = 0) -> types.Position:
    return types.Position(line, character)


def _insert(client: LanguageClient, uri: str, version: int, line: int, text: str, character: int = 0) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [types.TextDocumentContentChangePartial(types.Range(_at(line, character), _at(line, character)), text)],
        )
    )


async def _hover(client: LanguageClient, uri: str, line: int, character: int) -> types.Hover | None:
    return await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), _at(line, character)))


async def _hints(client: LanguageClient, uri: str) -> list[types.InlayHint]:
    whole = types.Range(_at(0), _at(100))
    return await client.text_document_inlay_hint_async(types.InlayHintParams(types.TextDocumentIdentifier(uri), whole))


def _codes_and_lines(published: types.PublishDiagnosticsParams) -> list[tuple[str, int]]:
    return [(d.code, d.range.start.line) for d in published.diagnostics]


async def test_requests_follow_the_edits(client: LanguageClient, workspace: Path):
    path = workspace / "typing.py"
    await open_document(client, path, TRAIN)
    uri = path.as_uri()
    before = [h.position.line for h in await _hints(client, uri)]
    _insert(client, uri, 2, 0, "# one\n# two\n")  # two lines above everything
    _insert(client, uri, 3, 6, "  # typed at the end of `for trial in range(4):`", character=22)
    hover = await _hover(client, uri, 7, 11)  # `fit` was on line 5, now 7
    assert hover is not None and "**`tensorflow.keras.Sequential.fit`**" in hover.contents.value
    if not hover.contents.value.startswith("**`tensorflow.keras.Sequential.fit`**"):  # answered before version 3 landed
        assert hover.contents.value.startswith("⚠ **Stale**: the figures below are of version 1 of this text")
    assert hover.range == types.Range(_at(7, 4), _at(7, 42))
    assert [h.position.line for h in await _hints(client, uri)] == [line + 2 for line in before]
    assert await _hover(client, uri, 0, 2) is None  # a line typed since
    published = await wait_for_diagnostics(client, uri, 3)
    assert _codes_and_lines(published) == [("GL101", 7), ("GL301", 8)]


async def test_a_text_that_does_not_parse_keeps_the_last_good_findings(client: LanguageClient, workspace: Path):
    path = workspace / "unclosed.py"
    first = await open_document(client, path, TRAIN)
    uri = path.as_uri()
    last = len(TRAIN.splitlines())
    _insert(client, uri, 2, 0, "model.evaluate(\n")  # typing a call on top: the file no longer parses
    broken = await wait_for_diagnostics(client, uri, 2)
    assert _codes_and_lines(broken) == [("GL101", 6), ("GL301", 7), ("GL001", 0)]
    assert [d.message for d in broken.diagnostics[:2]] == [d.message for d in first.diagnostics]
    assert broken.diagnostics[2].severity == types.DiagnosticSeverity.Error
    hover = await _hover(client, uri, 6, 11)
    assert hover is not None and hover.range == types.Range(_at(6, 4), _at(6, 42))
    assert len(await _hints(client, uri)) == 5  # every hint stays, one line lower
    _insert(client, uri, 3, last, "x = 1\n")  # still broken: the findings stay where they are
    still = await wait_for_diagnostics(client, uri, 3)
    assert _codes_and_lines(still) == [("GL101", 6), ("GL301", 7), ("GL001", 0)]
    _insert(client, uri, 4, 0, ")", character=15)  # `model.evaluate()`: parses again
    fixed = await wait_for_diagnostics(client, uri, 4)
    assert [code for code, _ in _codes_and_lines(fixed)] == ["GL101", "GL301"]


async def test_hints_and_lenses_are_refreshed_when_an_analysis_lands(client: LanguageClient, workspace: Path):
    path = workspace / "refreshed.py"
    await open_document(client, path, TRAIN)
    uri = path.as_uri()
    _insert(client, uri, 2, 0, "\n")
    await wait_for_diagnostics(client, uri, 2)
    # after version 2's publish: the refreshes version 1's analysis brought may come after its publish
    after = next(n for p, n in zip(client.published[uri], client.published_at[uri]) if p.version == 2)
    methods = (types.WORKSPACE_INLAY_HINT_REFRESH, types.WORKSPACE_CODE_LENS_REFRESH)
    await wait_until(client, lambda: all(client.refreshed_at[m] and client.refreshed_at[m][-1] > after for m in methods))


async def test_a_late_cancel_logs_no_warning(client: LanguageClient, workspace: Path):
    path = workspace / "cancelled.py"
    await open_document(client, path, TRAIN)
    uri = path.as_uri()
    msg_id = str(uuid.uuid4())
    params = types.HoverParams(types.TextDocumentIdentifier(uri), _at(5, 11))
    await client.protocol.send_request_async(types.TEXT_DOCUMENT_HOVER, params, msg_id=msg_id)
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))  # too late: answered already
    assert await _hover(client, uri, 5, 11) is not None  # the server has read the cancel by now
    warnings = [m.message for m in client.log_messages if m.type in (types.MessageType.Warning, types.MessageType.Error)]
    assert warnings == []
