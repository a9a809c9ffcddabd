"""GL204 progress-bar-in-loop: `fit`/`evaluate`/`predict` drawing a progress bar on every loop iteration."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, is_keras_model_method, keyword, method
from greenlint.rules.codemods import SetArgument
from greenlint.rules.diagnostic import Diagnostic

#: Where `verbose` sits among each method's positional parameters (Keras 2 and 3 agree).
VERBOSE_POSITION = {"fit": 4, "evaluate": 3, "predict": 2}
#: Literal values of `verbose` that draw the per-batch progress bar ("auto" is 1 outside parameter-server training).
PROGRESS_BAR = (1, True, "auto")


class ProgressBarInLoop(Rule):
    """
    ## What it does
    Flags `fit()`, `evaluate()` and `predict()` on a Keras model called inside a Python loop (in
    the loop's own body, not through a helper function) without `verbose`, or with a literal `verbose=1`, `True` or `"auto"` (by keyword or
    position, and with no `*args`/`**kwargs` that could carry it): each call of the loop builds
    and draws a progress bar.

    ## Why is this bad?
    With `verbose` left at its default (`"auto"`, which is 1), every call creates a
    `ProgbarLogger` callback that formats and writes a progress line after each batch, and
    the call synchronises with the device to read the running metrics for it. Called once,
    that is noise; called in a loop over samples or epochs, it is repeated formatting and
    terminal (or log-file) output for lines nobody reads: the Keras documentation recommends
    `verbose=2` or 0 when not running interactively. The cost is small beside the calls
    themselves and was not measurable here (see Energy evidence), which is why this rule is
    opt-in: enable it with `--extend-select GL204`.

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
    None.
    """

    code = "GL204"
    name = "progress-bar-in-loop"
    MESSAGE = "`{method}()` in a loop draws a progress bar on every call (`verbose` defaults to 1)"
    FIX_TITLE = "Set `verbose=0`"
    FIX = SetArgument("verbose", "0", positions=tuple(VERBOSE_POSITION.items()), safe=True)
    DEFAULT_ENABLED = False
    VALID = (
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nfor x in xs:\n    m.predict(x, verbose=0)\n"),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nfor x in xs:\n    m.predict(x, 32, 0)\n"),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nfor x in xs:\n    m.evaluate(x, y, verbose=2)\n"),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nfor x in xs:\n    m.fit(x, y, verbose=args.verbose)\n"),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nfor x in xs:\n    m.predict(x, **kw)\n"),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=5)\n"),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nfor x, y in ds.take(1):\n    m.predict(x)\n"),
    )
    INVALID = (
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
        for site in facts.sites:
            if not (is_keras_model_method(site.api, tuple(VERBOSE_POSITION)) and _in_loop_body(site)):
                continue
            name = method(site.api)
            if _draws_progress_bar(facts.node(site), VERBOSE_POSITION[name]):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(method=name))


def _in_loop_body(site) -> bool:
    """Written inside a `for`/`while` loop of its own function that runs it more than once
    (not only run repeatedly through calls of its function)."""
    depth = site.features.get("loop_depth", 0)
    return isinstance(depth, int) and depth > 0 and site.repeats(same=())


def _draws_progress_bar(call: ast.Call | None, position: int) -> bool:
    """`verbose` missing (and no `*`/`**` that could carry it) or a literal that draws the bar."""
    if call is None or any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    given = keyword(call, "verbose")
    value = given.value if given is not None else call.args[position] if len(call.args) > position else None
    if value is None:
        return True
    return isinstance(value, ast.Constant) and any(value.value == v and type(value.value) is type(v) for v in PROGRESS_BAR)
