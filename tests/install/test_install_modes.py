"""greenlint installed each way a user installs it (`pip install .`, `pip install --user .`,
`pip install --target`, `pip install -e .`) runs the same: `greenlint check`, `greenlint lsp --help`
and `greenlint rule GL201` print the same text, the data is read from the installed copy (the
checkout's data/ in the editable install), and nothing is written inside the installed package.

Each install goes into a fresh virtualenv, offline (tests/offline_install.py), from a copy of the
checkout's files as git sees them (tracked or not ignored), so the checkout itself is never built in.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.environment import missing
from tests.offline_install import PIP_OFFLINE, dependency_dir

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

REPO = Path(__file__).resolve().parents[2]
MODES = ("site-packages", "user", "target", "editable")
SAMPLE = "import tensorflow as tf\nmodel = tf.keras.Sequential()\nmodel.fit(x, y, batch_size=2)\n"
COMMANDS = (("check", "train.py"), ("lsp", "--help"), ("rule", "GL201"))

def _makefile_pip_flags() -> list[str]:
    """The flags `make run` installs greenlint with (its `pip install ... -e .` line)."""
    for line in (REPO / "Makefile").read_text().splitlines():
        words = line.split()
        if words[:1] == ["$(BIN)/pip"] and words[1:2] == ["install"] and words[-2:] == ["-e", "."]:
            return words[2:-2]
    raise AssertionError("the Makefile has no `$(BIN)/pip install ... -e .` line")


WHERE = "import greenlint, greenlint.meter, greenlint.lsp_server, greenlint.paths as p; print(p.DATA_DIR)"


def _run(cmd: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def _checkout_copy(dest: Path) -> Path:
    """The checkout's files as a fresh clone with its uncommitted work would have them."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def _files(folder: Path) -> set[Path]:
    return {p.relative_to(folder) for p in folder.rglob("*") if "__pycache__" not in p.parts}


class Install:
    """One virtualenv with greenlint installed in *mode* from *source*."""

    def __init__(self, mode: str, source: Path, deps: Path, root: Path):
        self.mode, self.root = mode, root
        venv = root / "venv"
        system = ["--system-site-packages"] if mode == "user" else []  # a virtualenv sees user sites only then
        subprocess.run([sys.executable, "-m", "virtualenv", "-q", "--no-periodic-update", *system, str(venv)],
                       check=True, capture_output=True, timeout=120)
        self.python = venv / "bin" / "python"
        purelib = _run([str(self.python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                       self._env(), root).stdout.strip()
        Path(purelib, "greenlint-test-deps.pth").write_text(f"{deps}\n")  # after the virtualenv's own packages
        # the editable install as `make run` does it, flags included
        flags = {"site-packages": ["-q"], "user": ["-q", "--user"], "target": ["-q", "--target", str(root / "target")],
                 "editable": [*_makefile_pip_flags(), "-e"]}[mode]
        env = {**self._env(), **PIP_OFFLINE}
        proc = _run([str(self.python), "-m", "pip", "install", *flags, str(source)], env, root)
        assert proc.returncode == 0, f"pip install ({mode}): {proc.stdout}{proc.stderr}"
        # every folder of package data is listed in pyproject.toml, and `make run` prints no page of
        # setuptools notices (its editable-install notice included)
        for page in ("absent from the `packages` configuration", "Editable installation"):
            assert page not in proc.stderr, proc.stderr

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_", "VIRTUAL_ENV", "GREENLINT_"))}
        env["PYTHONUSERBASE"] = str(self.root / "userbase")
        env["GREENLINT_CACHE_DIR"] = str(self.root / "cache")
        env["XDG_CACHE_HOME"] = str(self.root / "xdg-cache")
        if self.mode == "target":
            env["PYTHONPATH"] = str(self.root / "target")
        return env

    def greenlint(self, *args: str, cwd: Path) -> subprocess.CompletedProcess:
        """`greenlint` as this install provides it: its console script, `python -m` for `--target`."""
        if self.mode == "target":  # pip leaves --target's scripts in target/bin, not on any PATH
            return _run([str(self.python), "-m", "greenlint", *args], self._env(), cwd)
        scripts = self.root / ("userbase" if self.mode == "user" else "venv") / "bin"
        return _run([str(scripts / "greenlint"), *args], self._env(), cwd)

    def data_dir(self) -> Path:
        proc = _run([str(self.python), "-c", WHERE], self._env(), self.root)
        assert proc.returncode == 0, proc.stderr
        return Path(proc.stdout.strip())


def test_every_install_mode_runs_the_same(tmp_path):
    if shutil.which("git") is None or not (REPO / ".git").exists():
        missing("needs git and a git checkout of greenlint (the copy installed is what git tracks)")
    source = _checkout_copy(tmp_path / "source")
    deps = dependency_dir(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    (work / "train.py").write_text(SAMPLE)
    outputs = {}
    for mode in MODES:
        install = Install(mode, source, deps, tmp_path / mode)
        data = install.data_dir()
        package = data.parent
        if mode == "editable":
            assert data == source / "data"
        else:
            assert data.is_relative_to(tmp_path / mode) and package.name == "greenlint", data
            assert (package / "meter" / "__init__.py").is_file() and (package / "lsp_server" / "__init__.py").is_file()
        before = _files(package)
        outputs[mode] = []
        for args in COMMANDS:
            proc = install.greenlint(*args, cwd=work)
            outputs[mode].append((proc.returncode, proc.stdout, proc.stderr))
        assert _files(package) == before, f"{mode}: greenlint wrote inside its installed package"
    check, lsp_help, rule = outputs["site-packages"]
    assert check[0] == 1 and "train.py:3:1: GL301" in check[1], check
    assert lsp_help[0] == 0 and "usage: greenlint lsp" in lsp_help[1], lsp_help
    assert rule[0] == 0 and "GL201" in rule[1] and rule[2] == "", rule
    for mode in MODES[1:]:
        assert outputs[mode] == outputs["site-packages"], mode
