"""Installing greenlint offline in a fresh virtualenv: pip builds only greenlint itself, with the
virtualenv's own setuptools (no index, no dependencies, no build isolation), and the dependencies
already installed for this test run are lent through a folder of links."""

from __future__ import annotations

import sysconfig
from pathlib import Path

#: Left out of the lent folder: the build tools (the virtualenv brings its own) and greenlint itself.
LEFT_OUT = (
    "setuptools",
    "pkg_resources",
    "_distutils_hack",
    "distutils-precedence.pth",
    "pip",
    "greenlint",
    "__editable__",
)

#: pip's environment for an offline install of greenlint alone.
PIP_OFFLINE = {"PIP_NO_INDEX": "1", "PIP_NO_DEPS": "1", "PIP_NO_BUILD_ISOLATION": "0"}


def dependency_dir(tmp_path: Path) -> Path:
    """*tmp_path*/deps: links to this interpreter's installed packages but those in LEFT_OUT."""
    deps = tmp_path / "deps"
    deps.mkdir()
    purelib = Path(sysconfig.get_paths()["purelib"])
    for entry in purelib.iterdir():
        if not entry.name.startswith(LEFT_OUT) and not entry.name.endswith(".pth"):
            (deps / entry.name).symlink_to(entry)
    return deps
