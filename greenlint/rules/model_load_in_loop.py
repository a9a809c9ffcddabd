"""GL202 model-load-in-loop: a model loaded from disk on every iteration of a loop."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic

LOADERS = frozenset(
    {
        "tensorflow.keras.models.load_model",
        "tensorflow.keras.saving.load_model",
        "tensorflow.saved_model.load",
        "tensorflow.keras.Model.load_weights",
        "tensorflow.keras.Sequential.load_weights",
    }
)


class ModelLoadInLoop(Rule):
    """
    ## What it does
    Flags `load_model()`, `tf.saved_model.load()` and `load_weights()` called inside a Python
    `for` or `while` loop that repeats it. A loop whose variable reaches the call (`for path in
    checkpoints: load_model(path)`, evaluating several checkpoints) loads a different model each
    time and is not reported.

    ## Why is this bad?
    Loading a model reads and deserialises every weight from disk and rebuilds (and, for
    SavedModels, retraces) its graph. Doing it once per iteration repeats that work for a
    result that is normally the same each time. The cost grows with the model size; it is
    pure overhead when the same file is loaded again and again.

    ## Example
    ```python
    import tensorflow as tf

    for batch in batches:
        model = tf.keras.models.load_model("classifier.keras")
        outputs = model(batch, training=False)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    model = tf.keras.models.load_model("classifier.keras")
    for batch in batches:
        outputs = model(batch, training=False)
    ```

    ## Energy evidence
    Qualitative: the bundled knowledge base has no measurement of loading a model, so greenlint
    cannot put a figure on one load. The waste is the repeated work itself, proportional to the
    number of iterations.

    ## Fix safety
    No automatic fix: the file may change between iterations in ways greenlint does not see
    (written by the loop itself); suppress the finding with `# noqa: GL202` then.

    ## Options
    None.
    """

    code = "GL202"
    name = "model-load-in-loop"
    MESSAGE = "`{api}` is called inside a loop: the model is read from disk and rebuilt on every iteration"
    FIX_TITLE = "Load the model once, before the loop"
    VALID = (
        Valid(
            "import tensorflow as tf\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "for x in inputs:\n"
            "    model(x)\n"
        ),
        Valid(  # each iteration loads another checkpoint
            "import tensorflow as tf\n"
            "for step in [100, 200, 300]:\n"
            "    path = f'ckpt-{step}.keras'\n"
            "    model = tf.keras.models.load_model(path)\n"
        ),
        Valid(  # a helper called from two cells loads twice, in no loop
            "import tensorflow as tf\n"
            "def restore():\n"
            "    return tf.keras.models.load_model('m.keras')\n"
            "a = restore()\n"
            "b = restore()\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\n"
            "for x in inputs:\n"
            "    model = tf.keras.models.load_model('m.keras')\n"
            "    model(x)\n",
            line=3,
        ),
        Invalid(  # the loop variable feeds the model, not the load
            "import tensorflow as tf\n"
            "for i in range(10):\n"
            "    model = tf.keras.models.load_model('m.keras')\n"
            "    model(inputs[i])\n",
            line=3,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api in LOADERS and site.in_loop:
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(api=site.api))
