"""Where greenlint finds its bundled data, the shared datasets, the user cache and an analysed
file's project root, and how an extra is installed where it is."""

from __future__ import annotations

import functools
import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_DIR = PACKAGE_DIR.parent


def _data_dir() -> Path:
    """The package `greenlint.data`: the repository's data/ in an editable install, the installed
    copy otherwise (site-packages, `--user`, `--target` alike)."""
    if "GREENLINT_DATA_DIR" in os.environ:
        return Path(os.environ["GREENLINT_DATA_DIR"])
    # where importlib.resources.files would find it, without importing that (zipfile, tempfile,
    # random: nothing a warm check needs)
    from importlib.util import find_spec

    spec = find_spec("greenlint.data")
    origin = spec.origin if spec is not None else None
    if not origin or not os.path.isfile(origin):
        raise RuntimeError(f"greenlint: its data must be installed as files, not inside {origin or 'greenlint.data'}")
    return Path(origin).parent


#: Bundled, derived data (KB, catalog, trained model, training-run table). Read-only for the
#: installed package; only the tools/ generators (run from a checkout) write it.
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


def calibration_dir() -> Path:
    """Where `greenlint calibrate` writes this machine's overlays, and the checks look for them."""
    return cache_dir() / "calibration"


def install_extra(extra: str) -> str:
    """The command that installs *extra* into this greenlint: from the package index, and from a
    checkout (where `greenlint[extra]` would fetch another greenlint from the index)."""
    return f"pip install 'greenlint[{extra}]' (from a checkout: pip install -e '.[{extra}]')"


PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")


@functools.lru_cache(maxsize=4096)
def project_root(directory: str) -> str | None:
    """The nearest ancestor of *directory* (itself included) holding a `PROJECT_MARKERS` file, or None."""
    project = directory
    while not any(os.path.exists(os.path.join(project, m)) for m in PROJECT_MARKERS):
        parent = os.path.dirname(project)
        if parent == project:
            return None
        project = parent
    return project
