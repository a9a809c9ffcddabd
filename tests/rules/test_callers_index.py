"""The callers of a function, by the name they call (`FileFacts.calls_named`): one index of the
unit's calls, built from the walk that indexed its tree, that `syntax.calls_of` and
`deliberate`'s helpers read; the same calls as a walk of the tree, which is walked once."""

from __future__ import annotations

import ast

from greenlint.rules import base, deliberate, syntax
from greenlint.rules.base import FileFacts

SOURCE = (
    "def save(x):\n"
    "    return x\n"
    "class Saver:\n"
    "    def save(self, x):\n"
    "        return self.save(x) or other.save(x)\n"
    "    def run(self):\n"
    "        if debug:\n"
    "            self.save(1)\n"
    "        return save(2)\n"
    "save(3)\n"
    "save(save(4))\n"
)


def _walked(tree: ast.Module, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and syntax.last_name(n.func) == name]


def test_the_calls_of_each_name_are_those_a_walk_finds_and_the_unit_is_walked_once(monkeypatch):
    tree = ast.parse(SOURCE)
    expected = {name: _walked(tree, name) for name in ("save", "run", "missing")}
    assert [len(found) for found in expected.values()] == [7, 0, 0]
    walks: list = []
    index = base._index
    monkeypatch.setattr(base, "_index", lambda *args: walks.append(args) or index(*args))
    facts = FileFacts("m.py", (), SOURCE, parsed=tree)
    for _ in range(2):
        for name, calls in expected.items():
            assert sorted(map(id, facts.calls_named(None, name))) == sorted(map(id, calls))
    assert len(walks) == 1


def test_calls_of_keeps_the_calls_that_reach_the_function():
    tree = ast.parse(SOURCE)
    facts = FileFacts("m.py", (), SOURCE, parsed=tree)
    function, method = (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "save")
    assert sorted(call.lineno for _, call in syntax.calls_of(facts, function, None)) == [9, 10, 11, 11]
    assert sorted(call.lineno for _, call in syntax.calls_of(facts, method, None)) == [5, 8]


def test_deliberate_reads_the_callers_of_the_function_a_call_is_in():
    source = (
        "import tensorflow as tf\n"
        "def debug_mode():\n"
        "    tf.config.run_functions_eagerly(True)\n"
        "if args.debug:\n"
        "    debug_mode()\n"
    )
    facts = FileFacts("m.py", (), source)
    call = next(c for c in facts.calls() if syntax.last_name(c.func) == "run_functions_eagerly")
    assert [c.lineno for c in deliberate._callers(facts, call, None)] == [5]
    assert deliberate._callers(facts, next(c for c in facts.calls() if c.lineno == 5), None) == ()
