"""GREENLINT_STRICT_TESTS=1 (CI) turns a skip for missing data into a failure, never a counter's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NEEDS_SHARED = "tests/catalog/test_shared_signatures.py::test_every_measured_signature_is_canonical"
NEEDS_A_COUNTER = "tests/meter/test_nvml.py::test_real_nvml_reader"


def _pytest(target: str, tmp_path: Path, *, strict: bool) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "GREENLINT_SHARED_DIR": str(tmp_path / "absent"),
        "GREENLINT_STRICT_TESTS": "1" if strict else "0",
        "GREENLINT_CACHE_DIR": str(tmp_path / "cache"),
    }
    cmd = [sys.executable, "-m", "pytest", target, "-q", "-rs", "-p", "no:cacheprovider"]
    return subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


def test_missing_shared_data_skips_and_fails_when_strict(tmp_path):
    relaxed = _pytest(NEEDS_SHARED, tmp_path, strict=False)
    assert relaxed.returncode == 0 and "1 skipped" in relaxed.stdout, relaxed.stdout
    assert "../shared" in relaxed.stdout, relaxed.stdout  # -rs lists the reason
    strict = _pytest(NEEDS_SHARED, tmp_path, strict=True)
    assert strict.returncode == 1 and "GREENLINT_STRICT_TESTS=1" in strict.stdout, strict.stdout


def test_a_missing_energy_counter_still_skips_when_strict(tmp_path):
    """A machine without a GPU is no broken CI: the NVML reader skips (or, on a GPU, passes)."""
    strict = _pytest(NEEDS_A_COUNTER, tmp_path, strict=True)
    assert strict.returncode == 0, strict.stdout


def test_the_suite_has_its_own_user_cache(tmp_path_factory):
    """Never the developer's cache (their calibration would change the figures tests expect)."""
    from greenlint.paths import cache_dir, calibration_dir

    assert cache_dir().is_relative_to(tmp_path_factory.getbasetemp())
    assert not calibration_dir().exists(), "a test calibrated into the suite's cache: later tests see its figures"
