"""The persistent lint cache: one FileResult per (path, content, imported project modules,
greenlint, data) key, and the diagnostics per rule settings.

Entries are data only (JSON, `greenlint.check.cache_codec`): reading one never runs code, so a
repository may choose the cache directory (`cache-dir`). They live under
`greenlint.paths.cache_dir() / "check"` (or `cache-dir`), are written aside then renamed, and
any entry that cannot be read back, fails its checksum, or is not what its key says, is treated
as a miss.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from greenlint import __version__
from greenlint.check import cache_codec
from greenlint.paths import DATA_DIR, PACKAGE_DIR

#: Bump when the layout of cached entries changes.
FORMAT = 3
#: An entry larger than this is neither written nor read (a notebook's entry is a few MiB at most).
MAX_ENTRY_BYTES = 64 * 1024 * 1024


#: Subpackages whose code never shapes a cached value (output and command-line only).
NOT_CACHED_CODE = frozenset({"cli", "report", "review"})


def _tree_stamp(root: Path, suffixes: tuple[str, ...] | None = None, skip=frozenset()) -> list[tuple[str, int, int]]:
    """(relative path, size, mtime_ns) of every file under `root` (less top-level `skip`): cheap, no reading."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        top = dirpath == str(root)
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not (top and d in skip))
        for name in sorted(filenames):
            if suffixes is None or name.endswith(suffixes):
                p = os.path.join(dirpath, name)
                try:
                    st = os.stat(p)
                except OSError:
                    continue
                out.append((os.path.relpath(p, root), st.st_size, st.st_mtime_ns))
    return out


@functools.cache
def environment_stamp(calibration: Path | None = None) -> str:
    """What, besides a file's content, decides its analysis and predictions.

    greenlint's version and own source files but for NOT_CACHED_CODE (so an upgrade or a local
    edit invalidates the cache), and the bundled data (catalog, KB, model) plus this machine's calibration overlay
    (the inputs of `load_predictor().fingerprint`, stamped by size and mtime so that a warm run
    never has to load the predictor to learn its fingerprint). *calibration*: the overlays' folder
    this run applies (`Config.overlay_root`), None with calibration off.
    """
    h = hashlib.sha256(f"{FORMAT}:{__version__}".encode())
    h.update(repr(_tree_stamp(PACKAGE_DIR, (".py",), NOT_CACHED_CODE)).encode())
    for root in (DATA_DIR, calibration):
        if root is None:
            h.update(b"no calibration")
            continue
        h.update(repr((str(root), _tree_stamp(root) if root.is_dir() else None)).encode())
    return h.hexdigest()


def _default_overlay_root() -> Path:
    from greenlint.paths import cache_dir

    return cache_dir() / "calibration"


class Cache:
    """Read and write cached per-file results under `directory`."""

    def __init__(self, directory: Path, stamp: str | None = None):
        self.directory = Path(directory)
        self.stamp = stamp or environment_stamp(_default_overlay_root())

    def key(self, path: str, content: bytes, dependencies: str = "") -> str:
        """*dependencies*: a digest of the project modules the file imports (their changes count)."""
        h = hashlib.sha256(self.stamp.encode())
        h.update(b"\0" + path.encode("utf-8", "surrogateescape") + b"\0")
        h.update(dependencies.encode() + b"\0")
        h.update(content)
        return h.hexdigest()

    def _file(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str):
        """The value stored under *key*, or None (absent, unreadable, oversized, corrupt, tampered
        or foreign): an entry is its content's checksum, a newline, then the JSON."""
        try:
            with open(self._file(key), "rb") as fh:
                data = fh.read(MAX_ENTRY_BYTES + 1)
        except OSError:
            return None
        checksum, _, body = data.partition(b"\n")
        if len(data) > MAX_ENTRY_BYTES or checksum != _checksum(body):
            return None
        try:
            entry = cache_codec.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, cache_codec.InvalidEntry):
            return None
        if type(entry) is not dict or entry.keys() != {"key", "value"} or entry["key"] != key:
            return None
        return entry["value"]

    def put(self, key: str, value) -> None:
        try:
            text = cache_codec.dumps({"key": key, "value": value})
        except (TypeError, ValueError, RecursionError):
            return  # something the format cannot hold is simply not cached
        # A file name that is not UTF-8 (a surrogate escape) is written as a JSON `\udcXX` escape,
        # which reads back as the same string.
        body = text.encode("utf-8", "backslashreplace")
        if len(body) > MAX_ENTRY_BYTES:
            return
        from greenlint.atomic import atomic_write_bytes  # tempfile: only runs that write pay for it

        try:
            # not synced to disk: an entry lost or torn by a power cut fails its checksum, a miss
            atomic_write_bytes(self._file(key), _checksum(body) + b"\n" + body, durable=False)
        except OSError:
            pass  # a read-only or full cache directory only costs speed


def _checksum(body: bytes) -> bytes:
    """Catches an entry emptied, cut short or edited by hand (not a forger: the cache directory
    is the user's, and an entry can never run code anyway)."""
    return hashlib.blake2b(body, digest_size=16).hexdigest().encode("ascii")
