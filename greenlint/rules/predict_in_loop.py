"""GL201 predict-in-loop: `Model.predict()` called once per iteration of a Python loop."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, is_keras_model_method
from greenlint.rules.diagnostic import Diagnostic


class PredictInLoop(Rule):
    """
    ## What it does
    Flags `Model.predict()` (also on `Sequential` and on user subclasses of `Model`) called
    inside a Python `for` or `while` loop that repeats it on the same model (the inputs may
    differ). Not reported: a loop over different models (`for name in names:
    load_model(name).predict(x)`), a loop of one trip (`ds.take(1)`), and a function merely
    called from several places.

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
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.untyped:  # `clf.predict(x)` on an unknown receiver may be scikit-learn's
                continue
            if is_keras_model_method(site.api, ("predict",)) and site.repeats(same=("receiver",)):
                times = site.loop_times()
                yield self.diagnostic(
                    site.callsite.span,
                    facts.path,
                    self.MESSAGE.format(api=site.api, times=times),
                    energy_j=site.total_energy_j,
                )
