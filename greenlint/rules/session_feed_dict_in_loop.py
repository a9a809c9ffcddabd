"""GL503 session-feed-dict-in-loop: TF1 `Session.run(feed_dict=...)` on every loop iteration."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, binds
from greenlint.rules.diagnostic import Diagnostic

RUNS = ("tensorflow.compat.v1.Session.run", "tensorflow.compat.v1.InteractiveSession.run")


class SessionFeedDictInLoop(Rule):
    """
    ## What it does
    Flags `tf.compat.v1.Session.run()` given a `feed_dict` inside a Python loop that runs it more
    than once on the same session (directly, or in a function that loop calls; not a function
    merely called from several places): TensorFlow 1 style training or inference that feeds
    each batch from Python.

    ## Why is this bad?
    Every `run` with a `feed_dict` converts the fed Python or NumPy values and copies them into
    the runtime, then blocks until the step is done, so input preparation and computation never
    overlap. The TensorFlow 1 performance guide called `feed_dict` the least efficient way to
    feed data; a `tf.data` pipeline (and, in TensorFlow 2, `tf.function` instead of sessions)
    prepares the next batch while the current one runs.

    ## Example
    ```python
    import tensorflow as tf

    with tf.compat.v1.Session() as sess:
        for xb, yb in batches:
            sess.run(train_op, feed_dict={x: xb, y: yb})
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    dataset = tf.data.Dataset.from_tensor_slices((xs, ys)).batch(64).prefetch(tf.data.AUTOTUNE)
    model.fit(dataset, epochs=1)
    ```

    ## Energy evidence
    Not measured: a faithful pair needs a TensorFlow 1 graph program and its TensorFlow 2
    rewrite, which differ in more than the feeding.

    ## Fix safety
    No automatic fix: moving to tf.data changes the program's structure.

    ## Options
    None.
    """

    code = "GL503"
    name = "session-feed-dict-in-loop"
    MESSAGE = "`Session.run(feed_dict=...)` in a loop feeds every batch from Python and never overlaps input with compute"
    FIX_TITLE = "Feed the data with a tf.data pipeline (and migrate the session to TF2)"
    VALID = (
        Valid("import tensorflow as tf\nsess = tf.compat.v1.Session()\nfor i in range(3):\n    sess.run(step)\n"),
        Valid("import tensorflow as tf\nsess = tf.compat.v1.Session()\nsess.run(init, feed_dict={x: 1})\n"),
        Valid(  # a helper called from two places feeds twice, in no loop
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\ndef show(v):\n"
            "    return sess.run(y, feed_dict={x: v})\nshow(a)\nshow(b)\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\nfor xb in batches:\n"
            "    sess.run(step, feed_dict={x: xb})\n",
            line=4,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api in RUNS and site.repeats(same=("receiver",)) and facts.node(site) is not None:
                if binds(facts.node(site), "feed_dict", 1) and not _star_only(facts.node(site)):
                    yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)


def _star_only(call) -> bool:
    """feed_dict given neither by keyword nor position (only, maybe, through `*`/`**`): not reported."""
    return not any(k.arg == "feed_dict" for k in call.keywords) and len([a for a in call.args]) < 2
