"""A global a function reads, rebound by the module (analysis/rebinding.py): each call of the function sees
the binding in force where the call is made (a notebook's cells run top to bottom), not the module's last."""

from __future__ import annotations

import ast
import json
import textwrap

from greenlint.analysis.analyse import analyse_source
from greenlint.analysis.rebinding import free_names, functions, reads, rebound

HEAD = """
import numpy as np
import tensorflow as tf
x = np.zeros((2, 224, 224, 3))
model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(4)])
"""
BIG = "tf.keras.applications.ResNet50()"


def _receivers(text: str, path: str = "prog.py") -> dict[tuple[int | None, int], tuple[str, object]]:
    """(cell, line) -> (the model's class, its table name) of each fit/predict site."""
    return {(s.span.cell, s.span.line): (s.api.rpartition(".")[0], getattr(s.work.get("model"), "value", None))
            for s in analyse_source(text, path).callsites if s.api.rpartition(".")[2] in ("fit", "predict")}


def _notebook(*cells: str) -> str:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                       "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": textwrap.dedent(c)}
                                 for c in cells]})


def test_a_notebook_function_called_before_the_model_is_rebound_sees_the_model_of_its_calls():
    text = _notebook(HEAD, "def decode(batch):\n    for i in range(10):\n        y = model.predict(batch)\n    return y\n",
                     "decode(x)\ndecode(x[:1])\n", f"model = {BIG}\nmodel.predict(x)\n")
    found = _receivers(text, "book.ipynb")
    assert found[(2, 3)] == ("tensorflow.keras.Sequential", None)  # was ResNet50: the last cell's model
    assert found[(4, 2)] == ("tensorflow.keras.Model", "ResNet50")


def test_calls_on_both_sides_of_a_rebinding_see_either_model():
    source = HEAD + f"def evaluate():\n    return model.predict(x)\n\nevaluate()\nmodel = {BIG}\nevaluate()\n"
    # the common base of the two, as for a parameter given both (the first call's model alone before)
    assert _receivers(source)[(None, 7)] == ("tensorflow.keras.Model", None)


def test_a_helper_reached_through_another_function_sees_the_binding_of_the_outer_call():
    source = HEAD + ("def helper(batch):\n    return model.predict(batch)\n\n"
                     "def run(batch):\n    for i in range(3):\n        helper(batch)\n\n"
                     f"run(x)\nrun(x)\nmodel = {BIG}\nmodel.fit(x, x)\n")
    found = _receivers(source)
    assert found[(None, 7)] == ("tensorflow.keras.Sequential", None)
    assert found[(None, 16)] == ("tensorflow.keras.Model", "ResNet50")


def test_a_function_redefined_later_is_the_one_defined_where_the_call_is_made():
    source = HEAD + ("def build(n):\n    return model\n\ndef go(batch):\n    build(1).fit(batch, batch)\n\n"
                     f"go(x)\ngo(x)\n\ndef build(n):\n    return {BIG}\n")
    assert _receivers(source)[(None, 10)] == ("tensorflow.keras.Sequential", None)


def test_a_function_called_only_after_the_rebinding_sees_the_last_model():
    source = HEAD + f"def evaluate(batch):\n    return model.predict(batch)\n\nmodel = {BIG}\nevaluate(x)\nevaluate(x)\n"
    assert _receivers(source)[(None, 7)] == ("tensorflow.keras.Model", "ResNet50")


def test_rebound_names_and_free_names_are_read_from_the_syntax():
    module = textwrap.dedent("""
        import numpy as np
        model = 1
        if flag:
            model = 2
        for layer in layers:
            pass
        def f(): pass
        def f(): pass
        once = 3
        with open(p) as handle:
            pass
    """)
    tree = ast.parse(module)
    assert rebound(tree.body) == {"model", "layer", "f"}
    func = ast.parse("def g(a, *rest):\n    b = a + model\n    import os\n"
                     "    def inner(c):\n        return c + later\n    return [b for b in rest] + tf.x\n").body[0]
    assert free_names(func) == {"model", "later", "tf"}


def test_a_call_reads_the_rebound_names_of_every_function_it_names_each_definition_once():
    tree = ast.parse(textwrap.dedent("""
        def top(x):
            return left(x) + right(x)
        def left(x):
            return shared(x)
        def right(x):
            return shared(x) + scale
        def shared(x):
            return model(x)
        def shared(x):
            return other(x)
    """))
    defined = functions(tree.body)
    assert [f.name for f in defined["shared"]] == ["shared", "shared"]
    found = reads(defined["top"][0], frozenset({"model", "other", "scale", "unused"}), defined, {}, {})
    assert found == {"model", "other", "scale"}
