"""GL310 checkpoint-every-few-batches: `ModelCheckpoint(save_freq=<small int>)`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Option, Rule, Valid
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import method

API = "tensorflow.keras.callbacks.ModelCheckpoint"


class CheckpointEveryFewBatches(Rule):
    """
    ## What it does
    Flags `tf.keras.callbacks.ModelCheckpoint` with a literal integer `save_freq` below
    `min-save-freq` (default 10): a checkpoint written every few batches. Test code (a `test*`
    function, a test class, a pytest fixture) is not reported: a test of checkpointing saves
    every batch of its few batches on purpose.

    ## Why is this bad?
    An integer `save_freq` counts batches. Every save serialises the model (or its weights) and
    writes it to disk; with `save_freq=1` that happens after every step, and the writes can
    take longer than the steps. `save_freq="epoch"` (the default) saves once per epoch.

    ## Example
    ```python
    import tensorflow as tf

    checkpoint = tf.keras.callbacks.ModelCheckpoint("ckpt.weights.h5", save_weights_only=True, save_freq=1)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    checkpoint = tf.keras.callbacks.ModelCheckpoint("ckpt.weights.h5", save_weights_only=True, save_freq="epoch")
    ```

    ## Energy evidence
    The pair under bench/rules/ trains a small model with `save_freq=1` and with `"epoch"`.

    ## Fix safety
    Unsafe: `save_freq="epoch"` writes fewer checkpoints, so a crash loses more work. Not
    offered for a callback created under a condition (`if args.checkpoint_often:`): a fix never
    changes a literal written under one.

    ## Options
    - `min-save-freq`
    """

    code = "GL310"
    name = "checkpoint-every-few-batches"
    CALLS = frozenset({method(API)})
    MESSAGE = "`ModelCheckpoint(save_freq={freq})` writes a checkpoint every {freq} batch(es)"
    FIX_TITLE = 'Save once per epoch (`save_freq="epoch"`) or every few hundred batches'
    FIX = FixBy("SetArgument", {"name": "save_freq", "value": '"epoch"'}, safe=False)
    OPTIONS = (Option("min-save-freq", int, 10, "GL310 flags a literal integer save_freq below this."),)
    VALID = (
        Valid("import tensorflow as tf\ncb = tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq='epoch')\n"),
        Valid("import tensorflow as tf\ncb = tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq=500)\n"),
        Valid("import tensorflow as tf\ncb = tf.keras.callbacks.ModelCheckpoint('c.keras')\n"),
        Valid(
            "import tensorflow as tf\n\n\ndef test_saves_every_batch(tmp_path):\n"
            "    cb = tf.keras.callbacks.ModelCheckpoint(str(tmp_path / 'c.keras'), save_freq=1)\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\ncb = tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq=1)\n",
            line=2,
            expected_replacement=(
                "import tensorflow as tf\ncb = tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq=\"epoch\")\n"
            ),
        ),
        Invalid(  # written under a condition: reported, the literal is left as written
            "import tensorflow as tf\ncallbacks = []\nif args.often:\n"
            "    callbacks.append(tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq=2))\n",
            line=4,
            expected_replacement=(
                "import tensorflow as tf\ncallbacks = []\nif args.often:\n"
                "    callbacks.append(tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq=2))\n"
            ),
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        minimum = int(options.get("min-save-freq", 10))
        for site in facts.sites:
            freq = site.features.get("save_freq")
            if (
                site.api == API
                and isinstance(freq, int)
                and not isinstance(freq, bool)
                and 0 < freq < minimum
                and not in_test_code(facts, site)
            ):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(freq=freq))
