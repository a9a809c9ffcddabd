"""Calls on receivers the resolver cannot type, still listed when their method name and
arguments make them a TF/Keras call (`CallSite.features["receiver_kind"] == "untyped"`).

A model passed in from another module (`def train(model, x): model.fit(x, epochs=5)`), a session
set from a constructor's argument (`self.sess.run(train_op, feed_dict=...)`): the value is unknown
to the walk, but in a module that imports TensorFlow or Keras, `.fit(`, `.fit_generator(`,
`.predict(`, `.evaluate(`, the `*_on_batch(` methods, a session's `.run(` (its receiver named
like a session, or the call giving it: `get_session().run(`) and a tensor's `.eval(` given a feed dict or a session are the Keras/TF methods
of that name; the methods no other library names so (`predict_on_batch`, `fit_generator`, the
other `*_on_batch` and `*_generator` ones: `KERAS_ONLY`) are Keras's in any module analysed,
such as an evaluation helper that is given the model and imports neither. The arguments must fit
that API's signature (`fits`): every keyword one of its parameters (or of the same method in
Keras 2 or 1: `FORMER_PARAMS`), no more positional ones than it takes, so that an RL agent's
`agent.fit(env, nb_steps=50000, visualize=False)` is not taken for a model's. Receivers known to
come from other libraries (scikit-learn, XGBoost, PyTorch, pandas, ...: `FOREIGN_ROOTS`) are not
matched.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

#: Keras 1's names of `fit`/`fit_generator` arguments that Keras 2 (and tf.keras before TF 2.1) still
#: read, with a warning, as the new ones.
LEGACY_FIT_ARGUMENTS = {"nb_epoch": "epochs"}
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
#: Parameters of these model methods in Keras 2 (tf.keras up to TF 2.15) and Keras 1 that the
#: catalog's (Keras 3) signatures no longer have: a call passing them is still a Keras model's.
_KERAS2_WORKERS = frozenset({"max_queue_size", "workers", "use_multiprocessing"})
_KERAS1_WORKERS = frozenset({"max_q_size", "nb_worker", "pickle_safe"})
FORMER_PARAMS = {
    "fit": _KERAS2_WORKERS | frozenset(LEGACY_FIT_ARGUMENTS),
    "evaluate": _KERAS2_WORKERS,
    "predict": _KERAS2_WORKERS,
    "fit_generator": _KERAS1_WORKERS | frozenset(LEGACY_FIT_ARGUMENTS) | {"samples_per_epoch", "nb_val_samples"},
    "evaluate_generator": _KERAS1_WORKERS | {"val_samples"},
    "predict_generator": _KERAS1_WORKERS | {"val_samples"},
    "train_on_batch": frozenset({"reset_metrics"}),
    "test_on_batch": frozenset({"reset_metrics"}),
}
#: Libraries with estimators of their own whose `.fit`/`.predict` a helper may be given.
ESTIMATOR_ROOTS = ("sklearn", "xgboost", "lightgbm", "catboost", "torch", "statsmodels", "prophet")
_ESTIMATOR_IMPORT = re.compile(rf"^\s*(?:from|import)\s+(?:{'|'.join(ESTIMATOR_ROOTS)})\b", re.MULTILINE)
SESSION_RUN = "tensorflow.compat.v1.Session.run"
TENSOR_EVAL = "tensorflow.Tensor.eval"
NOTE = "receiver not resolved: matched by method name and arguments"


def untyped_api(func: ast.Attribute, call: ast.Call, params: Callable[[str], list[str]]) -> str | None:
    """The TF/Keras API a method call on an untyped receiver is taken for, or None; *params* gives
    an API's parameter names (the catalog's)."""
    api = _named_api(func, call)
    return api if api is not None and fits(call, params(api), FORMER_PARAMS.get(func.attr, frozenset())) else None


def fits(call: ast.Call, params: list[str], former: frozenset[str]) -> bool:
    """Whether *call*'s arguments fit a signature of parameter names *params* (`*args`, `*`,
    `**kwargs` markers kept) and the *former* parameters of the same method: each keyword a named
    parameter (Keras's `**kwargs` take only its own private names), no more positional arguments
    than the parameters before the first marker."""
    named = [p for p in params if not p.startswith("*")]
    if any(k.arg is not None and k.arg not in named and k.arg not in former for k in call.keywords):
        return False
    positional = next((i for i, p in enumerate(params) if p.startswith("*")), len(params))
    return len([a for a in call.args if type(a) is not ast.Starred]) <= positional


def _named_api(func: ast.Attribute, call: ast.Call) -> str | None:
    """The TF/Keras API a method call is taken for by its name (and a session's by its receiver's)."""
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


def imports_estimator(text: str) -> bool:
    """Whether source text imports a library with estimators of its own (`ESTIMATOR_ROOTS`): the
    library's name looked for first, the multi-line pattern only where one is named."""
    return any(root in text for root in ESTIMATOR_ROOTS) and _ESTIMATOR_IMPORT.search(text) is not None
