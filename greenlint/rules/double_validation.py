"""GL317 double-validation: `fit()` validates on data that one of its callbacks evaluates again."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.analysis.handed import PER_EPOCH
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, keyword
from greenlint.rules.callbacks import constructors, function_of, is_self_attribute, listed
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.hooks import FittedHook, fitted_hooks
from greenlint.rules.site import Site, is_keras_model_method
from greenlint.rules.syntax import last_name
from greenlint.rules.unread_evaluation import RUNS_MODEL, unguarded_calls

#: Keras callbacks that may be given data without running the model over it every epoch.
NOT_EVALUATING = frozenset(
    "tensorflow.keras.callbacks." + name for name in ("TensorBoard", "ModelCheckpoint", "CSVLogger", "BackupAndRestore")
)


#: A callback class whose `on_epoch_end` runs `{hook}` (its model over data, or not), the model fit
#: with `{fit}`.
SCORED = (
    "import numpy as np\nimport tensorflow as tf\nx_val, y_val = np.zeros((500, 784)), np.zeros((500,))\n\n\n"
    "class Scores(tf.keras.callbacks.Callback):\n    def on_epoch_end(self, epoch, logs=None):\n{hook}\n\n"
    "m = tf.keras.Sequential([tf.keras.Input((784,)), tf.keras.layers.Dense(10)])\n"
    "m.compile(optimizer='adam', loss='sparse_categorical_crossentropy')\n{fit}\n"
)
#: The fit validating on the module's data, given the callback through a name.
FIT_SCORED = "scores = Scores()\nm.fit(x, y, epochs=10, validation_data=(x_val, y_val), callbacks=[scores])"


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

    Also flags such a `fit()` where the `on_epoch_end` of a callback class the file defines
    directly on `Callback` (or `ModelCheckpoint`, `TensorBoard`: its own hook's work), given to that fit, runs its model (`self.model.predict`/`evaluate`,
    or a Keras model the analysis resolves) over the same data on every epoch (under no `if`): a
    module name of `validation_data` the hook reads (`self.model.predict(x_val)`, where neither
    the hook nor the fit's function binds `x_val` itself), or Keras 2's
    `self.validation_data`, which `fit` fills with its own validation data where the class never
    sets that attribute. A class defined so, in a project module the file
    imports it from is read too, for `self.validation_data` alone (that module's names are not
    the fit's data); the message names the module.

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
    HOOK_MESSAGE = (
        "`{method}()` validates on `{data}` every epoch, and the `on_epoch_end` of its callback `{callback}` runs"
        " the model over the same data again (`{call}` at line {line}{of}): the validation set is run through the"
        " model twice per epoch"
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
        Valid(  # the callback runs the model over other data than the fit validates on
            SCORED.format(hook="        print(self.model.evaluate(x_train[:500], y_train[:500]))", fit=FIT_SCORED)
        ),
        Valid(  # every fifth epoch only
            SCORED.format(
                hook="        if epoch % 5 == 0:\n            print(self.model.predict(x_val))", fit=FIT_SCORED
            )
        ),
        Valid(  # the hook only logs the scalars Keras computed
            SCORED.format(hook="        print(logs['val_loss'])", fit=FIT_SCORED)
        ),
        Valid(  # the callback is given to no fit
            SCORED.format(
                hook="        print(self.model.predict(x_val))",
                fit="scores = Scores()\nm.fit(x, y, epochs=10, validation_data=(x_val, y_val))",
            )
        ),
        Valid(  # the hook's `x_val` is its own (a sample of the data), not the module's
            SCORED.format(hook="        x_val = noise(8)\n        print(self.model.predict(x_val))", fit=FIT_SCORED)
        ),
        Valid(  # the class keeps its own `validation_data`, which Keras does not fill
            SCORED.format(
                hook="        print(self.model.predict(self.validation_data))\n"
                "    def set_data(self, data):\n        self.validation_data = data",
                fit=FIT_SCORED,
            )
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
        Invalid(  # the callback's `on_epoch_end` predicts the module's validation set the fit validates on
            SCORED.format(
                hook="        predicted = self.model.predict(x_val).argmax(1)\n        print((predicted == y_val).mean())",
                fit=FIT_SCORED,
            ),
            line=14,
            message_contains="the `on_epoch_end` of its callback `Scores` runs the model over the same data again"
            " (`self.model.predict` at line 8)",
        ),
        Invalid(  # Keras 2 fills `self.validation_data` with the fit's validation data
            SCORED.format(
                hook="        x, y = self.validation_data[0], self.validation_data[1]\n"
                "        print(self.model.evaluate(self.validation_data[0], self.validation_data[1]))",
                fit=FIT_SCORED,
            ),
            line=14,
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
            else:
                yield from self.hook_passes(facts, site, validation.value, data)

    def hook_passes(self, facts: FileFacts, site: Site, validation: ast.expr, data: frozenset) -> Iterator[Diagnostic]:
        """The fit *site*, where the `on_epoch_end` of a callback class of the file given to it runs
        its model over the data the fit validates on (`_hook_pass`): one finding per fit."""
        fitting = function_of(facts, facts.node(site) or validation)
        given = data - _locals(fitting) if fitting is not None else data
        for hook in fitted_hooks(facts, PER_EPOCH):
            if hook.fit is not site:
                continue
            found = _hook_pass(facts, hook, given)
            if found is not None:
                message = self.HOOK_MESSAGE.format(
                    method=site.api.rsplit(".", 1)[-1],
                    data=ast.unparse(validation),
                    callback=ast.unparse(hook.made.func),
                    call=ast.unparse(found.func),
                    line=found.lineno,
                    of=hook.of(facts),
                )
                yield self.diagnostic(site.callsite.span, facts.path, message)
                return


def _hook_pass(facts: FileFacts, hook: FittedHook, data: frozenset) -> ast.Call | None:
    """A call the per-epoch *hook* makes on every epoch (under no `if`) that runs a Keras model over
    the fit's validation data: `self.model.predict(x_val)` (or a model the analysis resolves) given
    a global name of *data* that the hook does not bind (of the file: another module's globals are
    not the fit's), or Keras 2's `self.validation_data`, which `fit` fills with its own where the class
    sets no such attribute."""
    own = _locals(hook.function)
    for call in unguarded_calls(hook.function):
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in RUNS_MODEL:
            continue
        site = facts.site_at(call, hook.cell)
        if not (_self_model(func.value) or site is not None and is_keras_model_method(site.api, RUNS_MODEL)):
            continue
        given = [*call.args, *(k.value for k in call.keywords)]
        read = frozenset().union(*(flow.names(a) for a in given)) - own if hook.module is None else frozenset()
        if read & data or any(_fit_filled(hook, a) for a in given):
            return call
    return None


def _self_model(node: ast.expr) -> bool:
    """`self.model`: the model Keras gives a callback."""
    return is_self_attribute(node) and node.attr == "model"


def _fit_filled(hook: FittedHook, given: ast.expr) -> bool:
    """*given* reads `self.validation_data` (or an item of it) of a callback class that never sets
    that attribute: Keras 2 fills it with the fit's validation data."""
    read = any(is_self_attribute(n) and n.attr == "validation_data" for n in ast.walk(given))
    return read and not any(
        isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and n.attr == "validation_data"
        for n in ast.walk(hook.owner)
    )


def _locals(function: ast.AST) -> frozenset:
    """The names a function binds (its parameters, what it assigns): not the module's."""
    arguments = getattr(function, "args", None)
    params = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)} if arguments else set()
    stored = {n.id for n in flow.own_nodes(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return frozenset(params | stored)


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
