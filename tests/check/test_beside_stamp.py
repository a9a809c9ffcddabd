"""The lint cache keeps what rules read in the modules beside a checked file (greenlint.rules.beside):
a later run finds the answers there while the modules keep their stamps (`keys.beside_stamp`)."""

from __future__ import annotations

import time
from types import SimpleNamespace

from greenlint.check.keys import beside_stamp
from greenlint.rules import beside


class Store:
    """The lint cache's part that `beside_stamp` uses, in memory."""

    def __init__(self):
        self.entries: dict[str, object] = {}

    def key(self, path: str, content: bytes, dependencies: str = "") -> str:
        return f"{path}\0{dependencies}\0{content!r}"

    def get(self, key: str):
        return self.entries.get(key)

    def put(self, key: str, value) -> None:
        self.entries[key] = value


def _later_run(monkeypatch, seconds: float = 0.0):
    """A new process, *seconds* after now: nothing remembered in memory."""
    monkeypatch.setattr(beside, "_answers", {})
    now = time.time_ns() + int(seconds * 1e9)
    monkeypatch.setattr(beside, "time", SimpleNamespace(time_ns=lambda: now))


def test_a_later_run_stats_the_modules_beside_and_reads_only_a_changed_folder(tmp_path, monkeypatch):
    (tmp_path / "model.py").write_text("import tensorflow as tf\n")
    (tmp_path / "load.py").write_text("model.load_weights(path, by_name=True)\n")
    store = Store()
    _later_run(monkeypatch, beside.SETTLED_S + 1)
    assert beside_stamp(str(tmp_path / "model.py"), store) == "0100" and len(store.entries) == 1
    _later_run(monkeypatch, beside.SETTLED_S + 1)
    read = []
    monkeypatch.setattr(beside, "read_bytes", lambda path, limit: read.append(path) or (b"", None))
    assert beside_stamp(str(tmp_path / "model.py"), store) == "0100" and read == []
    (tmp_path / "load.py").write_text("model.load_weights(path, by_name=False)\n")
    _later_run(monkeypatch, beside.SETTLED_S + 1)
    beside_stamp(str(tmp_path / "model.py"), store)
    assert sorted(p.name for p in read) == ["load.py", "model.py"]


def test_modules_changed_within_the_file_system_time_resolution_are_not_kept(tmp_path, monkeypatch):
    """An edit within a file system's time resolution (1 or 2 s) may keep a module's stamp: answers
    from modules that young would be trusted too long, so a later run reads them again."""
    (tmp_path / "model.py").write_text("import tensorflow as tf\n")
    store = Store()
    _later_run(monkeypatch)
    assert beside_stamp(str(tmp_path / "model.py"), store) == "0000" and store.entries == {}
    _later_run(monkeypatch, beside.SETTLED_S + 1)
    beside_stamp(str(tmp_path / "model.py"), store)
    assert len(store.entries) == 1
