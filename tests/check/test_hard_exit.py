"""`greenlint` as a command ends without tearing its heap down (`cli.entry_point`): its output is
whole, its exit code kept and the lint cache committed and closed before the process ends."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest

from greenlint.paths import REPO_DIR

TRAIN = """import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
model.compile("adam", "mse")
ds = tf.data.Dataset.range(100).batch(1)
model.fit(ds, epochs=3)
"""

#: A run of `entry_point` that says whether the exit handlers ran and whether its heap was freed.
PROBE = """import atexit, os, sys, threading
class Loud:
    def __del__(self, write=os.write):  # bound now: the module's names are gone at teardown
        write(1, b"freed\\n")
kept = Loud()
atexit.register(lambda: print("handler ran"))
if sys.argv[1] == "thread":
    threading.Thread(target=threading.Event().wait, daemon=True).start()  # waits for ever
if sys.argv[1] == "profiled":
    sys.setprofile(lambda *args: None)
sys.argv = ["greenlint", "check", "--format", "json", sys.argv[2]]
from greenlint.cli import entry_point
entry_point()
"""


def _env(tmp_path) -> dict[str, str]:
    return {**os.environ, "GREENLINT_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(REPO_DIR)}


def test_a_check_run_as_a_command_flushes_its_output_and_closes_the_cache(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(TRAIN)
    out = tmp_path / "out.json"
    with out.open("wb") as stdout:  # a file, block-buffered: what is not flushed is lost
        proc = subprocess.run(
            [sys.executable, "-m", "greenlint", "check", "--format", "json", str(script)],
            stdout=stdout, stderr=subprocess.PIPE, env=_env(tmp_path), cwd=tmp_path, timeout=120,
        )
    assert proc.returncode == 1, proc.stderr  # a finding: the exit code survives the hard exit
    assert [d["code"] for d in json.loads(out.read_text())] == ["GL301"]
    files = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert [p.name for p in files] == ["lint.sqlite"]  # closed: the write-ahead log folded in, no journal left
    with sqlite3.connect(files[0]) as db:
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        assert sum(db.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0] for name in tables) > 0


def _probe(tmp_path, mode: str) -> subprocess.CompletedProcess:
    script = tmp_path / "train.py"
    script.write_text(TRAIN)
    return subprocess.run(
        [sys.executable, "-c", PROBE, mode, str(script)],
        capture_output=True, text=True, env=_env(tmp_path), cwd=tmp_path, timeout=120,
    )


def test_the_exit_handlers_run_and_the_heap_is_not_torn_down(tmp_path):
    proc = _probe(tmp_path, "alone")
    assert proc.returncode == 1, proc.stderr
    assert "handler ran" in proc.stdout
    assert "freed" not in proc.stdout
    assert json.loads(proc.stdout.split("handler ran")[0])[0]["code"] == "GL301"


@pytest.mark.parametrize("mode", ["thread", "profiled"])
def test_with_another_thread_or_a_profiler_python_ends_as_usual(tmp_path, mode):
    proc = _probe(tmp_path, mode)
    assert proc.returncode == 1, proc.stderr
    assert "handler ran" in proc.stdout
    assert "freed" in proc.stdout
