"""The VS Code extension's own checks, run from `make test`: its TypeScript type-checks and passes
eslint (typescript-eslint, type-checked rules), and its offline tests (package.json, finding
greenlint, activation, the status bar's `greenlint/fileTotal`, the report webview page) pass under
`node --test` with VS Code and the npm dependencies stubbed. The `vscode_extension` fixture
installs the locked npm packages and compiles."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest


@pytest.mark.e2e
def test_extension_node_tests(vscode_extension: Path, tmp_path: Path):
    """They pass, and leave nothing in the temporary folder they were given."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}
    run = subprocess.run(["node", "--test", "out/test/"], cwd=vscode_extension, capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert not list(scratch.iterdir())
    sources = (vscode_extension / "test").glob("*.test.ts")
    written = sum(len(re.findall(r"^test\(", f.read_text(), re.M)) for f in sources)
    assert written >= 20
    assert re.search(r"^# fail 0$", run.stdout, re.M) and re.search(rf"^# pass {written}$", run.stdout, re.M), run.stdout


@pytest.mark.e2e
def test_extension_lint(vscode_extension: Path):
    run = subprocess.run(["npm", "run", "lint"], cwd=vscode_extension, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_extension_watches_every_file_the_server_reads_the_project_by():
    """Each project marker (where imports are looked up) and pin file (the TensorFlow targeted) the
    analysis reads is in the glob the extension watches: its change reaches the server."""
    from greenlint.paths import PROJECT_MARKERS
    from greenlint.rules.tf_target import PIN_FILES

    source = (Path(__file__).parents[2] / "vscode-extension" / "src" / "greenlintExtension.ts").read_text()
    [watched] = re.findall(r'WATCHED_FILES =\s*"\*\*/\{([^}]*)\}"', source)
    assert {*PROJECT_MARKERS, *PIN_FILES} <= set(watched.split(","))
