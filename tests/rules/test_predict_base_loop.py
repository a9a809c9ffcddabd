"""GL201 on a template method across modules (greenlint/rules/predict_in_loop.py `_base_loop`): a
subclass's step runs `Model.predict` and a base class of a project module calls that step once per
pass of its own loop (an autoregressive decoder's search, one predict per generated token)."""

from __future__ import annotations

import pytest

from tests.rules.conftest import check_in_project

TITLE = (
    "import tensorflow as tf\n"
    "from lib.decoding import Decoder\n"
    "model = tf.keras.models.load_model('m.keras')\n"
    "class Titler(Decoder):\n"
    "    def step(self, ids):\n"
    "        return self.head(model).predict(ids)\n"
    "    def generate(self, ids):\n"
    "        return self.search(ids)\n"
)
DECODER = (
    "from tensorflow import keras\n"
    "class Decoder:\n"
    "    def head(self, model):\n"
    "        return keras.models.Model(model.inputs, model.outputs[-1])\n"
    "    def step(self, ids):\n"
    "        raise NotImplementedError\n"
    "    def search(self, ids):\n"
    "        for _ in range(self.maxlen):\n"
    "            ids = ids + [self.step(ids).argmax()]\n"
    "        return ids\n"
)


def _gl201(tmp_path, predictor, decoder: str) -> list[str]:
    files = {"lib/__init__.py": "", "lib/decoding.py": decoder, "title.py": TITLE}
    return [f"{d.span.line}: {d.message}" for d in check_in_project(tmp_path, predictor, files, "title.py", "GL201")]


def test_a_base_class_of_a_project_module_looping_over_the_step_repeats_its_predict(tmp_path, predictor):
    found = _gl201(tmp_path, predictor, DECODER)
    assert len(found) == 1 and found[0].startswith("6: ")
    assert "a loop of `Decoder.search`, which calls `self.step` on every pass" in found[0]


@pytest.mark.parametrize(
    "decoder",
    [
        DECODER.replace("        for _ in range(self.maxlen):\n            ids = ids + [self.step(ids).argmax()]\n",
                        "        ids = ids + [self.step(ids).argmax()]\n"),  # the base calls the step once
        DECODER.replace("keras.models.Model(model.inputs, model.outputs[-1])", "Pipeline(model)"),  # no Keras model: untyped
        "class Other:\n    pass\n",  # the module does not define the base
    ],
)
def test_no_loop_or_no_keras_model_is_not_reported(tmp_path, predictor, decoder):
    assert _gl201(tmp_path, predictor, decoder) == []


def test_the_class_is_walked_for_its_own_calls_only_when_a_base_loops_over_the_step(tmp_path, predictor, monkeypatch):
    """Which loop the class itself calls is looked up only when there is one to choose: a predict in
    every method of a large class whose bases never loop costs no walk of the class (on the
    benchmark corpus this walk was a tenth of the cold check)."""
    import ast

    from greenlint.rules import predict_in_loop

    walked = []
    walk = ast.walk
    monkeypatch.setattr(predict_in_loop.ast, "walk", lambda node: walked.append(type(node).__name__) or walk(node))
    once = DECODER.replace("        for _ in range(self.maxlen):\n            ids = ids + [self.step(ids).argmax()]\n",
                           "        ids = ids + [self.step(ids).argmax()]\n")
    assert _gl201(tmp_path, predictor, once) == []
    assert "ClassDef" not in walked
    assert len(_gl201(tmp_path / "loops", predictor, DECODER)) == 1
    assert "ClassDef" in walked


@pytest.mark.parametrize("scope", ["", "run", "Titler.step"])
def test_only_a_predict_in_a_method_asks_for_the_files_tree(scope):
    """A template method's step is a method (its scope `Class.method`): for a predict at module
    level or in a plain function the file's tree is not indexed for the base-class lookup."""
    from types import SimpleNamespace

    from greenlint.rules import predict_in_loop

    class Facts:
        asked = 0

        def node(self, site):
            Facts.asked += 1

    site = SimpleNamespace(callsite=SimpleNamespace(scope=scope, span=SimpleNamespace(cell=None)))
    assert predict_in_loop._base_loop(Facts(), site) is None
    assert Facts.asked == (1 if "." in scope else 0)
