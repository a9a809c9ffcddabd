"""The KB on disk: ``records.csv`` (one sorted row per call), ``meta.json`` and ``PROVENANCE.md``.

A KB directory is written aside and renamed into place, so readers see the old KB or the new one,
never a half-written one. Loading uses only the stdlib (no pandas) and is cached per file version.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

from greenlint.kb.record import COLUMNS, SCHEMA_VERSION, KBRecord, from_row, sort_key, to_row
from greenlint.paths import DATA_DIR

RECORDS = "records.csv"
#: Optional: static features of the measured call sites (greenlint.kb.static_table); carried
#: over when the KB is rebuilt, since it comes from the measured sources, not the measurement files.
STATIC = "static_features.csv"
#: Optional, likewise: every call of the tutorials measured end to end (whole-script check).
SCRIPTS = "script_sites.csv"
META = "meta.json"
PROVENANCE = "PROVENANCE.md"


class KBError(Exception):
    """A KB directory that cannot be read (missing, wrong schema version, malformed)."""


def default_kb_dir() -> Path:
    return DATA_DIR / "kb"


def records_csv(records: Iterable[KBRecord]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    for rec in sorted(records, key=sort_key):
        writer.writerow(to_row(rec))
    return buf.getvalue()


def write_kb(out: Path, records: list[KBRecord], meta: dict, provenance: str) -> None:
    """Write a complete KB directory at *out*: build it in a temporary folder beside, then rename."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    umask = os.umask(0)
    os.umask(umask)
    tmp.chmod(0o777 & ~umask)  # mkdtemp makes it private; the KB is an ordinary folder
    old: Path | None = None
    try:
        (tmp / RECORDS).write_text(records_csv(records), encoding="utf-8")
        (tmp / META).write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        if (out / STATIC).is_file():
            from greenlint.kb.static_table import STAMP, with_provenance

            shutil.copy2(out / STATIC, tmp / STATIC)
            provenance = with_provenance(provenance)
            if (out / STAMP).is_file():  # the table's staleness stamp goes with it
                shutil.copy2(out / STAMP, tmp / STAMP)
        if (out / SCRIPTS).is_file():
            shutil.copy2(out / SCRIPTS, tmp / SCRIPTS)
        (tmp / PROVENANCE).write_text(provenance, encoding="utf-8")
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
            os.replace(out, old / out.name)
        try:
            os.replace(tmp, out)
        except OSError:
            if old is not None:
                os.replace(old / out.name, out)
            raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def load_meta(path: Path | None = None) -> dict:
    kb = Path(path) if path else default_kb_dir()
    try:
        meta = json.loads((kb / META).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise KBError(f"{kb}: no KB here ({META} missing); run `greenlint kb build`") from None
    except json.JSONDecodeError as exc:
        raise KBError(f"{kb / META}: malformed JSON ({exc.msg})") from None
    if meta.get("schema_version") != SCHEMA_VERSION:
        raise KBError(
            f"{kb}: KB schema version {meta.get('schema_version')} but this greenlint reads "
            f"{SCHEMA_VERSION}; rebuild it with `greenlint kb build`"
        )
    return meta


@functools.lru_cache(maxsize=8)
def _load(csv_path: Path, _mtime_ns: int, _size: int, _static_version: tuple | None) -> tuple[KBRecord, ...]:
    with open(csv_path, newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if tuple(header or ()) != COLUMNS:
            raise KBError(f"{csv_path}: columns {header} do not match schema {SCHEMA_VERSION}")
        try:
            records = [from_row(row) for row in reader]
        except (ValueError, KeyError) as exc:
            raise KBError(f"{csv_path}: malformed row {reader.line_num} ({exc})") from None
    if _static_version is not None:
        from greenlint.kb.static_table import attach, load_table

        try:
            records = attach(records, load_table(csv_path.parent / STATIC))
        except ValueError as exc:
            raise KBError(str(exc)) from None
    return tuple(records)


def _version(path: Path) -> tuple | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_mtime_ns, st.st_size)


def load_kb(path: Path | str | None = None, *, static: bool = True) -> list[KBRecord]:
    """All records of the KB at *path* (default: the bundled ``data/kb``); cached per file version.

    Where the KB holds ``static_features.csv`` (and *static*), each matched record's ``features``
    carry the static features of its call site as our resolver reads them from the measured source,
    and its ``api`` the resolver's name of that call; ``static=False``: the records as measured.
    """
    kb = Path(path) if path else default_kb_dir()
    load_meta(kb)
    csv_path = (kb / RECORDS).resolve()
    try:
        st = csv_path.stat()
    except FileNotFoundError:
        raise KBError(f"{kb}: {RECORDS} missing; rebuild it with `greenlint kb build`") from None
    version = _version(csv_path.parent / STATIC) if static else None
    return list(_load(csv_path, st.st_mtime_ns, st.st_size, version))
