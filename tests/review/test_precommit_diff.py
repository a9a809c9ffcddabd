"""The `greenlint-diff` pre-commit hook, installed by `pre-commit try-repo` from this checkout,
offline (as tests/check/test_precommit.py does): it judges the staged change against the budget."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from greenlint.paths import REPO_DIR
from tests.check.test_precommit import _git
from tests.environment import missing
from tests.offline_install import PIP_OFFLINE, dependency_dir

pytestmark = pytest.mark.e2e


@pytest.mark.timeout(300)
def test_try_repo_runs_the_diff_hook_on_the_staged_change(tmp_path):
    if shutil.which("git") is None:
        missing("git is not installed")
    pre_commit = Path(sys.executable).with_name("pre-commit")
    if not pre_commit.exists():
        missing("pre-commit is not installed (dev extra)")
    if not (REPO_DIR / ".git").exists():
        missing("not running from a git checkout of greenlint (try-repo needs one)")
    user = tmp_path / "user"
    user.mkdir()
    (user / "pyproject.toml").write_text("[tool.greenlint.budget]\nfail-above = 2\n")
    # 60,000 samples: ten times the epochs is close to ten times the work, far above the budget's ×2
    fit = "import numpy as np\nimport tensorflow as tf\nx = np.zeros((60000, 8))\ny = np.zeros((60000,))\n" \
          "model = tf.keras.Sequential([tf.keras.layers.Dense(2)])\nmodel.fit(x, y, epochs=3)\n"
    (user / "train.py").write_text(fit)
    _git(user, "init", "-q")
    _git(user, "add", ".")
    _git(user, "commit", "-qm", "init")
    (user / "train.py").write_text(fit.replace("epochs=3", "epochs=30"))
    _git(user, "add", "train.py")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "GREENLINT_CACHE_DIR": str(tmp_path / "cache"),
        **PIP_OFFLINE,
        "PYTHONPATH": str(dependency_dir(tmp_path)),
    }
    proc = subprocess.run([str(pre_commit), "try-repo", str(REPO_DIR), "greenlint-diff", "--verbose"],
                          cwd=user, env=env, capture_output=True, text=True, timeout=280)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "train.py:6:1: tensorflow.keras.Sequential.fit" in out and "epochs 3 → 30" in out, out
    assert "above the budget ×2 (fail-above)" in out, out
