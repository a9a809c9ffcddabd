"""Calls on receivers the resolver cannot type, still listed when their method name and
arguments make them a TF/Keras call (`CallSite.features["receiver_kind"] == "untyped"`).

A model passed in from another module (`def train(model, x): model.fit(x, epochs=5)`), a session
set from a constructor's argument (`self.sess.run(train_op, feed_dict=...)`): the value is unknown
to the walk, but in a module that imports TensorFlow or Keras, `.fit(`, `.fit_generator(`,
`.predict(`, `.evaluate(`, the `*_on_batch(` methods, a session's `.run(` (its receiver named
like a session, or the call giving it: `get_session().run(`) and a tensor's `.eval(` given a feed dict or a session are the Keras/TF methods
of that name; the methods no other library names so (`predict_on_batch`, `fit_generator`, the
other `*_on_batch` and `*_generator` ones: `KERAS_ONLY`) are Keras's in any module analysed,
such as an evaluation helper that is given the model and imports neither. Receivers known to come from other libraries (scikit-learn, XGBoost, PyTorch,
pandas, ...: `FOREIGN_ROOTS`) are not matched.
"""

from __future__ import annotations

import ast

#: Libraries whose `.fit`/`.predict`/`.run` are not TensorFlow's: values they give are `Foreign`.
FOREIGN_ROOTS = frozenset({
    "sklearn", "xgboost", "lightgbm", "catboost", "torch", "pandas", "scipy", "statsmodels", "joblib", "pickle",
    "prophet", "gensim", "subprocess", "multiprocessing", "threading", "asyncio", "concurrent",
})
MODEL = "tensorflow.keras.Model"
#: Method name -> the Keras method it is taken for on an untyped receiver.
MODEL_METHODS = {
    name: f"{MODEL}.{name}"
    for name in ("fit", "fit_generator", "evaluate", "evaluate_generator", "predict", "predict_generator",
                 "train_on_batch", "test_on_batch", "predict_on_batch")
}
#: Model methods named so by Keras alone: matched whatever the module imports.
KERAS_ONLY = frozenset(name for name in MODEL_METHODS if name.endswith(("_on_batch", "_generator")))
SESSION_RUN = "tensorflow.compat.v1.Session.run"
TENSOR_EVAL = "tensorflow.Tensor.eval"
NOTE = "receiver not resolved: matched by method name"


def untyped_api(func: ast.Attribute, call: ast.Call) -> str | None:
    """The TF/Keras API a method call on an untyped receiver is taken for, or None."""
    name = func.attr
    if name in MODEL_METHODS:
        return MODEL_METHODS[name]
    if name == "run" and "sess" in _last_name(func.value).lower():  # sess.run, self.session.run
        return SESSION_RUN
    if name == "eval" and (
        any(k.arg in ("feed_dict", "session") for k in call.keywords)
        or (call.args and type(call.args[0]) in (ast.Dict, ast.DictComp))
    ):
        return TENSOR_EVAL
    return None


def _last_name(node: ast.expr) -> str:
    """`sess` in `sess`, `self.sess`, `a.b.sess`; `get_session` in `get_session()`, `U.get_session()`
    (what a call gives is named by the function); "" for other receivers (subscripts, literals)."""
    if type(node) is ast.Call:
        node = node.func
    if type(node) is ast.Name:
        return node.id
    if type(node) is ast.Attribute:
        return node.attr
    return ""


def names_keras_method(text: str) -> bool:
    """Whether source text calls one of the `KERAS_ONLY` methods (`.predict_on_batch(`): cheap, for
    the pre-check that skips files naming neither TensorFlow nor Keras."""
    return any(f".{name}(" in text for name in KERAS_ONLY)
