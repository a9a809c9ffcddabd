"""GL314 evaluate-in-step-loop: `evaluate()` on every training step."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import is_keras_model_method
from greenlint.rules.step_batch import repeats
from greenlint.rules.syntax import in_unguarded_step_loop


class EvaluateInStepLoop(Rule):
    """
    ## What it does
    Flags `evaluate()` on a Keras model called directly in the body of a loop that runs a
    training step (`apply_gradients`, `minimize` or `train_on_batch` in the same loop), with no
    `if` around it inside that loop. The step must repeat on the same optimizer or model: a loop over
    settings (dtypes, one new optimizer each) is no training loop; nor is a loop of one trip
    (`ds.take(1)`). An `evaluate()` given the batch the step trains on scores that batch, not a
    set: GL205 reports it (its forward pass, which the step has computed).

    ## Why is this bad?
    `evaluate()` runs the model over the whole evaluation set. Once per training step, the
    evaluation can cost many times the training itself. Evaluate once per epoch, every N steps,
    or on a fixed small batch.

    ## Example
    ```python
    for x, y in train_ds:
        model.train_on_batch(x, y)
        model.evaluate(val_ds, verbose=0)
    ```

    ## Use instead
    ```python
    for step, (x, y) in enumerate(train_ds):
        model.train_on_batch(x, y)
        if step % 500 == 0:
            model.evaluate(val_ds, verbose=0)
    ```

    ## Energy evidence
    The pair under bench/rules/ evaluates a small model every step, and every 50 steps.

    ## Fix safety
    No automatic fix: how often to evaluate is a choice.

    ## Options
    None.
    """

    code = "GL314"
    name = "evaluate-in-step-loop"
    CALLS = frozenset({"evaluate"})
    MESSAGE = "`evaluate()` runs over the whole evaluation set on every training step"
    FIX_TITLE = "Evaluate every N steps or once per epoch"
    VALID = (
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor step, (x, y) in enumerate(ds):\n"
            "    m.train_on_batch(x, y)\n    if step % 100 == 0:\n        m.evaluate(vx, vy)\n"
        ),
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor e in range(3):\n    m.fit(x, y)\n    m.evaluate(vx, vy)\n"
        ),
        Valid(  # the batch just trained on: one batch's forward pass, GL205's
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor x, y in ds:\n"
            "    m.train_on_batch(x, y)\n    m.evaluate(x, y, verbose=0)\n"
        ),
        Valid(  # one step: `take(1)` is no loop
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor x, y in ds.take(1):\n"
            "    m.train_on_batch(x, y)\n    m.evaluate(vx, vy)\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor x, y in ds:\n"
            "    m.train_on_batch(x, y)\n    m.evaluate(vx, vy, verbose=0)\n",
            line=5,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        batch = {id(found.site) for found in repeats(facts)}
        for site in facts.sites:
            if (
                is_keras_model_method(site.api, ("evaluate",))
                and id(site) not in batch
                and site.repeats(same=("receiver",))
                and in_unguarded_step_loop(facts, site)
            ):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
