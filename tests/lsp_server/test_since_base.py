"""Code lenses "×N since main" (`greenlint.sinceBase.enabled`): the file's edits since the base
revision, compared as `greenlint diff` compares them, shown only when asked for."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import LanguageClient

from greenlint.check.config import Config
from greenlint.review import gitfs
from greenlint.review.diff import diff_revisions
from greenlint.review.formats import fmt_ratio
from tests.lsp_server.conftest import PYPROJECT, TIMEOUT_S, configure, open_document

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

BEFORE = """\
import numpy as np
import tensorflow as tf

x = np.zeros((2048, 32), dtype="float32")
y = np.zeros((2048,), dtype="int64")
model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(10)])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(x, y, epochs=10, batch_size=64)
"""
AFTER = BEFORE.replace("epochs=10", "epochs=100")


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args], cwd=root, check=True, capture_output=True)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """A git work tree: main holds BEFORE; the tests edit it."""
    root = tmp_path_factory.mktemp("since-base")
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / "train.py").write_text(BEFORE, encoding="utf-8")
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "base")
    return root


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def document(client: LanguageClient, workspace: Path) -> Path:
    path = workspace / "train.py"
    await open_document(client, path, AFTER)
    return path


async def _lenses(client: LanguageClient, path: Path) -> list[types.CodeLens]:
    return await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(path.as_uri())))


async def test_since_base_lenses_only_when_asked(client: LanguageClient, document: Path, workspace: Path):
    assert len(await _lenses(client, document)) == 1  # the file's total alone: the setting is off
    await configure(client, {"sinceBase": {"enabled": True}})
    lenses = await _lenses(client, document)
    expected = diff_revisions(workspace, gitfs.commit_side(workspace, "main"), gitfs.WORKTREE, [""], Config(root=workspace))
    (change,) = expected.changes
    titles = [lens.command.title for lens in lenses[1:]]
    (f,) = expected.changed_files
    assert titles[0].startswith(f"{fmt_ratio(f.ratio)} since main (")
    assert titles[1] == f"{fmt_ratio(change.ratio)} since main: epochs 10 → 100"
    assert lenses[2].range.start.line == 7
    shown = client.protocol.wait_for_notification("window/showMessage")
    await client.workspace_execute_command_async(types.ExecuteCommandParams(lenses[1].command.command, [document.as_uri()]))
    message = await asyncio.wait_for(asyncio.wrap_future(shown), TIMEOUT_S)
    assert message.message.startswith("greenlint: train.py since main: ") and "line 8 `tensorflow.keras.Sequential.fit`" in message.message
    await configure(client, {"sinceBase": {"enabled": True, "revision": "HEAD"}})
    assert [lens.command.title for lens in (await _lenses(client, document))[1:]][1].endswith("since HEAD: epochs 10 → 100")
