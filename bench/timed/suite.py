"""The CPU-timed suite's scripts and the stamp of each one's text."""

from __future__ import annotations

import hashlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS_DIR = HERE / "scripts"
RESULTS = HERE / "results.json"
#: greenlint's figures for scripts recorded before they were timed (`python -m bench.timed predict`).
PREDICTIONS = HERE / "predictions.json"
#: Version of results.json's layout (bumped when a field changes meaning).
RESULTS_VERSION = 1


def scripts(folder: Path = SCRIPTS_DIR) -> list[Path]:
    """The suite's scripts, by name."""
    return sorted(p for p in folder.glob("*.py") if not p.name.startswith("_"))


def stamp(path: Path) -> str:
    """What a result was measured on: the digest of the script's text."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
