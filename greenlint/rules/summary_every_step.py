"""GL318 summary-every-step: a histogram, image or audio summary written on every training step."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.syntax import (
    STEP_METHODS,
    innermost_loop,
    last_name,
    loop_varying,
    own_body,
    periodic,
    text_mentions,
)

#: Summaries that copy a whole tensor out each time (scalars cost next to nothing).
HEAVY = frozenset({"tensorflow.summary.histogram", "tensorflow.summary.image", "tensorflow.summary.audio"})


class SummaryEveryStep(Rule):
    """
    ## What it does
    Flags `tf.summary.histogram()`, `tf.summary.image()` and `tf.summary.audio()` run on every
    pass of a loop (or of a function a loop calls, such as a training step): not under an
    `if` in that loop, in a file that never calls `tf.summary.record_if` to thin them out. A
    loop over the tensors summarised (`for var in layer.variables:`), with no training step in
    it, writes each once per pass of whatever runs it, and is not reported for itself.

    ## Why is this bad?
    Each of these summaries copies a whole tensor (a layer's weights or gradients, a batch of
    images) from the device, bins or encodes it on the host and writes it to the event file.
    Written on every step, it adds that work to every step, and TensorBoard shows only a
    sample of them anyway. Write them every few hundred steps (`if step % 100 == 0:`, or
    `tf.summary.record_if(...)`), or once per epoch.

    ## Example
    ```python
    for step, (x, y) in enumerate(dataset):
        loss = train_step(x, y)
        tf.summary.histogram("weights", model.layers[0].kernel, step=step)
    ```

    ## Use instead
    ```python
    for step, (x, y) in enumerate(dataset):
        loss = train_step(x, y)
        if step % 100 == 0:
            tf.summary.histogram("weights", model.layers[0].kernel, step=step)
    ```

    ## Energy evidence
    Not measured yet: the cost grows with the tensors summarised and the step's own cost;
    bench/rules/not_measurable.json says so.

    ## Fix safety
    No automatic fix: how often to write is the user's choice.

    ## Options
    None.
    """

    code = "GL318"
    name = "summary-every-step"
    DEFAULT_ENABLED = False  # opt-in until bench/realworld/ shows its precision
    MESSAGE = "`tf.summary.{kind}` is written on every pass{times}: write it every few hundred steps"
    FIX_TITLE = "Write the summary every N steps"
    VALID = (
        Valid(
            "import tensorflow as tf\nfor step in range(1000):\n    train_step()\n"
            "    if step % 100 == 0:\n        tf.summary.histogram('w', w, step=step)\n"
        ),
        Valid(  # scalars cost next to nothing
            "import tensorflow as tf\nfor step in range(1000):\n    loss = train_step()\n"
            "    tf.summary.scalar('loss', loss, step=step)\n"
        ),
        Valid(  # record_if thins the summaries out
            "import tensorflow as tf\nwith tf.summary.record_if(lambda: step % 100 == 0):\n"
            "    for step in range(1000):\n        tf.summary.histogram('w', w, step=step)\n"
        ),
        Valid("import tensorflow as tf\ntf.summary.image('batch', images, step=0)\n"),
        Valid(  # one histogram per variable, in a loop over the variables
            "import tensorflow as tf\ndef log(layer, step):\n    for var in layer.variables:\n"
            "        tf.summary.histogram(var.name, var, step=step)\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nfor step in range(1000):\n    train_step()\n"
            "    tf.summary.histogram('w', w, step=step)\n",
            line=4,
            message_contains="(1000 times)",
        ),
        Invalid(  # in the step function a loop calls
            "import tensorflow as tf\ndef train_step(x, step):\n    tf.summary.image('input', x, step=step)\n"
            "for step in range(500):\n    train_step(next(batches), step)\n",
            line=3,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        sites = [s for s in facts.sites if s.api in HEAVY]
        if not sites or text_mentions(facts, "record_if"):
            return
        for site in sites:
            loop = site.loop_runs
            if loop is not None and loop <= 1:
                continue
            call = facts.node(site)
            around, guarded = innermost_loop(facts, site)
            if call is None or guarded or periodic(facts, call, site.callsite.span.cell):
                continue
            if around is not None and _over_summarised(around, call):
                continue
            if site.callsite.runs.get("loop_bound") == "upper":  # a guard around a call of its function
                continue
            kind = site.api.rsplit(".", 1)[-1]
            yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(kind=kind, times=site.loop_times()))


def _over_summarised(loop: ast.AST, call: ast.Call) -> bool:
    """The loop goes over the tensors it summarises (its variable reaches the data) and runs no
    training step: one summary per tensor, not one per step."""
    if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
        return False
    data = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "data"), None)
    if data is None or not flow.names(data) & loop_varying(loop):
        return False
    return not any(
        isinstance(n, ast.Call) and (last_name(n.func) in STEP_METHODS or "step" in last_name(n.func) or "train" in last_name(n.func))
        for n in own_body(loop)
    )
