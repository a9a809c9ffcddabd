"""The shipped catalog matches what the generator makes from the installed TensorFlow."""

from __future__ import annotations

import gzip
import importlib.metadata
import json
import subprocess
import sys

import pytest

from greenlint.catalog.catalog import CATALOG_FILE
from greenlint.paths import DATA_DIR, REPO_DIR
from tests.environment import missing

SHIPPED = DATA_DIR / "catalog" / CATALOG_FILE


def _installed_version(*distributions: str) -> str | None:
    for dist in distributions:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


@pytest.mark.tensorflow
def test_shipped_catalog_is_current(tmp_path):
    # Versions from package metadata (the marker checks TensorFlow and Keras are installed):
    # TensorFlow is imported only by the generator subprocess.
    installed = {
        "tensorflow": _installed_version("tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tf-nightly"),
        "keras": _installed_version("keras"),
    }
    if _installed_version("tf-keras"):  # the Keras 2 API, added where Keras 3 lacks it
        installed["tf_keras"] = _installed_version("tf-keras")
    if _installed_version("tensorflow-estimator"):  # tf.estimator, read from its source
        installed["tensorflow_estimator"] = _installed_version("tensorflow-estimator")
    if _installed_version("scikit-learn"):  # Keras's scikit-learn wrappers inherit its methods
        installed["scikit_learn"] = _installed_version("scikit-learn")
    shipped = json.loads(gzip.decompress(SHIPPED.read_bytes()))
    if shipped["versions"] != installed:
        missing(f"shipped catalog is for {shipped['versions']}, installed is {installed}")
    out = tmp_path / CATALOG_FILE
    proc = subprocess.run(
        [sys.executable, "-m", "tools.catalog.generate", "--out", str(out)],
        cwd=REPO_DIR,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    fresh = json.loads(gzip.decompress(out.read_bytes()))
    if fresh != shipped:
        changed = sorted(k for k in fresh["symbols"].keys() | shipped["symbols"].keys()
                         if fresh["symbols"].get(k) != shipped["symbols"].get(k))
        pytest.fail(
            f"{SHIPPED} is stale for TF {installed['tensorflow']}: {len(changed)} symbols differ "
            f"(e.g. {changed[:5]}); run python -m tools.catalog.generate"
        )
