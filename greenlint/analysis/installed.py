"""Where an analysed file's libraries are installed: site directories and their distributions.

The analysed project's virtualenv (`.venv` or `venv` at its root, then `$VIRTUAL_ENV`) comes first,
then the environment greenlint runs in. An import root is looked up there as Python would find it
(a package or a module file, never one whose real path leaves its site directory), and its
distribution's name, version and requirements are read from its `*.dist-info` with
`importlib.metadata` (metadata only: nothing of the package is imported). A folder without
`__init__.py` is a namespace package, found where no site holds a regular one; an editable install
is found in the source folder its `.pth` or setuptools finder names (`editable_folders`). Light on
purpose: a warm run's cache key takes `stamp` from here (the dist-info names: an edit of an editable
library's source does not change it).
"""

from __future__ import annotations

import functools
import glob
import hashlib
import os
import re
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from greenlint.paths import project_root

#: Distributions whose requirement makes a library one built on TF/Keras (extras included).
_TF_DISTRIBUTIONS = frozenset({"tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tensorflow-macos", "keras", "tf-keras"})
_REQUIREMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


@dataclass(frozen=True)
class Library:
    """One installed distribution holding an import root: its site directory (real path)."""

    name: str
    version: str
    site: str
    keras: bool  # it requires TensorFlow or Keras


def of_file(module_file: str | None) -> tuple[str, ...]:
    """The site directories searched for the libraries of the file at *module_file* (None: greenlint's)."""
    project = project_root(os.path.dirname(os.path.abspath(module_file))) if module_file else None
    return _site_dirs(project, os.environ.get("VIRTUAL_ENV"))


@functools.lru_cache(maxsize=256)
def _site_dirs(project: str | None, virtual_env: str | None) -> tuple[str, ...]:
    """The site directories searched, first match wins: the *project*'s virtualenv, *virtual_env*
    (`$VIRTUAL_ENV`), then greenlint's own environment (real paths, each once)."""
    venvs = [os.path.join(project, name) for name in (".venv", "venv")] if project else []
    if virtual_env:
        venvs.append(virtual_env)
    found = [site for venv in venvs
             for site in sorted(glob.glob(os.path.join(glob.escape(venv), "lib", "python3*", "site-packages")))
             + [os.path.join(venv, "Lib", "site-packages")]]
    paths = sysconfig.get_paths()
    found += [paths["purelib"], paths["platlib"]]
    return tuple(dict.fromkeys(os.path.realpath(site) for site in found if os.path.isdir(site)))


def stamp(module_file: str | None) -> str:
    """What tells the libraries of *module_file* changed: the distributions installed in its site
    directories, with their versions (the `*.dist-info` names), as a digest (a cache key's part)."""
    return _stamp(of_file(module_file))


@functools.lru_cache(maxsize=256)
def _stamp(sites: tuple[str, ...]) -> str:
    names = []
    for site in sites:
        try:
            names += [site, *sorted(n for n in os.listdir(site) if n.endswith(".dist-info"))]
        except OSError:
            continue
    return hashlib.sha256("\0".join(names).encode()).hexdigest()[:16]


@functools.lru_cache(maxsize=4096)
def find(sites: tuple[str, ...], root: str) -> Library | None:
    """The library of import *root* in the first folder holding it as a package or module, else in
    the first holding it as a namespace package (as Python's import looks), or None. Each site's
    folders are the site, then the source folders its editable installs add (`editable_folders`)."""
    found = [(site, folder, source_of(folder, root)) for site in sites for folder in (site, *editable_folders(site))]
    regular = next(((s, f) for s, f, source in found if source is not None and source.endswith(".py")), None)
    where = regular or next(((s, f) for s, f, source in found if source is not None), None)
    if where is None:
        return None
    site, folder = where
    library = _library(site, root)
    return library if folder == site else Library(library.name, "", folder, library.keras)  # no version: not kept


@functools.lru_cache(maxsize=256)
def editable_folders(site: str) -> tuple[str, ...]:
    """The source folders editable installs add to *site* (real paths), read as text, never run: each
    `.pth` file's path lines, in the order Python reads them, and the parent folder of each package a
    setuptools finder (`__editable___*_finder.py`) maps. A site inside a project (its `.venv`) adds
    only folders inside that project: a checkout's own environment never reaches out of it.
    What is read there is not kept in the user cache (its source changes under one version)."""
    bound = project_root(os.path.dirname(site))
    folders: list[str] = []
    try:
        names = sorted(os.listdir(site))
    except OSError:
        return ()
    for name in names:
        path = os.path.join(site, name)
        if name.endswith(".pth"):
            folders += [line.strip() for line in _text(path).splitlines()
                        if line.strip() and not line.startswith(("#", "import ", "import\t"))]
        elif name.startswith("__editable___") and name.endswith("_finder.py"):
            folders += [os.path.dirname(folder) for package, folder in _mapping(_text(path)).items()
                        if os.path.basename(folder) == package]
    real = (os.path.realpath(os.path.join(site, folder)) for folder in folders)
    return tuple(dict.fromkeys(f for f in real if os.path.isdir(f) and f != site
                               and (bound is None or os.path.commonpath((bound, f)) == bound)))


def _text(path: str) -> str:
    from greenlint.analysis import sources

    data, _ = sources.read_bytes(Path(path), sources.MAX_BYTES)
    return data.decode("utf-8", "replace") if data is not None else ""


def _mapping(text: str) -> dict[str, str]:
    """The literal `MAPPING = {package: folder}` of a setuptools editable finder, {} where none."""
    import ast

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    for node in tree.body:
        if not isinstance(node, (ast.Assign, ast.AnnAssign)):
            continue
        target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
        if isinstance(target, ast.Name) and target.id == "MAPPING" and node.value is not None:
            try:
                value = ast.literal_eval(node.value)
            except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
                return {}
            if isinstance(value, dict):
                return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}
    return {}


def source_of(site: str, dotted: str) -> str | None:
    """Where module *dotted* is in *site*: its `__init__.py` or `.py` file, else the folder of a
    namespace package (PEP 420: no `__init__.py`); None where it is not there, or its real path
    leaves *site*."""
    parts = dotted.split(".")
    if not all(part.isidentifier() for part in parts):
        return None
    base = os.path.join(site, *parts)
    for candidate in (os.path.join(base, "__init__.py"), base + ".py"):
        if _inside(site, candidate):
            return candidate
    if os.path.isdir(base) and os.path.commonpath((site, os.path.realpath(base))) == site:
        return base
    return None


def _library(site: str, root: str) -> Library:
    """The distribution of *root* in *site* (its name, version and requirements), from its metadata."""
    import importlib.metadata  # where a library is found: never on a warm run

    try:
        dists = list(importlib.metadata.distributions(name=root, path=[site]))
        if not dists:  # a root named otherwise than its distribution (`sklearn` of scikit-learn)
            dists = [d for d in importlib.metadata.distributions(path=[site])
                     if root in (d.read_text("top_level.txt") or "").split()]
        if not dists:
            return Library(root, "", site, False)
        dist = dists[0]
        matches = (_REQUIREMENT.match(req) for req in dist.requires or ())
        requires = {m.group(0).lower().replace("_", "-") for m in matches if m}
        return Library(str(dist.metadata["Name"] or root), str(dist.version or ""), site, bool(requires & _TF_DISTRIBUTIONS))
    except (OSError, ValueError, UnicodeError) as exc:
        warn(os.path.join(site, root), f"the distribution's metadata is not readable ({exc}); taken as no library")
        return Library(root, "", site, False)


def _inside(site: str, path: str) -> bool:
    """Whether *path* is a file whose real path stays inside *site*; a link leading out is warned of."""
    if not os.path.isfile(path):
        return False
    real = os.path.realpath(path)
    if os.path.commonpath((site, real)) == site:
        return True
    warn(path, f"links out of the environment to {real}; not read")
    return False


@functools.cache
def warn(path: str, problem: str) -> None:
    """One warning per file and problem per run."""
    print(f"greenlint: warning: {path}: {problem}", file=sys.stderr)


def clear() -> None:
    """Look at the environments again (a long-lived server's refresh: a library installed meanwhile)."""
    find.cache_clear()
    editable_folders.cache_clear()
    _site_dirs.cache_clear()
    _stamp.cache_clear()
