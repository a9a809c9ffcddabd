"""A function's parameters are bound from its calls when code names it nowhere else: docstrings and
comments naming it do not count, a value passed on, an export or a string naming it does
(greenlint/analysis/references.py, `Resolver.all_calls_seen`)."""

from __future__ import annotations

import ast
import textwrap

import pytest

from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.references import CodeReferences, definitions, in_binding_functions, super_mentions, word_lines


def sites(tmp_path, code: str) -> dict[tuple[int, str], object]:
    path = tmp_path / "train.py"
    path.write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")
    result = analyse_file(path)
    assert result.errors == []
    return {(s.span.line, s.api): s for s in result.callsites}


# deepq.py's shape: a wrapper class named in docstrings, made in `learn` (which comes late in the
# walk's queue: it needs more arguments) and again in a static method, called once per step
WRAPPER = '''
import numpy as np
import tensorflow as tf


class ActWrapper(object):
    def __init__(self, act, act_params):
        self._act = act
        self._act_params = act_params

    @staticmethod
    def load_act(path):
        act = tf.keras.models.load_model(path)
        return ActWrapper(act, {"path": path})

    def __call__(self, *args, **kwargs):
        return self._act.predict(*args, **kwargs)


def load_act(path):
    """Load an act function.

    Returns
    -------
    act: ActWrapper
        a callable
    """
    return ActWrapper.load_act(path)


def learn(env, network, total_timesteps=100):
    """Train.

    Returns
    -------
    act: ActWrapper
        Wrapper over the act function.
    """
    act = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(8,))])
    act = ActWrapper(act, {})
    for t in range(total_timesteps):
        action = act(np.zeros((1, 8)))[0]
    return act
'''


def test_a_wrapper_class_named_in_docstrings_binds_its_constructor_and_its_instance_calls_are_sites(tmp_path):
    found = sites(tmp_path, WRAPPER)
    inside = found[(16, "tensorflow.keras.Model.predict")]  # a Sequential from learn, a loaded Model from load_act
    assert inside.features["receiver"] == "join"  # typed: their common base, not matched by name
    step = found[(41, "tensorflow.keras.Model.predict")]  # `act(obs)`: a call site of what __call__ runs
    assert step.features["receiver"] == "wrapper"


HELPER = '''
import numpy as np
import tensorflow as tf


def helper(model):
    """helper(model) predicts once; see helper in the docs."""
    return model.predict(np.zeros((1, 4)))  # helper's one call


def learn(env, network):
    model = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(4,))])
    for _ in range(100):
        helper(model)
'''


def test_a_function_whose_every_call_is_seen_binds_its_parameters_whatever_prose_names_it(tmp_path):
    # learn needs more arguments than helper, so helper comes first in the queue: it waits for learn
    site = sites(tmp_path, HELPER)[(7, "tensorflow.keras.Sequential.predict")]
    assert site.work["params"].value == 50
    assert "receiver_kind" not in site.features


@pytest.mark.parametrize(
    "escape",
    [
        "CALLBACKS = [helper]",  # passed on as a value
        "__all__ = ['helper', 'learn']",  # exported
        "step = getattr(__import__('train'), 'helper')",  # reached through a string
    ],
)
def test_a_function_that_escapes_keeps_its_parameters_unknown(tmp_path, escape):
    found = sites(tmp_path, HELPER + "\n\n" + escape + "\n")
    assert (7, "tensorflow.keras.Sequential.predict") not in found
    assert found[(7, "tensorflow.keras.Model.predict")].features["receiver_kind"] == "untyped"


def test_code_references_count_code_and_names_in_strings_not_prose():
    tree = ast.parse(textwrap.dedent(WRAPPER))
    named = CodeReferences(tree).of("ActWrapper")
    assert named.total == 4  # the class, two instantiations, `ActWrapper.load_act`: no docstring
    assert dict(named.attributes) == {"load_act": 1}
    assert CodeReferences(ast.parse("'''helper does it'''\n__all__ = ['pkg.mod:helper']\n")).of("helper").total == 1
    assert CodeReferences(tree).in_prose("ActWrapper") == 2  # the docstrings' mentions, found without the walk
    scoped = "with tf.variable_scope('generator'):\n    h = Dense(8, name='generator')(generator(z))\n"
    assert CodeReferences(ast.parse(scoped)).of("generator").total == 1  # a scope's and a layer's name: none
    assert word_lines("a = 1\nact(b)  # act\nx.act\n", "act") == [2, 2, 3]
    assert word_lines("a = 1\nact (b)  # act\nx.act\nisinstance(w, act)\n", "act", called=True) == [2]


def test_a_class_named_to_reach_its_base_is_no_reference_that_makes_one():
    code = "class Block(Base):\n    def __init__(self, n):\n        super(Block, self).__init__()\n\nb = Block(3)\n"
    assert CodeReferences(ast.parse(code)).of("Block").total == 2  # the class and its one instantiation
    assert super_mentions(code, "Block") == 1
    assert super_mentions(code.replace("super(Block, self)", "super()"), "Block") == 0
    assert CodeReferences(ast.parse(code.replace("super(Block, self)", "Block.mro()[1]"))).of("Block").total == 3


def test_definitions_count_each_def_of_the_name_and_no_look_alike():
    code = ("class GAN:\n    def train(self):\n        pass\n\nclass VAE:\n    async def  train (self):\n        pass\n"
            "\nundef train(x)\ndef trainer(self):\n    model.train(x)  # def train(\n")
    assert definitions(code, "train") == 3  # two methods and the comment's: the text's count, never lower
    assert definitions(code, "trainer") == 1
    assert definitions(code, "rain") == 0  # inside a longer name
    assert definitions(code, "fit") == 0
    assert definitions("def café(x): pass\ndef cafe(x): pass\n", "café") == 1  # a name not ASCII
    assert definitions("def ab\u0301(x): pass\n", "ab\u0301") == 1  # its mark no word character


#: Functions binding `train` themselves, or not: a parameter, a store seen from an outer function through its
#: nested one, a global declaration, a lambda's parameter, a decorator and a default read in the function.
BINDING = """
def fit(self, train, dev):
    self.run(train)

def outer(data):
    def inner():
        train = data
    return train

def declared():
    global train
    train = 1
    return train

step = lambda train: train + 1
later = lambda: train

def given(x=train):
    return train(x)
"""


def test_names_bound_by_a_function_or_one_it_is_in_name_no_method():
    tree = ast.parse(BINDING)
    found = in_binding_functions(tree)
    lines = sorted(node.lineno for node in ast.walk(tree) if type(node) is ast.Name and id(node) in found and node.id == "train")
    assert lines == [3, 7, 8, 15]  # fit's parameter, outer's (its nested function stores it), the lambda's
    assert set(in_binding_functions(tree, "train").values()) == {"train"}
    assert len(in_binding_functions(tree, "train")) == len(lines)
    inner = tree.body[1]  # a function's own tree, as its nested functions' references are counted
    assert sorted(node.lineno for node in ast.walk(inner) if id(node) in in_binding_functions(inner, "train")) == [7, 8]
    assert in_binding_functions(ast.parse("train = 1\nprint(train)\n")) == {}
