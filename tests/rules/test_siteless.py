"""Rules on a parsed file that holds no TensorFlow call site: only those marked `SITELESS` run there."""

from __future__ import annotations

import pytest

from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from greenlint.rules.registry import all_rules
from tests.rules.conftest import check_in_project

#: A data loader of NumPy code in a project: it imports a project module, calls no TensorFlow API.
LOADER = (
    "import numpy as np\n"
    "from .config import N_CLASSES\n\n\n"
    "def one_hot(mask):\n"
    "    out = np.zeros(mask.shape + (N_CLASSES,))\n"
    "    for c in range(N_CLASSES):\n"
    "        out[:, :, c] = (mask == c)\n"
    "    return out\n\n\n"
    "def batches(pairs):\n"
    "    for image, mask in pairs:\n"
    "        yield image, one_hot(mask)\n"
)


def test_every_other_rule_is_skipped_there(tmp_path, predictor):
    files = {"pkg/__init__.py": "", "pkg/config.py": "N_CLASSES = 21\n", "pkg/loader.py": LOADER}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = check_source(LOADER, str(tmp_path / "pkg/loader.py"), Config(select=("ALL",), no_cache=True), predictor)
    assert {d.code for d in found} == {"GL410"}  # no other rule ran (nor failed: an internal error is a finding)
    assert [code for code, rule in all_rules().items() if rule.SITELESS] == ["GL209", "GL330", "GL408", "GL410", "GL412"]


#: A batch loader in a project: it lists the image folder on every call to draw one batch.
SAMPLER = (
    "from glob import glob\n"
    "import numpy as np\n"
    "from .config import ROOT\n\n\n"
    "class Loader:\n"
    "    def __init__(self, name):\n"
    "        self.name = name\n\n"
    "    def load_batch(self, size):\n"
    "        paths = glob('%s/%s/*' % (ROOT, self.name))\n"
    "        return np.random.choice(paths, size=size)\n"
)


#: A replay memory in a project: a ring buffer over a deque whose capacity the caller passes.
MEMORY = (
    "from collections import deque\n"
    "from .config import WINDOW\n\n\n"
    "class RingBuffer:\n"
    "    def __init__(self, maxlen):\n"
    "        self.data = deque(maxlen=maxlen)\n\n"
    "    def __getitem__(self, idx):\n"
    "        return self.data[idx]\n"
)


@pytest.mark.parametrize(
    ("code", "config", "name", "text", "line"),
    [
        ("GL410", "N_CLASSES = 21\n", "loader.py", LOADER, 14),  # a one-hot loop in a loader
        ("GL209", "ROOT = 'datasets'\n", "sampler.py", SAMPLER, 11),  # a folder listed per batch
        ("GL412", "WINDOW = 4\n", "memory.py", MEMORY, 7),  # a deque read by position
    ],
)
def test_a_siteless_rule_checks_a_project_module_without_call_sites(tmp_path, predictor, code, config, name, text,
                                                                     line):
    """A module of a project that imports another of its modules and calls no TensorFlow API."""
    files = {"pkg/__init__.py": "", "pkg/config.py": config, f"pkg/{name}": text}
    found = check_in_project(tmp_path, predictor, files, f"pkg/{name}", code)
    assert [(d.span.line, d.code) for d in found] == [(line, code)]


def test_a_file_the_analysis_does_not_parse_is_not_checked(predictor):
    plain = LOADER.replace("from .config import N_CLASSES\n", "N_CLASSES = 21\n")  # no TensorFlow, no project import
    found = check_source(plain, "loader.py", Config(select=("GL410",), no_cache=True), predictor)
    assert found == []
