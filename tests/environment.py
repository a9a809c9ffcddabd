"""What a test needs from its environment, and what happens when it is missing.

A missing dataset (../shared, data/), package or tool that `make test` installs skips the test,
with the reason; under GREENLINT_STRICT_TESTS=1 (CI: `.ci/run`) it fails it instead, so a suite
cannot turn green because the data vanished or TensorFlow stopped importing. What a machine may
lack by nature (energy counters, root, Linux's /proc) skips in both modes: `pytest -ra` lists why.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from pathlib import Path
from types import ModuleType
from typing import NoReturn

import pytest

from greenlint.paths import shared_dir

STRICT = os.environ.get("GREENLINT_STRICT_TESTS") == "1"
SHARED = shared_dir()


def missing(reason: str) -> NoReturn:
    """Skip for *reason*; fail under GREENLINT_STRICT_TESTS=1."""
    if STRICT:
        pytest.fail(f"{reason} (GREENLINT_STRICT_TESTS=1: this environment must provide it)", pytrace=False)
    pytest.skip(reason)


def require_installed(*modules: str) -> None:
    """Each of *modules* can be imported (checked without importing it)."""
    absent = [m for m in modules if importlib.util.find_spec(m) is None]
    if absent:
        missing(f"{', '.join(absent)} not installed (`make test` installs the dev extras)")


def require_module(name: str) -> ModuleType:
    """*name*, imported."""
    require_installed(name)
    return importlib.import_module(name)


def require_shared() -> Path:
    """../shared, the public measurement datasets."""
    if SHARED is None:
        missing("../shared (public measurement datasets) is not beside this checkout; CI has it")
    return SHARED
