"""A loader module read with the training scripts beside it that import it (greenlint.rules.importers):
GL408 reports a loader's decode, drawn anew on every epoch by a script's loop, at the decode."""

from __future__ import annotations

from greenlint.analysis.project import project_index
from tests.rules.conftest import check_in_project

#: A loader naming no TensorFlow: a generator that decodes each image of each batch.
LOADER = (
    "import numpy as np\n"
    "import scipy.misc\n\n\n"
    "class DataLoader:\n"
    "    def __init__(self, paths):\n"
    "        self.paths = paths\n\n"
    "    def load_batch(self, size):\n"
    "        for i in range(len(self.paths) // size):\n"
    "            imgs = []\n"
    "            for path in self.paths[i * size:(i + 1) * size]:\n"
    "                imgs.append(self.imread(path))\n"
    "            yield np.array(imgs) / 127.5 - 1.0\n\n"
    "    def imread(self, path):\n"
    "        return scipy.misc.imread(path, mode='RGB').astype(np.float32)\n"
)

#: The training script beside it: the generator made anew on each of 200 epochs.
SCRIPT = (
    "import tensorflow as tf\n"
    "from data_loader import DataLoader\n\n"
    "loader = DataLoader(paths)\n"
    "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
    "for epoch in range({epochs}):\n"
    "    for batch in loader.load_batch(1):\n"
    "        model.train_on_batch(batch, batch)\n"
)


def _project(epochs: int = 200) -> dict[str, str]:
    return {"data_loader.py": LOADER, "train.py": SCRIPT.format(epochs=epochs)}


def test_the_loader_reports_its_decode_with_the_scripts_loop(tmp_path, predictor):
    found = check_in_project(tmp_path, predictor, _project(), "data_loader.py", "GL408")
    assert [d.span.line for d in found] == [13]  # `self.imread(path)` in the generator's loop
    assert "on every pass of the loop at train.py line 6 (200 passes), which draws its batches at line 7" in found[0].message


def test_the_script_leaves_it_to_the_loader(tmp_path, predictor):
    assert check_in_project(tmp_path, predictor, _project(), "train.py", "GL408") == []


def test_one_pass_of_the_script_reports_nothing(tmp_path, predictor):
    files = {**_project(), "train.py": SCRIPT.format(epochs=200).replace("for epoch in range(200):\n    ", "")}
    files["train.py"] = files["train.py"].replace("\n        model", "\n    model")
    assert check_in_project(tmp_path, predictor, files, "data_loader.py", "GL408") == []


def test_a_loader_importing_a_project_module_is_not_read_with_its_scripts(tmp_path, predictor):
    files = {**_project(), "config.py": "SIZE = 128\n"}
    files["data_loader.py"] = "from config import SIZE\n" + LOADER
    assert check_in_project(tmp_path, predictor, files, "data_loader.py", "GL408") == []
    assert [d.span.line for d in check_in_project(tmp_path, predictor, files, "train.py", "GL408")] == [7]


def test_the_loaders_cache_key_follows_its_scripts(tmp_path):
    for name, text in _project().items():
        (tmp_path / name).write_text(text)
    loader = tmp_path / "data_loader.py"
    index = project_index()
    index.refresh()
    before = index.analysis_inputs(str(loader))
    (tmp_path / "train.py").write_text(SCRIPT.format(epochs=1))
    index.refresh()
    assert index.analysis_inputs(str(loader)) != before


def test_a_decode_under_another_name_is_reported_at_its_generators_def(tmp_path, predictor):
    files = _project()
    files["data_loader.py"] = LOADER.replace("self.imread(path)", "picture(path)").replace(
        "import scipy.misc\n", "from scipy.misc import imread as picture\n"
    )
    found = check_in_project(tmp_path, predictor, files, "data_loader.py", "GL408")
    assert [(d.span.line, d.span.column, d.span.end_column) for d in found] == [(9, 5, 19)]  # `def load_batch`


def test_the_findings_do_not_depend_on_the_working_directory(tmp_path):
    """Two loaders of one name in sibling folders (each beside its script), checked from outside the
    project, from its root and from one of the folders: the same findings, at the same files (issue 26)."""
    import json
    import os
    import subprocess
    import sys

    project = tmp_path / "gans"
    for folder in ("cyclegan", "pix2pix"):
        for name, text in _project().items():
            (project / folder).mkdir(parents=True, exist_ok=True)
            (project / folder / name).write_text(text)

    def findings(cwd):
        proc = subprocess.run([sys.executable, "-m", "greenlint", "check", "--isolated", "--no-cache", "--exit-zero",
                               "--select", "GL408", "--format", "json", str(project)],
                              cwd=cwd, capture_output=True, text=True, check=True)
        return sorted((os.path.join(cwd, f["filename"]), f["location"]["row"], f["message"]) for f in json.loads(proc.stdout))

    outside = findings(tmp_path)
    assert [(os.path.relpath(f, project), row) for f, row, _ in outside] == [
        (os.path.join("cyclegan", "data_loader.py"), 13), (os.path.join("pix2pix", "data_loader.py"), 13)]
    assert findings(project) == outside
    assert findings(project / "cyclegan") == outside
