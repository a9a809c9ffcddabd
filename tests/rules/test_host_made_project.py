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


LOADER = "import numpy as np\nimport cv2\ndef get_img(path):\n    return cv2.resize(cv2.imread(path), (256, 256))\n"
QUALIFIED = (
    "import numpy as np\nimport tensorflow as tf\nimport {module}\n"
    "sess = tf.compat.v1.Session()\nfor step in range(10000):\n"
    "    batch = np.stack([{module}.get_img(p) for p in paths[step * 4:(step + 1) * 4]])\n"
    "    sess.run(train_op, feed_dict={{x: batch}})\n"
)


def _qualified(tmp_path, predictor, module: str) -> list:
    files = {"imgutils.py": LOADER, "train.py": QUALIFIED.format(module=module)}
    return check_in_project(tmp_path, predictor, files, "train.py", "GL503")


def test_a_function_of_an_imported_project_module_that_reads_a_file_is_followed(tmp_path, predictor):
    found = _qualified(tmp_path, predictor, "imgutils")
    assert [d.span.line for d in found] == [7]
    assert "a file read (`cv2.imread`, in `get_img`" in found[0].message


def test_a_library_module_of_the_same_function_name_is_not_followed(tmp_path, predictor):
    found = _qualified(tmp_path, predictor, "skimage")  # no project module: its work is not seen
    assert all("cv2.imread" not in d.message for d in found)
