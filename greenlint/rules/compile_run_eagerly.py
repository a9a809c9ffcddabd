"""GL304 compile-run-eagerly: `model.compile(run_eagerly=True)`."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid
from greenlint.rules.deliberate import comment_explains, deliberate_switch
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.material import MODEL_STEPS, SAVING_OPTION, immaterial_work
from greenlint.rules.site import Site, is_keras_model_method
from greenlint.rules.syntax import uses_until_rebound

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
    tensors to NumPy in `call()`). Nor is a model whose steps cannot cost a material amount
    (greenlint/rules/material.py): every `fit`, `evaluate` or `predict` of it that follows the
    compile (up to the next compile or binding of its name) has counted runs whose whole figure
    stays under `material-saving-j`, as a demo's one epoch on 64 rows does.

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
    - `material-saving-j`
    """

    code = "GL304"
    name = "compile-run-eagerly"
    CALLS = frozenset({"compile"})
    MESSAGE = "`compile(run_eagerly=True)` runs every training and inference step op by op in Python"
    OPTIONS = (SAVING_OPTION,)
    FIX_TITLE = "Remove `run_eagerly=True`"
    FIX = FixBy("RemoveArgument", {"name": "run_eagerly"}, safe=False)
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
        Valid(  # a demo's steps: one epoch on 64 rows costs no material amount, eager or not
            "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "m.compile(loss='mse', run_eagerly=True)\nm.fit(x[:64], y[:64], epochs=1)\n",
            options={"material-saving-j": 1000.0},
        ),
    )
    INVALID = (
        Invalid(  # near miss: a later fit of the same model that runs ten times, a material amount
            "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "m.compile(loss='mse', run_eagerly=True)\nm.fit(x[:64], y[:64], epochs=1)\n"
            "for fold in range(10):\n    m.fit(x, y)\n",
            line=3,
            options={"material-saving-j": 1000.0},
        ),
        Invalid(  # a demo's fit of another model bound to the name says nothing of this one's
            "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "m.compile(loss='mse', run_eagerly=True)\nm = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "m.fit(x[:64], y[:64], epochs=1)\n",
            line=3,
            options={"material-saving-j": 1000.0},
        ),
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
                runs = _runs_of(facts, site)
                if not (runs and all(immaterial_work(facts, run, options) for run in runs)):
                    yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)


def _runs_of(facts: FileFacts, compiled: Site) -> list[Site]:
    """The steps the compiled model runs (`model.fit(...)`, `model.evaluate(...)` after the
    `model.compile(...)`, in later cells too), up to the next compile or binding of its name."""
    call, cell = facts.node(compiled), compiled.callsite.span.cell
    if call is None or not isinstance(call.func, ast.Attribute) or not isinstance(call.func.value, ast.Name):
        return []
    steps = {id(node): site for site in facts.sites
             if is_keras_model_method(site.api, MODEL_STEPS) and (node := facts.node(site)) is not None}
    receiver = call.func.value
    runs = []
    for read_cell, read in uses_until_rebound(facts, call, cell, receiver.id, (cell or 0, receiver.lineno, receiver.col_offset)):
        attribute = facts.parent(read, read_cell)
        method = facts.parent(attribute, read_cell) if isinstance(attribute, ast.Attribute) else None
        if isinstance(attribute, ast.Attribute) and attribute.attr == "compile":
            break
        if isinstance(method, ast.Call) and method.func is attribute and id(method) in steps:
            runs.append(steps[id(method)])
    return runs
