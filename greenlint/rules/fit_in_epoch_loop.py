"""GL309 fit-in-epoch-loop: `fit(epochs=1)` called once per iteration of a Python loop."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, is_keras_model_method
from greenlint.rules.diagnostic import Diagnostic


class FitInEpochLoop(Rule):
    """
    ## What it does
    Flags `fit()` on a Keras model called with a literal `epochs=1` inside a Python loop that
    repeats it on the same model and the same data: an epoch loop written around `fit` instead
    of `fit(epochs=N)`. Not reported: a loop over models (`for m in models`), one whose body
    binds the data anew (`for chunk in chunks`, `x, y = play_game()`: each iteration trains on
    other data), and a function merely called from several places.

    ## Why is this bad?
    Each `fit()` call sets up training again: it wraps the data in a new adapter and iterator,
    builds the callbacks and progress bar, and checks the compiled step function, before the
    first batch runs; the input pipeline cannot prefetch across the boundary between calls.
    One `fit(epochs=N)` does that once. Per-epoch work (evaluation, saving, a learning-rate
    schedule) belongs in a callback or `validation_data`.

    ## Example
    ```python
    for epoch in range(20):
        model.fit(train_ds, epochs=1)
        model.evaluate(val_ds)
    ```

    ## Use instead
    ```python
    model.fit(train_ds, epochs=20, validation_data=val_ds)
    ```

    ## Energy evidence
    The pair under bench/rules/ trains the same small model for the same epochs both ways.

    ## Fix safety
    No automatic fix: the loop body usually does more than train.

    ## Options
    None.
    """

    code = "GL309"
    name = "fit-in-epoch-loop"
    MESSAGE = "`fit(epochs=1)` in a loop sets training up again every iteration; pass `epochs=` to one `fit()`"
    FIX_TITLE = "Call `fit()` once with `epochs=N` and move per-epoch work into callbacks"
    VALID = (
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=20)\n"),
        Valid(
            "import tensorflow as tf\nfor lr in [0.1, 0.01]:\n"
            "    m = tf.keras.Sequential()\n    m.fit(x, y, epochs=10)\n"
        ),
        Valid(  # one epoch of each of several models: no epoch loop
            "import tensorflow as tf\nfor name in ['a.keras', 'b.keras']:\n"
            "    m = tf.keras.models.load_model(name)\n    m.fit(x, y, epochs=1)\n"
        ),
        Valid(  # a helper called from two cells, in no loop
            "import tensorflow as tf\nm = tf.keras.Sequential()\ndef one_epoch():\n    m.fit(x, y, epochs=1)\n"
            "one_epoch()\none_epoch()\n"
        ),
        Valid(  # new data every iteration (a game played, then learnt from)
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor game in range(100):\n"
            "    boards, moves = play_game(m)\n    m.fit(boards, moves, epochs=1)\n"
        ),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nfor xc, yc in chunks:\n    m.fit(xc, yc, epochs=1)\n"),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor epoch in range(20):\n    m.fit(x, y, epochs=1)\n",
            line=4,
        ),
        Invalid(  # the epoch number reaches an argument; the model is the same
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor epoch in range(20):\n"
            "    m.fit(x, y, epochs=1, initial_epoch=epoch)\n",
            line=4,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if (
                is_keras_model_method(site.api, ("fit",))
                and site.features.get("epochs") == 1
                and site.repeats(same=("receiver", "x", "y"))  # the same model on the same data
            ):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
