"""GL605 model-in-float64: where the program runs decides whether float64 costs the accelerator's FP64 rate."""

from __future__ import annotations

import pytest

from greenlint.rules.model_in_float64 import PROGRAM
from tests.rules.conftest import check_in_project

FLOAT64 = PROGRAM.format(choice="tf.keras.backend.set_floatx('float64')", dense="")


@pytest.mark.parametrize(
    ("wheel", "found"),
    [("tensorflow-cpu==2.12\n", []), ("tensorflow==2.12\n", [2]), ("tensorflow[and-cuda]==2.15\n", [2])],
)
def test_a_project_on_the_cpu_only_wheel_runs_float64_on_the_host(tmp_path, predictor, wheel, found):
    files = {"train.py": FLOAT64, "requirements.txt": wheel}
    assert [d.span.line for d in check_in_project(tmp_path, predictor, files, "train.py", "GL605")] == found


@pytest.mark.parametrize(
    ("hiding", "found"),
    [
        ("tf.config.set_visible_devices([], 'GPU')\n", []),
        ("tf.config.experimental.set_visible_devices([], 'GPU')\n", []),
        ("tf.config.set_visible_devices(gpus[:1], 'GPU')\n", [3]),  # one GPU kept: it runs there
    ],
)
def test_hidden_gpus(tmp_path, predictor, hiding, found):
    source = FLOAT64.replace("import tensorflow as tf\n", "import tensorflow as tf\n" + hiding, 1)
    files = {"train.py": source}
    assert [d.span.line for d in check_in_project(tmp_path, predictor, files, "train.py", "GL605")] == found


@pytest.mark.parametrize(
    ("solver", "found"),
    [
        ("tf.linalg.solve(a, b)", []),
        ("tf.linalg.eigh(hessian)", []),
        ("tf.compat.v1.matrix_solve_ls(a, b)", []),
        ("tf.linalg.matmul(a, b)", [2]),  # a product, no ill-conditioned system
    ],
)
def test_numerical_code_keeps_its_precision(tmp_path, predictor, solver, found):
    files = {"train.py": FLOAT64 + f"x = {solver}\n"}
    assert [d.span.line for d in check_in_project(tmp_path, predictor, files, "train.py", "GL605")] == found


TINY = (
    "import numpy as np\nimport tensorflow as tf\ntf.keras.backend.set_floatx('float64')\n"
    "model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(32), tf.keras.layers.Dense(2)])\n"
    "model.compile('adam', 'mse')\nmodel.fit(np.zeros((5000, 4)), np.zeros((5000, 2)), batch_size=32, epochs=100)\n"
)


def test_a_step_of_unknown_size_beside_a_small_one_is_reported_as_unknown(tmp_path, predictor):
    assert check_in_project(tmp_path, predictor, {"train.py": TINY}, "train.py", "GL605") == []
    files = {"train.py": TINY + "model.train_on_batch(states, targets)\n"}
    found = check_in_project(tmp_path / "more", predictor, files, "train.py", "GL605")
    assert [d.span.line for d in found] == [3]
    assert "the size of its steps is not all known (the largest known: 3.7e+04 FLOPs)" in found[0].message


def test_a_small_model_on_large_known_batches_is_reported_with_its_step(tmp_path, predictor):
    files = {"train.py": TINY.replace("batch_size=32,", "batch_size=65536,").replace("5000", "500000")}
    found = check_in_project(tmp_path, predictor, files, "train.py", "GL605")
    assert [d.span.line for d in found] == [3]
    assert found[0].message.endswith("its largest step does 7.5e+07 FLOPs")
