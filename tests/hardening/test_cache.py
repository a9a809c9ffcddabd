"""The lint cache treats any entry it did not write as a miss: wrong shape, tampered, oversized."""

from __future__ import annotations

import json
import os

from greenlint.check import cache as cache_module
from greenlint.check import run_check
from greenlint.check.cache import Cache, _checksum
from tests.check.conftest import FAKE

TRAIN = "import tensorflow as tf\ntf.keras.Sequential().fit(x, y, batch_size=2)\n"


def _entries(config):
    return list(config.cache_dir.rglob("*.json"))


def _rewrite(entry, value_json: str) -> None:
    """Replace an entry's value keeping its key, with a valid checksum (what a forger writes)."""
    body = entry.read_bytes().partition(b"\n")[2]
    key = json.loads(body)["key"]
    new = json.dumps({"key": key, "value": json.loads(value_json)}).encode()
    entry.write_bytes(_checksum(new) + b"\n" + new)


def test_entries_of_valid_json_and_the_wrong_shape_are_misses(tmp_path, config):
    (tmp_path / "a.py").write_text(TRAIN)
    first = run_check([tmp_path / "a.py"], config, FAKE)
    assert first.diagnostics
    shapes = [
        '{"@t": [[1, 2], null]}',  # a list of ints where diagnostics belong
        '{"@t": [[{"@o": "greenlint.rules.diagnostic:Diagnostic", "a": {"path": 5}}], null]}',
        '{"@o": "greenlint.check.analyse:FileResult", "a": {"path": "a.py", "sites": 3, "errors": {"@t": []},'
        ' "source": "", "suppressions": null, "cacheable": true, "tree": null}}',
        "7",
    ]
    for shape in shapes:
        for entry in _entries(config):
            _rewrite(entry, shape)
        again = run_check([tmp_path / "a.py"], config, FAKE)
        assert again.stats.cache_hits == 0, shape
        assert again.diagnostics == first.diagnostics


def test_an_emptied_or_edited_entry_fails_its_checksum(tmp_path, config):
    (tmp_path / "a.py").write_text(TRAIN)
    first = run_check([tmp_path / "a.py"], config, FAKE)
    for entry in _entries(config):
        checksum, _, body = entry.read_bytes().partition(b"\n")
        key = json.loads(body)["key"]
        # the findings emptied, the checksum left as it was: not "All checks passed!"
        entry.write_bytes(checksum + b"\n" + json.dumps({"key": key, "value": {"@t": [[], None]}}).encode())
    again = run_check([tmp_path / "a.py"], config, FAKE)
    assert again.stats.cache_hits == 0 and again.diagnostics == first.diagnostics
    for entry in _entries(config):
        entry.write_bytes(b"")
    assert run_check([tmp_path / "a.py"], config, FAKE).stats.cache_hits == 0


def test_an_oversized_entry_is_not_read(tmp_path, monkeypatch):
    cache = Cache(tmp_path, stamp="s")
    cache.put("ab1", {"x": "y" * 100})
    assert cache.get("ab1") == {"x": "y" * 100}
    monkeypatch.setattr(cache_module, "MAX_ENTRY_BYTES", 50)
    assert cache.get("ab1") is None
    cache.put("ab2", {"x": "y" * 100})
    assert not (tmp_path / "ab" / "ab2.json").exists()


def test_a_file_name_that_is_not_utf8_is_cached(tmp_path, config):
    name = os.fsdecode(b"caf\xe9.py")  # Latin-1 bytes: a surrogate escape in Python
    (tmp_path / name).write_text(TRAIN)
    first = run_check([tmp_path], config, FAKE)
    again = run_check([tmp_path], config, FAKE)
    assert again.stats.cache_hits == 1 and again.diagnostics == first.diagnostics
