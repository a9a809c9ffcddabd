"""GL403 sequential-dataset-interleave: `Dataset.interleave()` without `num_parallel_calls`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.codemods import SetArgument
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, binds
from greenlint.rules.diagnostic import Diagnostic

INTERLEAVE = "tensorflow.data.Dataset.interleave"


class SequentialDatasetInterleave(Rule):
    """
    ## What it does
    Flags `tf.data.Dataset.interleave()` called without `num_parallel_calls` (by keyword or as the
    fourth positional argument, and with no `*args`/`**kwargs` that could carry it).

    ## Why is this bad?
    `interleave` is how tf.data reads several files (TFRecord shards, CSVs) at once. Without
    `num_parallel_calls`, the inner datasets are opened and read by one thread, one after the
    other, so reading waits on storage latency. The TensorFlow guide "Better performance with
    the tf.data API" (section "Parallelizing data extraction") recommends
    `num_parallel_calls=tf.data.AUTOTUNE`.

    ## Example
    ```python
    import tensorflow as tf

    ds = tf.data.Dataset.from_tensor_slices(files).interleave(tf.data.TFRecordDataset, cycle_length=4)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    ds = tf.data.Dataset.from_tensor_slices(files).interleave(
        tf.data.TFRecordDataset, cycle_length=4, num_parallel_calls=tf.data.AUTOTUNE
    )
    ```

    ## Energy evidence
    The pair under bench/rules/ interleaves four small mapped datasets both ways; on this 2-core
    machine, shared with other work, parallel interleaving was not cheaper (see the table). The
    gain the tf.data guide describes comes from overlapping storage latency, which this
    in-memory pair does not have.

    ## Fix safety
    Safe: adds `num_parallel_calls=tf.data.AUTOTUNE`. Interleave stays deterministic (the same
    elements in the same order) unless the code opts out with `deterministic=False` or
    `tf.data.Options`. The fix needs `import tensorflow as tf` (any alias) in the file.

    ## Options
    None.
    """

    code = "GL403"
    name = "sequential-dataset-interleave"
    MESSAGE = "`Dataset.interleave()` without `num_parallel_calls` reads its inputs one after the other"
    FIX_TITLE = "Add `num_parallel_calls=tf.data.AUTOTUNE`"
    FIX = SetArgument("num_parallel_calls", "{tf}.data.AUTOTUNE", position=3, safe=True)
    VALID = (
        Valid(
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.range(4).interleave(f, cycle_length=2, num_parallel_calls=tf.data.AUTOTUNE)\n"
        ),
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(4).interleave(f, 2, 1, 4)\n"),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nds = tf.data.Dataset.range(4).interleave(f, cycle_length=2)\n",
            line=2,
            expected_replacement=(
                "import tensorflow as tf\n"
                "ds = tf.data.Dataset.range(4).interleave(\n    f, cycle_length=2, num_parallel_calls=tf.data.AUTOTUNE\n)\n"
            ),
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api == INTERLEAVE and not binds(facts.node(site), "num_parallel_calls", 3):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
