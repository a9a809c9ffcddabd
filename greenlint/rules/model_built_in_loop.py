"""GL312 model-built-in-loop: Keras models created in a loop without `clear_session()`."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.material import in_tests
from greenlint.rules.syntax import in_class

CONSTRUCTORS = (
    "tensorflow.keras.Sequential",
    "tensorflow.keras.Model",
    "tensorflow.keras.models.Sequential",
    "tensorflow.keras.models.Model",
)
CLEAR = ("tensorflow.keras.utils.clear_session", "tensorflow.keras.backend.clear_session")


def _builds_model(api: str) -> bool:
    return api in CONSTRUCTORS or (
        api.startswith("tensorflow.keras.applications.")
        and api.count(".") == 3
        and api.rsplit(".", 1)[-1][:1].isupper()
    )


def _stored(facts: FileFacts, site) -> bool:
    """The model goes into a container, an attribute or another call: a part, not a model of its own."""
    node = facts.node(site)
    parent = facts.parent(node, site.callsite.span.cell) if node is not None else None
    if isinstance(parent, ast.Assign):
        return not all(isinstance(t, ast.Name) for t in parent.targets)
    return isinstance(parent, (ast.Call, ast.keyword, ast.List, ast.Tuple, ast.Dict))


class ModelBuiltInLoop(Rule):
    """
    ## What it does
    Flags a Keras model constructed (`Sequential`, `Model`, a `keras.applications` model) inside
    a Python loop that runs it more than once (directly, or in a function that loop calls; not a
    function merely called from several places, nor a loop of one trip), different models per
    iteration included (clear_session matters most then), in a file that never calls `keras.backend.clear_session()` (or
    `keras.utils.clear_session()`). Models built inside a class (parts of a bigger model) or
    stored into a container or attribute (`self.towers[name] = Sequential(...)`) are parts being
    assembled, not models trained one after another, and are not reported. Nor is test code (a
    test module, a test, or a helper only tests call): a test builds a few tiny models, and the
    memory they hold is paid by no user (greenlint/rules/material.py).

    ## Why is this bad?
    Keras keeps global state for every model and layer it creates (name counters and, with the
    TensorFlow backend, the graph state behind compiled functions). Building model after model
    in one process, as a hyperparameter sweep or cross-validation does, makes memory grow and
    each new model slower to build and trace. The Keras documentation of `clear_session`
    recommends calling it "if you are creating many models in a loop".

    ## Example
    ```python
    import tensorflow as tf

    for units in [32, 64, 128]:
        model = tf.keras.Sequential([tf.keras.layers.Dense(units), tf.keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
        model.fit(x, y, epochs=5)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    for units in [32, 64, 128]:
        tf.keras.backend.clear_session()
        model = tf.keras.Sequential([tf.keras.layers.Dense(units), tf.keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
        model.fit(x, y, epochs=5)
    ```

    ## Energy evidence
    The pair under bench/rules/ builds and fits six small models per run with and without
    `clear_session()`: on this machine clearing the session made the loop slower (Keras then
    rebuilds its state for every model), so the table shows a negative saving. The rule's gain,
    memory that stops growing, appears only over many more models, which the code rarely says:
    the rule is opt-in (enable it with `--extend-select GL312`), and the measured cost of its
    advice is stated here rather than hidden.

    ## Fix safety
    No automatic fix: `clear_session()` also resets layer names and invalidates models the loop
    keeps from earlier iterations.

    ## Options
    None.
    """

    code = "GL312"
    name = "model-built-in-loop"
    MESSAGE = "a Keras model is built on every loop iteration and the session is never cleared"
    FIX_TITLE = "Call `tf.keras.backend.clear_session()` at the start of each iteration"
    DEFAULT_ENABLED = False  # opt-in: its measured pair saves no energy (see Energy evidence)
    VALID = (
        Valid(
            "import tensorflow as tf\nfor u in [1, 2]:\n    tf.keras.backend.clear_session()\n"
            "    m = tf.keras.Sequential([tf.keras.layers.Dense(u)])\n"
        ),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.layers.Dense(2)])\n"),
        Valid(  # a test building one tiny model per setting: nothing a user pays
            "import tensorflow as tf\n\n\nclass NormTest(tf.test.TestCase):\n    def test_axes(self):\n"
            "        for axis in self.axes:\n            m = tf.keras.Sequential([tf.keras.layers.Dense(axis)])\n"
        ),
        Valid(
            "import tensorflow as tf\nclass Ranker(tf.keras.Model):\n    def __init__(self, names):\n"
            "        super().__init__()\n        self.towers = {}\n        for n in names:\n"
            "            self.towers[n] = tf.keras.Sequential([tf.keras.layers.Dense(8)])\n"
        ),
        Valid(
            "import tensorflow as tf\nparts = []\nfor u in [1, 2]:\n    parts.append(tf.keras.Sequential([tf.keras.layers.Dense(u)]))\n"
        ),
        Valid(  # a helper called from two cells builds two models, in no loop
            "import tensorflow as tf\ndef build():\n    m = tf.keras.Sequential([tf.keras.layers.Dense(2)])\n    return m\n"
            "a = build()\nb = build()\n"
        ),
        Valid("import tensorflow as tf\nfor u in [1]:\n    m = tf.keras.Sequential([tf.keras.layers.Dense(u)])\n"),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nfor u in [1, 2]:\n    m = tf.keras.Sequential([tf.keras.layers.Dense(u)])\n",
            line=3,
        ),
        Invalid("import tensorflow as tf\nwhile True:\n    m = tf.keras.applications.ResNet50(weights=None)\n", line=3),
        Invalid(  # a builder called on every fold of a loop
            "import tensorflow as tf\ndef build():\n    m = tf.keras.Sequential([tf.keras.layers.Dense(2)])\n    return m\n"
            "for fold in range(5):\n    model = build()\n    model.fit(x[fold], y[fold])\n",
            line=3,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if any(s.api in CLEAR for s in facts.sites):
            return
        for site in facts.sites:
            built = _builds_model(site.api) and site.repeats(same=())  # different models included
            if built and not in_class(facts, site) and not _stored(facts, site) and not in_tests(facts, site):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
