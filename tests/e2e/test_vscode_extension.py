"""The VS Code extension's offline checks (package.json, activation), run with plain `node`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

EXTENSION = Path(__file__).resolve().parents[2] / "vscode-extension"


@pytest.mark.e2e
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_extension_package_and_activation():
    run = subprocess.run(
        ["node", "test/package.test.js"], cwd=EXTENSION, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# fail 0" in run.stdout and "# pass 3" in run.stdout
