"""Shared test fixtures. Tests needing ../shared skip with a clear reason where it is absent."""

from __future__ import annotations

import pytest

from greenlint.paths import shared_dir

SHARED = shared_dir()
needs_shared = pytest.mark.skipif(
    SHARED is None,
    reason="../shared (public measurement datasets) is not beside this checkout; CI has it",
)
