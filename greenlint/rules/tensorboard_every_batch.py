"""GL315 tensorboard-every-batch: `TensorBoard(update_freq="batch")` writes summaries after every batch."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid, argument
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import method

API = "tensorflow.keras.callbacks.TensorBoard"
#: `update_freq` is the sixth parameter of `TensorBoard` (Keras 2 and 3).
POSITION = 5
#: A literal integer `update_freq` below this (batches between writes) is flagged.
MIN_BATCHES = 10


class TensorboardEveryBatch(Rule):
    """
    ## What it does
    Flags `tf.keras.callbacks.TensorBoard` with a literal `update_freq="batch"` or a literal
    integer `update_freq` below 10 (by keyword or as the sixth positional argument): losses and
    metrics written to the TensorBoard log after every batch or every few batches. Test code
    (a `test*` function, a test class, a pytest fixture) is not reported: a test of the
    callback writes per batch on purpose.

    ## Why is this bad?
    Each write reads the running metrics back from the device, formats summaries and appends
    them to the event file. The Keras documentation of `update_freq` warns that writing too
    frequently to TensorBoard can slow down training, especially under a distribution
    strategy, where it adds synchronisation. `"epoch"` (the default) writes once per epoch; an
    integer of a few hundred batches keeps a fine-grained curve at a fraction of the cost.

    ## Example
    ```python
    import tensorflow as tf

    tensorboard = tf.keras.callbacks.TensorBoard(log_dir="logs", update_freq="batch")
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    tensorboard = tf.keras.callbacks.TensorBoard(log_dir="logs", update_freq="epoch")
    ```

    ## Energy evidence
    The pair under bench/rules/ trains the same small model (64 batches per epoch, 2 epochs)
    with per-batch and per-epoch TensorBoard summaries; the saving is in the table, with a
    spread that shows how noisy this shared 2-core machine was.

    ## Fix safety
    Safe: sets `update_freq="epoch"`. `update_freq` only decides how often the callback writes
    losses and metrics to the TensorBoard log: training computes the same weights and `fit`
    returns the same history, and the per-epoch summaries are still written. Only the log
    output changes (the per-batch points of the curves are no longer written). Not offered for
    a callback created under a condition (`if args.fine_logs:`): a fix never changes a literal
    written under one.

    ## Options
    None.
    """

    code = "GL315"
    name = "tensorboard-every-batch"
    CALLS = frozenset({method(API)})
    MESSAGE = "`TensorBoard(update_freq={freq!r})` writes summaries every {what}"
    FIX_TITLE = 'Write summaries once per epoch (`update_freq="epoch"`)'
    FIX = FixBy("SetArgument", {"name": "update_freq", "value": '"epoch"', "position": POSITION}, safe=True)
    VALID = (
        Valid("import tensorflow as tf\ncb = tf.keras.callbacks.TensorBoard('logs')\n"),
        Valid("import tensorflow as tf\ncb = tf.keras.callbacks.TensorBoard('logs', update_freq='epoch')\n"),
        Valid("import tensorflow as tf\ncb = tf.keras.callbacks.TensorBoard('logs', update_freq=500)\n"),
        Valid("import tensorflow as tf\ncb = tf.keras.callbacks.TensorBoard('logs', update_freq=args.freq)\n"),
        Valid(
            "import tensorflow as tf\n\n\nclass TensorBoardTest(tf.test.TestCase):\n    def test_batch_summaries(self):\n"
            "        cb = tf.keras.callbacks.TensorBoard(self.get_temp_dir(), update_freq='batch')\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\ncb = tf.keras.callbacks.TensorBoard(log_dir='logs', update_freq='batch')\n",
            line=2,
            message_contains="every batch",
            expected_replacement=(
                "import tensorflow as tf\ncb = tf.keras.callbacks.TensorBoard(log_dir='logs', update_freq=\"epoch\")\n"
            ),
        ),
        Invalid(
            "from tensorflow import keras\ncb = keras.callbacks.TensorBoard('logs', 1, True, False, False, 5)\n",
            message_contains="every 5 batches",
            expected_replacement=(
                "from tensorflow import keras\ncb = keras.callbacks.TensorBoard('logs', 1, True, False, False, \"epoch\")\n"
            ),
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api != API or in_test_code(facts, site):
                continue
            call = facts.node(site)
            value = argument(call, "update_freq", POSITION)
            freq = value.value if isinstance(value, ast.Constant) else None
            if freq == "batch" or freq == 1 and not isinstance(freq, bool):
                what = "batch"
            elif isinstance(freq, int) and not isinstance(freq, bool) and 1 < freq < MIN_BATCHES:
                what = f"{freq} batches"
            else:
                continue
            yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(freq=freq, what=what))
