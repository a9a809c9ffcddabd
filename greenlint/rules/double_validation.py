"""GL317 double-validation: `fit()` validates on data that one of its callbacks evaluates again."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, keyword
from greenlint.rules.callbacks import constructors, function_of, listed
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import is_keras_model_method
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
    (`validation_data=val_ds, callbacks=[CocoMetrics(val_ds)]`). The list may be built by a
    helper function of the file (`callbacks = create_callbacks(model, val_gen)`): the
    callback's arguments are then the helper's parameters, matched to what the fit's function
    passes it. A name that holds a callback built in two branches (`Evaluate` of one module or
    another) holds either. Where the fit's function sets the validation data's name to `None`
    on some path (`if not args.compute_val_loss: val_gen = None`), the message says the double
    pass happens when the name is not `None`.

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
    CALLS = frozenset({"fit", "fit_generator"})
    DEFAULT_ENABLED = False  # opt-in until bench/realworld/ shows its precision
    MESSAGE = (
        "`{method}()` validates on `{data}` every epoch{when}, and its callback `{callback}` is given the same data:"
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
        Valid(  # the helper's callback is given other data than the fit validates on
            "import tensorflow as tf\n"
            "def make_callbacks(generator):\n    callbacks = [Evaluate(generator)]\n    return callbacks\n"
            "def main():\n    m = tf.keras.Sequential()\n    callbacks = make_callbacks(test_gen)\n"
            "    m.fit(train_gen, epochs=50, validation_data=val_gen, callbacks=callbacks)\n"
        ),
    )
    INVALID = (
        Invalid(  # a helper of the file builds the callbacks from its parameter; the fit's data is passed to it
            "import tensorflow as tf\n"
            "def make_callbacks(net, generator):\n    callbacks = []\n"
            "    if coco:\n        evaluation = CocoEvaluate(generator, net)\n"
            "    else:\n        evaluation = VocEvaluate(generator, net)\n"
            "    callbacks.append(evaluation)\n    return callbacks\n"
            "def main():\n    m = tf.keras.Sequential()\n    callbacks = make_callbacks(m, val_gen)\n"
            "    if not compute_val_loss:\n        val_gen = None\n"
            "    m.fit(train_gen, epochs=50, validation_data=val_gen, callbacks=callbacks)\n",
            line=15,
            message_contains="every epoch (when `val_gen` is not None), and its callback `CocoEvaluate`",
        ),
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
            if call is None:
                continue
            validation, callbacks = keyword(call, "validation_data"), keyword(call, "callbacks")
            if validation is None or callbacks is None:
                continue
            data = flow.names(validation.value)
            elements = listed(facts, callbacks.value) if data else None
            cell = site.callsite.span.cell
            fitting = function_of(facts, call)
            for made in (m for element in elements or () for m in constructors(facts, element) or ()):
                if _api(facts, made, cell) in NOT_EVALUATING:
                    continue
                given = frozenset().union(*(flow.names(a) for a in (*made.args, *(k.value for k in made.keywords))))
                if _passed(facts, made, given, fitting, cell) & data:
                    unset = _set_to_none(fitting or facts.module(cell), data)
                    yield self.diagnostic(
                        site.callsite.span,
                        facts.path,
                        self.MESSAGE.format(
                            method=site.api.rsplit(".", 1)[-1],
                            data=ast.unparse(validation.value),
                            callback=ast.unparse(made.func).rsplit(".", 1)[-1],
                            when=f" (when `{unset}` is not None)" if unset else "",
                        ),
                    )
                    break


def _passed(facts: FileFacts, made: ast.Call, given: frozenset, fitting: ast.AST | None, cell: int | None) -> frozenset:
    """The names of the fit's function that the callback's constructor is given: *given* itself
    where the callback is built beside the fit; where a helper function of the file builds it
    (`callbacks = create_callbacks(model, val_gen)` and, in the helper, `Evaluate(val_gen)`), what
    the fit's function passes to the helper's parameters among *given*, matched by position and by
    keyword."""
    helper = function_of(facts, made)
    if helper is None or helper is fitting:
        return given
    params = [a.arg for a in (*helper.args.posonlyargs, *helper.args.args)]
    found: set[str] = set()
    root = fitting if fitting is not None else facts.module(cell)
    for node in ast.walk(root) if root is not None else ():
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == helper.name):
            continue
        bound = {**dict(zip(params, node.args)), **{k.arg: k.value for k in node.keywords if k.arg}}
        for name in given:
            if name in bound:
                found |= flow.names(bound[name])
    return frozenset(found)


def _set_to_none(root: ast.AST | None, data: frozenset) -> str | None:
    """A name of the validation data that the fit's function sets to None on some path
    (`if not args.compute_val_loss: val_gen = None`): the fit validates only on the others."""
    for node in ast.walk(root) if root is not None else ():
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value is None:
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id in data:
                    return target.id
    return None


def _api(facts: FileFacts, call: ast.Call, cell: int | None) -> str | None:
    """The callback's API (*cell*: the fit's, where the callback is most often built too), else
    the Keras callback its class name says."""
    site = facts.site_at(call, cell)
    if site is not None:
        return site.api
    name = last_name(call.func)
    return (
        "tensorflow.keras.callbacks." + name
        if name and "tensorflow.keras.callbacks." + name in NOT_EVALUATING
        else None
    )
