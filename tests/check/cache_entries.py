"""Reach into a lint cache file as a crash, a full disk or a hostile writer could."""

from __future__ import annotations

import json
import sqlite3
import zlib
from pathlib import Path

from greenlint.check.cache import FILE_NAME


def _db(directory: Path) -> sqlite3.Connection:
    return sqlite3.connect(Path(directory) / FILE_NAME, isolation_level=None)


def keys(directory: Path) -> list[str]:
    """The keys of the entries in the cache under *directory*."""
    with _db(directory) as db:
        return [k for (k,) in db.execute("SELECT key FROM entries ORDER BY key")]


def raw(directory: Path, key: str) -> bytes:
    with _db(directory) as db:
        return db.execute("SELECT value FROM entries WHERE key = ?", (key,)).fetchone()[0]


def write_raw(directory: Path, key: str, value) -> None:
    """Store *value* as the entry's stored bytes, as they are."""
    with _db(directory) as db:
        db.execute("UPDATE entries SET value = ? WHERE key = ?", (value, key))


def forge(directory: Path, key: str, value_json: str, under: str | None = None) -> None:
    """A well-formed entry for *key* holding *value_json* (what a forger writes), stored under *under*."""
    body = key.encode("ascii") + b"\n" + json.dumps(json.loads(value_json)).encode()
    with _db(directory) as db:
        db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?)", (under or key, zlib.compress(body)))


def with_field(record: dict, name: str, new) -> str:
    """The JSON of a cache *record* with its first field *name* (depth first) set to the JSON
    value *new*: a forger's edit of a well-formed entry."""
    record = json.loads(json.dumps(record))

    def first(node) -> dict | None:
        if type(node) is dict:
            if name in node:
                return node
            children = node.values()
        elif type(node) is list:
            children = node
        else:
            return None
        return next((r for r in map(first, children) if r is not None), None)

    holder = first(record)
    assert holder is not None, f"no field {name!r} in {record!r}"
    holder[name] = new
    return json.dumps(record)
