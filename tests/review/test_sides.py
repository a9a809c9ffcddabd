"""One side of a diff: its files' project imports and its scripts come from each file's analysis
(`FileResult.imports` and `source`), the same whether the files were analysed now or their
results read from the lint cache."""

from __future__ import annotations

from greenlint.check.config import Config
from greenlint.review import gitfs, sides
from tests.review.history import git

FIT = "m = tf.keras.Sequential()\nm.fit(x, y, epochs=3)\n"
FILES = {
    "helpers.py": "import tensorflow as tf\n" + FIT,  # imported, no main guard: no program of its own
    "lib.py": "import tensorflow as tf\n" + FIT + 'if __name__ == "__main__":\n    m.fit(x, y)\n',
    "run.py": "import tensorflow as tf\nimport helpers\nfrom lib import m\n" + FIT,
    "plain.py": "import os\n",
}


def test_a_side_takes_imports_and_scripts_from_the_analysis_cold_or_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    for name, text in FILES.items():
        (root / name).write_text(text)
    monkeypatch.chdir(root)
    cold, warm = (sides.analyse(root, gitfs.WORKTREE, [""], Config(root=root), tmp_path / "trees") for _ in "12")
    for side in (cold, warm):
        assert side.files == ["helpers.py", "lib.py", "plain.py", "run.py"]
        assert side.imports == {"helpers.py": [], "lib.py": [], "plain.py": [], "run.py": ["helpers.py", "lib.py"]}
        assert side.scripts == ["lib.py", "run.py"]
        assert side.closure("run.py") == ("run.py", "helpers.py", "lib.py")
