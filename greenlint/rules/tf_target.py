"""The TensorFlow version a checked file's project targets, for rules whose premise depends on it.

Read, in order, from: the `tensorflow-version` option; the project's pins (the nearest folder at
or above the file holding a `pyproject.toml`, `requirements*.txt`, `setup.cfg`, `setup.py` or
`environment.yml`: the first of those, in that order, that names `tensorflow` with a version;
only a regular file under the sources' size limit is read, never a FIFO or a device); where none
does, for a notebook, the version its saved outputs show (`recorded`: a cell reading `tf.__version__`
whose output is that version, what the notebook ran with; below the pin files, which say what the
project installs now, where an old notebook's outputs may be from an earlier run); else a README on the way there (the file's folder first) whose TensorFlow pins agree (`pip install
tensorflow-gpu==2.3.0`, `conda install tensorflow-gpu=2.2`, `+ Tensorflow == 2.0.0`: what its users
install; a version in prose, "tested with TensorFlow 2.3", is no pin); the
installed `tensorflow` distribution's version (the name of its metadata folder, never the
package itself);
else the newest TensorFlow the catalog was built from. A pin is read as what pip would install:
`==2.10.1` and `~=2.10.0` give 2.10, `<2.11` gives 2.10, `<=2.12` gives 2.12, a lower bound
alone (`>=2.4`) the newest. The same pin files give the NumPy a project runs on
(`numpy_target`), where they bound it. Light on purpose: the lint cache's keys
(greenlint.check.keys) hold `stamp`, so that a changed pin checks the file again.
"""

from __future__ import annotations

import functools
import json
import os
import re
import time
from pathlib import Path
from typing import NamedTuple

from greenlint.analysis.sources import MAX_BYTES, NOTEBOOK_RAW_FACTOR, cells_of, read_bytes

#: The files a project pins its dependencies in, in the order they are read.
PIN_FILES = ("pyproject.toml", "requirements*.txt", "setup.cfg", "setup.py", "environment.yml", "environment.yaml")
_NAME = r"(?<![\w.-])(?:tensorflow(?:-cpu|-gpu|-intel|-macos)?|tf-nightly)(?![\w-])"
_NUMPY = r"(?<![\w.-])numpy(?![\w-])"
_CLAUSE = r"(?:==|~=|<=|>=|!=|<|>|=|\^)\s*v?[0-9][0-9.*]*"
#: A project's README (`README.md`, `readme.rst`, `README`).
_README = re.compile(r"readme(?:\.(?:md|markdown|rst|txt))?", re.IGNORECASE)
#: A cell's read of the version of TensorFlow (`tf.__version__`) or of the standalone Keras
#: (`keras.__version__`; not `tf.keras.__version__`, the Keras TensorFlow bundles).
_VERSION_READ = re.compile(r"(?<![\w.])(tf|tensorflow|keras)\.__version__\b")
#: A saved output that is one version string and nothing else: `'2.0.8'`, `1.15.0`, `2.3.0-rc1`.
_VERSION_SHOWN = re.compile(r"""\s*(['"]?)v?(\d+)\.(\d+)(?:\.\d+)*[\w.+-]*\1\s*""")


def _pin_pattern(name: str) -> re.Pattern[str]:
    """A distribution *name* (a regular expression) with its version clauses: `tensorflow==2.10`,
    `tensorflow[and-cuda]>=2.12,<2.16`, `tensorflow = "^2.10"` (poetry), `tensorflow = {version =
    "~=2.9"}`, `tensorflow=2.10` (conda)."""
    return re.compile(
        name
        + r"""\s*(?:\[[^\]]*\])?\s*(?:["']?\s*=\s*(?:\{[^}]*?version\s*=\s*)?["'])?\s*"""
        + r"("
        + _CLAUSE
        + r"(?:\s*,\s*"
        + _CLAUSE
        + r")*)",
        re.IGNORECASE,
    )


_PIN = _pin_pattern(_NAME)
_NUMPY_PIN = _pin_pattern(_NUMPY)
_VERSION = re.compile(r"(\d+)(?:\.(\d+))?")
_DISTRIBUTION = re.compile(_NAME, re.IGNORECASE)


class TargetVersion(NamedTuple):
    """The version as (major, minor), None for the newest the catalog knows; *basis* says where
    it comes from ("pinned in requirements.txt", "installed", ...)."""

    version: tuple[int, int] | None
    basis: str

    def older_than(self, major: int, minor: int) -> bool:
        return self.version is not None and self.version < (major, minor)

    @property
    def stated(self) -> bool:
        """Set (`tensorflow-version`) or pinned for the project: not the machine's installed
        TensorFlow, nor the newest catalogued."""
        return self.basis.startswith(("pinned", "the tensorflow-version"))

    def shown(self) -> str:
        """`TensorFlow 2.10 (pinned in requirements.txt)`."""
        major, minor = self.version or (None, None)
        number = "the newest" if major is None else f"{major}.x" if minor == 99 else f"{major}.{minor}"
        return f"TensorFlow {number} ({self.basis})"


def target(path: str, option: str = "") -> TargetVersion:
    """The TensorFlow version the project of *path* targets (*option*: the `tensorflow-version`
    setting, which wins when set)."""
    if option:
        return TargetVersion(read_spec("==" + option), "the tensorflow-version setting")
    root = pins_folder(os.path.dirname(os.path.abspath(path)))
    pinned = _pinned(root, _signature(root)) if root is not None else None
    if pinned is None:
        shown = recorded(path, "tensorflow")
        pinned = (
            TargetVersion(shown[0], f"pinned by the notebook's saved output of `tf.__version__` (cell {shown[1]})")
            if shown is not None
            else None
        )
    if pinned is None:
        pinned = next(filter(None, map(_readme_pin, _readmes(os.path.dirname(os.path.abspath(path))))), None)
    if pinned is not None:
        return pinned
    installed = _installed()
    if installed is not None:
        return TargetVersion(installed, "installed")
    return TargetVersion(None, "newest catalogued")


def stamp(path: str) -> str:
    """What the findings of *path* depend on here, for its cache key."""
    found, numpy = target(path), numpy_target(path)
    return f"tf {found.version} {found.basis} np {numpy.version}" + (" cpu" if cpu_only(path) else "")


def cpu_only(path: str) -> bool:
    """The project's pin files name TensorFlow's CPU-only wheel (`tensorflow-cpu`, with a version
    or without) and no other TensorFlow distribution: the project trains on the host."""
    root = pins_folder(os.path.dirname(os.path.abspath(path)))
    return root is not None and _distributions(root, _signature(root)) == {"tensorflow-cpu"}


@functools.lru_cache(maxsize=256)
def _distributions(root: str, signature: tuple) -> frozenset[str]:
    """The TensorFlow distributions the pin files of *root* name (`tensorflow`, `tensorflow-cpu`, ...)."""
    names: set[str] = set()
    for name, _, _ in signature:
        data, _ = read_bytes(Path(root, name), MAX_BYTES)
        if data is not None:
            text = _uncommented(data.decode("utf-8", "replace"))
            names.update(match.group(0).lower() for match in _DISTRIBUTION.finditer(text))
    return frozenset(names)


#: folder -> (its `pins_folder`, the READMEs on the way there, each folder listed for it with its mtime):
#: a long-lived process (the editor's) sees a pin file created later, at the cost of a stat per folder,
#: not a listing.
_PINS_FOLDERS: dict[str, tuple[str | None, tuple[str, ...], tuple[tuple[str, int], ...]]] = {}
_PINS_FOLDERS_MAX = 1024
#: A folder changed this recently is listed again: a file added within the file system's mtime
#: granularity (up to 2 s) may leave its mtime as it was.
_RACY_NS = 2_000_000_000


def pins_folder(folder: str) -> str | None:
    """The nearest folder at or above *folder* with a file that may pin dependencies, never above
    the repository *folder* is in (a `.git`): pins beside another checkout are not this one's."""
    return _walked(folder)[0]


def _readmes(folder: str) -> tuple[str, ...]:
    """The READMEs of the folders from *folder* up to its `pins_folder` (or its repository's root), nearest first."""
    return _walked(folder)[1]


def _walked(folder: str) -> tuple[str | None, tuple[str, ...]]:
    """`pins_folder` and `_readmes` of *folder*, memoised while none of the folders listed changed (a
    file added or removed in one does)."""
    known = _PINS_FOLDERS.get(folder)
    if known is not None and all(_mtime(listed) == mtime for listed, mtime in known[2]):
        return known[0], known[1]
    if len(_PINS_FOLDERS) >= _PINS_FOLDERS_MAX:
        _PINS_FOLDERS.clear()
    found, readmes, listed = _walk(folder)
    if all(mtime < time.time_ns() - _RACY_NS for _, mtime in listed):  # else a change may keep its mtime
        _PINS_FOLDERS[folder] = (found, readmes, listed)
    return found, readmes


def _walk(folder: str) -> tuple[str | None, tuple[str, ...], tuple[tuple[str, int], ...]]:
    listed: list[tuple[str, int]] = []
    readmes: list[str] = []
    while True:
        listed.append((folder, _mtime(folder)))  # before listing it: a file added meanwhile is seen next time
        try:
            names = os.listdir(folder)
        except OSError:
            names = []
        readmes.extend(os.path.join(folder, n) for n in sorted(names) if _README.fullmatch(n))
        if any(_pin_file(n) for n in names):
            return folder, tuple(readmes), tuple(listed)
        parent = os.path.dirname(folder)
        if ".git" in names or parent == folder:
            return None, tuple(readmes), tuple(listed)
        folder = parent


def _mtime(folder: str) -> int:
    try:
        return os.stat(folder).st_mtime_ns
    except OSError:
        return -1


def _pin_file(name: str) -> bool:
    """A file pins can be read from; a requirements file in any case (`REQUIREMENTS.txt`: pip takes any name)."""
    lower = name.lower()
    return name in PIN_FILES or (lower.startswith("requirements") and lower.endswith(".txt"))


def _signature(root: str) -> tuple:
    """The pin files of *root*, in reading order, with their sizes and times (a change reads them again)."""
    found = []
    try:
        names = sorted(n for n in os.listdir(root) if _pin_file(n))
    except OSError:
        return ()
    order = {name: i for i, name in enumerate(PIN_FILES)}
    for name in sorted(names, key=lambda n: (order.get(n, order["requirements*.txt"]), n)):
        try:
            info = os.stat(os.path.join(root, name))
        except OSError:
            continue
        found.append((name, info.st_size, info.st_mtime_ns))
    return tuple(found)


@functools.lru_cache(maxsize=256)
def _pinned(root: str, signature: tuple) -> TargetVersion | None:
    found = _pin(root, signature, _PIN)
    return None if found is None else TargetVersion(read_spec(found[1]), f"pinned in {found[0]}")


@functools.lru_cache(maxsize=512)
def _pin(root: str, signature: tuple, pattern: re.Pattern[str]) -> tuple[str, str] | None:
    """(file, version specifier) of the first pin *pattern* finds in the pin files of *root*."""
    for name, _, _ in signature:
        data, _ = read_bytes(Path(root, name), MAX_BYTES)  # never a FIFO (opening one waits), a device or a huge file
        if data is None:
            continue
        for match in pattern.finditer(_uncommented(data.decode("utf-8", "replace"))):
            return name, match.group(1)
    return None


def _readme_pin(path: str) -> TargetVersion | None:
    """The TensorFlow a README pins: its pins' one version (a lower bound alone: the newest); None where
    it pins none, or pins that disagree (a TF1 branch's `tensorflow==1.15` beside this one's `==2.8`)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return _readme_pinned(path, info.st_size, info.st_mtime_ns)


@functools.lru_cache(maxsize=256)
def _readme_pinned(path: str, size: int, mtime: int) -> TargetVersion | None:
    data, _ = read_bytes(Path(path), MAX_BYTES)
    if data is None:
        return None
    versions = {read_spec(match.group(1)) for match in _PIN.finditer(data.decode("utf-8", "replace"))}
    return TargetVersion(versions.pop(), f"pinned in {os.path.basename(path)}") if len(versions) == 1 else None


def recorded(path: str, module: str) -> tuple[tuple[int, int], int] | None:
    """The (major, minor) of *module* (`tensorflow` or `keras`) a notebook ran with, as its saved
    outputs show it, with the cell (numbered among the code cells, from 1): the first code cell
    whose source reads that module's `__version__` alone (`tf.__version__`, `print(keras.__version__)`)
    and whose saved output, its standard error aside (Keras' "Using TensorFlow backend."), is one
    version string. Reading the file, never running it; None for another file or where no cell shows it."""
    if not path.endswith(".ipynb"):
        return None
    try:
        info = os.stat(path)
    except OSError:
        return None
    return _recorded(path, info.st_size, info.st_mtime_ns).get(module)


@functools.lru_cache(maxsize=256)
def _recorded(path: str, size: int, mtime: int) -> dict[str, tuple[tuple[int, int], int]]:
    data, _ = read_bytes(Path(path), MAX_BYTES * NOTEBOOK_RAW_FACTOR)
    try:
        nb = json.loads(data) if data is not None else None
    except (ValueError, RecursionError):
        return {}
    cells, key = cells_of(nb) if isinstance(nb, dict) else (None, "")
    code = [c for c in cells if isinstance(c, dict) and c.get("cell_type") == "code"] if isinstance(cells, list) else []
    found: dict[str, tuple[tuple[int, int], int]] = {}
    for number, cell in enumerate(code, 1):
        read = {"tensorflow" if m == "tf" else m for m in _VERSION_READ.findall(_text(cell.get(key)))}
        shown = _VERSION_SHOWN.fullmatch(_output(cell.get("outputs"))) if len(read) == 1 else None
        if shown is not None:
            found.setdefault(read.pop(), ((int(shown.group(2)), int(shown.group(3))), number))
    return found


def _text(value: object) -> str:
    """A cell's source or output text as nbformat stores it (a string, or a list of lines); "" for anything else."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "".join(value)
    return value if isinstance(value, str) else ""


def _output(outputs: object) -> str:
    """The text a code cell's saved outputs show, standard error aside: its printed lines and its
    result's plain text."""
    shown: list[str] = []
    for output in outputs if isinstance(outputs, list) else ():
        if not isinstance(output, dict) or output.get("name") == "stderr":
            continue
        data = output.get("data")
        text = data.get("text/plain") if isinstance(data, dict) else output.get("text")
        shown.append(_text(text))
    return "".join(shown)


def numpy_target(path: str, option: str = "") -> TargetVersion:
    """The NumPy (major, minor) the project of *path* runs on, where stated: the `numpy-version`
    option, else a pin that bounds it (`numpy==1.21` and `numpy<2` give 1.x, `numpy>=2` gives
    2.x); version None where neither says (no pin, or a lower bound below 2 alone, which an old
    project's other pins may hold under 2). Never the NumPy installed beside greenlint: that is
    greenlint's environment, not the project's."""
    if option:
        return TargetVersion(read_spec("==" + option) or read_spec("<=" + option), "the numpy-version setting")
    root = pins_folder(os.path.dirname(os.path.abspath(path)))
    found = _pin(root, _signature(root), _NUMPY_PIN) if root is not None else None
    if found is None:
        return TargetVersion(None, "no NumPy pin")
    name, spec = found
    version = read_spec(spec)
    if version is None:
        lows = [_VERSION.search(c) for c in spec.split(",") if c.strip().startswith((">", "~", "^"))]
        major = max((int(m.group(1)) for m in lows if m is not None), default=0)
        version = (major, 99) if major >= 2 else None
    return TargetVersion(version, f"pinned in {name}" if version is not None else f"no upper bound in {name}")


def _uncommented(text: str) -> str:
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def read_spec(spec: str) -> tuple[int, int] | None:
    """The (major, minor) pip would install under a version specifier; None: the newest."""
    upper: tuple[int, int] | None = None
    for clause in spec.split(","):
        clause = clause.strip()
        op = re.match(r"[=~<>!^]*", clause).group(0)  # type: ignore[union-attr]
        found = _VERSION.search(clause[len(op) :])
        if found is None:
            continue
        major, minor = int(found.group(1)), found.group(2)
        if op in ("==", "=", "~=") and minor is not None:
            if op == "~=" and clause.count(".") < 2:  # `~=2.10`: any 2.x from 2.10
                continue
            return major, int(minor)
        if op == "<=":
            bound = (major, int(minor) if minor is not None else 99)
        elif op == "<":
            bound = (major, int(minor) - 1) if minor is not None and int(minor) > 0 else (major - 1, 99)
        else:
            continue
        upper = bound if upper is None else min(upper, bound)
    return upper


_DIST = re.compile(r"tensorflow-(\d+)\.(\d+)[^-]*\.(?:dist|egg)-info$", re.IGNORECASE)


@functools.lru_cache(maxsize=1)
def _installed() -> tuple[int, int] | None:
    """The version of the `tensorflow` distribution installed where greenlint runs, from the
    name of its metadata folder on `sys.path` (what importlib.metadata reads, without importing
    it and its dependencies on a fully cached run)."""
    import sys

    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            found = _DIST.match(name)
            if found:
                return int(found.group(1)), int(found.group(2))
    return None
