"""The programs that call a project module from another folder (`ProjectIndex.callers`,
`program_folders`): a script in a package folder importing a sibling package as a top-level one
(`from models.cnn import build` in `src/train.py`), a script in a sub-folder of scripts
(`samples/coco/coco.py` importing `pkg.model as modellib`), and a notebook beside the module (its
cells run once, in order, as a script's top level), also through `from model import *`. Each is a
program of its own: a function runs as often as the one calling it most does."""

from __future__ import annotations

import json

from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.project import project_index

BUILDER = """\
import tensorflow as tf


def build(classes):
    return tf.keras.Sequential([tf.keras.layers.Dense(classes)])


class Net(object):
    def __init__(self, classes):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(classes)])

    def train(self, x, y):
        self.model.fit(x, y, epochs=2)
"""
DENSE, FIT = 5, 13  # the lines of `Dense(classes)` and of `fit`


def runs(path, line):
    project_index().refresh()
    return next(site.runs for site in analyse_file(path).callsites if site.span.line == line)


def notebook(path, *cells: str) -> None:
    code = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": c} for c in cells]
    path.write_text(json.dumps({"cells": code, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))


def package(folder, *names: str) -> None:
    for name in names:
        (folder / name).mkdir(parents=True, exist_ok=True)
        (folder / name / "__init__.py").write_text("")


def test_a_script_of_a_package_folder_importing_a_sibling_package_top_level_calls_it(tmp_path):
    (tmp_path / ".git").mkdir()
    package(tmp_path, "src", "src/models")
    (tmp_path / "src" / "models" / "cnn.py").write_text(BUILDER)
    (tmp_path / "src" / "train_a.py").write_text("from models.cnn import build\n\nmodel = build(7)\n")
    (tmp_path / "src" / "train_b.py").write_text("from models.cnn import build\n\nmodel = build(2)\nother = build(3)\n")
    found = runs(tmp_path / "src" / "models" / "cnn.py", DENSE)
    assert (found.count, found.bound) == (2, "upper")  # two programs: the most either makes, at most so
    assert "one of train_a.py, train_b.py" in found.note


def test_a_package_module_importing_it_through_its_package_is_no_program(tmp_path):
    """`src/util.py` names `src.models.cnn`: found from the folder above, as any module of the package; no
    script runs from src/, so its call at import time is not counted as a program's."""
    (tmp_path / ".git").mkdir()
    package(tmp_path, "src", "src/models")
    (tmp_path / "src" / "models" / "cnn.py").write_text(BUILDER)
    (tmp_path / "src" / "util.py").write_text("from src.models.cnn import build\n\nmodel = build(7)\n")
    found = runs(tmp_path / "src" / "models" / "cnn.py", DENSE)
    assert found.count is None and "cannot count" in found.note


def test_a_script_in_a_sub_folder_of_scripts_calls_a_method_through_a_module_alias(tmp_path):
    (tmp_path / ".git").mkdir()
    package(tmp_path, "pkg")
    (tmp_path / "pkg" / "model.py").write_text(BUILDER)
    coco = tmp_path / "samples" / "coco"
    coco.mkdir(parents=True)
    main = (
        "import pkg.model as modellib\n\n"
        "if __name__ == '__main__':\n"
        "    net = modellib.Net(3)\n    net.train(None, None)\n    net.train(None, None)\n"
    )
    (coco / "coco.py").write_text(main)
    found = runs(tmp_path / "pkg" / "model.py", FIT)
    assert (found.count, found.bound) == (2, "exact") and "coco.py" in found.note
    (coco / "coco.py").write_text(
        main.replace("    net.train(None, None)\n    net.train", "    for _ in f():\n        net.train")
    )
    assert runs(tmp_path / "pkg" / "model.py", FIT).count is None  # in a loop of unknown length


def test_a_notebook_cells_call_the_module_once_each_in_order(tmp_path):
    (tmp_path / "model.py").write_text(BUILDER)
    (tmp_path / "data.py").write_text("import numpy as np\n\n\ndef load():\n    return np.zeros(3)\n")
    notebook(
        tmp_path / "train.ipynb",
        "from model import *\nfrom data import *\n",
        "net = Net(3)\nnet.train(load(), None)\n",
        "%matplotlib inline\nnet.train(load(), None)\n",
    )
    found = runs(tmp_path / "model.py", FIT)
    assert (found.count, found.bound) == (2, "exact") and "train.ipynb" in found.note


def test_a_star_import_a_later_one_may_shadow_tells_nothing(tmp_path):
    """`from model import *` then `from layers import *`, where layers.py names `build` too (or takes another
    module's `*`): Python binds the last one giving it; the notebook's `build` is not told."""
    (tmp_path / "model.py").write_text(BUILDER)
    notebook(tmp_path / "explore.ipynb", "from model import *\nfrom layers import *\n", "m = build(3)\n")
    for layers in ("def build(n):\n    return n\n", "from keras.layers import *\n"):
        (tmp_path / "layers.py").write_text(layers)
        found = runs(tmp_path / "model.py", DENSE)
        assert found.count is None and "cannot count" in found.note
    (tmp_path / "layers.py").write_text("def dense(n):\n    return n\n")
    assert runs(tmp_path / "model.py", DENSE).count == 1


def test_a_notebook_above_a_namespace_folder_calls_its_module(tmp_path):
    """`models/` holds no `__init__.py`: the notebook at the project's root imports `models.ssd` through it."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "ssd.py").write_text(BUILDER)
    notebook(tmp_path / "train.ipynb", "from models.ssd import build\n", "model = build(3)\nmodel.fit(None, None)\n")
    found = runs(tmp_path / "models" / "ssd.py", DENSE)
    assert (found.count, found.bound) == (1, "exact") and "train.ipynb" in found.note


def test_a_script_putting_the_folder_on_sys_path_itself_calls_it(tmp_path):
    """`experiments/run.py` finds `lib/model.py` only through the folder it puts on `sys.path` before its import
    (relative to its own file, or to its folder as the working directory); an edit after the import, or one of
    a folder not known, is none."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "model.py").write_text(BUILDER)
    (tmp_path / "experiments").mkdir()
    run = tmp_path / "experiments" / "run.py"
    edits = (
        "import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))\n",
        "import os, sys\nLIB = os.path.abspath('../lib')\nsys.path.append(LIB)\n",
    )
    for edit in edits:
        run.write_text(edit + "from model import build\n\nif __name__ == '__main__':\n    build(3)\n")
        found = runs(tmp_path / "lib" / "model.py", DENSE)
        assert (found.count, found.bound) == (1, "exact") and "run.py" in found.note
    for late in (
        "import os, sys\nfrom model import build\nsys.path.append('../lib')\n",
        "import os, sys\nsys.path.append(os.environ['LIB'])\nfrom model import build\n",
    ):
        run.write_text(late + "\nif __name__ == '__main__':\n    build(3)\n")
        assert runs(tmp_path / "lib" / "model.py", DENSE).count is None


def test_a_module_imported_from_its_package_by_name_is_read_as_the_module(tmp_path):
    """`from tf_net import net` binds the package's submodule where its `__init__.py` defines no other `net`;
    `net.Net(3)`, then `.train(...)`, are calls of the module's class. An `__init__.py` binding `net` to
    something else leaves the notebook's calls not told."""
    (tmp_path / ".git").mkdir()
    package(tmp_path, "tf_net")
    (tmp_path / "tf_net" / "net.py").write_text(BUILDER)
    notebook(tmp_path / "demo.ipynb", "from tf_net import util, net\n", "n = net.Net(3)\nn.train(None, None)\n")
    found = runs(tmp_path / "tf_net" / "net.py", FIT)
    assert (found.count, found.bound) == (1, "exact") and "demo.ipynb" in found.note
    (tmp_path / "tf_net" / "__init__.py").write_text("from .other import make as net\n")
    assert runs(tmp_path / "tf_net" / "net.py", FIT).count is None


def test_a_package_folder_of_scripts_beside_the_library_holds_callers(tmp_path):
    """`scripts/` is a package of launchers (each a program): their calls count, each launcher its own
    program; the library's other packages are not walked for programs."""
    (tmp_path / ".git").mkdir()
    package(tmp_path, "tf_net", "scripts", "other")
    (tmp_path / "tf_net" / "net.py").write_text(BUILDER)
    launch = "from tf_net import net\n\nif __name__ == '__main__':\n    n = net.Net(3)\n" + "    n.train(None, None)\n"
    (tmp_path / "scripts" / "one.py").write_text(launch)
    (tmp_path / "scripts" / "three.py").write_text(launch + "    n.train(None, None)\n" * 2)
    found = runs(tmp_path / "tf_net" / "net.py", FIT)
    assert (found.count, found.bound) == (3, "upper") and "one.py, three.py" in found.note


def test_two_modules_a_script_could_import_tell_nothing(tmp_path):
    """`src/train.py` imports `models.cnn`: run from src/ it finds src/models/cnn.py, run from the root (`python
    -m src.train`) the root's models/cnn.py; with both there, neither is counted as its."""
    for project, both in ((tmp_path / "one", False), (tmp_path / "two", True)):
        (project / ".git").mkdir(parents=True)
        package(project, "src", "src/models", *(["models"] if both else []))
        for folder in (project / "src" / "models", *([project / "models"] if both else [])):
            (folder / "cnn.py").write_text(BUILDER)
        (project / "src" / "train.py").write_text("from models.cnn import build\n\nmodel = build(7)\n")
        assert runs(project / "src" / "models" / "cnn.py", DENSE).count == (None if both else 1)
    assert runs(tmp_path / "two" / "models" / "cnn.py", DENSE).count is None


def test_a_script_an_edit_makes_a_program_calls_it_after_a_refresh(tmp_path):
    """Whether a folder holds a script is read once between refreshes: an edit making `src/train.py` import
    `models.cnn` top-level (the folder first on `sys.path`) is seen at the next analysis."""
    (tmp_path / ".git").mkdir()
    package(tmp_path, "src", "src/models")
    (tmp_path / "src" / "models" / "cnn.py").write_text(BUILDER)
    (tmp_path / "src" / "train.py").write_text("import os\n\nmodel = os.getcwd()\n")
    assert runs(tmp_path / "src" / "models" / "cnn.py", DENSE).count is None
    (tmp_path / "src" / "train.py").write_text("from models.cnn import build\n\nmodel = build(7)\n")
    assert runs(tmp_path / "src" / "models" / "cnn.py", DENSE).count == 1
