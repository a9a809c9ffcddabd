"""GL503 reading what a project module's function returns (greenlint.rules.host_made): dcgan-tensorflow's
shape, `from utils import *` and a loop feeding `gen_random(...)`, a latent drawn with NumPy."""

from __future__ import annotations

import pytest

from tests.rules.conftest import check_in_project

TRAIN = (
    "import numpy as np\nimport tensorflow as tf\nfrom utils import *\n"
    "sess = tf.compat.v1.Session()\nfor step in range(10000):\n"
    "    batch_z = gen_random('uniform', size=[64, 100]).astype(np.float32)\n"
    "    sess.run(g_optim, feed_dict={z: batch_z})\n"
)
DRAWS = (
    "import numpy as np\ndef gen_random(mode, size):\n"
    "    if mode == 'normal':\n        return np.random.normal(0, 1, size=size)\n"
    "    return np.random.uniform(-1, 1, size=size)\n"
)


def _gl503(tmp_path, predictor, utils: str) -> list[int]:
    files = {"utils.py": utils, "train.py": TRAIN}
    return [d.span.line for d in check_in_project(tmp_path, predictor, files, "train.py", "GL503")]


def test_a_latent_drawn_by_a_star_imported_project_function_is_not_data(tmp_path, predictor):
    assert _gl503(tmp_path, predictor, DRAWS) == []


def test_a_project_function_that_reads_a_file_per_step_keeps_the_finding(tmp_path, predictor):
    redefined = DRAWS + "def gen_random(mode, size):\n    return np.load(mode)[:size[0]]\n"
    assert _gl503(tmp_path, predictor, redefined) == [7]


@pytest.mark.parametrize(
    "utils",
    [
        "import numpy as np\ndef gen_random(mode, size):\n    return DATA[np.random.randint(0, 100, size[0])]\n",  # rows of data
        "from elsewhere import gen_random\n",  # not defined in the project: its work is not seen
    ],
)
def test_rows_in_memory_or_an_unread_function_claim_no_host_work(tmp_path, predictor, utils):
    assert _gl503(tmp_path, predictor, utils) == []
