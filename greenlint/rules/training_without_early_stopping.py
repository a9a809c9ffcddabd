"""GL308 training-without-early-stopping: many epochs with validation data and no `EarlyStopping`."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Option, Rule, Site, Valid, is_keras_model_method, keyword
from greenlint.rules.callbacks import constructor, listed
from greenlint.rules.defaults import default_value
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.syntax import text_mentions

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


def _may_stop(facts: FileFacts, callbacks: list[ast.expr], apis: dict[int, str]) -> bool:
    """Whether a callback of the list may end training: anything not known to never stop it.
    *apis*: each call node's API (by id), in every cell."""
    for element in callbacks:
        call = constructor(facts, element)
        if call is None or apis.get(id(call)) not in NOT_STOPPING:
            return True
    return False


class TrainingWithoutEarlyStopping(Rule):
    """
    ## What it does
    Flags `fit()` (or `fit_generator()`) on a Keras model with `epochs` of at least
    `min-epochs` (default 20) and validation data (`validation_data=` or `validation_split=`),
    whose callbacks include no `EarlyStopping`, in a file that never sets `stop_training`
    itself. `epochs` is a literal, or the default the program runs with: a parameter's default
    (`def train(epochs=100)`), an argparse option's or an absl flag's (`args.epochs`,
    `FLAGS.epochs`) defined in the file. `callbacks=` is read from a literal list, or from the
    name of a list the file builds (appends included); given any other way (a helper's result,
    `**kwargs`), the callbacks are unknown and nothing is reported. An `EarlyStopping` covers
    the fits it is passed to, not the others of its file.

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
    MESSAGE = "`{method}()` runs {epochs} epochs{basis} with validation data but nothing stops it when validation stops improving"
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
        Valid(  # the list the name holds has an EarlyStopping appended
            "import tensorflow as tf\nm = tf.keras.Sequential()\ncallbacks = [tf.keras.callbacks.TensorBoard()]\n"
            "callbacks.append(tf.keras.callbacks.EarlyStopping(patience=3))\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=callbacks)\n"
        ),
        Valid(  # a flag's small default
            "import argparse\nimport tensorflow as tf\np = argparse.ArgumentParser()\n"
            "p.add_argument('--epochs', type=int, default=5)\nargs = p.parse_args()\nm = tf.keras.Sequential()\n"
            "m.fit(x, y, epochs=args.epochs, validation_split=0.2)\n"
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
        Invalid(  # the name holds a list of callbacks that never stop training
            "import tensorflow as tf\nm = tf.keras.Sequential()\ncbs = [tf.keras.callbacks.ModelCheckpoint('w.h5')]\n"
            "cbs += [tf.keras.callbacks.TensorBoard()]\nm.fit(x, y, epochs=100, validation_split=0.2, callbacks=cbs)\n",
            line=5,
        ),
        Invalid(  # an argparse default
            "import argparse\nimport tensorflow as tf\np = argparse.ArgumentParser()\n"
            "p.add_argument('--num-epochs', type=int, default=300)\nargs = p.parse_args()\nm = tf.keras.Sequential()\n"
            "m.fit(x, y, epochs=args.num_epochs, validation_data=(vx, vy))\n",
            line=7,
            message_contains="300 epochs (the default of `--num_epochs`)",
        ),
        Invalid(  # an absl flag's default
            "import tensorflow as tf\nfrom absl import flags\nflags.DEFINE_integer('epochs', 150, 'epochs')\n"
            "FLAGS = flags.FLAGS\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=FLAGS.epochs, validation_split=0.1)\n",
            line=6,
        ),
        Invalid(  # a parameter's default (its callers are elsewhere)
            "import tensorflow as tf\ndef train(m: tf.keras.Model, epochs=200):\n"
            "    m.fit(x, y, epochs=epochs, validation_split=0.1)\n",
            line=3,
            message_contains="the default of parameter `epochs`",
        ),
        Invalid(  # fit_generator takes validation data too
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit_generator(gen, epochs=100, validation_data=val_gen)\n",
            line=3,
        ),
        Invalid(  # the EarlyStopping of the file goes to another fit only
            "import tensorflow as tf\nm = tf.keras.Sequential()\nstop = tf.keras.callbacks.EarlyStopping(patience=3)\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=[stop])\n"
            "m.fit(x2, y2, epochs=100, validation_split=0.2)\n",
            line=5,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        minimum = int(options.get("min-epochs", 20))
        if text_mentions(facts, "stop_training"):
            return
        apis: dict[int, str] | None = None  # built once, for the first fit with a callbacks list
        for site in facts.sites:
            if not is_keras_model_method(site.api, ("fit", "fit_generator")):
                continue
            call = facts.node(site)
            if call is None or not (keyword(call, "validation_data") or keyword(call, "validation_split")):
                continue
            epochs, basis = _epochs(facts, site, call)
            if epochs is None or epochs < minimum or any(k.arg is None for k in call.keywords):
                continue
            callbacks = keyword(call, "callbacks")
            if callbacks is not None:
                elements = listed(facts, callbacks.value)
                if elements is None:
                    continue
                apis = apis if apis is not None else {id(facts.node(s)): s.api for s in facts.sites}
                if _may_stop(facts, elements, apis):
                    continue
            method = site.api.rsplit(".", 1)[-1]
            message = self.MESSAGE.format(method=method, epochs=epochs, basis=f" ({basis})" if basis else "")
            yield self.diagnostic(site.callsite.span, facts.path, message)


def _epochs(facts: FileFacts, site: Site, call: ast.Call) -> tuple[int | None, str]:
    """The epochs the fit runs (a literal, or the default it runs with) and where that comes from."""
    epochs = site.features.get("epochs")
    if isinstance(epochs, int) and not isinstance(epochs, bool):
        return epochs, ""
    given = keyword(call, "epochs")
    found = default_value(facts, given.value, site.callsite.span.cell) if given is not None else None
    if found is None or not isinstance(found[0], int) or isinstance(found[0], bool):
        return None, ""
    return found[0], found[1]
