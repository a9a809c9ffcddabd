"""Rules index a file's tree (parent links, calls by span) only for the call sites they judge:
a file whose calls no rule looks at the syntax of is never indexed."""

from __future__ import annotations

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.check.file_result import from_analysis
from greenlint.predict.prediction import Prediction
from greenlint.rules.base import FileFacts
from greenlint.rules.codes import option_defaults
from greenlint.rules.registry import all_rules

#: Tensor ops, a model call, a session: calls that rules filter out by their API.
PLAIN = (
    "import tensorflow as tf\n"
    "def layer(x):\n"
    "    y = tf.reshape(tf.cast(x, tf.float32), [-1, 4])\n"
    "    return tf.reduce_sum(tf.nn.relu(y), axis=1)\n"
    "for i in range(10):\n"
    "    layer(tf.ones([2, 4]))\n"
)


def _run_every_rule(source: str) -> tuple[FileFacts, list]:
    """Every rule run on *source*, but those whose MENTIONS it lacks (a run does not import them)."""
    result = from_analysis(analyse_source(source, "m.py"), lambda api, features: Prediction.unknown(note="test"))
    facts = FileFacts(result.path, result.sites, result.source)
    options = option_defaults()
    ran = [rule for rule in all_rules().values() if not rule.MENTIONS or any(w in source for w in rule.MENTIONS)]
    found = [d for rule in ran for d in rule().check(facts, options)]
    return facts, found


def test_no_rule_indexes_a_file_whose_calls_it_does_not_judge():
    facts, found = _run_every_rule(PLAIN)
    assert facts.sites and not found
    assert facts._trees == {}


def test_a_rule_filters_its_sites_before_asking_for_their_calls():
    """numpy-in-step-loop judges a `.numpy()` read that repeats with every step: a file whose one
    read runs once is not indexed for it (nor by any other rule)."""
    facts, found = _run_every_rule(f"{PLAIN}print(layer(tf.ones([2, 4])).numpy())\n")
    assert any(site.api.endswith(".numpy") for site in facts.sites) and not found
    assert facts._trees == {}


def test_a_scripts_tree_is_the_analysis_own_and_unindexed():
    """`facts.module` of a script is the tree the analysis parsed, without an index (a rule that
    walks the tree alone needs no parent links); a notebook cell's comes from its index."""
    import ast

    tree = ast.parse(PLAIN)
    facts = FileFacts("m.py", (), PLAIN, parsed=tree)
    assert facts.module(None) is tree and facts._trees == {}
    assert FileFacts("empty.py", (), "", parsed=ast.parse("")).module(None) is None
    notebook = FileFacts("n.ipynb", (), ("import tensorflow as tf", "x = 1"))
    assert isinstance(notebook.module(2), ast.Module) and 2 in notebook._trees


@pytest.mark.parametrize(
    "call",
    [
        "tf.data.Dataset.range(4).interleave(f, cycle_length=2)",  # sequential-dataset-interleave
        "sess.run(train_op, feed_dict={x: batch})",  # session-feed-dict-in-loop
        "tf.constant([1.0, 2.0])",  # constant-in-loop
    ],
)
def test_a_call_a_rule_judges_is_indexed(call):
    source = f"{PLAIN}    sess = tf.compat.v1.Session()\n    {call}\n"
    facts, _ = _run_every_rule(source)
    assert None in facts._trees


def test_nodes_of_a_kind_come_from_one_walk_in_its_order(monkeypatch):
    """`facts.nodes` gives what a rule's own `ast.walk` filtered by exact type would, in that
    order, from the walk that indexed the unit: no other walk, however many rules and kinds ask."""
    import ast

    source = (
        "from itertools import count\nclass A:\n    def f(self):\n        while True:\n            pass\n"
        "async def g():\n    for i in count():\n        pass\ndef h():\n    class B:\n        pass\n"
    )
    facts = FileFacts("m.py", (), source)
    module = facts.module(None)
    walks = []
    real_walk = ast.walk
    monkeypatch.setattr(ast, "walk", lambda node: walks.append(node) or real_walk(node))
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    expected = [n for n in real_walk(module) if type(n) in kinds]
    assert [n.name for n in expected] == ["A", "g", "h", "f", "B"]  # breadth first, as ast.walk
    assert list(facts.nodes(None, *kinds)) == expected
    assert [type(n) for n in facts.nodes(None, ast.While, ast.For)] == [ast.For, ast.While]
    assert facts.nodes(None, ast.ImportFrom)[0].module == "itertools"
    assert facts.nodes(None, *kinds) is facts.nodes(None, *kinds)
    assert walks == []  # the index's own walk (made by `facts.module` above) serves them all
    leaves = (ast.expr_context, ast.operator, ast.cmpop, ast.unaryop, ast.boolop)  # shared: no one's child
    assert facts._trees[None]["walked"] == [n for n in real_walk(module) if not isinstance(n, leaves)]  # ast.walk's order
    assert FileFacts("empty.py", (), "").nodes(None, ast.Call) == ()
