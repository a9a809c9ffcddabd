"""meter/, lsp_server/ and data/ stay at the repository's top level but install inside greenlint's
namespace through pyproject.toml's package-dir (no generic top-level package name a user's own
`meter.py` could shadow, no symlinks a Windows clone would lose). tests/install/ installs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

from tools.installed_layout import package_dirs

ROOT = Path(__file__).resolve().parents[1]


def _on_disk(package: str, folder: Path) -> set[str]:
    """*package* and its subpackages: the folders under *folder* holding an `__init__.py`, and
    the folders of package data below one (data/'s: setuptools installs them as packages too)."""
    packages = {init.parent for init in folder.rglob("__init__.py") if "__pycache__" not in init.parts}
    data = {
        f.parent for f in folder.rglob("*")
        if f.is_file() and "__pycache__" not in f.parts and f.parent not in packages and f.parent.parent in packages
    }
    return {".".join([package, *d.relative_to(folder).parts]) for d in packages | data}


def test_no_symlink_is_tracked():
    staged = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert [line for line in staged.splitlines() if line.startswith("120000")] == []


def test_the_wheel_lists_every_package_and_only_greenlint_ones():
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    found = _on_disk("greenlint", ROOT / "greenlint")
    for package, folder in package_dirs().items():
        found |= _on_disk(package, ROOT / folder)
    assert sorted(listed) == sorted(found)


def test_the_namespaced_packages_are_the_top_level_folders():
    import greenlint.data
    import greenlint.lsp_server
    import greenlint.meter
    from greenlint.paths import DATA_DIR

    assert Path(greenlint.meter.__file__).resolve().parent == (ROOT / "meter").resolve()
    assert Path(greenlint.lsp_server.__file__).resolve().parent == (ROOT / "lsp_server").resolve()
    assert Path(greenlint.data.__file__).resolve().parent == (ROOT / "data").resolve()
    assert DATA_DIR.resolve() == (ROOT / "data").resolve()


def test_the_readme_says_how_make_run_puts_greenlint_on_path():
    """`make run` installs into the Makefile's virtualenv only: README says how to reach its
    `greenlint` (its commands are written as `greenlint …`)."""
    import re

    venv = re.search(r"^VENV \?= (\S+)$", (ROOT / "Makefile").read_text(), re.M).group(1)
    readme = (ROOT / "README.md").read_text()
    two_commands = readme[readme.index("## Two commands") : readme.index("## Use")]
    assert f"source {venv}/bin/activate" in two_commands and f"{venv}/bin/greenlint" in two_commands
    assert (ROOT / venv / "bin" / "activate").is_file() or not (ROOT / venv).exists()


def test_the_docs_name_no_greenlint_version_after_this_one():
    """A doc that says "greenlint 0.2" of a 0.1.0 package describes a release that does not exist."""
    import re

    from greenlint import __version__

    def parts(version: str) -> tuple[int, ...]:
        return tuple(int(p) for p in version.split("."))

    pages = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), ROOT / "examples" / "README.md"]
    named = {(page.relative_to(ROOT).as_posix(), v) for page in pages
             for v in re.findall(r"\bgreenlint (\d+\.\d+(?:\.\d+)?)\b", page.read_text(encoding="utf-8"))}
    assert named and [(page, v) for page, v in sorted(named) if parts(v) > parts(__version__)] == []
