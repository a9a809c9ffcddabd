"""Snapshot assertions: compare text with tests/report/snapshots/<name>.

Snapshots change only when GREENLINT_UPDATE_SNAPSHOTS=1 is set; otherwise a difference fails.
"""

from __future__ import annotations

import os
from pathlib import Path

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("GREENLINT_UPDATE_SNAPSHOTS") == "1"


def assert_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"no snapshot {path}; run with GREENLINT_UPDATE_SNAPSHOTS=1 to create it"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"output differs from snapshot {path} (GREENLINT_UPDATE_SNAPSHOTS=1 to accept)"
