"""The persistent lint cache: one FileResult per (path, content, imported project modules,
greenlint, data) key, and the diagnostics per rule settings.

The whole cache is one SQLite file, `greenlint.paths.cache_dir() / "check" / "lint.sqlite"`
(or under `cache-dir`): each entry one row, written in batches of one transaction each
(atomic: all or none), in WAL mode with a busy timeout so that concurrent runs and worker
processes share it. Entries are plain JSON values, compressed: the records of
greenlint.check.records. Reading one only parses JSON and never runs code, so a repository may choose the cache directory; its readers check what they read, and a link committed at the
cache file's name (or its SQLite companions') is removed, never written through. An entry that cannot be read back, or is not what
its key says, is a miss. A greenlint cache file that SQLite cannot use (its header says it is
one, its pages are damaged) is reported, then replaced by a new empty one, built aside and
renamed over it; any other file at the cache's name (another program's database, a user's own
file where `cache-dir` points into the project) is named and left as it is, and the run goes on
without the cache: nothing a user has is overwritten. A file that is not yet this
format's cache is judged and made inside one write transaction, so runs creating the cache at
once agree on it (one makes it, the others find it made) and none judges it foreign.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import json
import os
import sqlite3
import sys
import time
import zlib
from pathlib import Path

from greenlint import __version__
from greenlint.paths import DATA_DIR, PACKAGE_DIR

#: Bump when the layout of cached entries changes.
FORMAT = 6
#: An entry larger than this, compressed or not, is neither written nor read.
MAX_ENTRY_BYTES = 64 * 1024 * 1024
FILE_NAME = "lint.sqlite"
#: SQLite's `application_id` of a greenlint cache ("GLNT"): anything else is a foreign file.
APPLICATION_ID = 0x474C4E54
#: Seconds a write waits for another process's transaction to end.
BUSY_TIMEOUT_S = 30.0
#: The cache file and the files SQLite keeps beside it; SQLite opens each through a link at its name.
SQLITE_FILES = ("", "-wal", "-shm", "-journal")
SCHEMA = "CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID"


#: Subpackages whose code never shapes a cached value (output and command-line only).
NOT_CACHED_CODE = frozenset({"cli", "report", "review"})


def _tree_stamp(root: Path, suffixes: tuple[str, ...] | None = None, skip=frozenset()) -> list[tuple[str, int, int]]:
    """(relative path, size, mtime_ns) of every file under `root` (less top-level `skip`): cheap, no reading."""
    out = []
    prefix = os.path.join(str(root), "")
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
                # what os.path.relpath gives, without its two abspath calls per file
                rel = p[len(prefix) :] if p.startswith(prefix) else os.path.relpath(p, root)
                out.append((rel, st.st_size, st.st_mtime_ns))
    return out


@functools.cache
def environment_stamp(calibration: Path | None = None, device: str | None = None) -> str:
    """What, besides a file's content, decides its analysis and predictions.

    greenlint's version and own source files but for NOT_CACHED_CODE (so an upgrade or a local
    edit invalidates the cache) with the rules' codes.json (which rules run on a file), and the bundled data (catalog, KB, model) plus this machine's calibration overlay
    (the inputs of `load_predictor().fingerprint`, stamped by size and mtime so that a warm run
    never has to load the predictor to learn its fingerprint). *calibration*: the overlays' folder
    this run applies (`Config.overlay_root`), None with calibration off; *device*: the GPU told
    (`Config.device`), None without one.
    """
    h = hashlib.sha256(f"{FORMAT}:{__version__}".encode())
    if device is not None:
        h.update(f"device:{device}".encode())
    h.update(repr(_tree_stamp(PACKAGE_DIR, (".py", "codes.json"), NOT_CACHED_CODE)).encode())
    for root in (DATA_DIR, calibration):
        if root is None:
            h.update(b"no calibration")
            continue
        # os.path.isdir: a name too long for the file system (`--cache-dir` of 300 characters) is no folder, not an OSError
        h.update(repr((str(root), _tree_stamp(root) if os.path.isdir(root) else None)).encode())
    return h.hexdigest()


#: This process's connection to each cache file (a forked worker opens its own).
_connections: dict[Path, sqlite3.Connection | None] = {}
_connections_pid = 0
_inherited: list = []
#: Entries put but not yet written, per cache file: written together, in one transaction.
_pending: dict[Path, dict[str, bytes]] = {}
PENDING_MAX = 64


def flush_all() -> None:
    """Write the entries pending for every cache file, and the answers about installed libraries
    found meanwhile (`libraries.save`: their own files in the user cache), where the analysis ran."""
    for file in list(_pending):
        Cache(file.parent).flush()
    libraries = sys.modules.get("greenlint.analysis.libraries")  # a warm run never imports it
    if libraries is not None:
        libraries.save()


def close_all() -> None:
    """Write what is pending, then close this process's connections (the last one out folds
    the write-ahead log back into the file, leaving one file); run at exit."""
    if _connections_pid in (0, os.getpid()):  # not a forked copy of another process's state
        flush_all()
        for db in _connections.values():
            if db is not None:
                db.close()
    _connections.clear()
    _pending.clear()


atexit.register(close_all)


def cache_in(directory: Path | None, overlay_root: Path | None, device: str | None = None) -> Cache:
    """A run's lint cache: in *directory* (None: the user cache's `check/`), under the environment
    stamp of the calibration overlays in *overlay_root* (None: calibration off) and the GPU told."""
    from greenlint.paths import cache_dir

    return Cache(directory or cache_dir() / "check", environment_stamp(overlay_root, device))


def _header(db: sqlite3.Connection, begin: str, commit: bool = True) -> tuple[int, int]:
    """(application_id, user_version) of *db*, read together in one transaction opened by *begin*
    (left open unless *commit*; on an error, to the caller's `close`)."""
    db.execute(begin)
    header = tuple(db.execute(f"PRAGMA {p}").fetchone()[0] for p in ("application_id", "user_version"))
    if commit:
        db.execute("COMMIT")
    return header  # type: ignore[return-value]


def _use_wal(db: sqlite3.Connection) -> None:
    """Put *db*'s file in WAL mode (a lasting property of the file). SQLite answers "database is
    locked" at once, without waiting on the busy timeout, while another connection is creating or
    switching the same file: try again until BUSY_TIMEOUT_S has passed."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.005)


def _warn_unusable(file: Path, problem: Exception) -> None:
    """Say that the run goes on without the lint cache, naming a file where its folder would go."""
    blocking = next((p for p in file.parents if os.path.lexists(p)), None)
    if blocking is not None and not os.path.isdir(blocking):
        where, why = blocking, "not a folder"
    else:
        where, why = file.parent, problem.strerror if isinstance(problem, OSError) and problem.strerror else str(problem)
    print(f"greenlint: warning: {where}: cannot hold the lint cache ({why}); running without it", file=sys.stderr)


def _is_greenlint_cache(file: Path) -> bool:
    """Whether *file*'s SQLite header names it a greenlint lint cache (`APPLICATION_ID` at byte 68)."""
    try:
        with open(file, "rb") as f:
            head = f.read(72)
    except OSError:
        return False
    return head[:16] == b"SQLite format 3\0" and int.from_bytes(head[68:72], "big") == APPLICATION_ID


def _drop_links(file: Path) -> None:
    """Remove a link found at the name of the cache file or of a file SQLite keeps beside it, and
    say so: a repository can commit one in its cache-dir, and SQLite would create or rewrite its
    target, anywhere. Only the link goes; its target is never opened."""
    for suffix in SQLITE_FILES:
        path = file.with_name(file.name + suffix)
        if path.is_symlink():
            print(f"greenlint: warning: {path}: a link, not a lint cache file; removed (its target is left alone)",
                  file=sys.stderr)
            path.unlink()


class Cache:
    """Read and write cached values in the one cache file under `directory`; a cache that
    cannot be opened or written only costs speed."""

    def __init__(self, directory: Path, stamp: str | None = None):
        self.directory = Path(directory)
        self.file = self.directory / FILE_NAME
        self._stamp = stamp

    @property
    def stamp(self) -> str:
        """What every key covers besides the file: greenlint's code, data and calibration (by
        default, the overlays in the default folder); worked out when a key is first made."""
        if self._stamp is None:
            from greenlint.paths import calibration_dir

            self._stamp = environment_stamp(calibration_dir())
        return self._stamp

    def key(self, path: str, content: bytes, dependencies: str = "") -> str:
        """*dependencies*: what besides its content decides the file's findings (`keys.look_up`)."""
        h = hashlib.sha256(self.stamp.encode())
        h.update(b"\0" + path.encode("utf-8", "surrogateescape") + b"\0")
        h.update(dependencies.encode() + b"\0")
        h.update(content)
        return h.hexdigest()

    def get(self, key: str):
        """The JSON value stored under *key*, or None (absent, unreadable, oversized, corrupt or
        foreign): an entry is the zlib-compressed key, a newline, then the JSON. One put and not yet
        written is read where it waits (a read writes nothing: a run that reads and puts by turns
        still writes its entries in batches)."""
        pending = _pending.get(self.file, {}).get(key)
        row = (pending,) if pending is not None else self._execute(
            "SELECT value FROM entries WHERE key = ? AND length(value) <= ?", (key, MAX_ENTRY_BYTES))
        if not row or type(row[0]) is not bytes:
            return None
        try:
            inflate = zlib.decompressobj()
            data = inflate.decompress(row[0], MAX_ENTRY_BYTES + 1)
            if len(data) > MAX_ENTRY_BYTES or not inflate.eof:
                return None
            stored, _, body = data.partition(b"\n")
            if stored != key.encode("ascii"):
                return None
            return json.loads(body.decode("utf-8"))
        except (zlib.error, UnicodeError, ValueError, RecursionError):  # JSONDecodeError is a ValueError
            return None

    def put(self, key: str, value) -> None:
        """Store the JSON value *value* under *key* (anything JSON cannot hold is not cached)."""
        try:
            text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, check_circular=False)
        except (TypeError, ValueError, RecursionError):
            return
        # A file name that is not UTF-8 (a surrogate escape) is written as a JSON `\udcXX` escape,
        # which reads back as the same string.
        body = key.encode("ascii") + b"\n" + text.encode("utf-8", "backslashreplace")
        if len(body) > MAX_ENTRY_BYTES:
            return
        pending = _pending.setdefault(self.file, {})
        pending[key] = zlib.compress(body, 1)
        if len(pending) >= PENDING_MAX:
            self.flush()

    def flush(self) -> None:
        """Write the entries put since the last flush, in one transaction (atomic together)."""
        rows = _pending.pop(self.file, None)
        db = self._connection() if rows else None
        if rows is None or db is None:
            return
        try:
            with db:  # BEGIN ... COMMIT, or ROLLBACK on an error
                db.execute("BEGIN IMMEDIATE")
                db.executemany("INSERT OR REPLACE INTO entries (key, value) VALUES (?, ?)", rows.items())
        except sqlite3.OperationalError:
            pass  # locked past the timeout, a full disk: these entries are only misses later
        except sqlite3.DatabaseError as exc:  # corrupt since opened
            self._forget(db, exc)

    def _execute(self, sql: str, args: tuple):
        """The first row of *sql* (None if none), or None when the cache cannot be used."""
        db = self._connection()
        if db is None:
            return None
        try:
            return db.execute(sql, args).fetchone()
        except sqlite3.OperationalError:  # locked past the timeout: a miss
            return None
        except sqlite3.DatabaseError as exc:  # corrupt since opened
            self._forget(db, exc)
            return None

    def _forget(self, db: sqlite3.Connection, problem: Exception) -> None:
        db.close()
        _connections.pop(self.file, None)
        self._rebuild(problem)

    def _connection(self) -> sqlite3.Connection | None:
        global _connections_pid
        if _connections_pid != os.getpid():  # opened in a parent before fork: not ours to use, nor to
            _inherited.extend(_connections.values())  # close (that could drop this process's locks)
            _connections.clear()
            _pending.clear()  # the parent writes its own
            _connections_pid = os.getpid()
        if self.file in _connections:
            return _connections[self.file]
        db = None
        try:
            _drop_links(self.file)
            db = self._open(self.file)
        except (OSError, sqlite3.OperationalError) as exc:  # no folder can be made there, unwritable: run without
            if "locked" not in str(exc):  # locked past the timeout: another run's, no fault to name
                _warn_unusable(self.file, exc)
        except sqlite3.DatabaseError as exc:
            if _is_greenlint_cache(self.file):
                self._rebuild(exc)
                try:
                    db = self._open(self.file)
                except sqlite3.Error:
                    pass
            else:
                print(f"greenlint: warning: {self.file}: not a greenlint lint cache ({exc}); left as it is, running "
                      "without the lint cache (move the file, or set another cache-dir)", file=sys.stderr)
        _connections[self.file] = db
        return db

    @staticmethod
    def _open(file: Path) -> sqlite3.Connection:
        """A connection to the cache *file* (created if missing); DatabaseError if it is not one."""
        file.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(file, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
        try:
            if _header(db, "BEGIN") != (APPLICATION_ID, FORMAT):
                # Judged again inside a write transaction: another run may be creating the cache
                # right now (a new file is empty until its creator commits), and whatever it
                # committed is seen whole. The file is inspected and made in that one transaction.
                # (An error leaves the transaction to `close`, which rolls it back.)
                app, version = _header(db, "BEGIN IMMEDIATE", commit=False)
                if (app, version) != (APPLICATION_ID, FORMAT):
                    empty = app == 0 and not db.execute("SELECT 1 FROM sqlite_master").fetchone()
                    if not empty and app != APPLICATION_ID:
                        raise sqlite3.DatabaseError("not a greenlint lint cache")
                    # new, or an older greenlint's cache: entries of another format are all misses
                    db.execute("DROP TABLE IF EXISTS entries")
                    db.execute(SCHEMA)
                    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    db.execute(f"PRAGMA user_version = {FORMAT}")
                db.execute("COMMIT")
            _use_wal(db)
            db.execute("PRAGMA synchronous = OFF")  # a power cut may lose entries: misses, never wrong values
            db.execute("PRAGMA cache_size = -256")  # KiB: rows are read once; keep the peak memory low
        except BaseException:
            db.close()
            raise
        return db

    def _rebuild(self, problem: Exception) -> None:
        """Warn that greenlint's own cache file is unusable, then put a new one in its place (built
        aside, renamed)."""
        print(f"greenlint: warning: {self.file}: not a usable lint cache ({problem}); starting a new one", file=sys.stderr)
        aside = self.file.with_name(f"{FILE_NAME}.{os.getpid()}.new")
        try:
            aside.unlink(missing_ok=True)
            self._open(aside).close()
            for stale in ("-wal", "-shm"):  # the old file's log must not be replayed into the new one
                self.file.with_name(FILE_NAME + stale).unlink(missing_ok=True)
            os.replace(aside, self.file)
        except (OSError, sqlite3.Error):
            aside.unlink(missing_ok=True)
