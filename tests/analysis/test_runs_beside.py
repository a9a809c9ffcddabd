"""A function or method another module of the project calls (`trainer.train()` in main.py, `class
Trainer` in trainer.py) runs as often as those calls do per run of the program (script_runs.py,
`Resolver.passed_beside`): its sites get a count, where no loop holds a call; a parameter every such
call gives one literal is that literal, and a branch it keeps from running carries no finding
(`unreached`). A function no module calls keeps today's unknown count."""

from __future__ import annotations

import ast

from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.script_runs import ScriptRuns

TRAINER = """\
import tensorflow as tf


class Trainer(object):
    def __init__(self, steps):
        self.steps = steps
        self.saver = tf.compat.v1.train.Saver()

    def train(self):
        self.saver.save(None, "ckpt")


MODEL = tf.keras.models.load_model("m.keras")


def evaluate(x, workers):
    if workers > 1:
        return [MODEL.predict(row) for row in x]
    return MODEL.predict(x)


def unused(x):
    return MODEL.predict(x)
"""


def sites(tmp_path, main: str) -> dict:
    """trainer.py's call sites by line, with main.py beside it as *main*."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "trainer.py").write_text(TRAINER)
    (tmp_path / "main.py").write_text(main)
    return {site.span.line: site for site in analyse_file(tmp_path / "trainer.py").callsites}


def test_a_method_called_from_a_script_runs_as_often_as_its_calls_there(tmp_path):
    main = (
        "import tensorflow as tf\nfrom trainer import Trainer\n\n"
        "def main():\n    trainer = Trainer(10)\n    trainer.train()\n    trainer.train()\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    found = sites(tmp_path, main)
    assert found[10].runs.count == 2  # `save` in train(), called twice by main()
    assert "train() runs 2× (2 calls in main.py)" in found[10].runs.note
    init = found[7].runs  # `Saver()` in __init__, one construction
    assert (init.count, init.bound, init.loop) == (1, "exact", 1)


def test_a_call_under_a_condition_runs_at_most_so(tmp_path):
    main = "import tensorflow as tf\nfrom trainer import Trainer\nimport sys\n\nt = Trainer(1)\nif sys.argv:\n    t.train()\n"
    runs = sites(tmp_path, main)[10].runs
    assert (runs.count, runs.bound) == (1, "upper")


def test_a_call_in_a_loop_or_a_function_named_otherwise_leaves_the_count_unknown(tmp_path):
    looped = "import tensorflow as tf\nfrom trainer import Trainer\n\nt = Trainer(1)\nfor _ in range(3):\n    t.train()\n"
    assert sites(tmp_path, looped)[10].runs.count is None
    handed = "import tensorflow as tf\nfrom trainer import Trainer\n\ndef run():\n    Trainer(1).train()\n\ncallbacks = [run]\n"
    assert sites(tmp_path, handed)[7].runs.count is None


def test_a_function_no_module_calls_keeps_its_unknown_count(tmp_path):
    main = "import tensorflow as tf\nfrom trainer import evaluate\n\nevaluate(None, 1)\n"
    site = sites(tmp_path, main)[23]  # `unused`: nobody calls it
    assert site.runs.count is None and "cannot count" in site.runs.note


def test_a_branch_every_caller_keeps_from_running_is_unreached(tmp_path):
    main = "import tensorflow as tf\nfrom trainer import evaluate\n\nTHREADS = 1\nevaluate(None, THREADS)\nevaluate(None, 1)\n"
    found = sites(tmp_path, main)
    assert found[18].features.get("unreached") is True  # `if workers > 1:` never taken
    assert "unreached" not in found[19].features
    assert found[19].runs.count == 2


def test_callers_giving_different_values_leave_the_branch_reached(tmp_path):
    main = "import tensorflow as tf\nfrom trainer import evaluate\n\nevaluate(None, 1)\nevaluate(None, 4)\n"
    assert "unreached" not in sites(tmp_path, main)[18].features


def script_counts(text: str) -> dict[str, tuple]:
    """The runs of each call of a name ending in `train` in *text*, by the name called."""
    tree = ast.parse(text)
    loads: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            loads[node.id] = loads.get(node.id, 0) + 1
    runs = ScriptRuns(tree, loads)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func).endswith("train")]
    return {ast.unparse(c.func): runs.total([c]) for c in calls}


def test_script_runs_follow_entry_runners_and_top_level_functions():
    assert script_counts("from absl import app\ndef main(_):\n    t.train()\napp.run(main)\n") == {"t.train": (1, False)}
    assert script_counts("import tensorflow as tf\ndef main(_):\n    t.train()\ntf.app.run()\n") == {"t.train": (1, False)}
    twice = "def go():\n    t.train()\ngo()\nif flag:\n    go()\n"
    assert script_counts(twice) == {"t.train": (2, True)}


def test_script_runs_are_unknown_in_loops_comprehensions_and_recursion():
    assert script_counts("while True:\n    t.train()\n") == {"t.train": (None, False)}
    assert script_counts("[t.train() for _ in range(2)]\n") == {"t.train": (None, False)}
    assert script_counts("def go():\n    t.train()\n    go()\ngo()\n") == {"t.train": (None, False)}
    assert script_counts("def go():\n    t.train()\n") == {"t.train": (None, False)}  # never called: not the program's


def test_an_instance_a_function_binds_is_read_there_though_another_names_a_parameter_so(tmp_path):
    main = (
        "import tensorflow as tf\nfrom trainer import Trainer\n\n"
        "def report(trainer):\n    print(trainer.steps)\n\n"
        "def main():\n    trainer = Trainer(10)\n    trainer.train()\n    report(trainer)\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    assert sites(tmp_path, main)[10].runs.count == 1


def test_a_method_read_where_the_script_cannot_tell_on_what_leaves_the_count_unknown(tmp_path):
    main = (
        "import tensorflow as tf\nfrom trainer import Trainer\n\n"
        "def again(trainer):\n    trainer.train()\n\n"
        "def main():\n    trainer = Trainer(10)\n    trainer.train()\n    again(trainer)\n\n"
        "main()\n"
    )
    assert sites(tmp_path, main)[10].runs.count is None  # `again` calls it on its parameter: not counted


def test_a_module_of_a_package_is_called_by_the_scripts_above_it(tmp_path):
    """`train.py` beside the package `model/` calls `model/trainer.py`'s class: a caller (ProjectIndex.callers),
    though it names no TensorFlow itself; so is a script run as the program in a folder beside the package
    (`tools/train.py` with a main guard), but not a module there that no such script marks as a program's."""
    (tmp_path / ".git").mkdir()
    package = tmp_path / "model"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "trainer.py").write_text(TRAINER)
    (tmp_path / "train.py").write_text("from model.trainer import Trainer\n\nt = Trainer(1)\nt.train()\n")
    found = {s.span.line: s for s in analyse_file(package / "trainer.py").callsites}
    assert found[10].runs.count == 1 and "1 call in train.py" in found[10].runs.note
    (tmp_path / "train.py").unlink()
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "train.py").write_text("from model.trainer import Trainer\n\nt = Trainer(1)\nt.train()\n")
    from greenlint.analysis.project import project_index

    project_index().refresh()
    assert {s.span.line: s for s in analyse_file(package / "trainer.py").callsites}[10].runs.count is None
    main = "from model.trainer import Trainer\n\nif __name__ == '__main__':\n    t = Trainer(1)\n    t.train()\n"
    (tmp_path / "tools" / "train.py").write_text(main)
    project_index().refresh()
    runs = {s.span.line: s for s in analyse_file(package / "trainer.py").callsites}[10].runs
    assert runs.count == 1 and "1 call in train.py" in runs.note


def test_a_public_function_of_a_package_keeps_the_branch_its_own_calls_never_take(tmp_path):
    """A library's API: callers outside the project may pass what its own calls do not (tensorflow-addons'
    `dynamic_decode(..., enable_tflite_convertible=False)`); a private helper there, or a script's function, has
    no such callers."""
    (tmp_path / ".git").mkdir()
    package = tmp_path / "lib"
    package.mkdir()
    (package / "__init__.py").write_text("")
    body = TRAINER + "\n\ndef run():\n    return {name}([1], 1)\n"
    (package / "evaluate.py").write_text(body.replace("def evaluate(", "def {name}(").format(name="evaluate"))
    assert "unreached" not in {s.span.line: s for s in analyse_file(package / "evaluate.py").callsites}[18].features
    (package / "evaluate.py").write_text(body.replace("def evaluate(", "def {name}(").format(name="_evaluate"))
    assert {s.span.line: s for s in analyse_file(package / "evaluate.py").callsites}[18].features.get("unreached")


def test_a_script_calling_it_in_a_form_not_read_leaves_the_count_unknown(tmp_path):
    main = "import tensorflow as tf\nfrom trainer import evaluate\n\nevaluate(None, 1)\n"
    assert sites(tmp_path, main)[19].runs.count == 1
    other = "import tensorflow as tf\nfrom trainer import *\nfrom numpy import *\n\nevaluate(None, 1)\nevaluate(None, 1)\n"
    (tmp_path / "other.py").write_text(other)
    from greenlint.analysis.project import project_index

    project_index().refresh()
    assert sites(tmp_path, main)[19].runs.count is None  # numpy's `*` may give `evaluate` too: not told
