"""The lint cache treats any entry it did not write as a miss: wrong shape, tampered, cut short, oversized."""

from __future__ import annotations

import os
import zlib

from greenlint.check import cache as cache_module
from greenlint.check.cache import Cache
from greenlint.check.file_result import FileResult, to_record
from greenlint.check.pipeline import run_check
from greenlint.check.records import diagnostics_record
from tests.check import cache_entries
from tests.check.conftest import FAKE

TRAIN = "import tensorflow as tf\ntf.keras.Sequential().fit(x, y, batch_size=2)\n"


def _entries(config):
    return cache_entries.keys(config.cache_dir)


def test_entries_of_valid_json_and_the_wrong_shape_are_misses(tmp_path, config):
    (tmp_path / "a.py").write_text(TRAIN)
    first = run_check([tmp_path / "a.py"], config, FAKE)
    assert first.diagnostics
    shapes = [
        '{"record": "diagnostics", "version": 1, "diagnostics": [1, 2], "cells": null}',  # ints for findings
        cache_entries.with_field(diagnostics_record(first.diagnostics, None), "path", 5),
        cache_entries.with_field(diagnostics_record(first.diagnostics, None), "span", [1, 2, 3]),
        cache_entries.with_field(to_record(FileResult("a.py")), "sites", 3),
        cache_entries.with_field(to_record(FileResult("a.py")), "version", 0),  # another version's record
        '[[], ["t", ["l", 1, 2], null]]',  # an older format's layout
        "7",
    ]
    for shape in shapes:
        for key in _entries(config):
            cache_entries.forge(config.cache_dir, key, shape)
        again = run_check([tmp_path / "a.py"], config, FAKE)
        assert again.stats.cache_hits == 0, shape
        assert again.diagnostics == first.diagnostics


def test_an_emptied_or_cut_short_entry_is_a_miss(tmp_path, config):
    (tmp_path / "a.py").write_text(TRAIN)
    first = run_check([tmp_path / "a.py"], config, FAKE)
    for damage in (lambda b: b[: len(b) // 2], lambda b: b"", lambda b: zlib.compress(b"k\n{}"), lambda b: 5):
        for key in _entries(config):
            cache_entries.write_raw(config.cache_dir, key, damage(cache_entries.raw(config.cache_dir, key)))
        again = run_check([tmp_path / "a.py"], config, FAKE)
        assert again.stats.cache_hits == 0 and again.diagnostics == first.diagnostics


def test_an_oversized_entry_is_not_read(tmp_path, monkeypatch):
    cache = Cache(tmp_path, stamp="s")
    cache.put("ab1", {"x": "y" * 100})
    assert cache.get("ab1") == {"x": "y" * 100}
    monkeypatch.setattr(cache_module, "MAX_ENTRY_BYTES", 50)
    assert cache.get("ab1") is None
    cache.put("ab2", {"x": "y" * 100})
    cache.flush()  # what waits to be written is written now: the oversized entry is not
    assert "ab1" in cache_entries.keys(tmp_path) and "ab2" not in cache_entries.keys(tmp_path)


def test_a_file_name_that_is_not_utf8_is_cached(tmp_path, config):
    name = os.fsdecode(b"caf\xe9.py")  # Latin-1 bytes: a surrogate escape in Python
    (tmp_path / name).write_text(TRAIN)
    first = run_check([tmp_path], config, FAKE)
    again = run_check([tmp_path], config, FAKE)
    assert again.stats.cache_hits == 1 and again.diagnostics == first.diagnostics
