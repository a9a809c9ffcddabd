"""A method decorated by a project decorator whose wrapper passes an argument of its own
(`op(self, layer_input, *args, **kwargs)`, kaffe's `@layer`) is bound through the wrapper: the caller's
arguments fill the parameters after the one the wrapper fills (greenlint/analysis/decorated.py)."""

from __future__ import annotations

import ast
import textwrap

from greenlint.analysis import decorated
from greenlint.analysis.analyse import analyse_source

TRAINER = """
import numpy as np
import tensorflow as tf


def with_model(fn):
    def wrapper(self, *args, **kwargs):
        return fn(self, self.model, *args, **kwargs)
    return wrapper


def logged(fn):
    def wrapper(self, *args, **kwargs):
        print("calling", fn.__name__)
        return fn(self, *args, **kwargs)
    return wrapper


class Trainer:
    def __init__(self, model):
        self.model = model

    @with_model
    def train(self, model, x, y, epochs, batch_size=32):
        model.fit(x, y, epochs=epochs, batch_size=batch_size)

    @logged
    def tune(self, x, y, epochs, batch_size=32):
        self.model.fit(x, y, epochs=epochs, batch_size=batch_size)


net = tf.keras.Sequential([tf.keras.layers.Dense(10)])
net.compile("adam", "mse")
xs = np.zeros((1000, 8))
ys = np.zeros((1000, 10))
trainer = Trainer(net)
trainer.train(xs, ys, 7, batch_size=50)
trainer.tune(xs, ys, 3)
"""


def fits(code: str) -> dict[int, dict]:
    result = analyse_source(textwrap.dedent(code).lstrip("\n"), "train.py")
    assert result.errors == []
    return {s.span.line: s.features for s in result.callsites if s.api.endswith(".fit")}


def test_the_callers_arguments_fill_the_parameters_after_the_one_the_wrapper_passes():
    train = fits(TRAINER)[24]
    assert train["epochs"] == 7 and train["batch_size"] == 50


def test_a_decorator_passing_its_parameters_through_keeps_the_signature():
    tune = fits(TRAINER)[28]
    assert tune["epochs"] == 3 and tune["batch_size"] == 32


def parts(code: str) -> tuple[ast.FunctionDef, ast.FunctionDef]:
    decorator, method = ast.parse(textwrap.dedent(code)).body
    assert type(decorator) is ast.FunctionDef and type(method) is ast.FunctionDef
    return decorator, method


LAYER = """
def layer(op):
    def layer_decorated(self, *args, **kwargs):
        name = kwargs.setdefault('name', op.__name__)
        layer_input = self.terminals[0] if len(self.terminals) == 1 else list(self.terminals)
        layer_output = op(self, layer_input, *args, **kwargs)
        self.feed(layer_output)
        return self
    return layer_decorated

def conv(self, input, k_h, k_w, c_o, s_h, s_w, name, relu=True):
    pass
"""


def test_a_kaffe_layer_wrapper_fills_the_input():
    assert decorated.inserted(*parts(LAYER)) == ("input",)


def test_wrappers_not_read_as_inserting_an_argument():
    spread_only = LAYER.replace("op(self, layer_input, *args, **kwargs)", "op(*args, **kwargs)")
    twice = LAYER.replace("self.feed(layer_output)", "self.feed(op(self, None, *args))")
    reordered = LAYER.replace("op(self, layer_input, *args, **kwargs)", "op(layer_input, self, *args)")
    listed = LAYER.replace("op(self, layer_input, *args, **kwargs)", "op(self, layer_input, *args[1:])")
    factory = LAYER.replace("def layer(op):", "def layer(op, scale):")
    for code in (spread_only, twice, reordered, listed, factory):
        assert decorated.inserted(*parts(code)) == ()
