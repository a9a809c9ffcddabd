"""`greenlint check --fix/--diff`: fix the checked files through the engine, writing nothing half-done."""

from __future__ import annotations

import ast
import codecs
import os
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


def link_refusal(path: str | Path, root: Path) -> str | None:
    """Why fixes must not be written to *path*, or None: a symbolic link (whose target, in the
    project or out of it, is never rewritten through it), or a path in the project (`root`) that a
    linked folder leads out of it."""
    real, real_root = os.path.realpath(path), os.path.realpath(root)
    inside = Path(real).is_relative_to(real_root)
    shown = os.path.relpath(real, real_root) if inside else real
    if os.path.islink(path):
        where = "" if inside else ", outside the project"
        fix = f" (fix {shown} by its own name)" if inside else ""
        return f"it is a symbolic link to {shown}{where}; nothing is written through a link{fix}"
    if Path(os.path.abspath(path)).is_relative_to(root) and not inside:
        return f"a linked folder leads it outside the project (to {shown}); nothing is written through a link"
    return None


def fix_checked(checked, config, unsafe: bool = False, predictor=None) -> list[FileFix]:
    """Fix every checked file (its `FileResult`, from `run_check(..., fixes=True)`) that has a
    usable fix and may be written (`link_refusal`); write nothing."""
    from greenlint.analysis import sources
    from greenlint.check.pipeline import check_source

    out = []
    for c in checked:
        if not any(usable(d, unsafe) for d in c.diagnostics):
            continue
        if isinstance(c.source, tuple):
            out.append(FileFix(c.path, skipped="notebook: fixes are not written into .ipynb files; apply them in the editor"))
            continue
        linked = link_refusal(c.path, config.root)
        if linked:
            out.append(FileFix(c.path, skipped=linked))
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


class WriteRefused(Exception):
    """A fixed file left as it is; the message says why."""


def write(fixes: list[FileFix], root: Path) -> list[FileFix]:
    """Write each changed file aside, then rename it over the original; return those refused.

    A file is written only if it is still exactly what was read (compared again right before
    the rename), keeps its permissions and owner, and is a writable regular file with one link
    reached by its own name: a symbolic link, or a file of the project (`root`) that a linked folder
    leads out of it, is refused (`link_refusal`, asked again right before the rename), as is a
    hard-linked, read-only or other user's file; the reason is set as its `skipped`, and the others
    are still written.
    """
    refused = []
    for f in fixes:
        if not f.changed:
            continue
        try:
            _write_one(f, root)
        except WriteRefused as exc:
            f.skipped = str(exc)
        except OSError as exc:  # a read-only folder, a full disk
            f.skipped = f"cannot write it ({exc.strerror or exc}); nothing written"
        if f.skipped:
            refused.append(f)
    return refused


def _write_one(f: FileFix, root: Path) -> None:
    from greenlint.analysis import sources
    from greenlint.atomic import atomic_write_bytes

    def not_linked() -> None:
        linked = link_refusal(f.path, root)
        if linked:
            raise WriteRefused(linked)

    not_linked()
    target = Path(os.path.realpath(f.path))  # the file itself: only folders inside the project may be links
    st = os.stat(target)
    if st.st_nlink > 1:
        raise WriteRefused(f"it has {st.st_nlink} hard links, which a rewrite would split; nothing written")
    if not os.access(target, os.W_OK) or not st.st_mode & 0o222:
        raise WriteRefused("it is read-only; nothing written")
    if hasattr(os, "geteuid") and os.geteuid() not in (0, st.st_uid):
        raise WriteRefused(f"it belongs to another user (uid {st.st_uid}), whose file a rewrite would take; nothing written")
    if hasattr(os, "getgroups") and os.geteuid() != 0 and st.st_gid not in (os.getegid(), *os.getgroups()):
        raise WriteRefused(f"its group (gid {st.st_gid}) is not one of yours, so a rewrite would change it; nothing written")
    encoding, _ = sources.source_encoding(f.path, f.raw)
    if encoding == "utf-8-sig":  # Python's reading of UTF-8 with or without a byte-order mark
        data = (codecs.BOM_UTF8 if f.raw.startswith(codecs.BOM_UTF8) else b"") + f.after.encode("utf-8")
    else:
        try:
            data = f.after.encode(encoding)
        except UnicodeEncodeError:
            raise WriteRefused(f"the fixed code cannot be written in its encoding {encoding}; nothing written") from None

    def unchanged() -> None:
        not_linked()  # swapped for a link since
        now = os.stat(target)
        if (now.st_ino, now.st_dev) != (st.st_ino, st.st_dev) or target.read_bytes() != f.raw:
            raise WriteRefused("it changed while the fixes were computed; nothing written")

    atomic_write_bytes(target, data, before_replace=unchanged)
