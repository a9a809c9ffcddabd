"""Write files aside, then rename: nothing half-written is ever left behind.

A rewritten file keeps its permissions and (where this process may set them) its owner and group.
Writes are synced to disk, the file before the rename and its folder after, so that a power cut
leaves the old content or the new, never an empty file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def atomic_write_text(target: Path, text: str) -> None:
    atomic_write_bytes(target, text.encode("utf-8"))


def atomic_write_bytes(target: Path, data: bytes, before_replace: Callable[[], None] | None = None) -> None:
    """Write *data* to a temporary file beside *target*, then rename it over *target*.

    *before_replace*, called right before the rename, may raise to abandon the write (the
    temporary file is removed and *target* left as it is). A missing folder is created.
    """
    target = Path(target)
    prefix = f".{target.name}."
    try:
        fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=target.parent)
    except FileNotFoundError:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            _keep_mode_and_owner(tmp, target)
            out.flush()
            os.fsync(out.fileno())
        if before_replace is not None:
            before_replace()
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _sync_folder(target.parent)


def _keep_mode_and_owner(tmp: str, target: Path) -> None:
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return
    mine = os.stat(tmp)
    if (mine.st_uid, mine.st_gid) != (st.st_uid, st.st_gid) and hasattr(os, "chown"):
        with contextlib.suppress(PermissionError):  # only root may give a file away
            os.chown(tmp, st.st_uid, st.st_gid)
    os.chmod(tmp, st.st_mode & 0o7777)  # after chown, which clears set-user/group-id bits


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX: fsync the directory); a no-op where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
