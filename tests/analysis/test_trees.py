"""One parse per module text: the analysis and the project summaries share trees; the rules get the analysis' tree."""

from __future__ import annotations

import ast
import os

import pytest

from greenlint.analysis import trees
from greenlint.analysis.analyse import analyse_source
from greenlint.check.file_result import from_analysis
from greenlint.predict.prediction import Prediction
from greenlint.rules.base import FileFacts

SOURCE = "import tensorflow as tf\nmodel = tf.keras.Sequential()\nmodel.fit(x, y)\n"


@pytest.fixture
def a_run():
    """A run of many files in progress (`greenlint check`): trees are kept while it lasts."""
    with trees.shared():
        yield


def test_the_same_text_at_the_same_path_is_parsed_once(tmp_path, a_run):
    path = str(tmp_path / "m.py")
    first = trees.parse_module(SOURCE, path)
    assert trees.parse_module(SOURCE, path) is first
    changed = trees.parse_module(SOURCE + "x = 1\n", path)  # an edited buffer: parsed again
    assert changed is not first and len(changed.body) == len(first.body) + 1
    assert trees.parse_module(SOURCE, str(tmp_path / "other.py")) is not first


@pytest.mark.slow  # parses a text of MAX_TEXT twice
def test_kept_trees_are_bounded_by_their_texts_size(tmp_path, monkeypatch, a_run):
    monkeypatch.setattr(trees, "MAX_TOTAL", 3 * len(SOURCE))
    kept = [trees.parse_module(SOURCE, str(tmp_path / f"m{i}.py")) for i in range(5)]
    for i in (2, 3, 4):  # the three most recent texts fit
        assert trees.parse_module(SOURCE, str(tmp_path / f"m{i}.py")) is kept[i]
    assert trees.parse_module(SOURCE, str(tmp_path / "m1.py")) is not kept[1]  # the older went
    big = "x = 1\n" * (trees.MAX_TEXT // 6 + 1)
    assert trees.parse_module(big, str(tmp_path / "big.py")) is not trees.parse_module(big, str(tmp_path / "big.py"))


EDITED = """import tensorflow as tf


@tf.function
def step(x):
    return x * 2


a = 1; b = 2
model = tf.keras.Sequential()
model.fit(x, y)
"""


def test_outside_a_run_a_new_version_reuses_the_statements_above_its_first_change(tmp_path):
    path = str(tmp_path / "n.py")  # as in the editor: no run of many files in progress
    old = trees.parse_module(EDITED, path)
    for line, typed in [(9, "z = f(x)\n"), (10, "    y = 2\n"), (9, "else:\n"), (4, "@tf.autograph\n"), (1, "\n")]:
        lines = EDITED.splitlines(keepends=True)
        lines.insert(line, typed)  # as line `line + 1`
        new = "".join(lines)
        trees.parse_module(EDITED, path)
        try:
            whole = ast.dump(ast.parse(new), include_attributes=True)
        except SyntaxError as exc:
            with pytest.raises(SyntaxError) as raised:
                trees.parse_module(new, path)
            assert (raised.value.msg, raised.value.lineno) == (exc.msg, exc.lineno)
            continue
        tree = trees.parse_module(new, path)
        assert ast.dump(tree, include_attributes=True) == whole  # the same tree as a whole parse
        reused = [s for s, o in zip(tree.body, trees.parse_module(EDITED, path).body) if s is o]
        assert reused == tree.body[: len(reused)] and len(reused) == (2 if line >= 9 else 1 if line >= 4 else 0)
    assert trees.parse_module(EDITED, path) is not old  # a fresh module, even for the same text


def test_an_edit_on_the_last_line_of_shared_statements_reparses_both(tmp_path):
    path = str(tmp_path / "n.py")
    trees.parse_module(EDITED, path)
    new = EDITED.replace("a = 1; b = 2", "a = 1; b = 3")
    tree = trees.parse_module(new, path)
    assert ast.dump(tree, include_attributes=True) == ast.dump(ast.parse(new), include_attributes=True)


def test_the_trees_of_files_still_to_be_analysed_are_dropped_last(tmp_path, monkeypatch):
    monkeypatch.setattr(trees, "MAX_TOTAL", 2 * len(SOURCE))
    m0, m1, m2, m3 = (str(tmp_path / f"m{i}.py") for i in range(4))
    with trees.shared(analysed=[m0, m1]):
        first = trees.parse_module(SOURCE, m0, edited=False)  # as a project summary parses it
        trees.parse_module(SOURCE, m2, edited=False)
        second = trees.parse_module(SOURCE, m1, edited=False)
        assert trees.parse_module(SOURCE, m0, edited=False) is first  # m2, not the older m0, made room
        trees.analysing(m0)  # analysed now: its tree no longer dropped last
        trees.parse_module(SOURCE, m3, edited=False)
        assert trees.parse_module(SOURCE, m1, edited=False) is second  # m0 went, though m1 is older
        assert trees.parse_module(SOURCE, m0, edited=False) is not first


def test_a_nested_run_ending_leaves_the_outer_runs_trees(tmp_path):
    path = str(tmp_path / "m.py")
    with trees.shared():
        outer = trees.parse_module(SOURCE, path)
        with trees.shared():
            assert trees.parse_module(SOURCE, path) is outer
        assert trees.parse_module(SOURCE, path) is outer
    assert trees.parse_module(SOURCE, path) is not outer  # the last run ended: dropped


def test_a_module_the_rules_read_shares_the_runs_tree_and_outside_a_run_keeps_no_edited_tree(tmp_path):
    from greenlint.rules.callbacks import read_tree

    module = tmp_path / "base.py"
    module.write_text(SOURCE, encoding="utf-8")
    with trees.shared():
        summarised = trees.parse_module(SOURCE, str(module))  # as the project summary parsed it
        assert read_tree(str(module)) == (SOURCE, summarised)
    edited = str(tmp_path / "n.py")
    first = trees.parse_module(EDITED, edited)  # the editor's buffer
    for i in range(trees.EDITED):
        other = tmp_path / f"m{i}.py"
        other.write_text(SOURCE, encoding="utf-8")
        read = read_tree(str(other))
        assert read is not None and ast.dump(read[1]) == ast.dump(ast.parse(SOURCE))
    new = EDITED.replace("model.fit(x, y)", "model.fit(x, z)")
    assert trees.parse_module(new, edited).body[0] is first.body[0]  # the buffer's last tree is still reused


def test_the_rules_read_the_analysis_tree_instead_of_parsing_again(tmp_path, monkeypatch):
    path = str(tmp_path / "train.py")
    analysis = analyse_source(SOURCE, path)
    result = from_analysis(analysis, lambda api, features: Prediction.unknown(note="test"))
    assert isinstance(result.tree, ast.Module) and result.shippable().tree is None
    monkeypatch.setattr(ast, "parse", lambda *a, **k: (_ for _ in ()).throw(AssertionError("parsed again")))
    facts = FileFacts(result.path, result.sites, result.source, parsed=result.tree)
    fit = next(s for s in result.sites if s.callsite.api.endswith(".fit"))
    assert facts.module() is result.tree
    assert facts.node(fit) is next(n for n in ast.walk(result.tree) if isinstance(n, ast.Call) and n.lineno == 3)


FACTORY = "from tensorflow import keras\n\n\ndef build():\n    return keras.Sequential()\n"
CALLER = "from factory import build\n\nbuild().fit([1], [1])\n"


def test_a_run_analyses_a_file_once_until_a_module_it_imports_changes(tmp_path, monkeypatch, a_run):
    from greenlint.analysis.analyse import analyse_file
    from greenlint.analysis.project import project_index
    from greenlint.analysis.resolver import Resolver

    (tmp_path / "factory.py").write_text(FACTORY, encoding="utf-8")
    caller = tmp_path / "caller.py"
    caller.write_text(CALLER, encoding="utf-8")
    project_index().refresh()
    first = analyse_file(caller)
    assert [(c.api, c.path) for c in first.callsites] == [("tensorflow.keras.Sequential.fit", str(caller))]
    resolved: list[bool] = []
    run = Resolver.run
    monkeypatch.setattr(Resolver, "run", lambda self, *a, **k: resolved.append(self.exporting) or run(self, *a, **k))
    named = os.path.relpath(caller)  # the same file named another way (GL408 reads imported modules by absolute path)
    again = analyse_file(named)
    assert not resolved and again.tree is first.tree
    assert [(c.api, c.span, c.path) for c in again.callsites] == [(c.api, c.span, named) for c in first.callsites]
    (tmp_path / "factory.py").write_text(FACTORY.replace("keras.Sequential()", "keras.Model(inputs=[], outputs=[])"))
    project_index().refresh()
    edited = analyse_file(caller)
    assert False in resolved and [c.api for c in edited.callsites] == ["tensorflow.keras.Model.fit"]


def test_a_module_read_beside_another_is_kept_for_the_runs_own_turn_at_it(tmp_path, monkeypatch, a_run):
    from greenlint.analysis import analyse
    from greenlint.analysis.analyse import analyse_file
    from greenlint.analysis.resolver import Resolver

    monkeypatch.setattr(analyse, "KEPT_IN_RUN", 2)
    monkeypatch.setattr(analyse, "_analyses", {False: analyse.OrderedDict(), True: analyse.OrderedDict()})
    paths = []
    for name in ("read_beside", "first", "second", "third"):
        paths.append(tmp_path / f"{name}.py")
        paths[-1].write_text(SOURCE + f"# {name}\n", encoding="utf-8")
    resolved: list[bool] = []
    run = Resolver.run
    monkeypatch.setattr(Resolver, "run", lambda self, *a, **k: resolved.append(self.exporting) or run(self, *a, **k))
    beside = analyse_file(paths[0], beside=True)  # GL408 reads it before the run reaches it
    first = analyse_file(paths[1])
    for path in paths[2:]:  # the run's own analyses: only the last KEPT_IN_RUN are kept
        analyse_file(path)
    assert len(resolved) == 4
    again = analyse_file(paths[0])
    assert len(resolved) == 4 and [c.api for c in again.callsites] == [c.api for c in beside.callsites]
    assert again.callsites[0].path == str(paths[0])
    analyse_file(paths[1])  # three analyses later, past the bound: analysed anew
    assert len(resolved) == 5 and first.callsites == analyse_file(paths[1]).callsites


def test_a_notebook_keeps_no_shared_tree():
    cells = ["import tensorflow as tf", "model = tf.keras.Sequential()\nmodel.fit(x, y)"]
    analysis = analyse_source("\n".join(cells), "nb.ipynb", cell_offsets=[0, 1])
    assert analysis.cells is not None and analysis.tree is None


#: Every kind of node the grammar has, more or less, to walk.
SYNTAX = '''
import os, tensorflow as tf
from . import sibling as s
global_name: int = -1 + 2 * 3 ** 4 // 5 % 6 @ m << 1 >> 1 & 1 | 1 ^ 1

@tf.function(jit_compile=True)
async def step(x, /, y=1, *args, z: float = 2.0, **kwargs) -> "tf.Tensor":
    """Docstring."""
    global global_name
    async with tf.device("/GPU:0") as d, open(os.sep) as f:
        async for i in aiter(x):
            await step(i)
    def inner():
        nonlocal y
        y += 1
        return (yield from range(3))
    squares = [a * b for a in x if a > 0 and not b for b in y]
    pairs = {k: v for k, v in kwargs.items()}
    total = sum(i for i in {1, 2} if i in {1} or i not in {3})
    lazy = lambda q, *r: (q is None, q is not r, -q, ~q, +q)
    *first, last = x[1:2, ::3]
    del first[0]
    assert total >= 0 and total <= 9 and total != 1 and total == total < 3 > 2, f"{total!r:>{width}}"
    if (n := len(x)) > 1:
        pass
    elif n:
        raise ValueError("n") from None
    else:
        print(*args, **kwargs)
    while False:
        break
    else:
        continue_ = True
    try:
        pass
    except* TypeError as error:
        print(error)
    finally:
        y = x if x else y
    match x:
        case [1, *rest] | {"k": _, **others} if rest:
            pass
        case Point(x=0, y=yy) as point:
            pass
        case None | True | "s" | 1.5 | -1:
            pass
    return squares, pairs, lazy, last, tf.constant([[1.0]])[0]


class Model(tf.keras.Model, metaclass=type):
    units: int
    def call(self, inputs, training=None):
        return super().call(inputs)
'''
LEAVES = (ast.expr_context, ast.operator, ast.cmpop, ast.unaryop, ast.boolop)


def test_walk_is_ast_walk_without_the_shared_leaves():
    tree = ast.parse(SYNTAX)
    everything = list(ast.walk(tree))
    walked = trees.walk(tree)
    assert walked == [n for n in everything if not isinstance(n, LEAVES)]  # the same nodes, in the same order
    assert len(walked) < len(everything)
    assert trees.child_fields(ast.Name) == () and trees.child_fields(ast.Compare) == ("left", "comparators")
    assert trees.child_fields(ast.Import) == ("names",) and trees.child_fields(ast.Global) == ()


def test_children_are_ast_iter_child_nodes_without_the_shared_leaves():
    for node in ast.walk(ast.parse(SYNTAX)):
        assert trees.children(node) == [n for n in ast.iter_child_nodes(node) if not isinstance(n, LEAVES)]


def test_the_rules_index_links_every_node_but_the_shared_leaves_to_its_parent():
    facts = FileFacts("step.py", (), SYNTAX)
    module = facts.module()
    assert module is not None
    for parent in ast.walk(module):
        for child in ast.iter_child_nodes(parent):
            assert facts.parent(child) is (None if isinstance(child, LEAVES) else parent)
    assert facts.nodes(None, ast.Name, ast.Call) == tuple(n for n in ast.walk(module) if type(n) in (ast.Name, ast.Call))
    assert list(facts.calls()) == [n for n in ast.walk(module) if isinstance(n, ast.Call)]


def test_summarising_the_modules_an_edited_buffer_imports_keeps_its_last_tree(tmp_path):
    for i in range(trees.EDITED):
        (tmp_path / f"m{i}.py").write_text(SOURCE, encoding="utf-8")
    head = "".join(f"import m{i}\nm{i}.model.fit(x, y)\n" for i in range(trees.EDITED))
    buffer = head + EDITED
    edited = tmp_path / "n.py"
    edited.write_text(buffer, encoding="utf-8")
    first = analyse_source(buffer, str(edited)).tree  # outside a run: the project summaries parse m0…m3
    new = head + EDITED.replace("model.fit(x, y)", "model.fit(x, z)")
    assert first is not None and trees.parse_module(new, str(edited)).body[0] is first.body[0]


def test_shift_lines_moves_every_position_as_increment_lineno_does():
    text = "import os  # type: ignore\ndef f(a, *, b: int = 1) -> None:\n    with open(a) as h:\n        return [x for x in h]\n"
    shifted, expected = ast.parse(text, type_comments=True), ast.parse(text, type_comments=True)
    trees.shift_lines(shifted, 7)
    ast.increment_lineno(expected, 7)
    assert ast.dump(shifted, include_attributes=True) == ast.dump(expected, include_attributes=True)
