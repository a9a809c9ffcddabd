"""Held-out variants of issue 29 item 6 (a suppression comment read where Python would not read
it, or missed where it would): line ends Python reads as line breaks (`\\r\\n`, a lone `\\r`, as old
Mac editors and some generators write), a form feed or tabs before the comment, a file directive
after code."""

from __future__ import annotations

import json

import pytest

from greenlint.check import noqa
from tests.hardening import fuzz

TINY_BATCH = [
    "import tensorflow as tf",
    "model = tf.keras.Sequential([tf.keras.layers.Dense(8)])",
    "model.fit(hx, hy, batch_size=2, epochs=10)",
]


def _codes(tmp_path, lines: list[str], eol: str) -> list[tuple[str, int]]:
    path = tmp_path / "a.py"
    path.write_bytes((eol.join(lines) + eol).encode())
    code, out, err = fuzz._main(["check", str(path), "--format", "json", "--cache-dir", str(tmp_path / "c"), "-j", "1"])
    assert code in (0, 1), err
    return [(d["code"], d["location"]["row"]) for d in json.loads(out)]


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
def test_line_ends_python_reads_are_line_ends_for_noqa(tmp_path, own_caches, eol):
    assert _codes(tmp_path, TINY_BATCH, eol) == [("GL301", 3)]
    assert _codes(tmp_path, [*TINY_BATCH[:2], TINY_BATCH[2] + "  # noqa: GL301"], eol) == []
    assert _codes(tmp_path, [*TINY_BATCH[:2], TINY_BATCH[2] + "\t#\tnoqa"], eol) == []
    assert _codes(tmp_path, ["\f# greenlint: noqa", *TINY_BATCH], eol) == []
    assert _codes(tmp_path, ["x = 1  # greenlint: noqa", *TINY_BATCH], eol) == [("GL301", 4)]  # after code: no directive


def test_a_lone_carriage_return_ends_a_line_for_the_directive():
    found = noqa.parse("x = 1\r# greenlint: noqa: GL301\ry = 2  # noqa\r")
    assert found.file_codes == frozenset({"GL301"}) and found.lines == {(None, 3): noqa.ALL}
    cells = noqa.parse(["a = 1\rb = 2  # noqa: GL402\r"])
    assert cells.lines == {(1, 2): frozenset({"GL402"})}
