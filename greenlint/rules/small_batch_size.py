"""GL301 small-batch-size: `fit()`/`evaluate()`/`predict()`/`Dataset.batch()` with a tiny literal batch."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Option, Rule, Valid, is_keras_model_method
from greenlint.rules.diagnostic import Diagnostic

MODEL_METHODS = ("fit", "evaluate", "predict")
DATASET_BATCH = "tensorflow.data.Dataset.batch"


class SmallBatchSize(Rule):
    """
    ## What it does
    Flags `fit()`, `evaluate()` and `predict()` on a Keras model, and `Dataset.batch()`, when
    their `batch_size` is a literal smaller than `min-batch-size` (default 16; Keras' own
    default is 32).

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
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        minimum = int(options.get("min-batch-size", 16))
        for site in facts.sites:
            if not (site.api == DATASET_BATCH or is_keras_model_method(site.api, MODEL_METHODS)):
                continue
            size = site.features.get("batch_size")
            if isinstance(size, int) and not isinstance(size, bool) and 0 < size < minimum:
                yield self.diagnostic(
                    site.callsite.span,
                    facts.path,
                    self.MESSAGE.format(api=site.api, size=size),
                    data={"batch_size": size, "min_batch_size": minimum},
                )
