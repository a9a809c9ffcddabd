"""`greenlint examples/` with the real resolver and predictor shows the findings examples/README.md promises."""

from __future__ import annotations

import dataclasses
import re

import pytest

from greenlint.check.config import load_config
from greenlint.check.pipeline import run_check
from greenlint.paths import REPO_DIR
from tests.check.readme_make_run import EXAMPLE

EXAMPLES = REPO_DIR / "examples"


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    config = dataclasses.replace(load_config([EXAMPLES]), cache_dir=tmp_path_factory.mktemp("cache"), jobs=1)
    return run_check([EXAMPLES], config)


def found(result, name):
    return {(d.span.line, d.code) for d in result.diagnostics if d.path.endswith(name)}


def test_example_config_is_used():
    config = load_config([EXAMPLES])
    assert config.source == EXAMPLES / "pyproject.toml"
    assert config.extend_select == ("GL003",)


def test_scripts(result):
    # the random augmentation's map is stateful: TensorFlow parallelises only stateless maps by
    # itself (the decode map of line 30 is one, on the TensorFlow 2.21 this project gets)
    assert found(result, "flowers/data.py") == {(25, "GL402"), (31, "GL301")}
    assert found(result, "flowers/model.py") == set()
    assert found(result, "predict.py") == {(17, "GL201")}  # one load per checkpoint is no repeat
    train = found(result, "train.py")
    # the fine-tuned model is loaded: its work per sample is not seen, so its batch of 2 claims nothing
    assert (25, "GL301") not in train
    # the eager step runs over `train_ds`, whose length is not known: what compiling saves is not counted
    assert not {(33, "GL302"), (34, "GL302")} & train
    # the sweep, fit() x range(8), reads its data from files: its figure spans orders of magnitude
    # (the least its code allows, up to a stated most), which is shown as a range and triggers nothing
    assert (19, "GL101") not in train
    assert (19, "GL308") in train  # 30 epochs with validation data, nothing stops it
    assert not result.errors


def test_notebook(result):
    nb = {(d.span.cell, d.span.line, d.code) for d in result.diagnostics if d.path.endswith("explore.ipynb")}
    assert {(3, 3, "GL101"), (3, 3, "GL301"), (4, 3, "GL201")} <= nb


def test_the_readme_promises_what_the_check_finds(result):
    """examples/README.md's table names, per file, exactly the codes `make run` prints for it
    (a code named only as what a profile would add, after "once", is not a promise)."""

    rows = re.findall(r"^\| `([^`]+)` \| [^|]+ \| ([^|]+) \|$", (EXAMPLES / "README.md").read_text(), re.M)
    checked = {name: text for name, text in rows if name.endswith((".py", ".ipynb"))}
    assert set(checked) == {"flowers/data.py", "flowers/model.py", "flowers/sample_data.py", "train.py", "predict.py",
                            "explore.ipynb"}
    for name, text in checked.items():
        promised = set(re.findall(r"GL\d{3}", text.split(" once ")[0]))
        codes = {d.code for d in result.diagnostics if d.path.endswith(f"examples/{name}")}
        assert codes == promised, name


def test_the_readme_example_is_what_make_run_prints():
    """The README's `make run` example (abridged: `...` skips lines) and its quoted `Figures:`
    summary are the lines `make run` prints today, to the space (tests/check/readme_make_run.py
    writes them)."""
    from tests.check.readme_make_run import README, printed, updated

    readme = README.read_text(encoding="utf-8")
    assert len(re.findall(r"^(?!\.\.\.).+$", EXAMPLE.search(readme)[2], re.M)) >= 4
    assert updated(readme, printed()) == readme, "regenerate: python -m tools.generate_all readme-make-run"
