"""Where greenlint finds its bundled data, the shared datasets and the user cache."""

from __future__ import annotations

import os
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_DIR = PACKAGE_DIR.parent


def _data_dir() -> Path:
    """The repository's data/ in a checkout; <prefix>/share/greenlint/data in a wheel install."""
    if "GREENLINT_DATA_DIR" in os.environ:
        return Path(os.environ["GREENLINT_DATA_DIR"])
    checkout = REPO_DIR / "data"
    if checkout.is_dir():
        return checkout
    return Path(sys.prefix) / "share" / "greenlint" / "data"


#: Bundled, derived data (KB, catalog, trained model, training-run table).
DATA_DIR = _data_dir()


def shared_dir() -> Path | None:
    """The public measurement datasets (`../shared` beside the checkout), or None if absent."""
    env = os.environ.get("GREENLINT_SHARED_DIR")
    candidate = Path(env) if env else REPO_DIR.parent / "shared"
    return candidate if candidate.is_dir() else None


def cache_dir() -> Path:
    """The user cache directory (lint cache, calibration overlays); never beside user code."""
    env = os.environ.get("GREENLINT_CACHE_DIR")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("greenlint"))
