"""GL315 tensorboard-every-batch: `TensorBoard(update_freq="batch")` writes summaries after every batch."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid
from greenlint.rules.defaults import argument_value
from greenlint.rules.deliberate import in_test, in_test_code
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import is_keras_model_method, method
from greenlint.rules.syntax import cell_units
from greenlint.rules.tensorboard_subclass import batches_between_writes

API = "tensorflow.keras.callbacks.TensorBoard"
#: `update_freq` is the sixth parameter of `TensorBoard` (Keras 2 and 3).
POSITION = 5
#: A literal integer `update_freq` below this (batches between writes) is flagged.
MIN_BATCHES = 10
#: A script whose TensorBoard writes as often as its `--log_freq` says (`{default}`: the option's default),
#: a string of "epoch", "batch" or a number of batches.
PARSED = (
    "import argparse\nimport tensorflow as tf\nparser = argparse.ArgumentParser()\n"
    "parser.add_argument('--log_freq', default={default})\nargs = parser.parse_args()\n"
    "cb = tf.keras.callbacks.TensorBoard('logs', update_freq=args.log_freq)\n"
)
#: A configuration class of the file whose attribute (`{every}`) sets how often TensorBoard writes.
CONFIGURED = (
    "import tensorflow as tf\n\n\nclass Config:\n    LOG_EVERY = {every}\n\n\n"
    "cfg = Config()\ncb = tf.keras.callbacks.TensorBoard('logs', update_freq=cfg.LOG_EVERY)\n"
)


class TensorboardEveryBatch(Rule):
    """
    ## What it does
    Flags `tf.keras.callbacks.TensorBoard` with `update_freq="batch"` or an integer
    `update_freq` below 10 (by keyword or as the sixth positional argument), as written or with
    the program's defaults (a name bound to it, a module constant, a parameter's default, an
    argparse option's or absl flag's default: `update_freq=args.log_freq` with `--log_freq`
    defaulting to `"batch"`), or as the analysis resolves it (a configuration class's attribute,
    a dict's entry, a namespace's field: `update_freq=cfg.LOG_EVERY`): losses and metrics written to the TensorBoard log after every
    batch or every few batches. A value the code does not show (an option with no default, a
    name bound in more than one place) is not reported. Test code
    (a `test*` function, a test class, a pytest fixture) is not reported: a test of the
    callback writes per batch on purpose.

    The same for a `TensorBoard` subclass a project module defines, made in the file
    (`from callbacks import BatchBoard`), whose `on_batch_end` writes or flushes the summaries
    on every call, or every `self.log_every` calls where `__init__` sets that from its
    parameter: the constructor's argument, or the parameter's default, below 10.

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
    written under one; nor where `update_freq` is not written as a literal (`args.log_freq`):
    the setting is the program's to change where it is made (the option's default).

    ## Options
    None.
    """

    code = "GL315"
    name = "tensorboard-every-batch"
    CALLS = frozenset({method(API), "fit", "fit_generator"})  # a fit: a project's TensorBoard subclass
    MESSAGE = "`TensorBoard(update_freq={freq!r})`{source} writes summaries every {what}"
    SUBCLASS = (
        "`{made}(...)`{source}, a `TensorBoard` subclass of the project, writes summaries from its batch hook every"
        " {what}: write them every few hundred batches, or once per epoch"
    )
    FIX_TITLE = 'Write summaries once per epoch (`update_freq="epoch"`)'
    FIX = FixBy(
        "SetArgument",
        {"name": "update_freq", "value": '"epoch"', "position": POSITION, "literal_only": True},
        safe=True,
    )
    VALID = (
        Valid("import tensorflow as tf\ncb = tf.keras.callbacks.TensorBoard('logs')\n"),
        Valid("import tensorflow as tf\ncb = tf.keras.callbacks.TensorBoard('logs', update_freq='epoch')\n"),
        Valid("import tensorflow as tf\ncb = tf.keras.callbacks.TensorBoard('logs', update_freq=500)\n"),
        Valid(  # an option the file does not define: its value is not known
            "import tensorflow as tf\ncb = tf.keras.callbacks.TensorBoard('logs', update_freq=args.freq)\n"
        ),
        Valid(  # an option whose default writes once per epoch, converted to a number where it is one
            PARSED.format(default="'epoch'")
        ),
        Valid(PARSED.format(default="500")),  # every 500 batches by default
        Valid(  # a parameter's default every 100 batches
            "import tensorflow as tf\n\n\ndef callbacks(log_dir, freq=100):\n"
            "    return [tf.keras.callbacks.TensorBoard(log_dir, update_freq=freq)]\n"
        ),
        Valid(
            "import tensorflow as tf\n\n\nclass TensorBoardTest(tf.test.TestCase):\n    def test_batch_summaries(self):\n"
            "        cb = tf.keras.callbacks.TensorBoard(self.get_temp_dir(), update_freq='batch')\n"
        ),
        Valid(  # a configuration class's attribute the analysis resolves, every 500 batches
            CONFIGURED.format(every=500)
        ),
        Valid(  # a configuration read from a file: its value is not known
            "import json\nimport tensorflow as tf\nconfig = json.load(open('config.json'))\n"
            "cb = tf.keras.callbacks.TensorBoard('logs', update_freq=config['log_every'])\n"
        ),
    )
    INVALID = (
        Invalid(  # a configuration class's attribute, every batch: the analysis' value, said in the message
            CONFIGURED.format(every=1),
            line=9,
            message_contains="`TensorBoard(update_freq=1)` (`cfg.LOG_EVERY` = 1) writes summaries every batch",
        ),
        Invalid(  # a dict's entry
            "import tensorflow as tf\nconfig = {'log_every': 2}\n"
            "cb = tf.keras.callbacks.TensorBoard('logs', update_freq=config['log_every'])\n",
            line=3,
            message_contains="every 2 batches",
        ),
        Invalid(  # per batch by the option's default: reported, the call left as written (the default is the setting)
            PARSED.format(default="'batch'"),
            line=6,
            message_contains="`TensorBoard(update_freq='batch')` (`args.log_freq`: the default of `--log_freq`) writes"
            " summaries every batch",
            expected_replacement=PARSED.format(default="'batch'"),
        ),
        Invalid(  # every 2 batches by the default of the function's parameter
            "import tensorflow as tf\n\n\ndef callbacks(log_dir, freq=2):\n"
            "    return [tf.keras.callbacks.TensorBoard(log_dir, update_freq=freq)]\n",
            line=5,
            message_contains="every 2 batches",
        ),
        Invalid(  # a module constant
            "import tensorflow as tf\nLOG_EVERY = 1\ncb = tf.keras.callbacks.TensorBoard('logs', update_freq=LOG_EVERY)\n",
            line=3,
            message_contains="every batch",
        ),
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
            freq, source = argument_value(facts, site, "update_freq", POSITION)
            what = _every(freq)
            if what is None:
                continue
            message = self.MESSAGE.format(freq=freq, source=source, what=what)
            yield self.diagnostic(site.callsite.span, facts.path, message)
        if not any(is_keras_model_method(site.api, ("fit", "fit_generator")) for site in facts.sites):
            return  # a project's TensorBoard subclass is made for a fit of the file
        imported = {a.asname or a.name for cell in facts.cells for n in facts.nodes(cell, ast.ImportFrom) for a in n.names}
        for cell, tree in cell_units(facts):
            for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") in imported):
                found = batches_between_writes(facts, call, cell)
                what = _every(found[0]) if found is not None else None
                if found is None or what is None or in_test(facts, call, cell):
                    continue
                message = self.SUBCLASS.format(made=ast.unparse(call.func), source=found[1], what=what)
                yield self.diagnostic(facts.span(call, cell), facts.path, message)


def _every(freq: object) -> str | None:
    """How often a write every *freq* batches is, in words, where that is fewer than `MIN_BATCHES`."""
    if freq == "batch" or freq == 1 and not isinstance(freq, bool):
        return "batch"
    if isinstance(freq, int) and not isinstance(freq, bool) and 1 < freq < MIN_BATCHES:
        return f"{freq} batches"
    return None
