"""A base class's method a subclass of another module calls on `self` (`self.add_train_op(...)` in
`NERModel.build`, ner_model.py; `add_train_op` defined on `BaseModel` in base_model.py) runs as often as the
scripts run the subclass's methods making those calls, times their runs in them, summed per script
(`constructed._heir_self_calls`, `Beside.tally`); the subclass's own listing of that call then leaves its work
to the base's sites (`ExtFunc.beside`). Unknown where such a call sits in a loop, a method making it is named
elsewhere (its module, the base's), or no script calls that method."""

from __future__ import annotations

import pytest

from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.project import project_index

BASE = """\
import tensorflow as tf


class Base(object):
    def __init__(self, lr):
        self.lr = lr

    def add_train_op(self, loss):
        self.train_op = tf.compat.v1.train.AdamOptimizer(self.lr).minimize(loss)
"""

SUB = """\
import tensorflow as tf
from base import Base


class Sub(Base):
    def build(self):
        loss = tf.reduce_sum(tf.ones([2]))
        self.add_train_op(loss)

    def rebuild(self, fresh):
        if fresh:
            self.add_train_op(tf.zeros([1]))
"""

MAIN = """\
import tensorflow as tf
from sub import Sub


def main():
    model = Sub(0.1)
    model.build()
    model.rebuild(True)
    model.rebuild(False)


if __name__ == "__main__":
    main()
"""

ADAM = ("base.py", 9, "AdamOptimizer")  # `tf.compat.v1.train.AdamOptimizer(...)` in Base.add_train_op


def project(tmp_path, base: str = BASE, sub: str = SUB, main: str = MAIN) -> dict:
    """The call sites of base.py and sub.py by (file, line, the API's last name), with main.py (the script) beside them."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "base.py").write_text(base)
    (tmp_path / "sub.py").write_text(sub)
    (tmp_path / "main.py").write_text(main)
    project_index().refresh()
    return {
        (name, site.span.line, site.api.rpartition(".")[2]): site
        for name in ("base.py", "sub.py")
        for site in analyse_file(tmp_path / name).callsites
    }


def test_a_bases_method_called_on_self_by_the_subclass_sums_the_runs_of_those_calls(tmp_path):
    runs = project(tmp_path)[ADAM].runs  # 1 call in build (run once), 1 under `if` in rebuild (twice)
    assert (runs.count, runs.bound) == (3, "upper")
    assert "add_train_op() runs at most 3× (3 calls in sub.py)" in runs.note


def test_one_call_of_the_calling_method_gives_an_exact_count(tmp_path):
    sub = SUB.split("\n    def rebuild")[0] + "\n"
    main = MAIN.replace("    model.rebuild(True)\n    model.rebuild(False)\n", "")
    assert (project(tmp_path, sub=sub, main=main)[ADAM].runs.count, "exact") == (1, "exact")


def test_a_self_call_made_in_the_subclasss_constructor_runs_once_per_construction(tmp_path):
    sub = (
        SUB.split("\n    def build")[0] + "\n    def __init__(self, lr):\n        super().__init__(lr)\n"
        "        self.add_train_op(tf.zeros([1]))\n"
    )
    main = MAIN.replace("    model.build()\n    model.rebuild(True)\n    model.rebuild(False)\n", "    Sub(0.2)\n")
    runs = project(tmp_path, sub=sub, main=main)[ADAM].runs  # two constructions, a call in __init__
    assert (runs.count, runs.bound) == (2, "exact")


def test_a_construction_in_the_subclasss_own_module_leaves_the_count_unknown(tmp_path):
    sub = (
        SUB.split("\n    def build")[0] + "\n    def __init__(self, lr):\n        super().__init__(lr)\n"
        "        self.add_train_op(tf.zeros([1]))\n\n\ndef make():\n    return Sub(0.3)\n"
    )
    main = MAIN.replace("    model.build()\n    model.rebuild(True)\n    model.rebuild(False)\n", "    Sub(0.2)\n")
    assert project(tmp_path, sub=sub, main=main)[ADAM].runs.count is None  # `make()`: constructions not counted


def test_the_subclass_lists_no_second_call_of_that_work(tmp_path):
    base = (
        BASE + "\n    def initialize(self):\n        self.sess = tf.compat.v1.Session()\n"
        "        self.sess.run(tf.compat.v1.global_variables_initializer())\n"
    )
    sub = SUB.replace(
        "        self.add_train_op(loss)\n", "        self.add_train_op(loss)\n        self.initialize()\n"
    )
    sites = project(tmp_path, base=base, sub=sub)
    assert sites[("base.py", 13, "run")].runs.count == 1
    assert ("sub.py", 9, "run") not in sites  # `self.initialize()`: no wrapper's site, its work is base.py's
    assert sites[("sub.py", 7, "reduce_sum")].runs.count == 1  # its own, counted as before


LOOPED = SUB.replace(
    "        self.add_train_op(loss)\n", "        for _ in open('f'):\n            self.add_train_op(loss)\n"
)


@pytest.mark.parametrize(
    ("base", "sub", "main"),
    [
        (BASE, LOOPED, MAIN),  # a self call in a loop
        (BASE, SUB, MAIN.replace("    model.build()\n", "")),  # a calling method no script calls
        (BASE, SUB + "\n    def again(self):\n        self.build()\n", MAIN),  # one its module calls itself
        (BASE + "\n    def fit(self):\n        self.build()\n", SUB, MAIN),  # one the base calls on self
        (BASE, SUB + "\n\nstep = Sub(0.1).add_train_op\n", MAIN),  # the method read otherwise in the subclass's module
        (BASE, SUB + "\n    def add_train_op(self, loss):\n        return loss\n", MAIN),  # the subclass overrides it
        (
            BASE,
            SUB,
            MAIN.replace("    model.build()\n", "    model.build()\n    model.add_train_op(0)\n"),
        ),  # called twice
    ],
    ids=[
        "looped",
        "uncalled",
        "called-by-its-module",
        "called-by-the-base",
        "read-otherwise",
        "overridden",
        "also-called",
    ],
)
def test_calls_the_reading_cannot_follow_leave_the_count_unknown(tmp_path, base, sub, main):
    assert project(tmp_path, base=base, sub=sub, main=main)[ADAM].runs.count is None
