"""The VS Code extension starts greenlint so that the workspace cannot shadow the standard library
or greenlint: the arguments come from the extension's own code (src/server.ts, compiled to
out/src/server.js by the `vscode_extension` fixture), run for real here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PLANT = "import pathlib\npathlib.Path(__file__).with_name('PWNED').write_text('ran')\n"


def _args(extension: Path, safe_path: bool) -> list[str]:
    script = (
        "require('./out/src/server').findServer({interpreter: {path: 'py', source: 'greenlint.interpreter'}, probe: async () => ({safePath: %s}),"
        " isExecutable: () => false}).then((f) => console.log(JSON.stringify(f.args)))" % ("true" if safe_path else "false")
    )
    run = subprocess.run(["node", "-e", script], cwd=extension, capture_output=True, text=True, timeout=60, check=True)
    return json.loads(run.stdout)


def _workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    for name in ("argparse.py", "greenlint.py", "importlib.py", "json.py"):
        (ws / name).write_text(PLANT)
    (ws / "greenlint").mkdir()  # a package named like ours, too
    (ws / "greenlint" / "__init__.py").write_text(PLANT)
    return ws


@pytest.mark.parametrize("safe_path", [True, False], ids=["-P", "launcher"])
def test_a_workspace_argparse_is_not_executed(tmp_path, safe_path, vscode_extension):
    if safe_path and sys.version_info < (3, 11):
        pytest.skip("-P needs Python 3.11")
    ws = _workspace(tmp_path)
    args = _args(vscode_extension, safe_path)
    run = subprocess.run([sys.executable, *args, "rule", "--all"], cwd=ws, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "GL101" in run.stdout, run.stderr
    assert not (ws / "PWNED").exists() and not (ws / "greenlint" / "PWNED").exists()


def test_the_old_launch_did_run_workspace_code(tmp_path):
    """The check above can fail: `python -m greenlint` from the workspace runs its argparse.py."""
    ws = _workspace(tmp_path)
    subprocess.run([sys.executable, "-m", "greenlint", "rule", "--all"], cwd=ws, capture_output=True, timeout=120)
    assert (ws / "PWNED").exists() or (ws / "greenlint" / "PWNED").exists()
