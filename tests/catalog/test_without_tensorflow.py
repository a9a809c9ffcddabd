"""The catalog loads and answers with TensorFlow and Keras unimportable."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from greenlint.paths import REPO_DIR

BLOCKED = textwrap.dedent(
    """
    import sys

    class Block:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("tensorflow", "keras", "tf_keras"):
                raise ImportError(f"blocked import of {name}")
            return None

    sys.meta_path.insert(0, Block())
    try:
        import tensorflow
    except ImportError:
        pass
    else:
        raise SystemExit("the import hook did not block tensorflow")

    from greenlint.catalog.catalog import load_catalog
    cat = load_catalog()
    assert cat.canonical("keras.models.Sequential.fit") == "tensorflow.keras.Sequential.fit"
    assert cat.params("tensorflow.keras.Model.fit")[:4] == ["x", "y", "batch_size", "epochs"]
    assert cat.kind("tensorflow.keras.Sequential.fit") == "model-training"
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("tensorflow", "keras"))
    assert not loaded, loaded
    print("ok")
    """
)


def test_catalog_loads_with_tensorflow_blocked():
    proc = subprocess.run(
        [sys.executable, "-c", BLOCKED], cwd=REPO_DIR, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
