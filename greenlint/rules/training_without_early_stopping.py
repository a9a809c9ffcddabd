"""GL308 training-without-early-stopping: many epochs with validation data and no `EarlyStopping`."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Option, Rule, Valid, is_keras_model_method, keyword
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.syntax import text_mentions, units

EARLY_STOPPING = "tensorflow.keras.callbacks.EarlyStopping"
#: Keras callbacks that never end training when the model stops improving.
NOT_STOPPING = frozenset(
    "tensorflow.keras.callbacks." + name
    for name in (
        "TensorBoard",
        "ModelCheckpoint",
        "CSVLogger",
        "ReduceLROnPlateau",
        "TerminateOnNaN",
        "BackupAndRestore",
        "ProgbarLogger",
        "History",
        "RemoteMonitor",
    )
)


def _constructor(facts: FileFacts, node: ast.expr) -> ast.Call | None:
    """The call that made a callback: the element itself, or the one call a name in it is
    assigned from in the file (or notebook)."""
    if isinstance(node, ast.Call):
        return node
    if not isinstance(node, ast.Name):
        return None
    made = [
        a.value
        for tree in units(facts)
        for a in ast.walk(tree)
        if isinstance(a, ast.Assign) and any(isinstance(t, ast.Name) and t.id == node.id for t in a.targets)
    ]
    return made[0] if len(made) == 1 and isinstance(made[0], ast.Call) else None


def _may_stop(facts: FileFacts, callbacks: ast.List | ast.Tuple, apis: dict[int, str]) -> bool:
    """Whether a callback of the list may end training: anything not known to never stop it.
    *apis*: each call node's API (by id), in every cell."""
    for element in callbacks.elts:
        call = _constructor(facts, element)
        if call is None or apis.get(id(call)) not in NOT_STOPPING:
            return True
    return False


class TrainingWithoutEarlyStopping(Rule):
    """
    ## What it does
    Flags `fit()` on a Keras model with a literal `epochs` of at least `min-epochs` (default 20)
    and validation data (`validation_data=` or `validation_split=`), in a file that creates no
    `EarlyStopping` callback and never sets `stop_training` itself. When `callbacks=` is given
    as anything but a literal list, the callbacks are unknown and nothing is reported.

    Only callbacks known not to end training leave the fit uncapped: Keras' `TensorBoard`,
    `ModelCheckpoint`, `CSVLogger`, `ReduceLROnPlateau`, `TerminateOnNaN` (it stops on a NaN,
    not when learning is done), `BackupAndRestore`, `ProgbarLogger`, `History`,
    `RemoteMonitor`. Any other callback in the list may stop training or makes the epoch count
    part of the design, so the fit is not reported: a `TimeStopping` that caps the wall time, a
    `LearningRateScheduler` or `LambdaCallback` driven by the epoch number (stopping early
    would cut the schedule short), a class of the project or of another library.

    ## Why is this bad?
    With validation data the program can tell when the model stops improving; without a
    stopping rule it trains all the epochs anyway, and every epoch after the best one is energy
    spent on a model that is not kept (or is worse). Keras' `EarlyStopping(monitor="val_loss",
    patience=..., restore_best_weights=True)` ends training once the validation metric stops
    improving.

    ## Example
    ```python
    model.fit(x, y, epochs=200, validation_split=0.2)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    stop = tf.keras.callbacks.EarlyStopping(monitor="val_loss", patience=10, restore_best_weights=True)
    model.fit(x, y, epochs=200, validation_split=0.2, callbacks=[stop])
    ```

    ## Energy evidence
    How many epochs early stopping saves depends on the data and the model: the pair under
    bench/rules/ shows one case (a small regression that stops improving early), not a general
    figure.

    ## Fix safety
    No automatic fix: stopping early changes the trained model, and the right patience is a
    choice about the problem.

    ## Options
    - `min-epochs`
    """

    code = "GL308"
    name = "training-without-early-stopping"
    MESSAGE = "`fit()` runs {epochs} epochs with validation data but nothing stops it when validation stops improving"
    FIX_TITLE = "Add a `tf.keras.callbacks.EarlyStopping(restore_best_weights=True)` callback"
    OPTIONS = (Option("min-epochs", int, 20, "GL308 flags fit() with at least this many epochs."),)
    VALID = (
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "stop = tf.keras.callbacks.EarlyStopping(patience=3)\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=[stop])\n"
        ),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=100)\n"),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=5, validation_split=0.2)\n"),
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=make_callbacks())\n"
        ),
        Valid(  # TimeStopping caps the wall time
            "import tensorflow as tf\nimport tensorflow_addons as tfa\nm = tf.keras.Sequential()\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=[tfa.callbacks.TimeStopping(seconds=600)])\n"
        ),
        Valid(  # an epoch-driven schedule: the epoch count is part of the design
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "schedule = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 0.01 * 0.9 ** epoch)\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=[schedule])\n"
        ),
        Valid(  # a project callback may stop training (it is defined elsewhere)
            "import tensorflow as tf\nfrom .callbacks import StopAtAccuracy\nm = tf.keras.Sequential()\n"
            "stop = StopAtAccuracy(0.99)\n"
            "m.fit(x, y, epochs=100, validation_data=(vx, vy), callbacks=[tf.keras.callbacks.TensorBoard(), stop])\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=100, validation_data=(vx, vy))\n",
            line=3,
            message_contains="100 epochs",
        ),
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(x, y, epochs=50, validation_split=0.1, callbacks=[tf.keras.callbacks.TensorBoard()])\n"
        ),
        Invalid(  # neither a learning-rate schedule nor stopping on NaN caps training
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "plateau = tf.keras.callbacks.ReduceLROnPlateau(patience=5)\n"
            "m.fit(x, y, epochs=200, validation_split=0.2, callbacks=[plateau, tf.keras.callbacks.TerminateOnNaN()])\n",
            line=4,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        minimum = int(options.get("min-epochs", 20))
        if any(s.api == EARLY_STOPPING for s in facts.sites) or text_mentions(facts, "stop_training"):
            return
        apis: dict[int, str] | None = None  # built once, for the first fit with a callbacks list
        for site in facts.sites:
            epochs = site.features.get("epochs")
            if not (is_keras_model_method(site.api, ("fit",)) and isinstance(epochs, int) and epochs >= minimum):
                continue
            call = facts.node(site)
            if call is None or not (keyword(call, "validation_data") or keyword(call, "validation_split")):
                continue
            callbacks = keyword(call, "callbacks")
            if callbacks is not None and not isinstance(callbacks.value, (ast.List, ast.Tuple)):
                continue
            if callbacks is not None:
                apis = apis if apis is not None else {id(facts.node(s)): s.api for s in facts.sites}
                if _may_stop(facts, callbacks.value, apis):
                    continue
            yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(epochs=epochs))
