"""The TensorFlow version a project targets (greenlint.rules.tf_target), and GL401/GL402 following it."""

from __future__ import annotations

import json

import pytest

from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from greenlint.rules import tf_target

PIPELINE = (
    "import tensorflow as tf\n"
    "ds = tf.data.Dataset.from_tensor_slices((x, y)).map(normalise).shuffle(100).batch(32)\n"
    "model.fit(ds, epochs=3)\n"
)


@pytest.mark.parametrize(
    ("spec", "version"),
    [
        ("==2.10.1", (2, 10)),
        ("~=2.10.0", (2, 10)),
        ("~=2.10", None),  # any 2.x from 2.10: the newest
        (">=2.4", None),
        (">=2.4,<2.11", (2, 10)),
        ("<2.0", (1, 99)),
        ("<=2.12", (2, 12)),
        ("=1.15", (1, 15)),  # conda
        ("^2.9", None),  # poetry: below 3
    ],
)
def test_a_specifier_reads_as_what_pip_installs(spec, version):
    assert tf_target.read_spec(spec) == version


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("requirements.txt", "numpy\ntensorflow-addons==0.23\ntensorflow[and-cuda]==2.10.1  # gpu\n"),
        ("requirements-dev.txt", "tensorflow-gpu>=2.4,<2.11\n"),
        ("REQUIREMENTS.txt", "keras==2.0.5\ntensorflow==2.10.0\n"),  # pip takes any name
        ("pyproject.toml", '[project]\ndependencies = ["numpy", "tensorflow ==2.10.*"]\n'),
        ("pyproject.toml", '[tool.poetry.dependencies]\ntensorflow = {version = "~=2.10.0"}\n'),
        ("setup.cfg", "[options]\ninstall_requires =\n    tensorflow==2.10.0\n"),
        ("setup.py", "setup(name='x', install_requires=['tensorflow>=2.3, <2.11'])\n"),
        ("environment.yml", "dependencies:\n  - python=3.9\n  - tensorflow=2.10\n"),
    ],
)
def test_the_project_pin_is_read_from_each_kind_of_file(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    (tmp_path / "pkg").mkdir()
    found = tf_target.target(str(tmp_path / "pkg" / "train.py"))
    assert found == tf_target.TargetVersion((2, 10), f"pinned in {name}")


def test_pins_above_the_repository_root_are_not_read(tmp_path, monkeypatch):
    (tmp_path / "requirements.txt").write_text("tensorflow==2.10\n")  # beside another checkout
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "pkg").mkdir()
    monkeypatch.setattr(tf_target, "_installed", lambda: (2, 9))
    assert tf_target.target(str(tmp_path / "repo" / "pkg" / "a.py")) == tf_target.TargetVersion((2, 9), "installed")
    (tmp_path / "repo" / "requirements.txt").write_text("tensorflow==2.12\n")
    assert tf_target.target(str(tmp_path / "repo" / "b.py")).version == (2, 12)


def test_without_a_pin_the_installed_then_the_newest_is_targeted(tmp_path, monkeypatch):
    (tmp_path / "requirements.txt").write_text("numpy\ntensorflow\n")  # no version: no pin
    monkeypatch.setattr(tf_target, "_installed", lambda: (2, 9))
    assert tf_target.target(str(tmp_path / "a.py")) == tf_target.TargetVersion((2, 9), "installed")
    monkeypatch.setattr(tf_target, "_installed", lambda: None)
    assert tf_target.target(str(tmp_path / "a.py")) == tf_target.TargetVersion(None, "newest catalogued")


@pytest.mark.parametrize(
    ("name", "text", "version"),
    [
        ("README.md", "## Requirements\n+ Tensorflow == 2.0.0\n", (2, 0)),
        ("README.md", "Made for TensorFlow 2.\n```\nconda install scikit-image tensorflow-gpu=2.2\n```\n", (2, 2)),
        ("readme.rst", "Install: ``pip install tensorflow>=2.0,<2.4``\n", (2, 3)),
    ],
)
def test_a_readme_states_the_pin_where_no_pin_file_does(tmp_path, monkeypatch, name, text, version):
    """A project without pins, or whose pins name no TensorFlow, tells its users what to install in its README."""
    monkeypatch.setattr(tf_target, "_installed", lambda: (2, 16))
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text("numpy==1.19\n")
    (tmp_path / name).write_text(text)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "README.md").write_text("The models: ResNet, trained with TensorFlow.\n")  # no version
    assert tf_target.target(str(tmp_path / "pkg" / "train.py")) == tf_target.TargetVersion(version, f"pinned in {name}")


@pytest.mark.parametrize(
    "text",
    [
        "Tested with TensorFlow 2.3.\n",  # prose, no pin: also said of versions the code left behind
        "TF1 branch: `pip install tensorflow==1.15`; this one: `pip install tensorflow==2.8`\n",  # two pins disagree
    ],
)
def test_a_readme_without_one_pin_states_nothing(tmp_path, monkeypatch, text):
    monkeypatch.setattr(tf_target, "_installed", lambda: (2, 16))
    (tmp_path / ".git").mkdir()
    (tmp_path / "README.md").write_text(text)
    assert tf_target.target(str(tmp_path / "train.py")) == tf_target.TargetVersion((2, 16), "installed")


def test_a_pin_file_wins_over_the_readme(tmp_path):
    (tmp_path / "requirements.txt").write_text("tensorflow==2.10\n")
    (tmp_path / "README.md").write_text("pip install tensorflow==2.2\n")
    assert tf_target.target(str(tmp_path / "train.py")).basis == "pinned in requirements.txt"


def test_the_setting_wins_over_the_pin(tmp_path):
    (tmp_path / "requirements.txt").write_text("tensorflow==2.10\n")
    assert tf_target.target(str(tmp_path / "a.py"), "2.21").version == (2, 21)


def test_a_changed_pin_is_read_again(tmp_path):
    pins = tmp_path / "requirements.txt"
    pins.write_text("tensorflow==2.10\n")
    before = tf_target.stamp(str(tmp_path / "a.py"))
    pins.write_text("tensorflow==2.21.0\n")
    assert tf_target.target(str(tmp_path / "a.py")).version == (2, 21)
    assert tf_target.stamp(str(tmp_path / "a.py")) != before


def test_a_pin_file_created_later_is_seen_by_a_long_lived_process(tmp_path, monkeypatch):
    """The editor's server asks again after a requirements.txt was added: the folders' lookup is
    memoised on their mtimes (one stat each), not for the process's life."""
    import os

    (tmp_path / ".git").mkdir()  # the walk stops at the repository's root
    project = tmp_path / "project"
    project.mkdir()
    for folder in (project, tmp_path):
        os.utime(folder, ns=(10**18, 10**18))  # changed long ago: the lookup is memoised
    monkeypatch.setattr(tf_target, "_installed", lambda: (2, 9))
    listed = []
    listdir = os.listdir
    monkeypatch.setattr(tf_target.os, "listdir", lambda folder: (listed.append(folder), listdir(folder))[1])
    path = str(project / "train.py")
    assert tf_target.target(path).basis == "installed" and tf_target.target(path).basis == "installed"
    assert listed == [str(project), str(tmp_path)]  # the second lookup listed no folder again
    (project / "requirements.txt").write_text("tensorflow==2.10\n")
    assert tf_target.target(path) == tf_target.TargetVersion((2, 10), "pinned in requirements.txt")


def findings(tmp_path, pin, predictor):
    (tmp_path / "requirements.txt").write_text(f"tensorflow=={pin}\n")
    path = tmp_path / "train.py"
    path.write_text(PIPELINE)
    found = check_source(PIPELINE, str(path), Config(select=("GL401", "GL402"), no_cache=True), predictor)
    return sorted(d.code for d in found)


def test_a_project_pinned_to_2_21_gets_no_prefetch_or_parallel_map_advice(tmp_path, predictor):
    assert findings(tmp_path, "2.21.0", predictor) == []


def test_a_project_pinned_to_2_6_gets_both(tmp_path, predictor):
    assert findings(tmp_path, "2.6.0", predictor) == ["GL401", "GL402"]


@pytest.mark.parametrize(
    ("text", "cpu"),
    [
        ("numpy\ntensorflow-cpu==2.10\n", True),
        ("tensorflow-cpu\n", True),  # no version: still the CPU-only wheel
        ("tensorflow-cpu==2.10\ntensorflow-gpu==2.10\n", False),  # a GPU wheel beside it
        ("tensorflow==2.10\n", False),
        ("numpy\n", False),
    ],
)
def test_a_project_that_pins_the_cpu_only_wheel_alone_is_cpu_only(tmp_path, text, cpu):
    (tmp_path / "requirements.txt").write_text(text)
    assert tf_target.cpu_only(str(tmp_path / "a.py")) is cpu


@pytest.mark.parametrize(
    ("text", "version"),
    [
        ("numpy==1.19.5\ntensorflow==2.4\n", (1, 19)),
        ("numpy<2\n", (1, 99)),
        ("numpy>=2.0\n", (2, 99)),
        ("numpy>=1.26,<2.2\n", (2, 1)),
        ("numpy>=1.16\n", None),  # a lower bound below 2 alone: either NumPy
        ("numpy\ntensorflow==2.16\n", None),  # no version
        ("tensorflow==2.16\n", None),  # no NumPy pin
    ],
)
def test_the_numpy_a_project_runs_on_is_read_from_its_pins(tmp_path, text, version):
    (tmp_path / "requirements.txt").write_text(text)
    assert tf_target.numpy_target(str(tmp_path / "a.py")).version == version


WRAPPING_COUNTER = (
    "import numpy as np\nimport tensorflow as tf\nclass Agent:\n    def fit(self, env, nb_steps):\n        self.step = np.int16(0)\n"
    "        while self.step < nb_steps:\n            self.act(env)\n            self.step += 1\n"
)


@pytest.mark.parametrize(("pin", "codes"), [("numpy==1.26.4\n", []), ("numpy>=2\n", ["GL330"]), ("", [])])
def test_gl330_reports_a_narrow_counter_only_on_a_project_pinned_to_numpy_2(tmp_path, predictor, pin, codes):
    """NumPy 1 promotes `np.int16 + int` (value-based casting) and never wraps; NumPy 2 (NEP 50) wraps."""
    (tmp_path / "requirements.txt").write_text(pin + "tensorflow==2.15\n")
    path = tmp_path / "agent.py"
    path.write_text(WRAPPING_COUNTER)
    found = check_source(WRAPPING_COUNTER, str(path), Config(select=("GL330",), no_cache=True), predictor)
    assert [d.code for d in found] == codes
    assert all("on NumPy 2.x (pinned in requirements.txt)" in d.message for d in found)


def _notebook(*cells: tuple[str, list]) -> str:
    """A notebook of code cells, each its source and its saved outputs."""
    return json.dumps(
        {"cells": [{"cell_type": "code", "source": s, "outputs": o, "metadata": {}} for s, o in cells], "nbformat": 4}
    )


def _result(text: str) -> dict:
    return {"output_type": "execute_result", "data": {"text/plain": [text]}, "metadata": {}}


def _stream(text: str, name: str = "stdout") -> dict:
    return {"output_type": "stream", "name": name, "text": [text]}


@pytest.mark.parametrize(
    ("source", "outputs", "version"),
    [
        ("import tensorflow as tf\ntf.__version__", [_result("'1.15.0'")], (1, 15)),
        ("import tensorflow\nprint(tensorflow.__version__)", [_stream("2.3.0\n")], (2, 3)),
        ("import tensorflow as tf\ntf.__version__", [_stream("warning\n", "stderr"), _result("'2.0.0-rc1'")], (2, 0)),
    ],
)
def test_a_notebook_is_pinned_by_the_version_its_saved_output_shows(tmp_path, monkeypatch, source, outputs, version):
    monkeypatch.setattr(tf_target, "_installed", lambda: (2, 16))
    path = tmp_path / "train.ipynb"
    path.write_text(_notebook(("import numpy as np", []), (source, outputs)))
    found = tf_target.target(str(path))
    assert found.version == version and found.stated and "saved output of `tf.__version__` (cell 2)" in found.basis


@pytest.mark.parametrize(
    ("source", "outputs"),
    [
        ("import tensorflow as tf\ntf.keras.__version__", [_result("'2.2.4-tf'")]),  # the bundled Keras
        ("print(tf.__version__, keras.__version__)", [_stream("1.15.0 2.2.4\n")]),  # two versions read
        ("print('TensorFlow', tf.__version__)", [_stream("TensorFlow 1.15.0\n")]),  # not a version alone
        ("tf.__version__", []),  # never run
        ("import tensorflow as tf\nx = 1", [_result("'1.15.0'")]),  # its version not read
    ],
)
def test_a_saved_output_that_is_not_one_version_read_alone_pins_nothing(tmp_path, monkeypatch, source, outputs):
    monkeypatch.setattr(tf_target, "_installed", lambda: (2, 16))
    path = tmp_path / "train.ipynb"
    path.write_text(_notebook((source, outputs)))
    assert tf_target.target(str(path)) == tf_target.TargetVersion((2, 16), "installed")
    assert tf_target.recorded(str(path), "keras") is None


def test_a_pin_file_wins_over_a_notebook_output_which_wins_over_the_readme(tmp_path, monkeypatch):
    monkeypatch.setattr(tf_target, "_installed", lambda: (2, 16))
    path = tmp_path / "train.ipynb"
    path.write_text(_notebook(("tf.__version__", [_result("'1.15.0'")])))
    (tmp_path / "README.md").write_text("pip install tensorflow==2.3.0\n")
    assert tf_target.target(str(path)).version == (1, 15)  # what this notebook ran with, over the project's prose
    (tmp_path / "requirements.txt").write_text("tensorflow==2.10\n")  # what the project installs now
    assert tf_target.target(str(path)) == tf_target.TargetVersion((2, 10), "pinned in requirements.txt")
