"""A method only a base class of another module calls on `self` (`BaseModel.train` calling
`self.run_epoch(...)` in base_model.py, `run_epoch` defined in `NERModel(BaseModel)` in ner_model.py) runs as
often as the scripts call the base's method on the subclass, times that call's runs in it
(`ClassInfo.heir_calls`, `Resolver.heir_called`); unknown where the subclass overrides the base's method, its
module calls that method itself, or a loop around either call is of unknown length."""

from __future__ import annotations

from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.project import project_index
from tests.analysis.test_runs_inherited import MAIN, SUB

BASE = """\
import tensorflow as tf


class Base(object):
    def train(self, batch, epochs):
        for _ in range(4):
            self.step(batch)
"""

STEP = 7  # the line of `tf.reduce_sum` in Sub.step


def step_runs(tmp_path, base: str = BASE, sub: str = SUB, main: str = MAIN):
    """The runs of sub.py's `tf.reduce_sum`, with base.py (its base class) and main.py (the script) beside it."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "base.py").write_text(base)
    (tmp_path / "sub.py").write_text(sub)
    (tmp_path / "main.py").write_text(main)
    project_index().refresh()
    return {site.span.line: site for site in analyse_file(tmp_path / "sub.py").callsites}[STEP].runs


def test_a_method_the_bases_method_calls_on_self_runs_as_often_as_the_scripts_call_that_on_the_subclass(tmp_path):
    runs = step_runs(tmp_path)  # 4 calls per `train`, which main() calls twice on a Sub
    assert (runs.count, runs.bound) == (8, "exact")
    assert "step() runs 8× (2 calls in main.py through train)" in runs.note


def test_a_loop_left_early_in_the_bases_method_makes_the_count_at_most_so(tmp_path):
    runs = step_runs(tmp_path, base=BASE.replace("            self.step(batch)\n", "            if self.step(batch):\n                break\n"))
    assert (runs.count, runs.bound) == (8, "upper")


def test_a_loop_of_unknown_length_around_the_self_call_leaves_the_count_unknown(tmp_path):
    runs = step_runs(tmp_path, base=BASE.replace("range(4)", "range(epochs)"))
    assert runs.count is None and "a call of step sits in a loop of unknown length" in runs.note


def test_a_subclass_overriding_the_bases_method_leaves_it_unknown(tmp_path):
    own = SUB + "\n    def train(self, batch, epochs):\n        return None\n"
    runs = step_runs(tmp_path, sub=own)
    assert runs.count is None and "cannot count" in runs.note


def test_a_base_module_calling_the_method_itself_leaves_it_unknown(tmp_path):
    base = BASE + "\n    def fit(self):\n        self.train([0.0], 1)\n"
    assert step_runs(tmp_path, base=base).count is None  # its calls of `train` no script's reading sees


def test_a_script_calling_it_in_a_loop_of_unknown_length_leaves_it_unknown(tmp_path):
    main = MAIN.replace("    model.train([1.0], 2)\n", "    for x in open('f'):\n        model.train([1.0], 2)\n")
    assert step_runs(tmp_path, main=main).count is None


def test_the_subclass_module_naming_the_method_otherwise_leaves_it_unknown(tmp_path):
    named = SUB + "\n\nrun = Sub.step\n"
    assert step_runs(tmp_path, sub=named).count is None

