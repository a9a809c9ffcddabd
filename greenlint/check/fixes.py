"""`greenlint check --fix/--diff`: fix the checked files through the engine, writing nothing half-done."""

from __future__ import annotations

import ast
import codecs
from dataclasses import dataclass, field
from pathlib import Path

from greenlint.fix.engine import fix_text
from greenlint.rules.diagnostic import Diagnostic


@dataclass
class FileFix:
    """One file's outcome: its text before and after, the findings fixed, or why it was left alone."""

    path: str
    before: str = ""
    after: str = ""
    fixed: list[Diagnostic] = field(default_factory=list)
    skipped: str | None = None
    raw: bytes = b""  # the file's bytes as read: it is written only if it still holds them

    @property
    def changed(self) -> bool:
        return self.skipped is None and self.before != self.after


def usable(d: Diagnostic, unsafe: bool) -> bool:
    return d.fix is not None and (d.fix.safe or unsafe)


def fix_checked(checked, config, unsafe: bool = False, predictor=None) -> list[FileFix]:
    """Fix every checked file (`greenlint.check.runner.Checked`, from `run_check(..., fixes=True)`)
    that has a usable fix; write nothing."""
    from greenlint.analysis import sources
    from greenlint.check import check_source

    out = []
    for c in checked:
        if not any(usable(d, unsafe) for d in c.diagnostics):
            continue
        if isinstance(c.source, tuple):
            out.append(FileFix(c.path, skipped="notebook: fixes are not written into .ipynb files; apply them in the editor"))
            continue
        raw, error = sources.read_bytes(Path(c.path), sources.MAX_BYTES)
        text, error = sources.decode(c.path, raw) if raw is not None else (None, error)
        if text is None:
            out.append(FileFix(c.path, skipped=f"cannot read it again ({error.message if error else 'unreadable'})"))
            continue
        if text != c.source:
            out.append(FileFix(c.path, skipped="it changed while it was being checked"))
            continue
        if predictor is None:
            from greenlint.predict import load_predictor

            predictor = load_predictor(overlay=config.overlay, device=config.device)

        def check(source: str, path: str = c.path, predictor=predictor) -> list[Diagnostic]:
            return check_source(source, path, config, predictor)

        after, fixed, _ = fix_text(text, check, unsafe)
        try:
            ast.parse(after)
        except SyntaxError as exc:
            out.append(FileFix(c.path, skipped=f"the fixes would leave code that does not parse ({exc.msg}); nothing written"))
            continue
        out.append(FileFix(c.path, text, after, fixed, raw=raw))
    return out


class Refused(Exception):
    """A fixed file left as it is; the message says why."""


def write(fixes: list[FileFix]) -> list[FileFix]:
    """Write each changed file aside, then rename it over the original; return those refused.

    A file is written only if it is still exactly what was read (compared again right before
    the rename), keeps its permissions and owner, and is a writable regular file with one link:
    a symbolic link's target is fixed and the link kept; a hard-linked, read-only or other
    user's file is refused with the reason (set as its `skipped`), and the others still written.
    """
    refused = []
    for f in fixes:
        if not f.changed:
            continue
        try:
            _write_one(f)
        except Refused as exc:
            f.skipped = str(exc)
        except OSError as exc:  # a read-only folder, a full disk
            f.skipped = f"cannot write it ({exc.strerror or exc}); nothing written"
        if f.skipped:
            refused.append(f)
    return refused


def _write_one(f: FileFix) -> None:
    import os

    from greenlint.analysis import sources
    from greenlint.atomic import atomic_write_bytes

    target = Path(os.path.realpath(f.path))  # through symbolic links: the link stays, its target is fixed
    st = os.stat(target)
    if st.st_nlink > 1:
        raise Refused(f"it has {st.st_nlink} hard links, which a rewrite would split; nothing written")
    if not os.access(target, os.W_OK) or not st.st_mode & 0o222:
        raise Refused("it is read-only; nothing written")
    if hasattr(os, "geteuid") and os.geteuid() not in (0, st.st_uid):
        raise Refused(f"it belongs to another user (uid {st.st_uid}), whose file a rewrite would take; nothing written")
    if hasattr(os, "getgroups") and os.geteuid() != 0 and st.st_gid not in (os.getegid(), *os.getgroups()):
        raise Refused(f"its group (gid {st.st_gid}) is not one of yours, so a rewrite would change it; nothing written")
    encoding, _ = sources.source_encoding(f.path, f.raw)
    if encoding == "utf-8-sig":  # Python's reading of UTF-8 with or without a byte-order mark
        data = (codecs.BOM_UTF8 if f.raw.startswith(codecs.BOM_UTF8) else b"") + f.after.encode("utf-8")
    else:
        try:
            data = f.after.encode(encoding)
        except UnicodeEncodeError:
            raise Refused(f"the fixed code cannot be written in its encoding {encoding}; nothing written") from None

    def unchanged() -> None:
        now = os.stat(target)
        if (now.st_ino, now.st_dev) != (st.st_ino, st.st_dev) or target.read_bytes() != f.raw:
            raise Refused("it changed while the fixes were computed; nothing written")

    atomic_write_bytes(target, data, before_replace=unchanged)
