"""`syntax.definitions` looks functions up by name in an index of the file built once: the same
functions, in the same order, as walking the file for each name asked. The file is walked once,
by the index of its tree (`base._index`), never again by `ast.walk`."""

from __future__ import annotations

import ast

from greenlint.rules import base, syntax
from greenlint.rules.base import FileFacts

SOURCE = (
    "def parse(x):\n"
    "    return x\n"
    "class Loader:\n"
    "    def parse(self, x):\n"
    "        return self.decode(x)\n"
    "    async def decode(self, x):\n"
    "        def parse(y):\n"
    "            return y\n"
    "        return parse(x)\n"
    "def other():\n"
    "    pass\n"
)


def _walked(tree: ast.Module, name: str) -> list:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name]


def _count_walks(monkeypatch) -> list:
    """Every walk of a tree from now on: `ast.walk`'s and the tree index's (`base._index`)."""
    walks: list = []
    walk, index = ast.walk, base._index
    monkeypatch.setattr(syntax.ast, "walk", lambda node: walks.append(node) or walk(node))
    monkeypatch.setattr(base, "_index", lambda *args: walks.append(args) or index(*args))
    return walks


def test_each_name_gets_its_own_functions_in_walk_order(monkeypatch):
    tree = ast.parse(SOURCE)
    expected = {name: _walked(tree, name) for name in ("parse", "decode", "other", "missing")}
    assert [len(found) for found in expected.values()] == [3, 1, 1, 0]
    walks = _count_walks(monkeypatch)
    facts = FileFacts("m.py", (), SOURCE, parsed=tree)
    for _ in range(2):
        assert syntax.definitions(facts, ast.Name("parse"), None) == expected["parse"]
        assert syntax.definitions(facts, ast.parse("self.decode", mode="eval").body, None) == expected["decode"]
        assert syntax.definitions(facts, ast.Name("other"), None) == expected["other"]
        assert syntax.definitions(facts, ast.Name("missing"), None) == []
    assert len(walks) == 1  # the file walked once, whatever the names asked


def test_callers_may_change_what_they_are_given():
    facts = FileFacts("m.py", (), SOURCE)
    first = syntax.definitions(facts, ast.Name("parse"), None)
    first.pop()  # rules use it as their to-do list
    assert len(syntax.definitions(facts, ast.Name("parse"), None)) == 3


def test_a_file_without_functions_is_walked_once(monkeypatch):
    walks = _count_walks(monkeypatch)
    facts = FileFacts("m.py", (), "import tensorflow as tf\nx = tf.ones([2])\n")
    assert syntax.definitions(facts, ast.Name("f"), None) == []
    assert syntax.definitions(facts, ast.Name("g"), None) == []
    assert len(walks) == 1
