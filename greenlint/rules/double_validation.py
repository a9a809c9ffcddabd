"""GL317 double-validation: `fit()` validates on data that one of its callbacks evaluates again."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, is_keras_model_method, keyword
from greenlint.rules.callbacks import constructor, listed
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.syntax import last_name

#: Keras callbacks that may be given data without running the model over it every epoch.
NOT_EVALUATING = frozenset(
    "tensorflow.keras.callbacks." + name for name in ("TensorBoard", "ModelCheckpoint", "CSVLogger", "BackupAndRestore")
)


class DoubleValidation(Rule):
    """
    ## What it does
    Flags `fit()` (or `fit_generator()`) on a Keras model given `validation_data=` when a
    callback of its `callbacks=` list (a literal list, or the name of one the file builds) is
    built with the same data: a name of `validation_data` among the callback's arguments
    (`validation_data=val_ds, callbacks=[CocoMetrics(val_ds)]`).

    ## Why is this bad?
    Keras runs the model over `validation_data` at the end of every epoch to report the loss
    and compiled metrics. A callback given the same data (a detection metric, a
    visualisation, a custom evaluation) runs the model over it again in its `on_epoch_end`:
    every epoch pays for two full passes over the validation set where one would do. Compute
    the callback's metric from one pass (let it report the loss too, and drop
    `validation_data`), or run the two on different epochs (`validation_freq`).

    ## Example
    ```python
    model.fit(train, epochs=50, validation_data=val, callbacks=[CocoMetricCallback(val)])
    ```

    ## Use instead
    ```python
    model.fit(train, epochs=50, callbacks=[CocoMetricCallback(val)])  # the callback reports the loss too
    ```

    ## Energy evidence
    Not measured: the saving is, by construction, the second pass over the validation set
    each epoch; bench/rules/not_measurable.json says so.

    ## Fix safety
    No automatic fix: which of the two evaluations to keep, and what the callback reports, is
    the user's choice.

    ## Options
    None.
    """

    code = "GL317"
    name = "double-validation"
    DEFAULT_ENABLED = False  # opt-in until bench/realworld/ shows its precision
    MESSAGE = (
        "`{method}()` validates on `{data}` every epoch, and its callback `{callback}` is given the same data:"
        " the validation set is run through the model twice per epoch"
    )
    FIX_TITLE = "Evaluate the validation data once per epoch"
    VALID = (
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(ds, epochs=5, validation_data=val, callbacks=[tf.keras.callbacks.EarlyStopping()])\n"
        ),
        Valid(  # the callback evaluates other data
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(ds, epochs=5, validation_data=val, callbacks=[CocoMetrics(test_ds)])\n"
        ),
        Valid(  # TensorBoard given the data writes images of it, without running the model
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(ds, epochs=5, validation_data=val, callbacks=[tf.keras.callbacks.TensorBoard(val)])\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(ds, epochs=5, validation_data=val_ds, callbacks=[CocoMetrics(val_ds, every=1)])\n",
            line=3,
            message_contains="its callback `CocoMetrics` is given the same data",
        ),
        Invalid(  # through the name of the list, and a name the callback is bound to
            "import tensorflow as tf\nm = tf.keras.Sequential()\nevaluator = EvaluateCallback(data=(x_val, y_val))\n"
            "callbacks = [tf.keras.callbacks.TensorBoard()]\ncallbacks.append(evaluator)\n"
            "m.fit(x, y, epochs=5, validation_data=(x_val, y_val), callbacks=callbacks)\n",
            line=6,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if not is_keras_model_method(site.api, ("fit", "fit_generator")):
                continue
            call = facts.node(site)
            validation, callbacks = keyword(call, "validation_data"), keyword(call, "callbacks")
            if validation is None or callbacks is None:
                continue
            data = flow.names(validation.value)
            elements = listed(facts, callbacks.value) if data else None
            for element in elements or ():
                made = constructor(facts, element)
                if made is None or _api(facts, made, site.callsite.span.cell) in NOT_EVALUATING:
                    continue
                given = frozenset().union(*(flow.names(a) for a in (*made.args, *(k.value for k in made.keywords))))
                if given & data:
                    yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(
                        method=site.api.rsplit(".", 1)[-1], data=ast.unparse(validation.value),
                        callback=ast.unparse(made.func).rsplit(".", 1)[-1],
                    ))
                    break


def _api(facts: FileFacts, call: ast.Call, cell: int | None) -> str | None:
    """The callback's API (*cell*: the fit's, where the callback is most often built too), else
    the Keras callback its class name says."""
    site = facts.site_at(call, cell)
    if site is not None:
        return site.api
    name = last_name(call.func)
    return "tensorflow.keras.callbacks." + name if name and "tensorflow.keras.callbacks." + name in NOT_EVALUATING else None
