"""GL402 sequential-dataset-map: `Dataset.map()` without `num_parallel_calls`, one element at a time."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import (
    FileFacts,
    Invalid,
    Rule,
    Valid,
    binds,
    is_dataset_method,
)
from greenlint.rules.codemods import SetArgument
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.syntax import few_elements


class SequentialDatasetMap(Rule):
    """
    ## What it does
    Flags `tf.data.Dataset.map()` called without `num_parallel_calls` (by keyword or as the
    second positional argument, and with no `*args`/`**kwargs` that could carry it): the map
    function then runs on one element at a time, on one core. A pipeline known to hold at most
    32 elements (a one-element `Dataset.from_tensors(x)`, a `Dataset.range(10)` demo, a `take(4)`)
    is not reported: there is nothing worth spreading over cores.

    ## Why is this bad?
    The TensorFlow guide "Better performance with the tf.data API" (section "Parallelizing data
    transformation") recommends `num_parallel_calls=tf.data.AUTOTUNE`, which lets tf.data run
    the map function on several elements at once and tune the parallelism to the machine.
    Sequential preprocessing leaves cores idle while the accelerator or the training step waits
    for the next batch, and the whole machine draws its baseline power for longer.

    ## Example
    ```python
    import tensorflow as tf

    ds = tf.data.Dataset.from_tensor_slices(images).map(augment).batch(64)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    ds = tf.data.Dataset.from_tensor_slices(images).map(augment, num_parallel_calls=tf.data.AUTOTUNE).batch(64)
    ```

    ## Energy evidence
    Parallel calls need idle cores: on this 2-core machine, shared with other work while the
    pair under bench/rules/ ran, the parallel map was not cheaper (see the table). On a
    machine whose cores wait on the input pipeline the gain is the one the tf.data guide
    describes; greenlint has no such measurement to state.

    ## Fix safety
    Safe: adds `num_parallel_calls=tf.data.AUTOTUNE`. `map` stays deterministic (elements come
    out in the same order) unless the code opts out with `deterministic=False` or
    `tf.data.Options`, so the pipeline yields the same elements. A map function with Python
    side effects (a `tf.py_function` that appends to a list) may run them in another order. The
    fix needs the file to import `tensorflow` as a module (`import tensorflow as tf`).

    ## Options
    None.
    """

    code = "GL402"
    name = "sequential-dataset-map"
    MESSAGE = "`Dataset.map()` without `num_parallel_calls` transforms one element at a time"
    FIX_TITLE = "Add `num_parallel_calls=tf.data.AUTOTUNE`"
    FIX = SetArgument("num_parallel_calls", "{tf}.data.AUTOTUNE", position=1, safe=True)
    VALID = (
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(8).map(f, num_parallel_calls=tf.data.AUTOTUNE)\n"),
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(8).map(f, tf.data.AUTOTUNE)\n"),
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(8).map(f, **options)\n"),
        Valid("results = map(str, [1, 2, 3])\n"),
        Valid("import pandas as pd\ns = pd.Series([1, 2]).map(str)\n"),
        Valid(  # one element: a test feeding one example through the pipeline
            "import tensorflow as tf\nds = tf.data.Dataset.from_tensors(image).map(preprocess).batch(1)\n"
        ),
        Valid(  # an API demo over ten integers, through a name
            "import tensorflow as tf\nds = tf.data.Dataset.range(10).repeat(3)\nds = ds.batch(7)\n"
            "for b in ds.map(f):\n    print(b)\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nds = tf.data.Dataset.range(100_000).map(double)\n",
            line=2,
            expected_replacement=(
                "import tensorflow as tf\n"
                "ds = tf.data.Dataset.range(100_000).map(double, num_parallel_calls=tf.data.AUTOTUNE)\n"
            ),
        ),
        Invalid(
            "import tensorflow as t\n"
            "ds = t.data.TFRecordDataset(files)\n"
            "ds = ds.map(\n"
            "    f,\n"
            ").map(g)\n",
            expected_replacement=(
                "import tensorflow as t\n"
                "ds = t.data.TFRecordDataset(files)\n"
                "ds = ds.map(\n"
                "    f, num_parallel_calls=t.data.AUTOTUNE,\n"
                ").map(g, num_parallel_calls=t.data.AUTOTUNE)\n"
            ),
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if is_dataset_method(site.api, "map") and not binds(facts.node(site), "num_parallel_calls", 1) and not few_elements(site):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
