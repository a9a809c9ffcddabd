"""The epochs of the batch generator a loop runs over (`rules/generator_epochs.py`), where the
generator is a project module's: imported by name or called through its module."""

from __future__ import annotations

import ast

import pytest

from greenlint.rules.base import FileFacts
from greenlint.rules.generator_epochs import generator_epochs

HELPERS = (
    "import numpy as np\n"
    "def batch_iter(data, batch_size, num_epochs, shuffle=True):\n"
    "    data = np.array(data)\n"
    "    for epoch in range({epochs}):\n"
    "        for i in range(len(data) // batch_size):\n"
    "            yield data[i * batch_size:(i + 1) * batch_size]\n"
)
FLAGS = "import tensorflow as tf\ntf.flags.DEFINE_integer('num_epochs', 200, '')\nFLAGS = tf.flags.FLAGS\n"


def _epochs(folder, helpers: str, program: str):
    (folder / "data_helpers.py").write_text(helpers)
    path = folder / "train.py"
    path.write_text(program)
    facts = FileFacts(str(path), (), program)
    loop = next(n for n in facts.nodes(None, ast.For) if isinstance(n, ast.For))
    return generator_epochs(facts, loop, None)


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        ("import data_helpers\nbatches = data_helpers.batch_iter(xy, 64, FLAGS.num_epochs)\n"
         "for batch in batches:\n    step(batch)\n", 200),
        ("from data_helpers import batch_iter\nfor batch in batch_iter(xy, 64, 30):\n    step(batch)\n", 30),
        ("from data_helpers import batch_iter as batches\nfor i, b in enumerate(batches(xy, 64, num_epochs=25)):\n"
         "    step(b)\n", 25),
        ("import data_helpers\nfor batch in data_helpers.batch_iter(xy, 64, args.epochs):\n    step(batch)\n", None),
        ("import data_helpers\nfor batch in data_helpers.other(xy, 64, 30):\n    step(batch)\n", None),
        ("import data_helpers\nbatches = data_helpers.batch_iter(xy, 64, 30)\nbatches = shuffled(batches)\n"
         "for batch in batches:\n    step(batch)\n", None),  # the name is bound twice: not followed
    ],
)
def test_the_epochs_of_a_project_generator(tmp_path, program, expected):
    found = _epochs(tmp_path, HELPERS.format(epochs="num_epochs"), FLAGS + program)
    assert (found.epochs if found else None) == expected


def test_a_generator_whose_epochs_are_not_its_parameter_or_may_end_early_counts_none(tmp_path):
    program = FLAGS + "import data_helpers\nfor batch in data_helpers.batch_iter(xy, 64, 30):\n    step(batch)\n"
    assert _epochs(tmp_path, HELPERS.format(epochs="10"), program) is None
    early = HELPERS.format(epochs="num_epochs").replace("            yield", "            if done():\n"
                                                        "                return\n            yield")
    assert _epochs(tmp_path, early, program) is None


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        # the module bound through its package (`project_bindings`: what Python binds the name to)
        ("from utils import data_helpers\nfor batch in data_helpers.batch_iter(xy, 64, 30):\n    step(batch)\n", 30),
        ("import utils.data_helpers as dh\nfor batch in dh.batch_iter(xy, 64, 30):\n    step(batch)\n", 30),
        # `import utils.data_helpers` binds `utils`: `data_helpers` is no name of the script
        ("import utils.data_helpers\nfor batch in data_helpers.batch_iter(xy, 64, 30):\n    step(batch)\n", None),
    ],
)
def test_the_epochs_of_a_generator_in_a_package(tmp_path, program, expected):
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "__init__.py").write_text("")
    (tmp_path / "utils" / "data_helpers.py").write_text(HELPERS.format(epochs="num_epochs"))
    path = tmp_path / "train.py"
    path.write_text(program)
    facts = FileFacts(str(path), (), program)
    loop = next(n for n in facts.nodes(None, ast.For) if isinstance(n, ast.For))
    found = generator_epochs(facts, loop, None)
    assert (found.epochs if found else None) == expected
