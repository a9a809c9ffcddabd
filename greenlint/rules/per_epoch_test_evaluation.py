"""GL319 per-epoch-test-evaluation: a callback runs the model over the test data after every epoch."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import is_keras_model_method
from greenlint.rules.syntax import cell_units, last_name
from greenlint.rules.unread_evaluation import RUNS_MODEL, unguarded_calls, unread_passes

#: The word that names test data in a variable (`test_data`, `x_test`, `self.test_generator`).
TEST_WORD = re.compile(r"(?:^|_)test(?:$|_|s$|set$|ing$)", re.IGNORECASE)
#: A detection callback computing its mAP over the validation set each epoch (`{hook}`: more
#: lines of `on_epoch_end`), given to a fit with more callbacks (`{more}`) and epochs (`{epochs}`).
MAP_CALLBACK = (
    "import tensorflow as tf\n"
    "def detections(generator, model):\n    found = []\n    for i in range(generator.size()):\n"
    "        found.append(model.predict_on_batch(generator.load_image(i)))\n    return found\n"
    "class Evaluate(tf.keras.callbacks.Callback):\n"
    "    def __init__(self, generator, model):\n        self.generator = generator\n        self.active_model = model\n"
    "    def on_epoch_end(self, epoch, logs=None):\n"
    "{hook}"
    "m = tf.keras.Sequential()\nevaluation = Evaluate(val_generator, m)\n"
    "m.fit(train_generator, epochs={epochs}, callbacks=[evaluation{more}])\n"
)
#: The pass's result only printed.
SHOWN = "        score = mean_ap(detections(self.generator, self.active_model))\n        print(score)\n"


class PerEpochTestEvaluation(Rule):
    """
    ## What it does
    Flags, in the `on_epoch_end` of a Keras callback class the file defines, a call given test
    data (a name whose words include `test`: `test_data`, `x_test`, `self.test_generator`)
    that runs the model over it: a Keras `predict`/`evaluate` (or their `_on_batch` and
    `_generator` forms) on a model (the callback's own `self.model` included), or a function or method of the file that runs one,
    directly or through others of the file (`evaluate(test_generator)` whose loop calls
    `model.predict`). Not reported: a call under an `if` of `on_epoch_end` (every few epochs,
    on a flag), and one whose result decides something there (read by an `if`: the test data
    serves as validation data, to keep the best weights or to stop) or is written into `logs`
    (where `EarlyStopping` or `ModelCheckpoint` may monitor it).

    Also flagged, whatever the data's name, in the file of a `fit()` (or `fit_generator()`) of more
    than one epoch: a callback of its `callbacks=` (read as GL308 reads them) made from a class
    of the file or of a project module it imports, directly on Keras' `Callback`, whose
    `on_epoch_end` runs a model over data on every epoch (a call not under an `if`, of a function
    of that module or one it imports from the project, given two attributes `__init__` set from
    its parameters, the data and the model: a function that runs `predict`/`evaluate` on a model
    it is given, or `predict_on_batch` in a loop, directly or through functions it passes them to,
    as a detection callback computes its mAP) while nothing acts on the result: no `if` of the
    hook reads it (a test that it `is None` aside), the class keeps no attribute from it that
    another of its methods reads, saves or sets no weights, sets neither `stop_training` nor a
    learning rate, and where it writes `logs`, the fit's other callbacks are known to ignore
    them (`TensorBoard`, `CSVLogger`, `ProgbarLogger`, `History`, `TerminateOnNaN`,
    `BackupAndRestore`, a `ModelCheckpoint` that keeps every epoch). The pass is then only shown
    (printed, sent to TensorBoard, written to a file): it is reported at the callback's
    construction.

    ## Why is this bad?
    Training only needs the validation data to choose when to stop and which weights to keep;
    the test data is for the final figure, once, on the chosen model. Running the model over
    the test set after every epoch adds a full inference pass per epoch (as costly as the
    validation pass, often more) whose results cannot be used without leaking the test set
    into the choice of the model. Evaluate the test set once after training, on the best
    weights. A pass over the validation data that nothing acts on is the same cost for a
    curve to look at: run it every few epochs (or on a subset), or let it choose the weights or
    stop the training.

    ## Example
    ```python
    class Evaluator(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            val_acc = evaluate(valid_data)
            if val_acc > self.best:
                self.best = val_acc
                model.save_weights("best.weights")
            test_acc = evaluate(test_data)
    ```

    ## Use instead
    ```python
    class Evaluator(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            val_acc = evaluate(valid_data)
            if val_acc > self.best:
                self.best = val_acc
                model.save_weights("best.weights")

    model.fit(train, epochs=10, callbacks=[Evaluator()])
    model.load_weights("best.weights")
    test_acc = evaluate(test_data)
    ```

    ## Energy evidence
    The pair under bench/rules/ trains a small convolutional network for 4 epochs on 1,024
    images of 32×32, with a callback that keeps the best weights on 256 validation images:
    before, it also predicts 256 test images after every epoch; after, once after training, on
    the best weights. The saving is the test passes but one, against each epoch's training and
    validation.

    ## Fix safety
    No automatic fix: the evaluation has to move after training, on the weights kept.

    ## Options
    None.
    """

    code = "GL319"
    name = "per-epoch-test-evaluation"
    MENTIONS = ("callbacks", "on_epoch_end")  # where each kind of finding is made
    MESSAGE = (
        "`on_epoch_end` runs the model over the test data (`{data}`) after every epoch: evaluate it once,"
        " after training"
    )
    UNREAD_MESSAGE = (
        "`{callback}` runs the model over `{data}` after every epoch (its `on_epoch_end`) and nothing in this"
        " training acts on the result (no callback monitors it, no weights are kept by it): evaluate every few"
        " epochs or once after training, or let the result choose the weights or stop the training"
    )
    FIX_TITLE = "Evaluate the test data once after training, on the weights kept"
    VALID = (
        Valid(  # the mAP the callback writes into logs is what EarlyStopping monitors
            MAP_CALLBACK.format(
                hook=SHOWN + "        logs['mAP'] = score\n",
                epochs=50,
                more=", tf.keras.callbacks.EarlyStopping(monitor='mAP', mode='max')",
            )
        ),
        Valid(  # the result chooses the weights kept
            MAP_CALLBACK.format(
                hook=SHOWN + "        if score > self.best:\n            self.model.save_weights('best.h5')\n",
                epochs=50,
                more="",
            )
        ),
        Valid(  # every fifth epoch only
            MAP_CALLBACK.format(
                hook="        if epoch % 5 == 0:\n            print(mean_ap(detections(self.generator, self.active_model)))\n",
                epochs=50,
                more="",
            )
        ),
        Valid(MAP_CALLBACK.format(hook=SHOWN, epochs=1, more="")),  # one epoch: the pass runs once
        Valid(  # a grid of samples drawn from a fixed seed, not a pass over the data
            "import tensorflow as tf\n"
            "def save_grid(model, seed):\n    save_images(model.predict(seed))\n"
            "class Monitor(tf.keras.callbacks.Callback):\n"
            "    def __init__(self, generator, seed):\n        self.generator = generator\n        self.seed = seed\n"
            "    def on_epoch_end(self, epoch, logs=None):\n        save_grid(self.generator, self.seed)\n"
            "m = tf.keras.Sequential()\nm.fit(x, epochs=50, callbacks=[Monitor(m, noise)])\n"
        ),
        Valid(  # one sample shown per epoch, not a pass over the data
            MAP_CALLBACK.format(
                hook="        print(self.active_model.predict_on_batch(self.generator.load_image(0)))\n",
                epochs=50,
                more="",
            )
        ),
        Valid(  # validation data each epoch is what callbacks are for
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Evaluator(tf.keras.callbacks.Callback):\n"
            "    def on_epoch_end(self, epoch, logs=None):\n        m.evaluate(valid_data)\n"
        ),
        Valid(  # every tenth epoch only
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Evaluator(tf.keras.callbacks.Callback):\n"
            "    def on_epoch_end(self, epoch, logs=None):\n"
            "        if epoch % 10 == 0:\n            m.evaluate(x_test, y_test)\n"
        ),
        Valid(  # the function given the test data never runs the model
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def count(data):\n    return len(data)\n"
            "class Evaluator(tf.keras.callbacks.Callback):\n"
            "    def on_epoch_end(self, epoch, logs=None):\n        print(count(test_data))\n"
        ),
        Valid(  # after training, once
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=10)\nm.evaluate(x_test, y_test)\n"
        ),
        Valid(  # no validation data: the test accuracy chooses the weights kept
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Evaluator(tf.keras.callbacks.Callback):\n"
            "    def on_epoch_end(self, epoch, logs=None):\n"
            "        acc = m.evaluate(x_test, y_test)[1]\n"
            "        if acc > self.best:\n            self.best = acc\n            m.save_weights('best.h5')\n"
        ),
        Valid(  # written into logs, where EarlyStopping(monitor="test_loss") may read it
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Evaluator(tf.keras.callbacks.Callback):\n"
            "    def on_epoch_end(self, epoch, logs=None):\n"
            "        loss = m.evaluate(x_test, y_test)\n        logs['test_loss'] = loss\n"
        ),
        Valid(  # `latest` and `contest` are not test data
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Evaluator(tf.keras.callbacks.Callback):\n"
            "    def on_epoch_end(self, epoch, logs=None):\n        m.predict(latest_batch)\n"
        ),
    )
    INVALID = (
        Invalid(  # the mAP is printed only
            MAP_CALLBACK.format(hook=SHOWN, epochs=50, more=""),
            line=15,
            message_contains="`Evaluate` runs the model over `val_generator` after every epoch",
        ),
        Invalid(  # written into logs, where only a TensorBoard and a checkpoint of every epoch look
            MAP_CALLBACK.format(
                hook=SHOWN + "        logs['mAP'] = score\n",
                epochs=50,
                more=", tf.keras.callbacks.TensorBoard('logs'), tf.keras.callbacks.ModelCheckpoint('w.{epoch}.h5')",
            ),
            line=16,
        ),
        Invalid(  # its pass returns nothing: only a test that it is None reads it
            MAP_CALLBACK.format(
                hook="        stats = detections(self.generator, self.active_model)\n"
                "        if stats is not None and self.verbose:\n            print(stats)\n",
                epochs=50,
                more="",
            ),
            line=16,
        ),
        Invalid(  # through a function of the file whose loop predicts
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def evaluate(data):\n    right = 0\n    for x, y in data:\n"
            "        right += (m.predict(x).argmax(1) == y).sum()\n    return right\n"
            "class Evaluator(tf.keras.callbacks.Callback):\n"
            "    def on_epoch_end(self, epoch, logs=None):\n"
            "        val = evaluate(valid_generator)\n        test = evaluate(test_generator)\n",
            line=11,
            message_contains="`test_generator`",
        ),
        Invalid(  # `f1` decided on the validation pass; rebound by the test pass, it is only printed
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Evaluator(tf.keras.callbacks.Callback):\n"
            "    def on_epoch_end(self, epoch, logs=None):\n"
            "        f1 = m.evaluate(x_valid, y_valid)\n"
            "        if f1 > self.best:\n            self.best = f1\n"
            "        f1 = m.evaluate(x_test, y_test)\n        print(f1)\n",
            line=8,
        ),
        Invalid(  # directly, on the callback's own copy of the data
            "import tensorflow as tf\n"
            "class Evaluator(tf.keras.callbacks.Callback):\n"
            "    def __init__(self, x_test, y_test):\n        self.x_test, self.y_test = x_test, y_test\n"
            "    def on_epoch_end(self, epoch, logs=None):\n        self.model.evaluate(self.x_test, self.y_test)\n"
            "m = tf.keras.Sequential()\nm.fit(x, y, epochs=10, callbacks=[Evaluator(x_test, y_test)])\n",
            line=6,
        ),
        Invalid(  # through a method of a class of the file
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Recognizer:\n    def recognize(self, text):\n        return m.predict([text])[0]\n"
            "def evaluate(data):\n    return [NER.recognize(d) for d in data]\n"
            "NER = Recognizer()\n"
            "class Evaluator(tf.keras.callbacks.Callback):\n"
            "    def on_epoch_end(self, epoch, logs=None):\n        f1 = evaluate(test_data)\n",
            line=11,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if "callbacks" in facts.text:
            for found in unread_passes(facts):
                message = self.UNREAD_MESSAGE.format(callback=found.callback, data=found.data)
                yield self.diagnostic(facts.span(found.made, found.cell), facts.path, message)
        if "on_epoch_end" not in facts.text:
            return
        model_calls = {
            id(call)
            for s in facts.sites
            if is_keras_model_method(s.api, RUNS_MODEL) and (call := facts.node(s)) is not None
        }
        functions: dict[str, list[ast.AST]] = {}
        hooks: list[tuple[int | None, ast.FunctionDef]] = []
        notebook = not isinstance(facts.source, str)
        for index, (unit, _) in enumerate(cell_units(facts), 1):
            for node in facts.nodes(unit, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    functions.setdefault(node.name, []).append(node)
                elif isinstance(node, ast.ClassDef) and any(last_name(b) == "Callback" for b in node.bases):
                    hooks += [
                        (index if notebook else None, f)
                        for f in node.body
                        if isinstance(f, ast.FunctionDef) and f.name == "on_epoch_end"
                    ]
        for cell, hook in hooks:
            for call in unguarded_calls(hook):
                data = next((a for a in (*call.args, *(k.value for k in call.keywords)) if _names_test(a)), None)
                if data is None or _decides(hook, call):
                    continue
                if (
                    id(call) in model_calls
                    or _on_own_model(call)
                    or _runs_model(functions.get(last_name(call.func), []), functions, model_calls)
                ):
                    yield self.diagnostic(
                        facts.span(call, cell), facts.path, self.MESSAGE.format(data=ast.unparse(data))
                    )


def _decides(hook: ast.FunctionDef, call: ast.Call) -> bool:
    """The call's result (or a name derived from it) is read, after the call, by an `if`/`while`
    test of the hook or written into its `logs`: the evaluation chooses weights or stops
    training, so it is not a pass whose result is only shown. (Only what follows the call: a name
    the validation pass bound before, `f1` tested and then rebound by the test pass, decides
    nothing of the test pass.)"""
    bound = frozenset().union(
        *(
            flow.targets(t)
            for node in ast.walk(hook)
            if isinstance(node, ast.Assign) and any(n is call for n in ast.walk(node.value))
            for t in node.targets
        )
    )
    results = flow.derived(bound, hook.body)
    if not results:
        return False
    end = call.end_lineno or call.lineno
    for node in ast.walk(hook):
        if not isinstance(node, ast.stmt | ast.expr) or node.lineno <= end:
            continue
        if isinstance(node, (ast.If, ast.While, ast.IfExp)) and flow.names(node.test) & results:
            return True
        if (
            isinstance(node, ast.Assign)
            and flow.names(node.value) & results
            and any("logs" in flow.names(t) for t in node.targets if not isinstance(t, ast.Name))
        ):
            return True
    return False


def _on_own_model(call: ast.Call) -> bool:
    """`self.model.evaluate(...)` in a callback: Keras sets a callback's `model` to the model it trains."""
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in RUNS_MODEL
        and isinstance(func.value, ast.Attribute)
        and func.value.attr == "model"
        and isinstance(func.value.value, ast.Name)
        and func.value.value.id == "self"
    )


def _names_test(expr: ast.expr) -> bool:
    """A name (or attribute) whose words name test data."""
    name = last_name(expr)
    return bool(name) and TEST_WORD.search(name) is not None


def _runs_model(
    defs: list[ast.AST], functions: dict[str, list[ast.AST]], model_calls: set[int], seen: frozenset[str] = frozenset()
) -> bool:
    """Whether one of the functions (or a function or method of the file they call, by name)
    runs a Keras model method."""
    for func in defs:
        for node in ast.walk(func):
            if not isinstance(node, ast.Call):
                continue
            if id(node) in model_calls:
                return True
            name = last_name(node.func)
            if (
                name in functions
                and name not in seen
                and _runs_model(functions[name], functions, model_calls, seen | {name})
            ):
                return True
    return False
