"""The `greenlint` package in its installed shape, for tools that walk folders (grimp, import-linter, mypy).

An editable install maps `greenlint.meter`, `greenlint.lsp_server` and `greenlint.data` onto the
top-level folders through pyproject.toml's package-dir, which importlib follows but a folder walk
does not; this builds a folder of links where they sit inside greenlint/ as in a wheel."""

from __future__ import annotations

import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]


def pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def package_dirs() -> dict[str, str]:
    """pyproject.toml's package-dir: dotted package -> folder relative to the repository."""
    return pyproject()["tool"]["setuptools"]["package-dir"]


def link_installed_layout(root: Path) -> Path:
    """*root*/greenlint: links to greenlint/'s entries and to each package-dir folder; returns *root*
    (put it first on PYTHONPATH)."""
    package = root / "greenlint"
    package.mkdir(parents=True)
    for entry in (REPO / "greenlint").iterdir():
        if entry.name != "__pycache__":
            (package / entry.name).symlink_to(entry)
    for name, folder in package_dirs().items():
        parent, _, child = name.rpartition(".")
        assert parent == "greenlint", f"package-dir maps {name}: only greenlint's direct subpackages are linked"
        (package / child).symlink_to(REPO / folder)
    return root
