"""Files greenlint cannot analyse become GL001/GL002 diagnostics with the real resolver; the run goes on."""

from __future__ import annotations

import json

from greenlint.check.config import Config
from greenlint.check.pipeline import run_check


def test_bad_files(tmp_path):
    from greenlint.analysis import sources

    files = {
        "bad.py": b"import tensorflow as tf\ndef f(:\n    pass\n",
        "blob.py": b"\xff\xfe\x00\x01binary",
        "latin.py": b'import tensorflow as tf\nx = "\xe9"\n',
        "broken.ipynb": b'{"cells": [',
        "nbbad.ipynb": json.dumps(
            {
                "cells": [
                    {"cell_type": "code", "source": "import tensorflow as tf\n", "metadata": {}, "outputs": []},
                    {"cell_type": "code", "source": "def (:\n", "metadata": {}, "outputs": []},
                ],
                "metadata": {},
                "nbformat": 4,
                "nbformat_minor": 5,
            }
        ).encode(),
        "huge.py": b"import tensorflow as tf\n" + b"x = 1\n" * (sources.MAX_BYTES // 6 + 1),
        "ok.py": b"import tensorflow as tf\nmodel = tf.keras.Sequential()\nmodel.fit(x, y, batch_size=2)\n",
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    result = run_check([tmp_path], Config(root=tmp_path, cache_dir=tmp_path / ".cache", jobs=2))
    got = {(d.path.rsplit("/", 1)[-1], d.code, d.span.cell) for d in result.diagnostics}
    assert {
        ("bad.py", "GL001", None),
        ("blob.py", "GL002", None),
        ("latin.py", "GL002", None),
        ("broken.ipynb", "GL002", None),
        ("nbbad.ipynb", "GL001", 2),
        ("huge.py", "GL002", None),
        ("ok.py", "GL301", None),
    } <= got
    assert all(d.severity == "error" for d in result.errors) and len(result.errors) == 6
    for d in result.errors:
        assert not d.message.split(": ", 1)[1].startswith(d.path), d.message  # location not repeated
