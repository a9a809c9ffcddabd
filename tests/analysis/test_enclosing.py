"""A call site's scope and argument shape come from the analysis' own tree (`greenlint diff`
matches call sites by them): the same as a walk of every node finds, decorators, nested
definitions, compound statements and non-ASCII columns included."""

import ast
import json

from greenlint.analysis.analyse import analyse_source
from greenlint.analysis.enclosing import Enclosing, shape

TRICKY = '''
import tensorflow as tf
tf.constant(1)

@tf.function(jit_compile=True)
def step(x, y=tf.zeros(2)):
    return tf.reduce_sum(x)

class Net(tf.keras.Model, metaclass=type(tf.ones(1))):
    width = tf.constant(3)

    class Inner:
        async def run(self, *args):
            try:
                pass
            except ValueError:
                def helper(): return tf.ones(*args)
            f = lambda: tf.zeros(1)
            return [tf.ones(i) for i in range(2)]

    def call(self, x, **kw):
        if x:
            match x:
                case 1:
                    def deep(): return tf.matmul(x, x, **kw)
        with tf.GradientTape() as tape:
            return tf.square(x)
def after(): "é"; return tf.ones(1, dtype=tf.float32)
tf.ones(2)
'''


def _walked(tree: ast.Module) -> dict[ast.Call, str]:
    """The oracle: every call with the qualified name of the definitions above it in the tree."""
    out, stack = {}, [(tree, "")]
    while stack:
        node, scope = stack.pop()
        if isinstance(node, ast.Call):
            out[node] = scope
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scope = f"{scope}.{node.name}" if scope else node.name
        stack.extend((child, scope) for child in ast.iter_child_nodes(node))
    return out


def test_each_call_gets_the_scope_a_walk_of_the_whole_tree_gives():
    tree = ast.parse(TRICKY)
    enclosing = Enclosing(tree)
    walked = _walked(tree)
    assert {enclosing.scope(call) for call in walked} >= {"", "step", "Net", "Net.Inner.run", "Net.Inner.run.helper",
                                                          "Net.call", "Net.call.deep", "after"}
    assert {call: enclosing.scope(call) for call in walked} == walked


def test_shape_counts_positional_arguments_and_names_keywords():
    calls = [node for node in ast.walk(ast.parse("f(a, b, epochs=1, batch_size=2)\ng(*xs, **kw)\nh()\n"))
             if isinstance(node, ast.Call)]
    assert sorted(shape(c) for c in calls) == ["*:**", "0:", "2:batch_size,epochs"]


def test_call_sites_carry_them_in_files_and_notebook_cells():
    sites = analyse_source(TRICKY, "t.py").callsites
    by_line = {(s.span.line, s.api.rpartition(".")[2]): (s.scope, s.shape) for s in sites}
    assert by_line[(3, "constant")] == ("", "1:")
    assert by_line[(5, "function")] == ("step", "0:jit_compile")  # a decorator is inside its definition
    assert by_line[(6, "zeros")] == ("step", "1:")
    assert by_line[(27, "square")] == ("Net.call", "1:")
    assert by_line[(28, "ones")] == ("after", "1:dtype")  # after a non-ASCII string: the span counts characters
    assert [s.span.column for s in sites if s.span.line == 28] == [26]
    assert by_line[(29, "ones")] == ("", "1:")
    cells = ["import tensorflow as tf\ndef f():\n    return tf.ones(1)\n", "class A:\n    x = tf.zeros(2, name='z')\n"]
    notebook = {"cells": [{"cell_type": "code", "metadata": {}, "source": c} for c in cells], "metadata": {},
                "nbformat": 4, "nbformat_minor": 5}
    sites = analyse_source(json.dumps(notebook), "n.ipynb").callsites
    assert [(s.span.cell, s.span.line, s.scope, s.shape) for s in sites] == [(1, 3, "f", "1:"), (2, 2, "A", "1:name")]
