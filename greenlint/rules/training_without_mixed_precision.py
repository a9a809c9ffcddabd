"""GL602 training-without-mixed-precision (opt-in): `fit()` in a file that never sets a mixed-precision policy."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, is_keras_model_method
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.syntax import text_mentions


class TrainingWithoutMixedPrecision(Rule):
    """
    ## What it does
    Flags the first `fit()` (or Keras 2's `fit_generator()`) on a Keras model in a file that
    never mentions a mixed-precision policy (`mixed_float16` or `mixed_bfloat16`, set through
    `keras.mixed_precision.set_global_policy` or a layer's `dtype`). Off by default.

    ## Why is this bad?
    On GPUs with tensor cores (compute capability 7.0 and later) and on TPUs, computing in 16-bit
    floats while keeping variables in 32 bits runs matrix multiplications and convolutions much
    faster and halves activation memory; the TensorFlow mixed-precision guide reports
    speed-ups of up to three times on modern GPUs. On CPUs and older GPUs it does not help,
    which is why this rule is opt-in: enable it with `--extend-select GL602` for code that
    trains on such accelerators.

    ## Example
    ```python
    import tensorflow as tf

    model = tf.keras.applications.ResNet50(weights=None)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(train_ds, epochs=10)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    model = tf.keras.applications.ResNet50(weights=None)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(train_ds, epochs=10)
    ```

    ## Energy evidence
    Not measurable on this machine: it has no GPU with tensor cores, and on its CPU mixed
    precision is expected to be slower, not faster.

    ## Fix safety
    No automatic fix: the model's output layer should stay in float32 and the loss may need
    scaling.

    ## Options
    None.
    """

    code = "GL602"
    name = "training-without-mixed-precision"
    MESSAGE = "training without a mixed-precision policy (useful on GPUs with tensor cores and TPUs)"
    FIX_TITLE = 'Call `tf.keras.mixed_precision.set_global_policy("mixed_float16")` before building the model'
    DEFAULT_ENABLED = False
    VALID = (
        Valid(
            "import tensorflow as tf\ntf.keras.mixed_precision.set_global_policy('mixed_float16')\n"
            "m = tf.keras.Sequential()\nm.fit(x, y)\n"
        ),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.evaluate(x, y)\n"),
    )
    INVALID = (
        Invalid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y)\nm.fit(x, y)\n", line=3),
        Invalid(  # Keras 2's generator training is a training too
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit_generator(gen, steps_per_epoch=100, epochs=5)\n",
            line=3,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if text_mentions(facts, "mixed_float16") or text_mentions(facts, "mixed_bfloat16"):
            return
        fits = [s for s in facts.sites if is_keras_model_method(s.api, ("fit", "fit_generator"))]
        if fits:
            yield self.diagnostic(fits[0].callsite.span, facts.path, self.MESSAGE)
