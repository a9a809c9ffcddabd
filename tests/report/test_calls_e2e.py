"""`greenlint calls` end to end: the real resolver and the shipped predictor, through the CLI."""

from __future__ import annotations

import json

import pytest

from greenlint.cli import main

TRAIN = """\
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([keras.layers.Dense(10)])
x = np.zeros((100, 4))
for _ in range(3):
    model.fit(x, x, epochs=50)
"""

NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# not code\n"]},
        {"cell_type": "code", "metadata": {}, "execution_count": 1, "outputs": [],
         "source": ["import tensorflow as tf\n"]},
        {"cell_type": "code", "metadata": {}, "execution_count": 2, "outputs": [],
         "source": ["%matplotlib inline\n", "y = 1\n", "t = tf.zeros([4, 4])\n"]},
    ],
    "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
}


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "explore.ipynb").write_text(json.dumps(NOTEBOOK))
    (tmp_path / "plain.py").write_text("import numpy as np\nnp.ones(3)\n")
    return tmp_path


def _calls(capsys, *argv: str) -> tuple[int, list[dict]]:
    code = main(["calls", *argv, "--isolated", "--no-cache", "-j", "1", "--format", "json"])
    return code, json.loads(capsys.readouterr().out)["call_sites"]


def test_python_file(project, capsys):
    code, objects = _calls(capsys, "train.py", "plain.py")
    assert code == 0
    fit = next(o for o in objects if o["api"] == "tensorflow.keras.Sequential.fit")
    assert (fit["path"], fit["line"], fit["column"], fit["end_line"], fit["end_column"], fit["cell"]) == (
        "train.py", 8, 5, 8, 31, None)
    assert fit["features"]["epochs"] == 50 and fit["features"]["loop_multiplier"] == 3
    assert fit["basis"] != "unknown" and fit["energy_j"] > 0
    low, high = fit["interval_j"]
    assert low <= fit["energy_j"] <= high
    assert fit["evidence"]["records"] > 0
    assert not any(o["api"].startswith("numpy") or o["path"] == "plain.py" for o in objects)
    assert objects == sorted(objects, key=lambda o: (o["path"], o["cell"] or 0, o["line"], o["column"]))


def test_notebook_cells_count_code_cells_only(project, capsys):
    code, objects = _calls(capsys, "explore.ipynb")
    assert code == 0
    zeros = next(o for o in objects if o["api"] == "tensorflow.zeros")
    assert (zeros["cell"], zeros["line"], zeros["column"]) == (2, 3, 5)


def test_unparsable_file_is_named_and_the_rest_listed(project, capsys):
    (project / "broken.py").write_text("import tensorflow as tf\ndef f(:\n")
    code = main(["calls", ".", "--isolated", "--no-cache", "-j", "1", "--format", "json"])
    captured = capsys.readouterr()
    assert code == 2
    assert "broken.py" in captured.err and "GL001" in captured.err
    assert any(o["api"] == "tensorflow.keras.Sequential.fit" for o in json.loads(captured.out)["call_sites"])


def test_text_table(project, capsys):
    assert main(["calls", "train.py", "--isolated", "--no-cache", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert "train.py:8:5" in out and "tensorflow.keras.Sequential.fit" in out
    lines = out.rstrip().splitlines()
    at = next(i for i, line in enumerate(lines) if " call sites in " in line)
    summary, widths = lines[at:at + 2]
    assert "pays its start-up once at `import tensorflow`" in " ".join(lines[at + 2:])
    assert summary.startswith("3 call sites in 1 of 1 files")
    assert widths.startswith("Figures: ") and "wider than 1000×" in widths


DETECTOR = """\
import numpy as np
import tensorflow as tf
images = np.zeros((2000, 224, 224, 3), "float32"); labels = np.zeros((2000,), "int32")
base = tf.keras.applications.ResNet50(include_top=False, weights=None, input_shape=(224, 224, 3), pooling="avg")
head = tf.keras.Sequential([tf.keras.layers.Dense(10)])
full = tf.keras.Sequential([base, tf.keras.layers.Dense(10)])
full.compile("adam", "sparse_categorical_crossentropy")
full.fit(images, labels, epochs=10, batch_size=32)
features = base.predict(images, batch_size=32)
head.compile("adam", "sparse_categorical_crossentropy")
head.fit(features, labels, epochs=10, batch_size=32)
"""


def test_a_detector_trained_end_to_end_costs_ten_times_its_head_on_cached_features(tmp_path, monkeypatch, capsys):
    # issue #26's held-out check: the head's fit is a point on a 2048 -> 10 layer, not a floor of unknown FLOPs
    monkeypatch.chdir(tmp_path)
    (tmp_path / "det.py").write_text(DETECTOR)
    _, objects = _calls(capsys, "det.py")
    full, head = (o for o in objects if o["api"] == "tensorflow.keras.Sequential.fit")
    assert not head["floor"] and head["work"]["flops_per_sample"]["value"] == 2 * 2048 * 10
    assert full["energy_j"] >= 10 * head["interval_j"][1]
