"""ruff and mypy (the dev extra) as tests, so `make test` fails on a new finding or type error.

Their settings are pyproject.toml's `[tool.ruff]` and `[tool.mypy]`; the type errors accepted today
are tools/mypy_baseline.txt, which may only shrink.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

from tools import mypy_baseline

REPO = mypy_baseline.REPO_DIR


def test_ruff_finds_nothing():
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--quiet", "--output-format", "concise", "."], cwd=REPO, capture_output=True,
                          text=True)
    assert proc.returncode == 0, f"ruff check (`pip install -e '.[dev]'` installs it):\n{proc.stdout}{proc.stderr}"


def test_mypy_errors_are_the_baselines():
    new, gone = mypy_baseline.compare(mypy_baseline.run_mypy(), mypy_baseline.read())
    assert not new, "type errors not in tools/mypy_baseline.txt (fix them):\n" + "\n".join(new)
    assert not gone, f"fixed type errors still listed: run `{mypy_baseline.COMMAND}` to drop them:\n" + "\n".join(gone)


def test_baseline_entries_survive_moved_lines_and_count_repeats(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").touch()
    (tmp_path / "link").symlink_to(tmp_path / "pkg")
    before = mypy_baseline.parse(
        "pkg/a.py:3: error: Name \"x\" already defined on line 1  [no-redef]\n"
        "pkg/a.py:9:5: error: Incompatible types  [assignment]\n"
        "pkg/a.py:9:5: note: See the docs\n"
        "pkg/a.py:12: error: Incompatible types  [assignment]\n"
        "Found 3 errors in 1 file\n",
        tmp_path,
    )
    assert before == Counter({
        'pkg/a.py: [no-redef] Name "x" already defined on line N': 1,
        "pkg/a.py: [assignment] Incompatible types": 2,
    })
    moved = mypy_baseline.parse(
        "link/a.py:30: error: Name \"x\" already defined on line 10  [no-redef]\n"
        "link/a.py:90: error: Incompatible types  [assignment]\n",
        tmp_path,
    )
    new, gone = mypy_baseline.compare(moved, before)
    assert new == [] and gone == ["pkg/a.py: [assignment] Incompatible types"]
    new, _ = mypy_baseline.compare(before + Counter({"pkg/a.py: [arg-type] Argument 1": 1}), before)
    assert new == ["pkg/a.py: [arg-type] Argument 1"]
