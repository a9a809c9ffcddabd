"""bench/cold_breakdown.py: the steps add up to the run; per rule, per collector generation and per
named function it times what runs, outside that sum."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

PROGRAM = """\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
model.compile(optimizer="adam", loss="mse")
for epoch in range(100):
    model.fit(x, y, epochs=1)
"""


@pytest.mark.slow
def test_breakdown_times_rules_collector_and_named_functions(tmp_path):
    (tmp_path / "train.py").write_text(PROGRAM)
    files = tmp_path / "files.txt"
    files.write_text(f"{tmp_path / 'train.py'}\n")
    env = {**os.environ, "GREENLINT_CACHE_DIR": str(tmp_path / "cache"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "cold_breakdown.py"),
            str(files),
            "greenlint.analysis.trees:walk",
            "greenlint.rules.base:_index",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    result = json.loads(done.stderr.strip().splitlines()[-1])
    assert sum(result["steps"].values()) == pytest.approx(result["total_cpu_s"])
    assert result["counts"]["resolver walk of the checked files"] == 1
    assert "GL101" in result["rules"] and all(cpu >= 0 for cpu in result["rules"].values())
    assert result["counts"]["GL101"] == 1  # one file: each rule that may report on it checks it once
    assert set(result["gc"]) <= {"gen0", "gen1", "gen2"}
    assert set(result["named"]) == {"greenlint.analysis.trees:walk", "greenlint.rules.base:_index"}
    assert result["parse_again"]["parses"] == 0  # the file's tree is shared by its walk and its rules
    assert result["counts"]["greenlint.rules.base:_index"] >= 1  # a rule asked for the file's tree
