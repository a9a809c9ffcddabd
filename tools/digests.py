"""Digests of the files a generated artefact is built from: its staleness test recomputes them and
compares (docs/design.md, "Generated files are committed, and checked")."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from tools import REPO_DIR


def matching(patterns: Iterable[str]) -> list[Path]:
    """The checkout's files matching the glob *patterns* (relative to the repository), sorted."""
    return sorted({p for pattern in patterns for p in REPO_DIR.glob(pattern) if p.is_file()})


def files_digest(paths: Iterable[Path]) -> str:
    """A short hash of the files' names (relative to the repository) and bytes; an absent file counts as empty."""
    h = hashlib.sha256()
    for p in paths:
        name = p.relative_to(REPO_DIR).as_posix() if p.is_relative_to(REPO_DIR) else p.name
        h.update(name.encode() + b"\0" + (p.read_bytes() if p.is_file() else b""))
    return h.hexdigest()[:16]
