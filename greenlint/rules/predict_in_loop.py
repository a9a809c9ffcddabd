"""GL201 predict-in-loop: `Model.predict()` called once per iteration of a Python loop."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, is_keras_model_method
from greenlint.rules.diagnostic import Diagnostic


class PredictInLoop(Rule):
    """
    ## What it does
    Flags `Model.predict()` (also on `Sequential` and on user subclasses of `Model`) called
    inside a Python `for` or `while` loop that repeats it on the same model (the inputs may
    differ). A receiver greenlint cannot type (a model passed in as a parameter, or set as an
    attribute from one) counts when the code shows it is a Keras model: the call passes an
    argument only Keras' `predict` takes (`verbose`, `batch_size`, `steps`, `callbacks`, ...), or
    the same receiver, in the same function (its class for `self.model`), calls a method or
    reads an attribute only a Keras model has (`compile`, `summary`, `load_weights`,
    `predict_on_batch`, `layers`, ...). Not reported: a loop over different models (`for name in names:
    load_model(name).predict(x)`), a loop of one trip (`ds.take(1)`), a function merely
    called from several places, and an untyped receiver with no such sign (scikit-learn's
    estimators have a `predict` too).

    ## Why is this bad?
    `predict()` is built for large inputs: every call builds or looks up a prediction
    function, wraps its input in a `tf.data` pipeline, runs the batch loop and its callbacks,
    and converts the result to NumPy. Called once per sample or per small batch inside a loop,
    that fixed overhead is paid on every iteration, and it can dwarf the arithmetic of the
    model itself. The Keras documentation of `Model.predict` says so: it "is designed for batch
    processing of large numbers of inputs"; for small inputs that fit in one batch, call the
    model directly (`model(x, training=False)`) "for faster execution". Time spent on overhead
    is energy spent on overhead; the saving is qualitative here (greenlint has no paired
    measurement of the two forms), the per-call figures below are measured.

    ## Example
    ```python
    import tensorflow as tf

    model = tf.keras.models.load_model("model.keras")
    scores = []
    for image in images:
        scores.append(model.predict(image[None, ...]))
    ```

    ## Use instead
    Stack the inputs and make one call, or call the model directly on small inputs:
    ```python
    import numpy as np
    import tensorflow as tf

    model = tf.keras.models.load_model("model.keras")
    scores = model.predict(np.stack(images), batch_size=64)
    ```

    ## Energy evidence
    Measured per-call net energy of `predict()` in the bundled knowledge base, as generated
    when these docs were built (every loop iteration pays it again):

    ## Fix safety
    No automatic fix: batching changes the program's structure and memory use.

    ## Options
    None.
    """

    code = "GL201"
    name = "predict-in-loop"
    MESSAGE = "`{api}` is called inside a loop{times}: each call pays predict()'s fixed overhead"
    FIX_TITLE = "Batch the inputs into one predict() call, or call the model directly on small inputs"
    EVIDENCE_APIS = ("tensorflow.keras.Sequential.predict", "tensorflow.keras.Model.predict")
    VALID = (
        Valid(
            "import tensorflow as tf\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "scores = model.predict(batch)\n"
        ),
        Valid(
            "import tensorflow as tf\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "for x in inputs:\n"
            "    y = model(x, training=False)\n"
        ),
        Valid("for x in inputs:\n    clf.predict(x)\n"),
        Valid(  # an untyped receiver with no sign of Keras: may be a scikit-learn estimator
            "import tensorflow as tf\n"
            "def score(clf, rows):\n"
            "    for row in rows:\n"
            "        clf.predict(row)\n"
        ),
        Valid(  # a Keras-only method on another receiver says nothing of this one
            "import tensorflow as tf\n"
            "def score(clf, net, rows):\n"
            "    net.summary()\n"
            "    for row in rows:\n"
            "        clf.predict(row)\n"
        ),
        Valid(  # a helper called from two cells runs twice, in no loop
            "import tensorflow as tf\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "def show(x):\n"
            "    return model.predict(x)\n"
            "show(a)\n"
            "show(b)\n"
        ),
        Valid(  # a different model each iteration: nothing to batch
            "import tensorflow as tf\n"
            "for name in ['a.keras', 'b.keras']:\n"
            "    model = tf.keras.models.load_model(name)\n"
            "    model.predict(x)\n"
        ),
        Valid(  # one batch
            "import tensorflow as tf\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "for images, labels in ds.take(1):\n"
            "    model.predict(images)\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "for x in inputs:\n"
            "    y = model.predict(x)\n",
            line=4,
        ),
        Invalid(
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "for i in range(100):\n"
            "    model.predict(data[i:i + 1])\n",
            line=4,
            message_contains="(100 times)",
        ),
        Invalid(
            "import tensorflow as tf\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "for step in range(10000):\n"
            "    if step % 100 == 0:\n"
            "        model.predict(sample)\n",
            line=5,
            message_contains="(at most 100 times)",
        ),
        Invalid(  # a helper called from a loop runs in that loop
            "import tensorflow as tf\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "def score(x):\n"
            "    return model.predict(x)\n"
            "for i in range(3):\n"
            "    score(data[i])\n",
            line=4,
            message_contains="(3 times)",
        ),
        Invalid(  # a model given as a parameter, Keras's by the argument only Keras takes
            "import tensorflow as tf\n"
            "def evaluate(model, data):\n"
            "    for x, y in data:\n"
            "        y_pred = model.predict(x, verbose=0).argmax(axis=1)\n",
            line=4,
        ),
        Invalid(  # an attribute set from a parameter, Keras's by what its class does with it
            "import tensorflow as tf\n"
            "class Detector:\n"
            "    def __init__(self, net):\n"
            "        self.net = net\n"
            "        self.net.load_weights('w.h5')\n"
            "    def run(self, frames):\n"
            "        return [self.net.predict(f) for f in frames]\n",
            line=7,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.untyped and not _shows_keras(facts, site):  # `clf.predict(x)` may be scikit-learn's
                continue
            if is_keras_model_method(site.api, ("predict",)) and site.repeats(same=("receiver",)):
                times = site.loop_times()
                yield self.diagnostic(
                    site.callsite.span,
                    facts.path,
                    self.MESSAGE.format(api=site.api, times=times),
                    energy_j=site.total_energy_j,
                )


#: Arguments Keras' `predict` takes and scikit-learn's does not.
KERAS_ARGUMENTS = frozenset({"verbose", "batch_size", "steps", "callbacks", "workers", "use_multiprocessing",
                             "max_queue_size"})
#: Methods and attributes only a Keras model has (beside its `predict`).
KERAS_MEMBERS = frozenset({
    "compile", "summary", "save_weights", "load_weights", "get_layer", "count_params", "to_json",
    "predict_on_batch", "train_on_batch", "test_on_batch", "fit_generator", "predict_generator",
    "evaluate_generator", "layers", "trainable_weights", "input_shape", "output_shape",
})


def _shows_keras(facts: FileFacts, site) -> bool:
    """The untyped receiver of a `predict` is a Keras model by what the code does with it: the
    call passes an argument only Keras takes, or the same receiver (its text), in the call's
    function (its class for `self.<attr>`), calls a method or reads an attribute only a Keras
    model has."""
    call = facts.node(site)
    if call is None or not isinstance(call.func, ast.Attribute):
        return False
    if any(k.arg in KERAS_ARGUMENTS for k in call.keywords):
        return True
    receiver = ast.dump(call.func.value)
    owner = ast.ClassDef if receiver.startswith("Attribute(value=Name(id='self'") else (ast.FunctionDef, ast.AsyncFunctionDef)
    cell = site.callsite.span.cell
    scope: ast.AST | None = next((a for a in facts.ancestors(call, cell) if isinstance(a, owner)), None)
    if scope is None:
        scope = facts.module(cell)
    return scope is not None and any(
        isinstance(node, ast.Attribute) and node.attr in KERAS_MEMBERS and ast.dump(node.value) == receiver
        for node in ast.walk(scope)
    )
