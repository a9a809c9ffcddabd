"""Shared test fixtures. The `shared` and `tensorflow` markers declare what a test needs: it skips
where that is missing, and fails under GREENLINT_STRICT_TESTS=1 (tests/environment.py)."""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

# One OpenBLAS thread for numpy, here and in the processes tests start (set before numpy loads it):
# with one thread per core, each small solve's threads spin against the other processes of a loaded
# 2-core machine (245 solves of 250 x 250, the training evaluation's kernel ridge: 0.27 s alone,
# 5.9 s threaded at load 8; that test took 1.6-8.7 s with the load).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from tests.environment import require_installed, require_shared  # noqa: E402

# The `vscode_extension` fixture's first user pays for `npm ci` on a fresh clone and the compile,
# each bounded at 600 s where it runs: such a test's own limit must hold both and the test (a
# default one, such as tests/lsp_server's 180 s for e2e tests, cut a fresh clone's run half done).
EXTENSION_SETUP_TIMEOUT_S = 1500


@pytest.hookimpl(tryfirst=True)  # before a folder's conftest sets a default limit for its tests
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "vscode_extension" in getattr(item, "fixturenames", ()) and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(EXTENSION_SETUP_TIMEOUT_S))


@pytest.fixture(scope="session", autouse=True)
def temp_folder_in_no_project(tmp_path_factory):
    """The tests' folders sit in the system's temp folder, and greenlint reads upwards from them: a
    pyproject.toml, setup.py or .git above it (a stray /tmp/pyproject.toml with `[tool.greenlint]`)
    makes every test project part of that one (another line length, project root, config), and
    two dozen tests fail for a reason none of them names. The session stops at once, naming it."""
    from greenlint.paths import PROJECT_MARKERS
    from greenlint.profile.store import PROFILE_DIR

    base = tmp_path_factory.getbasetemp().resolve()
    above = [folder / name for folder in base.parents for name in (*PROJECT_MARKERS, PROFILE_DIR)]
    if found := [str(path) for path in above if os.path.lexists(path)]:
        pytest.exit(f"{', '.join(found)} above the tests' temp folder {base} would make the tests' projects part of"
                    " another: remove it, or point TMPDIR (or --basetemp) at a folder with none above it", returncode=4)


@pytest.fixture(scope="session", autouse=True)
def own_user_cache(tmp_path_factory):
    """The suite's own user cache (GREENLINT_CACHE_DIR, inherited by the greenlint processes tests
    start), never the developer's: a calibration there (`greenlint calibrate`) changed the figures
    tests expect, and the tests' lint caches and diff snapshots piled up there. A test that needs
    a cache of its own still sets one."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GREENLINT_CACHE_DIR", str(tmp_path_factory.mktemp("user-cache")))
        yield


def pytest_configure(config: pytest.Config) -> None:
    """This process and the Python processes tests start (hundreds: `greenlint` commands, language
    servers) keep compiled modules in pytest's cache folder (PYTHONPYCACHEPREFIX), kept between runs:
    under PYTHONDONTWRITEBYTECODE, as in a container, every start compiled greenlint again (a third of
    a language server session's CPU). Nothing is written beside the sources. Without pytest's cache
    (`-p no:cacheprovider`, as `make test-fast`) they are kept for the session alone, in a temp
    folder removed at its end: each start still skips the compile the session's first one did."""
    if getattr(config, "cache", None) is not None:
        folder = str(config.cache.mkdir("pycache"))
    else:
        folder = tempfile.mkdtemp(prefix="greenlint-tests-pycache-")
        config.add_cleanup(functools.partial(shutil.rmtree, folder, ignore_errors=True))
    patch = pytest.MonkeyPatch()
    patch.setenv("PYTHONPYCACHEPREFIX", folder)
    patch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    patch.setattr(sys, "pycache_prefix", folder)
    patch.setattr(sys, "dont_write_bytecode", False)
    config.add_cleanup(patch.undo)


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("shared"):
        require_shared()
    if item.get_closest_marker("tensorflow"):
        require_installed("tensorflow", "keras")


@pytest.fixture(scope="session")
def measured_tiny_train(tmp_path_factory):
    """`greenlint measure --level both` of tests/meter/fixtures/tiny_train.py, run once (it is the
    suite's slowest step) for the meter's end-to-end tests and the profile round trip:
    (its folder, the finished process, the script's sha256 before the run, the script)."""
    require_installed("tensorflow")
    tmp = tmp_path_factory.mktemp("measure")
    script = tmp / "tiny_train.py"
    script.write_bytes((Path(__file__).parent / "meter" / "fixtures" / "tiny_train.py").read_bytes())
    before = hashlib.sha256(script.read_bytes()).hexdigest()
    env = {**os.environ, "GREENLINT_CACHE_DIR": str(tmp / "cache"), "TF_CPP_MIN_LOG_LEVEL": "2"}
    proc = subprocess.run(
        [sys.executable, "-m", "greenlint", "measure", "--max-wait", "2", "--stable-points", "5", "--after", "0.1",
         "--level", "both", "--out", str(tmp / "out"), str(script), "2"],
        cwd=tmp, env=env, capture_output=True, text=True, timeout=300,
    )
    return tmp, proc, before, script


EXTENSION = Path(__file__).resolve().parents[1] / "vscode-extension"


@pytest.fixture(scope="session")
def vscode_extension() -> Path:
    """vscode-extension/ with its locked npm packages (`npm ci` when the lockfile changed) and its
    TypeScript compiled to out/ (`npm run compile`, every session: never a stale build). Skips
    only where node/npm are not installed; a failing install or compile fails the test."""
    import fcntl

    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed")
    lock = Path(tempfile.gettempdir()) / f"greenlint-vscode-{hashlib.sha256(bytes(EXTENSION)).hexdigest()[:12]}.lock"
    with open(lock, "w") as held:  # parallel workers: one npm at a time in this checkout
        fcntl.flock(held, fcntl.LOCK_EX)
        digest = hashlib.sha256((EXTENSION / "package-lock.json").read_bytes()).hexdigest()[:16]
        stamp = EXTENSION / "node_modules" / f".greenlint-installed-{digest}"
        steps = [] if stamp.exists() else [["npm", "ci", "--no-audit", "--no-fund"]]
        for step in [*steps, ["npm", "run", "compile"]]:
            run = subprocess.run(step, cwd=EXTENSION, capture_output=True, text=True, timeout=600)
            assert run.returncode == 0, f"{' '.join(step)} in {EXTENSION} failed:\n{run.stdout}{run.stderr}"
        stamp.touch()
    return EXTENSION
