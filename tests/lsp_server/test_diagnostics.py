"""Push diagnostics from `greenlint lsp`: on open, debounced on change, on config change, cleared on close."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from greenlint.check.config import load_config
from greenlint.check.pipeline import check_source
from tests.lsp_server.conftest import open_document, publish_after, wait_for_diagnostics, wait_for_publish
from tests.lsp_server.samples import MATERIAL_TRAIN, TRAIN

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


def _range(line: int, start: int, end: int) -> types.Range:
    return types.Range(types.Position(line, start), types.Position(line, end))


def _warning(range_: types.Range, code: str, name: str, message: str) -> types.Diagnostic:
    return types.Diagnostic(
        range=range_,
        message=message,
        severity=types.DiagnosticSeverity.Warning,
        code=code,
        source="greenlint",
        data={"name": name},
    )


async def test_capabilities(client: LanguageClient):
    capabilities = client.initialize_result.capabilities
    assert client.initialize_result.server_info.name == "greenlint"
    sync = capabilities.text_document_sync
    assert sync.open_close and sync.change == types.TextDocumentSyncKind.Incremental
    assert sync.save is not None and sync.save is not False
    assert capabilities.position_encoding in (None, types.PositionEncodingKind.Utf16)


async def test_diagnostics_on_open(client: LanguageClient, workspace: Path):
    path = workspace / "train.py"
    published = await open_document(client, path, TRAIN)
    # GL101's message holds the predicted joules: take them from the check pipeline the CLI uses
    checked = check_source(TRAIN, str(path), load_config([path]))
    [hotspot] = [d for d in checked if d.code == "GL101"]
    [small] = [d for d in checked if d.code == "GL301"]  # its saving is priced by the device model
    assert small.message.startswith("`tensorflow.keras.Sequential.fit` uses batch_size=2: the same samples at batch 16")
    assert list(published.diagnostics) == [
        _warning(_range(5, 4, 42), "GL101", "energy-hotspot", hotspot.message),
        _warning(
            _range(6, 0, 51),
            "GL301",
            "small-batch-size",
            small.message,
        ),
    ]
    assert "× 4" in hotspot.message  # the loop factor, with the one multiplication sign


async def test_changes_are_debounced_and_versioned(client: LanguageClient, workspace: Path):
    path = workspace / "edited.py"
    await open_document(client, path, TRAIN)
    uri = path.as_uri()
    edits = [("batch_size=2", "batch_size=8"), ("batch_size=8", "batch_size=32"), ("batch_size=32", "batch_size=700")]
    text = TRAIN
    for version, (old, new) in enumerate(edits, start=2):
        line = next(i for i, s in enumerate(text.splitlines()) if old in s)
        start = text.splitlines()[line].index(old)
        text = text.replace(old, new)
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[
                    types.TextDocumentContentChangePartial(range=_range(line, start, start + len(old)), text=new)
                ],
            )
        )
    final = await wait_for_diagnostics(client, uri, 4)
    assert [d.code for d in final.diagnostics] == ["GL101"]  # one batch of all 700 samples is no longer small
    assert [p.version for p in client.published[uri]] == [1, 4]  # the edits in between were debounced


async def test_nearest_pyproject_and_its_changes(client: LanguageClient, workspace: Path):
    project = workspace / "quiet"
    project.mkdir()
    pyproject = project / "pyproject.toml"
    material = "material-saving-j = 0.0\n"  # as the workspace's: the sample's batch-2 fit is a few hundred joules
    pyproject.write_text('[tool.greenlint]\nignore = ["GL301"]\n' + material, encoding="utf-8")
    path = project / "train.py"
    published = await open_document(client, path, MATERIAL_TRAIN)
    assert [d.code for d in published.diagnostics] == ["GL101"]

    pyproject.write_text('[tool.greenlint]\nignore = ["GL101"]\n' + material, encoding="utf-8")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams([types.FileEvent(pyproject.as_uri(), types.FileChangeType.Changed)])
    )
    uri = path.as_uri()
    again = await wait_for_publish(client, uri, lambda p: [d.code for d in p.diagnostics] == ["GL301"])
    assert again.version == 1


#: A model built in another module of the project, `lib/nets.py`, imported by `app/train.py`.
NETS = """\
import tensorflow as tf


def build():
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="mse")
    return model
"""
BUILT = MATERIAL_TRAIN.replace(
    'model = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nmodel.compile(optimizer="adam", loss="mse")\n',
    "from lib.nets import build\nmodel = build()\n",
)


@pytest.mark.parametrize("marker", ["setup.py", ".git"])
async def test_a_project_marker_added_later_is_noticed_without_an_edit(client: LanguageClient, tmp_path: Path, marker):
    """Outside any project, `app/` cannot import `lib/`; a marker added above both makes their
    folder the project's root, an import root: the open document's model is then known (the
    editor announces the marker with `workspace/didChangeWatchedFiles`, the document unchanged)."""
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "nets.py").write_text(NETS, encoding="utf-8")
    (tmp_path / "app").mkdir()
    path = tmp_path / "app" / "train.py"
    published = await open_document(client, path, BUILT)
    assert [d.code for d in published.diagnostics] == []  # an unknown model: its batch-2 fit claims nothing
    (tmp_path / marker).mkdir() if marker == ".git" else (tmp_path / marker).write_text("", encoding="utf-8")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams([types.FileEvent((tmp_path / marker).as_uri(), types.FileChangeType.Created)])
    )
    again = await wait_for_publish(client, path.as_uri(), lambda p: [d.code for d in p.diagnostics] == ["GL101"])
    assert again.version == 1  # the model built in lib/nets.py: its fits in the loop are a hotspot


async def test_a_pin_file_added_later_is_read_without_an_edit(client: LanguageClient, tmp_path: Path):
    """A requirements.txt pinning an old TensorFlow, created while the document is open, gives the
    findings whose premise that version holds (no automatic prefetch or map parallelisation)."""
    path = tmp_path / "train.py"
    text = ("import tensorflow as tf\n"
            "ds = tf.data.Dataset.from_tensor_slices((x, y)).map(normalise).shuffle(100).batch(32)\n"
            "model.fit(ds, epochs=3)\n")
    assert list((await open_document(client, path, text)).diagnostics) == []  # the TensorFlow installed here
    (tmp_path / "requirements.txt").write_text("tensorflow==2.6\n", encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        [types.FileEvent((tmp_path / "requirements.txt").as_uri(), types.FileChangeType.Created)]))
    again = await wait_for_publish(client, path.as_uri(), lambda p: p.diagnostics)
    assert [d.code for d in again.diagnostics] == ["GL401", "GL402"]
    assert "TensorFlow 2.6 (pinned in requirements.txt)" in again.diagnostics[0].message


async def test_bad_configuration_is_reported_and_defaults_used(client: LanguageClient, workspace: Path):
    project = workspace / "bad"
    project.mkdir()
    (project / "pyproject.toml").write_text("[tool.greenlint]\nno-such-key = 1\n", encoding="utf-8")
    path = project / "train.py"
    path.write_text(MATERIAL_TRAIN, encoding="utf-8")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(path.as_uri(), "python", 1, MATERIAL_TRAIN))
    )
    message = await client.wait_for_notification("window/showMessage")
    assert message.type == types.MessageType.Warning
    assert str(project / "pyproject.toml") in message.message and "no-such-key" in message.message
    published = await wait_for_diagnostics(client, path.as_uri(), 1)
    # the defaults: the loop's fits are a material hotspot, the batch-2 fit's few hundred joules are not (GL301)
    assert [d.code for d in published.diagnostics] == ["GL101"]


async def test_close_clears_diagnostics(client: LanguageClient, workspace: Path):
    path = workspace / "closed.py"
    await open_document(client, path, TRAIN)
    uri = path.as_uri()
    before = client.arrivals
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    cleared = await publish_after(client, uri, before)
    assert list(cleared.diagnostics) == []


async def test_untitled_document_uses_the_workspace_configuration(client: LanguageClient):
    uri = "untitled:Untitled-1"
    text = TRAIN.replace("epochs=1)\n", "epochs=1)  # noqa: GL101\n")  # this fit() is no hotspot
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "python", 1, text)))
    published = await wait_for_diagnostics(client, uri, 1)
    # the workspace's pyproject.toml selects GL003 (unused noqa), which is off by default
    assert sorted(d.code for d in published.diagnostics) == ["GL003", "GL101", "GL301"]
