"""Files greenlint reads besides code (issue 29, item 11): a `.gitignore` or pyproject.toml that is
a FIFO, `/dev/zero` or a huge sparse file is never read whole nor waited on: it is reported, and
the run goes on; the same through a link committed in the revision `greenlint diff` reads."""

from __future__ import annotations

import os
import resource
import subprocess
import sys

import pytest

from tests.hardening.samples import TRAIN

HUGE = 4 * 1024**3  # a sparse 4 GiB file: nothing on disk, everything to read


def _limited():
    """The child may not take more than 3 GiB (reading one of these files whole would)."""
    resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))


def greenlint(*args, cwd, env_dir):
    env = {**os.environ, "GREENLINT_CACHE_DIR": str(env_dir / "cache"), "XDG_CACHE_HOME": str(env_dir / "xdg")}
    return subprocess.run([sys.executable, "-m", "greenlint", *args], cwd=cwd, env=env, capture_output=True,
                          timeout=120, preexec_fn=_limited)


def _odd(path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    else:
        with open(path, "wb") as f:
            f.truncate(HUGE)


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "huge"])
def test_a_gitignore_that_cannot_be_read_is_reported_and_the_run_goes_on(tmp_path, kind):
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    (project / "a.py").write_text(TRAIN)
    _odd(project / ".gitignore", kind)
    proc = greenlint("check", ".", "-j", "1", cwd=project, env_dir=tmp_path)
    out = proc.stdout.decode()
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr, proc.stderr
    assert ".gitignore:1:1: GL002 cannot analyse: " in out
    assert ("over the 768 KiB" if kind == "huge" else "not a regular file") in out
    assert "a.py:3:5: " in out  # the code is still analysed


def test_a_gitignore_above_the_checked_folder_is_read_the_same_way(tmp_path):
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    (project / "src").mkdir()
    (project / "src" / "a.py").write_text(TRAIN)
    _odd(project / ".gitignore", "fifo")
    proc = greenlint("check", "src", "-j", "1", cwd=project, env_dir=tmp_path)
    out = proc.stdout.decode()
    assert proc.returncode == 1 and "a.py:3:5: " in out and ".gitignore:1:1: GL002" in out, proc.stderr


def test_a_huge_pyproject_is_a_configuration_error(tmp_path):
    _odd(tmp_path / "pyproject.toml", "huge")
    (tmp_path / "a.py").write_text(TRAIN)
    proc = greenlint("check", ".", cwd=tmp_path, env_dir=tmp_path)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "pyproject.toml: cannot read configuration: file is 4294967296 bytes" in err, err


def test_a_committed_gitignore_link_to_dev_zero_in_diff(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(tmp_path)}

    def git(*args):
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)

    git("init", "-q", "-b", "main")
    (repo / "a.py").write_text(TRAIN)
    git("add", ".")
    git("commit", "-qm", "base")
    (repo / ".gitignore").symlink_to("/dev/zero")
    (repo / "a.py").write_text(TRAIN.replace("epochs=100", "epochs=10"))
    git("add", ".")
    git("commit", "-qm", "a link")
    proc = greenlint("diff", "HEAD~1", "HEAD", cwd=repo, env_dir=tmp_path)
    out, err = proc.stdout.decode(), proc.stderr.decode()
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert ".gitignore:1:1: GL002 cannot analyse: " in err and "symbolic link leading out of the repository" in err
    assert "epochs 100 → 10" in out
