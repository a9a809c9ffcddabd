"""GL408 on an iterator class of a project module (greenlint.rules.decoded_files_without_cache's
`_iterated_loaders`): a training script imports it, builds one and walks it anew on every epoch."""

from __future__ import annotations

import pytest

from tests.rules.conftest import check_in_project

LOADER = (
    "import cv2\nimport numpy as np\n\n\nclass Batches:\n    def __init__(self, paths):\n"
    "        self.paths, self.at = paths, 0\n\n    def __iter__(self):\n        self.at = 0\n        return self\n\n"
    "    def __next__(self):\n        if self.at >= len(self.paths):\n            raise StopIteration\n"
    "        self.at += 4\n        return np.stack([self.decode(p) for p in self.paths[self.at - 4:self.at]])\n\n"
    "    def decode(self, path):\n        return cv2.imread(path)[:, :, ::-1] / 255.0\n"
)
#: `Batches.decode` keeping each decoded file in a dict of the instance, decoding it on a miss only.
KEPT = (
    "        if path not in self.seen:\n            self.seen[path] = cv2.imread(path)[:, :, ::-1] / 255.0\n"
    "        return self.seen[path]\n"
)
SCRIPT = (
    "import tensorflow as tf\nfrom data.loader import Batches\n\n\ndef main(paths, epochs):\n"
    "    batches = Batches(paths)\n    for epoch in range(epochs):\n        for x in batches:\n"
    "            step(x)\n"
)


def _gl408(tmp_path, predictor, loader=LOADER, script=SCRIPT) -> list:
    files = {"setup.py": "", "data/__init__.py": "", "data/loader.py": loader, "train.py": script}
    return check_in_project(tmp_path, predictor, files, "train.py", "GL408")


def test_an_imported_decoding_iterator_walked_on_every_epoch(tmp_path, predictor):
    (found,) = _gl408(tmp_path, predictor)
    assert found.span.line == 8
    assert "`batches`, a `Batches` whose `__next__` reads and decodes a file per item (`cv2.imread`, loader.py line 20)" \
        in found.message


@pytest.mark.parametrize(
    ("loader", "script"),
    [
        (LOADER.replace("        return cv2.imread(path)[:, :, ::-1] / 255.0\n", KEPT), SCRIPT),
        (LOADER, SCRIPT.replace("from data.loader import Batches", "from installed_lib.loader import Batches")),
        (LOADER, SCRIPT.replace("range(epochs)", "range(1)")),
    ],
    ids=["kept-by-the-instance", "library-not-in-project", "one-epoch"],
)
def test_no_finding_where_the_files_are_decoded_once_or_the_class_unread(tmp_path, predictor, loader, script):
    assert _gl408(tmp_path, predictor, loader, script) == []


#: `Batches.decode` choosing on a configuration constant between the array decoded once and the file.
CHOSEN = (
    "        if IN_MEMORY:\n            return self.decoded[path]\n"
    "        else:\n            return cv2.imread(path)[:, :, ::-1] / 255.0\n"
)


@pytest.mark.parametrize(
    "imported", ["from data.config import *\n", "from data.config import IN_MEMORY\n"], ids=["star-import", "named-import"]
)
def test_no_finding_where_a_project_constant_keeps_the_decode_from_running(tmp_path, predictor, imported):
    loader = imported + LOADER.replace("        return cv2.imread(path)[:, :, ::-1] / 255.0\n", CHOSEN)
    files = {"setup.py": "", "data/__init__.py": "", "data/config.py": "IN_MEMORY = True\n",
             "data/loader.py": loader, "train.py": SCRIPT}
    assert check_in_project(tmp_path, predictor, files, "train.py", "GL408") == []


@pytest.mark.parametrize(
    "config",
    ["IN_MEMORY = False\n", "import os\nIN_MEMORY = os.environ.get('IN_MEMORY') == '1'\n",
     "IN_MEMORY = True\nIN_MEMORY = False\n"],
    ids=["constant-takes-the-decode", "not-a-literal", "bound-twice"],
)
def test_the_decode_a_project_constant_takes_or_may_take_is_reported(tmp_path, predictor, config):
    loader = "from data.config import *\n" + LOADER.replace("        return cv2.imread(path)[:, :, ::-1] / 255.0\n", CHOSEN)
    files = {"setup.py": "", "data/__init__.py": "", "data/config.py": config, "data/loader.py": loader,
             "train.py": SCRIPT}
    (found,) = check_in_project(tmp_path, predictor, files, "train.py", "GL408")
    assert "(`cv2.imread`, loader.py line 24)" in found.message
