"""Editor settings (`greenlint.*`) from `workspace/configuration`, per folder, applied on
`workspace/didChangeConfiguration` without restart, with ruff's precedence against pyproject.toml."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp_server.conftest import (
    TIMEOUT_S,
    announced,
    configure,
    open_document,
    publish_after,
    settings_applied,
    wait_until,
)
from tests.lsp_server.samples import MATERIAL_TRAIN

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def document(client: LanguageClient, workspace: Path) -> Path:
    path = workspace / "configured.py"
    await open_document(client, path, MATERIAL_TRAIN)  # the workspace's pyproject.toml: hotspot-threshold-j = 100
    return path


async def _codes_after(client: LanguageClient, path: Path, settings: dict) -> list[str]:
    """The codes of the first publish for `path` made under `settings` (an analysis under the ones
    before may still land after they were sent)."""
    applied = await configure(client, settings)
    return [d.code for d in (await publish_after(client, path.as_uri(), applied)).diagnostics]


async def _labels(client: LanguageClient, path: Path) -> list[str]:
    whole = types.Range(types.Position(0, 0), types.Position(20, 0))
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(types.TextDocumentIdentifier(path.as_uri()), whole))
    return [h.label for h in hints]


async def test_registers_for_configuration_changes(client: LanguageClient, document: Path):
    await wait_until(client, lambda: types.WORKSPACE_DID_CHANGE_CONFIGURATION in client.registrations)


async def test_rule_settings_apply_without_restart(client: LanguageClient, document: Path):
    assert await _codes_after(client, document, {"ignore": ["GL301"]}) == ["GL101"]
    assert await _codes_after(client, document, {"ignore": [], "hotspotThresholdJ": 1e12}) == ["GL301"]
    assert await _codes_after(client, document, {"select": ["GL101"]}) == ["GL101"]
    assert await _codes_after(client, document, {}) == ["GL101", "GL301"]


async def test_configuration_preference(client: LanguageClient, document: Path):
    huge = {"hotspotThresholdJ": 1e12}  # pyproject.toml says 100 J
    assert await _codes_after(client, document, {**huge, "configurationPreference": "filesystemFirst"}) == ["GL101", "GL301"]
    assert await _codes_after(client, document, {**huge, "configurationPreference": "editorFirst"}) == ["GL301"]
    # editorOnly: the file's extend-select of GL003 goes too, so an unused noqa is not reported, and so does its
    # material-saving-j of 0: the one-epoch fit at batch 2 (a few hundred joules) is not material for GL301
    noqa = document.parent / "noqa.py"
    await open_document(client, noqa, MATERIAL_TRAIN.replace("epochs=1)\n", "epochs=1)  # noqa: GL101\n"))
    assert sorted(await _codes_after(client, noqa, {"configurationPreference": "editorFirst"})) == ["GL003", "GL101", "GL301"]
    assert await _codes_after(client, noqa, {"configurationPreference": "editorOnly"}) == ["GL101"]
    assert await _codes_after(client, document, {}) == ["GL101", "GL301"]


async def test_inlay_hint_settings(client: LanguageClient, document: Path):
    labels = await _labels(client, document)
    assert len(labels) == 5 and all(" J" in label for label in labels)
    await configure(client, {"unit": "Wh"})  # hints follow the settings in force when asked
    in_wh = await _labels(client, document)
    assert len(in_wh) == 5 and all("Wh" in label and " J" not in label for label in in_wh)
    await configure(client, {"inlayHints": {"minJoules": 50}})
    above = await _labels(client, document)
    assert 0 < len(above) < 5 and all(" J" in label for label in above)  # only the lines above 50 J
    await configure(client, {"inlayHints": {"enabled": False}})
    assert await _labels(client, document) == []
    await configure(client, {})
    assert await _labels(client, document) == labels


async def test_a_bad_setting_is_reported_and_left_out(client: LanguageClient, document: Path):
    shown = client.protocol.wait_for_notification("window/showMessage")
    await configure(client, {"unit": "furlongs", "ignore": ["GL301"]})
    message = await asyncio.wait_for(asyncio.wrap_future(shown), TIMEOUT_S)
    assert message.type == types.MessageType.Warning and "greenlint.unit" in message.message and "furlongs" in message.message
    labels = await _labels(client, document)
    assert labels and all(" J" in label for label in labels)  # the unit stays as it was
    await configure(client, {})


async def test_settings_per_workspace_folder(client: LanguageClient, workspace: Path, tmp_path_factory):
    other = tmp_path_factory.mktemp("other")
    (other / "pyproject.toml").write_text("[tool.greenlint]\nmaterial-saving-j = 0.0\n")  # as the workspace's
    folder = types.WorkspaceFolder(other.as_uri(), "other")
    here, there = workspace / "folder_one.py", other / "folder_two.py"
    await open_document(client, here, MATERIAL_TRAIN)
    await open_document(client, there, MATERIAL_TRAIN)
    settings = {"ignore": ["GL101"]}
    client.set_configuration(settings, section="greenlint", scope_uri=other.as_uri())
    before = client.arrivals
    client.workspace_did_change_workspace_folders(  # the new folder's settings are pulled with it
        types.DidChangeWorkspaceFoldersParams(types.WorkspaceFoldersChangeEvent(added=[folder], removed=[]))
    )
    applied = await settings_applied(client, announced(settings, other), before)
    assert [d.code for d in (await publish_after(client, there.as_uri(), applied)).diagnostics] == ["GL301"]
    assert [d.code for d in (await publish_after(client, here.as_uri(), applied)).diagnostics] == ["GL101", "GL301"]


async def test_negligible_calls_get_a_hint_only_when_asked(client: LanguageClient, workspace: Path):
    """An optimizer's constructor does no tensor work: no hint by default, one with `showNegligible`."""
    path = workspace / "negligible.py"
    await open_document(client, path, MATERIAL_TRAIN + "opt = tf.keras.optimizers.Adam(1e-4)\n")
    whole = types.Range(types.Position(0, 0), types.Position(20, 0))

    async def lines() -> dict[int, str]:
        params = types.InlayHintParams(types.TextDocumentIdentifier(path.as_uri()), whole)
        return {h.position.line: h.label for h in await client.text_document_inlay_hint_async(params)}

    await wait_until(client, lambda: bool(client.published[path.as_uri()]))
    default = await lines()
    assert default and 8 not in default  # the other lines keep their hints; `Adam(1e-4)` has none
    await configure(client, {"inlayHints": {"showNegligible": True}})
    shown = await lines()
    assert "negligible" in shown[8] and "0 J – " in shown[8]  # an upper bound, not a point
    assert shown.keys() == default.keys() | {8}
    assert "negligible" in shown[2] and "negligible" not in default[2]  # `Dense(10)` beside `Sequential` counts too
    await configure(client, {})
    assert 8 not in await lines()
