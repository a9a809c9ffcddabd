"""The profile round trip: `greenlint measure` a script, then `calls`/`check` and the language
server's hover show that site's own figure (`profiled*`), and editing the line makes it stale.
The measurement is the one the meter's end-to-end tests share (tests/conftest.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from greenlint.predict.prediction import Basis
from greenlint.units import fmt_j
from tests.lsp_server.conftest import open_document, wait_for_diagnostics

pytestmark = [pytest.mark.e2e, pytest.mark.tensorflow, pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.timeout(300)]


def greenlint(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "greenlint", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=240, check=False)


def calls(path: Path) -> dict[str, dict]:
    out = greenlint("calls", "--format", "json", path.name, cwd=path.parent)
    assert out.returncode == 0, out.stderr
    return {c["api"]: c for c in json.loads(out.stdout)["call_sites"]}


async def hover(client: LanguageClient, path: Path, line: int, character: int) -> str:
    result = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(path.as_uri()), types.Position(line, character)))
    return result.contents.value


async def test_measure_then_check_calls_and_hover_show_the_profile_and_an_edit_makes_it_stale(
    client: LanguageClient, workspace: Path, measured_tiny_train
):
    measured_dir, measured, _, script = measured_tiny_train
    assert measured.returncode == 0, measured.stdout + measured.stderr
    path = workspace / script.name
    text = script.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    before = calls(path)["tensorflow.matmul"]
    assert before["profile"] is None and not before["basis"].startswith("profiled")

    profile_file = workspace / ".greenlint" / "profiles.json"  # the measured folder's profiles, moved along
    profile_file.parent.mkdir()
    shutil.copyfile(measured_dir / ".greenlint" / "profiles.json", profile_file)
    stored = {s["api"]: s for s in json.loads(profile_file.read_text())["files"][script.name]}
    assert stored["tensorflow.matmul"]["executions"] == 50

    after = calls(path)  # the lint cache is keyed on the profile file: no stale cached figure
    matmul = after["tensorflow.matmul"]
    basis = "profiled-estimated" if stored["tensorflow.matmul"]["estimated"] else "profiled"
    assert matmul["basis"] == basis
    assert matmul["energy_j"] == pytest.approx(stored["tensorflow.matmul"]["median_j"])
    assert matmul["profile"]["executions"] == 50 and matmul["profile"]["stale"] is False
    assert matmul["forecast"]["basis"] == before["basis"] and matmul["forecast"]["energy_j"] == before["energy_j"]
    checked = greenlint("check", "--output-format", "json", path.name, cwd=workspace)
    assert checked.returncode in (0, 1), checked.stderr

    await open_document(client, path, text)
    line = next(i for i, source in enumerate(text.splitlines()) if "tf.matmul(a, a)" in source)
    start = text.splitlines()[line].index("tf.matmul(a, a)")
    shown = await hover(client, path, line, start + 4)  # on `matmul`
    assert f"- **{fmt_j(matmul['energy_j'])}** per execution" in shown
    assert Basis(basis).label in shown

    edited = text.replace("tf.matmul(a, a)", "tf.matmul(a, a, transpose_b=True)")
    uri = path.as_uri()
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(line, start), types.Position(line, start + len("tf.matmul(a, a)"))),
            text="tf.matmul(a, a, transpose_b=True)")],
    ))
    await wait_for_diagnostics(client, uri, 2)
    shown = await hover(client, path, line, start + 4)
    assert f"- **{fmt_j(matmul['energy_j'])}** per execution" not in shown  # the forecast is the figure again
    assert "profile stale" in shown.splitlines()[0]

    path.write_text(edited, encoding="utf-8")
    stale = calls(path)["tensorflow.matmul"]
    assert stale["profile"]["stale"] is True and stale["basis"] == before["basis"]
    assert stale["energy_j"] != matmul["energy_j"] and stale["forecast"] is None  # the forecast is the figure
    assert calls(path)["tensorflow.ones"]["basis"] == basis  # untouched lines keep their profile
