"""GL311 save-in-step-loop: a model or checkpoint saved on every training step."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, method
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.syntax import in_unguarded_step_loop

SAVES = ("save", "save_weights", "export")
SAVE_FUNCTIONS = ("tensorflow.saved_model.save", "tensorflow.keras.models.save_model")


def _is_save(api: str) -> bool:
    if api in SAVE_FUNCTIONS:
        return True
    owner, _, name = api.rpartition(".")
    return name in SAVES and (owner.startswith("tensorflow.keras") or owner in (
        "tensorflow.train.Checkpoint", "tensorflow.train.CheckpointManager"))


class SaveInStepLoop(Rule):
    """
    ## What it does
    Flags `model.save()`, `save_weights()`, `tf.saved_model.save()`, `Checkpoint.save()` and
    `CheckpointManager.save()` called directly in the body of a loop that runs a training step
    (`apply_gradients`, `minimize` or `train_on_batch` in the same loop), with no `if` around
    the save inside that loop. The step must repeat on the same optimizer or model: a loop over
    settings (dtypes, one new optimizer each) is no training loop; nor is a loop of one trip
    (`ds.take(1)`).

    ## Why is this bad?
    Saving serialises every weight (a SavedModel also traces and writes the graph) and writes it
    to disk. Doing it on every step can cost more than the step itself. Save every N steps
    (`if step % N == 0`), once per epoch, or with `tf.train.CheckpointManager` and a
    `checkpoint_interval`.

    ## Example
    ```python
    for x, y in dataset:
        loss = train_step(x, y)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        model.save_weights("ckpt.weights.h5")
    ```

    ## Use instead
    ```python
    for step, (x, y) in enumerate(dataset):
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        if step % 1000 == 0:
            model.save_weights("ckpt.weights.h5")
    ```

    ## Energy evidence
    The pair under bench/rules/ trains a small model saving its weights every step, and every
    50 steps.

    ## Fix safety
    No automatic fix: how often to save is a trade between energy and the work a crash loses.

    ## Options
    None.
    """

    code = "GL311"
    name = "save-in-step-loop"
    MESSAGE = "`{call}()` runs on every training step: saving serialises and writes every weight"
    FIX_TITLE = "Save every N steps (`if step % N == 0:`) or once per epoch"
    VALID = (
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nopt = tf.keras.optimizers.Adam()\n"
            "for step, (x, y) in enumerate(ds):\n"
            "    opt.apply_gradients(zip(g, m.trainable_variables))\n"
            "    if step % 100 == 0:\n        m.save_weights('w.weights.h5')\n"
        ),
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor epoch in range(3):\n"
            "    m.fit(x, y)\n    m.save('m.keras')\n"
        ),
        Valid(  # one step: `take(1)` is no loop
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor x, y in ds.take(1):\n"
            "    m.train_on_batch(x, y)\n    m.save('m.keras')\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nopt = tf.keras.optimizers.Adam()\n"
            "for x, y in ds:\n"
            "    opt.apply_gradients(zip(g, m.trainable_variables))\n"
            "    m.save_weights('w.weights.h5')\n",
            line=6,
        ),
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor x, y in ds:\n"
            "    m.train_on_batch(x, y)\n    tf.saved_model.save(m, 'out')\n",
            line=5,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if _is_save(site.api) and site.repeats(same=("receiver",)) and in_unguarded_step_loop(facts, site):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(call=method(site.api)))
