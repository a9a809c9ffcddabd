"""GL304 compile-run-eagerly: `model.compile(run_eagerly=True)`."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, is_keras_model_method
from greenlint.rules.codemods import RemoveArgument
from greenlint.rules.deliberate import comment_explains, deliberate_switch
from greenlint.rules.diagnostic import Diagnostic

#: Words of a comment that says why the model runs eagerly.
REASON = re.compile(r"eager|requir|need|necessar|because|must|only works|(?:does not|doesn't|won't) work", re.I)


class CompileRunEagerly(Rule):
    """
    ## What it does
    Flags `compile(..., run_eagerly=True)` on a Keras model. Eager mode chosen on purpose is not
    reported: a call under a condition (`if args.debug:`), a value that is not a literal, test
    code (a `test*` function, a test class, a pytest fixture), a helper function only called
    that way, and a call whose comment (on its
    lines or right above) gives the reason: one mentioning eager mode, or that it is required,
    needed or necessary, or "because" (a model that only works eagerly, e.g. one converting
    tensors to NumPy in `call()`).

    ## Why is this bad?
    `run_eagerly=True` makes `fit()`, `evaluate()` and `predict()` run the model's step as plain
    Python, op by op, instead of the compiled `tf.function` Keras would build. The Keras
    documentation describes it as a debugging aid that makes the model slower. Every epoch
    then pays Python dispatch for every operation of every step.

    ## Example
    ```python
    model.compile(optimizer="adam", loss="mse", run_eagerly=True)
    ```

    ## Use instead
    ```python
    model.compile(optimizer="adam", loss="mse")
    ```

    ## Energy evidence
    The pair under bench/rules/ trains a small model with and without `run_eagerly=True`.

    ## Fix safety
    Unsafe: removes the argument. A model whose `call()` or `train_step()` relies on Python side
    effects or NumPy conversions of tensors may stop working when traced. Not offered under a
    condition (a fix never changes a literal written under one).

    ## Options
    None.
    """

    code = "GL304"
    name = "compile-run-eagerly"
    CALLS = frozenset({"compile"})
    MESSAGE = "`compile(run_eagerly=True)` runs every training and inference step op by op in Python"
    FIX_TITLE = "Remove `run_eagerly=True`"
    FIX = RemoveArgument("run_eagerly", safe=False)
    VALID = (
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.compile(optimizer='adam', loss='mse')\n"),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.compile(loss='mse', run_eagerly=False)\n"),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.compile(loss='mse', run_eagerly=DEBUG)\n"),
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "# run_eagerly is required: the CRF layer's decode calls .numpy()\n"
            "m.compile(optimizer='adam', loss='mse', run_eagerly=True)\n"
        ),
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.compile(optimizer='adam', loss='mse', run_eagerly=True)  # needed: py_func metrics\n"
        ),
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nif args.debug:\n"
            "    m.compile(optimizer='adam', loss='mse', run_eagerly=True)\nelse:\n    m.compile(optimizer='adam', loss='mse')\n"
        ),
        Valid(
            "import tensorflow as tf\n\n\ndef test_fit_eagerly():\n    m = tf.keras.Sequential()\n"
            "    m.compile(loss='mse', run_eagerly=True)\n    m.fit(x, y)\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.compile(optimizer='adam', loss='mse', run_eagerly=True)\n",
            line=3,
            expected_replacement=(
                "import tensorflow as tf\nm = tf.keras.Sequential()\nm.compile(optimizer='adam', loss='mse')\n"
            ),
        ),
        Invalid(  # a comment that gives no reason
            "import tensorflow as tf\nm = tf.keras.Sequential()\n# compile the model\n"
            "m.compile(optimizer='adam', loss='mse', run_eagerly=True)\n",
            line=4,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if (
                is_keras_model_method(site.api, ("compile",))
                and site.features.get("run_eagerly") is True
                and not deliberate_switch(facts, site)
                and not comment_explains(facts, site, REASON)
            ):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
