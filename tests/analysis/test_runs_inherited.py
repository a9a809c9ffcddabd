"""A method a subclass inherits from a class of another module (`class NERModel(BaseModel)` in
ner_model.py, `train` defined on `BaseModel` in base_model.py) runs as often as the scripts beside the
subclass's module call it on the instances they make (`model = NERModel(config)`, `model.train(...)`:
`constructed.Beside.tally`, `Imports.inherited`); a subclass defining the method keeps those calls for
its own. A method's name read as its own parameter (`def train(self, train, dev)`) or as an attribute of
an imported module (`tf.train.Saver`) names no method."""

from __future__ import annotations

from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.project import project_index

BASE = """\
import tensorflow as tf


class Base(object):
    def __init__(self):
        self.saver = tf.compat.v1.train.Saver()

    def train(self, train, epochs):
        for _ in range(epochs):
            self.step(train)
        self.saver.save(None, "ckpt")

    def step(self, batch):
        pass
"""

SUB = """\
import tensorflow as tf
from base import Base


class Sub(Base):
    def step(self, batch):
        return tf.reduce_sum(batch)
"""

MAIN = """\
import tensorflow as tf
from sub import Sub


def main():
    model = Sub()
    model.train([1.0], 2)
    model.train([2.0], 3)


if __name__ == "__main__":
    main()
"""


def project(tmp_path, sub: str = SUB, main: str = MAIN) -> dict:
    """base.py's call sites by line, with sub.py (its subclass) and main.py (the script) beside it."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "base.py").write_text(BASE)
    (tmp_path / "sub.py").write_text(sub)
    (tmp_path / "main.py").write_text(main)
    project_index().refresh()
    return {site.span.line: site for site in analyse_file(tmp_path / "base.py").callsites}


def test_an_inherited_method_runs_as_often_as_the_scripts_call_it_on_the_subclass(tmp_path):
    runs = project(tmp_path)[11].runs  # `save` in Base.train, called twice on a Sub by main()
    assert (runs.count, runs.bound) == (2, "exact")
    assert "train() runs 2× (2 calls in main.py)" in runs.note


def test_a_subclass_defining_the_method_keeps_its_calls_for_its_own(tmp_path):
    own = SUB + "\n    def train(self, train, epochs):\n        return tf.reduce_sum(train)\n"
    runs = project(tmp_path, sub=own)[11].runs
    assert runs.count is None and "cannot count" in runs.note
    sub = {site.span.line: site for site in analyse_file(tmp_path / "sub.py").callsites}
    assert sub[10].runs.count == 2  # Sub's own `train`, called twice by main()


def test_a_subclass_calling_the_method_itself_leaves_the_count_unknown(tmp_path):
    calls_it = SUB + "\n    def again(self):\n        self.train([0.0], 1)\n"
    assert project(tmp_path, sub=calls_it)[11].runs.count is None  # a call main.py's reading does not see


def test_a_subclass_no_script_calls_it_on_keeps_the_count_unknown(tmp_path):
    main = "import tensorflow as tf\nfrom sub import Sub\n\nmodel = Sub()\n"
    assert project(tmp_path, main=main)[11].runs.count is None


def test_the_scripts_calling_the_subclass_are_in_the_base_modules_cache_key(tmp_path):
    """As sequence_tagging lays it out: `train.py` beside the package `model/` imports `model.sub`, whose
    class inherits `train` from `model/base.py`; train.py imports no name of base.py, yet decides its runs."""
    (tmp_path / ".git").mkdir()
    package = tmp_path / "model"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "base.py").write_text(BASE)
    (package / "sub.py").write_text(SUB.replace("from base import", "from .base import"))
    (tmp_path / "train.py").write_text(MAIN.replace("from sub import", "from model.sub import"))
    index = project_index()
    index.refresh()
    base = str(package / "base.py")
    assert {site.span.line: site for site in analyse_file(base).callsites}[11].runs.count == 2
    assert str(tmp_path / "train.py") not in index.callers(base)
    assert index.readers(base) == [*index.callers(base), str(tmp_path / "train.py")]
    before = index.analysis_inputs(base)
    assert str(tmp_path / "train.py") not in index.callers(base)  # the key adds them to its own list only
    (tmp_path / "train.py").write_text(MAIN.replace("from sub import", "from model.sub import").replace("3)", "4)\n"))
    index.refresh()
    assert index.analysis_inputs(base) != before


def test_a_parameter_or_a_module_attribute_of_the_methods_name_is_no_call_of_it(tmp_path):
    """`def train(self, train, epochs)` reads its parameter `train`, and a module attribute `tf.train` is
    TensorFlow's: neither calls the method, whose calls the scripts make are then all of them."""
    runs = project(tmp_path)[11].runs
    assert "tf.compat.v1.train" in BASE and runs.count == 2
    aliased = SUB + "\n\nfit = Sub.train\n"  # named otherwise, in the subclass's module
    assert project(tmp_path, sub=aliased)[11].runs.count is None
