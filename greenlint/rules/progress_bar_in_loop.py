"""GL204 progress-bar-in-loop: `fit`/`evaluate`/`predict` drawing a progress bar on every loop iteration."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid, argument
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.keras_flavour import standalone_only
from greenlint.rules.site import is_keras_model_method, method
from greenlint.rules.tf_data_defaults import OPTION
from greenlint.rules.tf_target import target

#: Where `verbose` sits among each method's positional parameters (Keras 2 and 3 agree).
VERBOSE_POSITION = {"fit": 4, "evaluate": 3, "predict": 2}
#: Literal values of `verbose` that draw the per-batch progress bar ("auto" is 1 outside parameter-server training).
PROGRESS_BAR = (1, True, "auto")
#: The first TensorFlow (and Keras) whose `predict()` draws the bar by default (`verbose="auto"`; 0 before).
PREDICT_BAR_SINCE = (2, 9)


class ProgressBarInLoop(Rule):
    """
    ## What it does
    Flags `fit()`, `evaluate()` and `predict()` on a Keras model called inside a Python loop (in
    the loop's own body, not through a helper function) without `verbose`, or with a literal `verbose=1`, `True` or `"auto"` (by keyword or
    position, and with no `*args`/`**kwargs` that could carry it): each call of the loop builds
    and draws a progress bar.

    `predict()` draws it by default only from TensorFlow (and Keras) 2.9 on, whose default
    became `verbose="auto"`; before, its default was 0. So `predict()` without `verbose` is not
    reported where the project targets an older TensorFlow (`tensorflow-version`, or its pins:
    greenlint/rules/tf_target.py), nor in a file that imports the standalone `keras` package and
    never tf.keras, unless the TensorFlow it targets is set or pinned at 2.9 or later: such code
    may run on multi-backend Keras 2.0-2.3 or the standalone Keras up to 2.8, all silent by
    default. `fit()` and `evaluate()` have drawn the bar by default in every version.

    ## Why is this bad?
    With `verbose` left at its default (`"auto"`, which is 1), every call creates a
    `ProgbarLogger` callback that formats and writes a progress line after each batch, and
    the call synchronises with the device to read the running metrics for it. Called once,
    that is noise; called in a loop over samples or epochs, it is repeated formatting and
    terminal (or log-file) output for lines nobody reads: the Keras documentation recommends
    `verbose=2` or 0 when not running interactively. The cost is small beside the calls
    themselves and was not measurable here (see Energy evidence), which is why this rule is
    opt-in: enable it with `--extend-select GL204`. Judged blind on the real-world benchmark,
    once `predict()`'s default is read by version, its findings are 10 true and 4 debatable, none
    false (the 9 false ones before were `predict()` calls of projects on standalone Keras before
    2.9, silent by default); a `fit()` of many epochs repeated by a loop (a sweep) draws no more
    bars than one long `fit()`, a shape not judged yet.

    ## Example
    ```python
    for image in images:
        label = model.predict(image[None])
    ```

    ## Use instead
    ```python
    for image in images:
        label = model.predict(image[None], verbose=0)
    ```

    ## Energy evidence
    The pair under bench/rules/ runs the same 20 one-sample `predict` calls with and without
    the progress bar, its output going to a pipe: there the bar cost nothing measurable (see
    the table; the spread is wider than the difference). The cost grows with the number of
    batches per call and with a terminal or notebook rendering each update; greenlint has no
    measurement of that to state.

    ## Fix safety
    Safe: sets `verbose=0`. The progress bar is console output only: no callback other than
    `ProgbarLogger` is added or removed, and `fit` returns the same `History`, `evaluate` the
    same metrics and `predict` the same arrays. Only the progress lines are no longer written.

    ## Options
    - `tensorflow-version`
    """

    code = "GL204"
    name = "progress-bar-in-loop"
    CALLS = frozenset(VERBOSE_POSITION)
    MESSAGE = "`{method}()` in a loop draws a progress bar on every call (`verbose` defaults to 1)"
    FIX_TITLE = "Set `verbose=0`"
    FIX = FixBy(
        "SetArgument", {"name": "verbose", "value": "0", "positions": tuple(VERBOSE_POSITION.items())}, safe=True
    )
    DEFAULT_ENABLED = False
    OPTIONS = (OPTION,)
    VALID = (
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nfor x in xs:\n    m.predict(x, verbose=0)\n"),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nfor x in xs:\n    m.predict(x, 32, 0)\n"),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nfor x in xs:\n    m.evaluate(x, y, verbose=2)\n"),
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor x in xs:\n    m.fit(x, y, verbose=args.verbose)\n"
        ),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nfor x in xs:\n    m.predict(x, **kw)\n"),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=5)\n"),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nfor x, y in ds.take(1):\n    m.predict(x)\n"),
        Valid(  # TensorFlow 2.8: predict() is silent by default
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor x in xs:\n    y = m.predict(x)\n",
            options={"tensorflow-version": "2.8"},
        ),
    )
    INVALID = (
        Invalid(  # the standalone keras on a TensorFlow set at 2.9 or later: predict() draws the bar
            "from keras.models import Sequential\nfrom keras.layers import Dense\nm = Sequential([Dense(2)])\n"
            "for state in states:\n    q = m.predict(state)\n",
            options={"tensorflow-version": "2.12"},
            line=5,
        ),
        Invalid(  # fit() draws it in every version
            "from keras.models import Sequential\nfrom keras.layers import Dense\nm = Sequential([Dense(2)])\n"
            "for x, y in batches:\n    m.fit(x, y, epochs=1)\n",
            options={"tensorflow-version": "2.3"},
            line=5,
        ),
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor x in xs:\n    y = m.predict(x)\n",
            line=4,
            message_contains="`predict()`",
            expected_replacement=(
                "import tensorflow as tf\nm = tf.keras.Sequential()\nfor x in xs:\n    y = m.predict(x, verbose=0)\n"
            ),
        ),
        Invalid(
            "import tensorflow as tf\n"
            "m = tf.keras.Sequential()\n"
            "for epoch in range(3):\n"
            "    m.fit(x, y, epochs=1, verbose=1)\n"
            "    m.evaluate(vx, vy, 64, 'auto')\n",
            expected_replacement=(
                "import tensorflow as tf\n"
                "m = tf.keras.Sequential()\n"
                "for epoch in range(3):\n"
                "    m.fit(x, y, epochs=1, verbose=0)\n"
                "    m.evaluate(vx, vy, 64, 0)\n"
            ),
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        silent: bool | None = None  # predict()'s default is verbose=0 here: read once, when asked
        for site in facts.sites:
            if not (is_keras_model_method(site.api, tuple(VERBOSE_POSITION)) and _in_loop_body(site)):
                continue
            name = method(site.api)
            call = facts.node(site)
            if not _draws_progress_bar(call, VERBOSE_POSITION[name]):
                continue
            if name == "predict" and _defaulted(call, VERBOSE_POSITION[name]):
                silent = _silent_predict(facts, options) if silent is None else silent
                if silent:
                    continue
            yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(method=name))


def _defaulted(call: ast.Call | None, position: int) -> bool:
    """`verbose` is not given (by keyword or position)."""
    return call is not None and argument(call, "verbose", position) is None


def _silent_predict(facts: FileFacts, options: Mapping[str, Any]) -> bool:
    """`predict()` without `verbose` draws no bar: the TensorFlow targeted predates 2.9, or the file
    runs on the standalone `keras` and no setting or pin says TensorFlow 2.9 or later."""
    found = target(facts.path, str(options.get(OPTION.key) or ""))
    if found.older_than(*PREDICT_BAR_SINCE):
        return True
    return not found.stated and standalone_only(facts)


def _in_loop_body(site) -> bool:
    """Written inside a `for`/`while` loop of its own function that runs it more than once
    (not only run repeatedly through calls of its function)."""
    depth = site.features.get("loop_depth", 0)
    return isinstance(depth, int) and depth > 0 and site.repeats(same=())


def _draws_progress_bar(call: ast.Call | None, position: int) -> bool:
    """`verbose` missing (and no `*`/`**` that could carry it) or a literal that draws the bar."""
    if call is None or any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    value = argument(call, "verbose", position)
    if value is None:
        return True
    return isinstance(value, ast.Constant) and any(
        value.value == v and type(value.value) is type(v) for v in PROGRESS_BAR
    )
