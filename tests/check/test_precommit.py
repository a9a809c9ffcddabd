"""The `greenlint` pre-commit hook, installed by `pre-commit try-repo` from this checkout, offline.

pre-commit's python hooks run `pip install .` of the hook repository in a fresh virtualenv,
which normally downloads the build backend and every dependency. To run without network,
the test lets pip install only greenlint itself (`PIP_NO_INDEX`, `PIP_NO_DEPS`, no build
isolation: the virtualenv's own setuptools builds it) and lends the hook the dependencies
already installed for this test run through PYTHONPATH (a folder of links that leaves out
the build tools and greenlint itself, so the hook runs the copy pre-commit installed).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from greenlint.paths import REPO_DIR
from tests.environment import missing
from tests.offline_install import PIP_OFFLINE, dependency_dir

pytestmark = pytest.mark.e2e

def _git(cwd: Path, *args: str) -> None:
    command = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args]
    subprocess.run(command, cwd=cwd, check=True, capture_output=True)


@pytest.mark.timeout(300)
def test_try_repo_runs_the_hook_offline(tmp_path):
    if shutil.which("git") is None:
        missing("git is not installed")
    pre_commit = Path(sys.executable).with_name("pre-commit")
    if not pre_commit.exists():
        missing("pre-commit is not installed (dev extra)")
    if not (REPO_DIR / ".git").exists():
        missing("not running from a git checkout of greenlint (try-repo needs one)")
    user = tmp_path / "user"
    user.mkdir()
    (user / "train.py").write_text(
        "import tensorflow as tf\nmodel = tf.keras.Sequential()\nmodel.fit(x, y, batch_size=2)\n"
    )
    (user / "clean.py").write_text("import tensorflow as tf\nx = tf.constant(1.0)\n")
    (user / "notes.txt").write_text("model.fit(x, y, batch_size=2)\n")  # not a python file: not passed
    _git(user, "init", "-q")
    _git(user, "add", ".")
    _git(user, "commit", "-qm", "init")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "GREENLINT_CACHE_DIR": str(tmp_path / "cache"),
        **PIP_OFFLINE,
        "PYTHONPATH": str(dependency_dir(tmp_path)),
    }
    proc = subprocess.run(
        [str(pre_commit), "try-repo", str(REPO_DIR), "greenlint", "--all-files", "--verbose"],
        cwd=user,
        env=env,
        capture_output=True,
        text=True,
        timeout=280,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out  # the hook failed because of findings, not because it could not run
    assert "greenlint" in out and "Failed" in out, out
    assert "train.py:3:1: GL301" in out, out
    assert "clean.py" not in out.split("Failed", 1)[1], out
    assert "notes.txt" not in out, out


def test_the_readme_snippet_is_a_config_pre_commit_accepts(tmp_path):
    """README's `.pre-commit-config.yaml` snippet loads as one (a `repos:` list), names the hooks
    this repository ships, and, with no release tag to name, pins a commit."""
    try:
        from pre_commit import clientlib
    except ImportError:
        missing("pre-commit is not installed (dev extra)")
    readme = (REPO_DIR / "README.md").read_text()
    section = readme[readme.index("## CI and pre-commit"):]
    snippet = section[section.index("```yaml\n") + 8 : section.index("```", section.index("```yaml\n") + 8)]
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_text("\n".join(line[2:] for line in snippet.splitlines()))  # the list item's indentation
    (repo,) = clientlib.load_config(str(config))["repos"]
    shipped = {hook["id"] for hook in clientlib.load_manifest(str(REPO_DIR / ".pre-commit-hooks.yaml"))}
    assert {hook["id"] for hook in repo["hooks"]} == shipped
    assert "commit sha" in repo["rev"] and "tag" not in repo["rev"]
