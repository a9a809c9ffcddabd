"""GL301 small-batch-size: `fit()`/`evaluate()`/`predict()`/`Dataset.batch()` with a tiny literal batch."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Option, Rule, Valid, is_keras_model_method
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.diagnostic import Diagnostic

MODEL_METHODS = ("fit", "evaluate", "predict")
DATASET_BATCH = "tensorflow.data.Dataset.batch"
#: Layer and Input arguments that fix the batch dimension of a model.
_FIXED_BATCH = frozenset({"batch_input_shape", "batch_shape"})


def _fixed_batch_model(facts: FileFacts) -> bool:
    """The file builds a model that runs with one batch size only: a layer with the literal
    `stateful=True`, or a literal batch dimension (`batch_input_shape=(1, ...)`,
    `Input(batch_size=1)`)."""
    module = facts.module() if isinstance(facts.source, str) else None
    trees = [module] if module is not None else [facts.module(i) for i in range(1, len(facts.source) + 1)]
    for tree in trees:
        for node in ast.walk(tree) if tree is not None else ():
            if not isinstance(node, ast.keyword):
                continue
            value = node.value
            if node.arg == "stateful" and isinstance(value, ast.Constant) and value.value is True:
                return True
            if node.arg in _FIXED_BATCH and isinstance(value, (ast.Tuple, ast.List)) and value.elts:
                first = value.elts[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, int):
                    return True
    return any(
        s.api.endswith("keras.Input") and isinstance(s.features.get("batch_size"), int) for s in facts.sites
    )


class SmallBatchSize(Rule):
    """
    ## What it does
    Flags `fit()`, `evaluate()` and `predict()` on a Keras model, and `Dataset.batch()`, when
    their `batch_size` is a literal smaller than `min-batch-size` (default 16; Keras' own
    default is 32).

    One finding per literal: a `fit()`/`evaluate()`/`predict()` whose batch size comes from the
    `.batch(n)` of the dataset it consumes is not reported again (the `batch` call is). Not
    reported where the small batch is a requirement or the point: in a file that builds a
    stateful model (a layer with `stateful=True`, or a fixed batch dimension given by
    `batch_input_shape`/`batch_shape`/`Input(batch_size=...)`: the model then runs only with
    that, often tiny, batch), and in test code (a `test*` function, a test class, a pytest
    fixture), where a few batches of toy data exercise the code and the test may assert the
    step count or the batches' structure.

    ## Why is this bad?
    Each batch is one step of Python, graph dispatch and (on a GPU) kernel launches and
    transfers. With tiny batches the fixed cost per step dominates and the hardware idles
    between steps, so the same epochs take longer and, at nearly the same power, cost more
    energy. Del Rey, Martínez-Fernández, Cruz et al. ("How to use model architecture and
    training environment to estimate the energy consumption of DL training", 2024), training
    InceptionV3 with batch sizes 32, 64 and 256 on two datasets in two environments, report
    that increasing the batch size "considerably reduces the amount of energy required to
    train the model", because it cuts training time while power rises only slightly. Larger
    batches can change convergence: retune the learning rate.

    ## Example
    ```python
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="mse")
    model.fit(x_train, y_train, batch_size=1, epochs=10)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="mse")
    model.fit(x_train, y_train, batch_size=64, epochs=10)
    ```

    ## Energy evidence
    Literature (measured on GPUs, not on greenlint's reference machine): del Rey et al., 2024,
    RQ 3.1 and its figures on batch and input size. Neither the bundled knowledge base nor the
    training-run table (`data/training/runs.csv`, all at batch size 32) has paired measurements
    of one workload at several batch sizes, so greenlint states no figure for the saving.

    ## Fix safety
    No automatic fix: a larger batch needs more memory and may need a retuned learning rate.

    ## Options
    - `min-batch-size`
    """

    code = "GL301"
    name = "small-batch-size"
    MESSAGE = "`{api}` uses batch_size={size}: tiny batches make each epoch slower and costlier"
    FIX_TITLE = "Use a larger batch size (32 or more, memory permitting)"
    OPTIONS = (
        Option("min-batch-size", int, 16, "Literal batch sizes below this are flagged by GL301."),
    )
    VALID = (
        Valid(
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential()\n"
            "model.fit(x, y, batch_size=64)\n"
        ),
        Valid("import tensorflow as tf\nmodel = tf.keras.Sequential()\nmodel.fit(x, y, batch_size=bs)\n"),
        Valid("from sklearn.neural_network import MLPClassifier\nMLPClassifier(batch_size=1).fit(x, y)\n"),
        Valid(  # a stateful RNN keeps its state per batch row: it needs its fixed batch
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential([\n"
            "    tf.keras.layers.LSTM(32, stateful=True, batch_input_shape=(1, 10, 1)),\n"
            "    tf.keras.layers.Dense(1),\n"
            "])\n"
            "model.compile(optimizer='adam', loss='mse')\n"
            "model.fit(x, y, batch_size=1, epochs=5, shuffle=False)\n"
        ),
        Valid(
            "import tensorflow as tf\n"
            "inputs = tf.keras.Input(shape=(10, 1), batch_size=4)\n"
            "model = tf.keras.Model(inputs, tf.keras.layers.GRU(8, stateful=True)(inputs))\n"
            "model.predict(x, batch_size=4)\n"
        ),
        Valid(  # a test asserting the step count picks its batch on purpose
            "import numpy as np\nimport tensorflow as tf\n\n\n"
            "def test_steps_per_epoch():\n"
            "    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "    model.compile(loss='mse')\n"
            "    history = model.fit(np.zeros((10, 3)), np.zeros((10, 1)), batch_size=5, epochs=1)\n"
            "    assert len(history.history['loss']) == 1\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential()\n"
            "model.fit(x, y, batch_size=1, epochs=3)\n",
            line=3,
            message_contains="batch_size=1",
        ),
        Invalid(
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(2)\n",
            line=2,
        ),
        Invalid(
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential()\n"
            "model.fit(x, y, batch_size=32)\n",
            options={"min-batch-size": 64},
        ),
        Invalid(  # one literal, one finding: at `batch`, not again at the fit and evaluate it feeds
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(5)\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "model.compile(loss='mse')\n"
            "model.fit(ds, epochs=3)\n"
            "model.evaluate(ds)\n",
            line=2,
        ),
        Invalid(  # a stateless LSTM: its batch is free
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.layers.LSTM(32, stateful=False), tf.keras.layers.Dense(1)])\n"
            "model.compile(optimizer='adam', loss='mse')\n"
            "model.fit(x, y, batch_size=1, epochs=5)\n",
            line=4,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        minimum = int(options.get("min-batch-size", 16))
        fixed = None
        for site in facts.sites:
            if not (site.api == DATASET_BATCH or is_keras_model_method(site.api, MODEL_METHODS)):
                continue
            size = site.features.get("batch_size")
            if not (isinstance(size, int) and not isinstance(size, bool) and 0 < size < minimum):
                continue
            if site.features.get("batch_size_from") == "dataset" or in_test_code(facts, site):
                continue
            fixed = _fixed_batch_model(facts) if fixed is None else fixed
            if not fixed:
                yield self.diagnostic(
                    site.callsite.span,
                    facts.path,
                    self.MESSAGE.format(api=site.api, size=size),
                    data={"batch_size": size, "min_batch_size": minimum},
                )
