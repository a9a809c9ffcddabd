from __future__ import annotations

import pytest

from greenlint.check.config import Config
from greenlint.check.runner import Backend

FAKE = Backend("tests.check.fakes:analyse_file", "tests.check.fakes:load_predictor", preload=())


@pytest.fixture
def config(tmp_path):
    """A Config rooted in tmp_path, caching under tmp_path/cache, serial unless a test says otherwise."""
    return Config(root=tmp_path, cache_dir=tmp_path / "cache", jobs=1)


@pytest.fixture
def fake_backend(monkeypatch):
    """Make run_check (and so the CLI) use the fake resolver and predictor."""
    monkeypatch.setattr("greenlint.check.pipeline.Backend", lambda: FAKE)
    return FAKE
