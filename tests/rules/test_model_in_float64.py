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
