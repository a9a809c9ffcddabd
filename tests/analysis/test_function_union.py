"""What a name holds after an `if`/`else` that binds it to different functions: one of them (a
`Choice`, greenlint/analysis/values.py `union`), so that a call through it is still a call site,
once, when every path gives a function of a known kind; and a call of an instance whose
`__call__` spends its work in a TF call is a call site where the instance is called."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.values import OPAQUE, Choice, ExtFunc, union

UTIL = """
import tensorflow as tf


class _Function(object):
    def __init__(self, inputs, outputs):
        self.inputs = inputs
        self.outputs = outputs

    def __call__(self, *args):
        return tf.compat.v1.get_default_session().run(self.outputs, feed_dict=dict(zip(self.inputs, args)))


def function(inputs, outputs):
    return _Function(inputs, outputs)


def build_act(obs):
    _act = function([obs], obs)

    def act(ob, update_eps=-1):
        return _act(ob)
    return act


def build_noisy_act(obs):
    _act = function([obs], obs)

    def act(ob, reset=False, update_eps=-1):
        return _act(ob)
    return act


def build_train(obs, param_noise):
    if param_noise:
        act_f = build_noisy_act(obs)
    else:
        act_f = BRANCH
    return act_f, None
"""

LEARN = """
import numpy as np
from util import build_train


def learn(obs, param_noise):
    act, _ = build_train(obs, param_noise)
    for t in range(1000):
        act(np.zeros((1, 4)), update_eps=0.1)


learn(None, False)
"""

RUN = "tensorflow.compat.v1.Session.run"


def _sites(tmp_path, files: dict[str, str], name: str) -> list:
    for file, code in files.items():
        (tmp_path / file).write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")
    result = analyse_file(tmp_path / name)
    assert result.errors == []
    return result.callsites


def test_a_call_through_an_if_else_between_two_closures_is_one_call_site_counted_by_its_loop(tmp_path):
    found = _sites(tmp_path, {"util.py": UTIL.replace("BRANCH", "build_act(obs)"), "learn.py": LEARN}, "learn.py")
    at_call = [s for s in found if s.span.line == 8]
    assert [s.api for s in at_call] == [RUN]  # one site, not one per branch
    assert at_call[0].features["receiver"] == "wrapper" and "util.py line 10" in at_call[0].features["via"]
    assert at_call[0].runs.count == 1000


def test_a_path_binding_what_cannot_be_typed_leaves_the_call_unknown(tmp_path):
    found = _sites(tmp_path, {"util.py": UTIL.replace("BRANCH", "make_act(obs)"), "learn.py": LEARN}, "learn.py")
    assert [s for s in found if s.span.line == 8] == []


def test_union_keeps_each_function_once_and_only_functions():
    f, g = ExtFunc(None), ExtFunc(None)
    assert type(union([f, g])) is Choice and union([f, g]).items == (f, g)
    assert union([Choice((f, g)), g]).items == (f, g)
    assert union([f, f]) is None  # one function: no choice to make
    assert union([f, None]) is None and union([f, OPAQUE]) is None
    assert union([Choice(()), f]) is None  # an empty table being filled is not a function


def test_calling_an_instance_whose_call_runs_a_wrapper_is_a_call_site_where_called(tmp_path):
    agent = """
        import numpy as np
        from util import build_train


        class ActWrapper(object):
            def __init__(self, act):
                self._act = act

            def __call__(self, *args, **kwargs):
                return self._act(*args, **kwargs)


        act, _ = build_train(None, False)
        act = ActWrapper(act)
        for t in range(1000):
            act(np.zeros((1, 4)))
        """
    found = _sites(tmp_path, {"util.py": UTIL.replace("BRANCH", "build_act(obs)"), "agent.py": agent}, "agent.py")
    at_call = [s for s in found if s.span.line == 16]
    assert [s.api for s in at_call] == [RUN]
    assert at_call[0].features["receiver"] == "wrapper" and at_call[0].runs.count == 1000
