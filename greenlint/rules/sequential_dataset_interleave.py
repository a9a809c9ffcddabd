"""GL403 sequential-dataset-interleave: `Dataset.interleave()` without `num_parallel_calls`."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid, argument, binds
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import is_dataset_method
from greenlint.rules.syntax import only_looked_at


class SequentialDatasetInterleave(Rule):
    """
    ## What it does
    Flags `tf.data.Dataset.interleave()` called without `num_parallel_calls` (by keyword or as the
    fourth positional argument, and with no `*args`/`**kwargs` that could carry it). An interleave
    whose function (a lambda or a function of the file) only builds in-memory datasets
    (`Dataset.range`, `from_tensors`, `from_tensor_slices`) and opens no file is not reported:
    there is no storage latency to overlap. Nor is a dataset only looked at: its chain takes a
    few elements (`.take(n)`), or every read of the name it is bound to (in every cell of a
    notebook) does, as a demo printing a few lines of the files does; the reading that takes is
    over before parallel readers would pay for their start.

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
    Not measured: the gain the tf.data guide describes comes from overlapping the storage latency
    of several files (network or cold disks). This machine's files sit in the page cache, and an
    interleave of in-memory datasets is a case the rule does not report, so no pair here measures
    the claim.

    The case, from TensorFlow's guide "Better performance with the tf.data API" (section
    "Parallelizing data extraction"): reading files from remote storage pays a latency per read, and
    a sequential interleave pays those latencies one after another; with `num_parallel_calls`
    several files are read at once and their latencies overlap. Where the step waits on the reads,
    the time saved per step is the latency overlapped, at the draw of a device waiting on the host
    (greenlint's device model, greenlint/predict/devices.py: 0.222 of the board's TDP, 15.5 W on a
    Tesla T4, within a factor 2) plus the host's; the reads themselves are the same, so the saving
    is never below 0.

    ## Fix safety
    Safe: adds `num_parallel_calls=tf.data.AUTOTUNE`. Interleave stays deterministic (the same
    elements in the same order) unless the code opts out with `deterministic=False` or
    `tf.data.Options`. The fix needs `import tensorflow as tf` (any alias) in the file.

    ## Options
    None.
    """

    code = "GL403"
    name = "sequential-dataset-interleave"
    CALLS = frozenset({"interleave"})
    MESSAGE = "`Dataset.interleave()` without `num_parallel_calls` reads its inputs one after the other"
    FIX_TITLE = "Add `num_parallel_calls=tf.data.AUTOTUNE`"
    FIX = FixBy("SetArgument", {"name": "num_parallel_calls", "value": "{tf}.data.AUTOTUNE", "position": 3}, safe=True)
    VALID = (
        Valid(
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.range(4).interleave(f, cycle_length=2, num_parallel_calls=tf.data.AUTOTUNE)\n"
        ),
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(4).interleave(f, 2, 1, 4)\n"),
        Valid(  # an exercise's call left for the student to finish: `...` as its argument (rules/deliberate.py, left_blank)
            "import tensorflow as tf\nds = tf.data.Dataset.from_tensor_slices(files)\nds = ds.interleave(...)  # YOUR CODE HERE\n"
        ),
        Valid(  # a function marked slow on purpose by a comment in its body (rules/deliberate.py, DECLARED_SLOW)
            "import tensorflow as tf\n\n\ndef input_fn(files):\n    ds = tf.data.Dataset.from_tensor_slices(files)\n"
            "    # BEGIN_DEOPTIMIZE: no cycle_length nor parallel calls\n    # END_DEOPTIMIZE\n"
            "    return ds.interleave(tf.data.TFRecordDataset)\n"
        ),
        Valid(  # an API demo: the inner datasets are ranges in memory, nothing is read
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.range(30).interleave(lambda i: tf.data.Dataset.range(i).repeat(2), cycle_length=3)\n"
        ),
        Valid(  # the same, the function given as `map_func=`
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.range(30).interleave(map_func=lambda i: tf.data.Dataset.range(i), cycle_length=3)\n"
        ),
        Valid(  # a demo that prints a few lines of the files: the dataset is only looked at
            "import tensorflow as tf\nfiles = tf.data.Dataset.list_files(pattern)\n"
            "ds = files.interleave(lambda f: tf.data.TextLineDataset(f).skip(1), cycle_length=5)\n"
            "for line in ds.take(5):\n    print(line.numpy())\n"
        ),
    )
    INVALID = (
        Invalid(  # near miss: the same dataset, also trained on
            "import tensorflow as tf\nfiles = tf.data.Dataset.list_files(pattern)\n"
            "ds = files.interleave(lambda f: tf.data.TextLineDataset(f).skip(1), cycle_length=5)\n"
            "for line in ds.take(5):\n    print(line.numpy())\nmodel.fit(ds.map(parse).batch(32), epochs=10)\n",
            line=3,
        ),
        Invalid(  # `...` in an index is no blank left in the call
            "import tensorflow as tf\nds = tf.data.Dataset.from_tensor_slices(files[..., 0])\n"
            "ds = ds.interleave(tf.data.TFRecordDataset)\n",
            line=3,
        ),
        Invalid(  # the comment of another function declares nothing here; one that mentions "slow" neither
            "import tensorflow as tf\n\n\ndef slow_baseline():\n    # deoptimized on purpose\n    return None\n\n\n"
            "def input_fn(files):\n    # reading is slow: interleave the files\n"
            "    return tf.data.Dataset.from_tensor_slices(files).interleave(tf.data.TFRecordDataset)\n",
            line=11,
        ),
        Invalid(
            "import tensorflow as tf\nds = tf.data.Dataset.range(4).interleave(f, cycle_length=2)\n",
            line=2,
            expected_replacement=(
                "import tensorflow as tf\n"
                "ds = tf.data.Dataset.range(4).interleave(\n    f, cycle_length=2, num_parallel_calls=tf.data.AUTOTUNE\n)\n"
            ),
        ),
        Invalid(  # the function opens a file per element
            "import tensorflow as tf\n"
            "def read(path):\n"
            "    return tf.data.TFRecordDataset(path).map(parse)\n"
            "ds = tf.data.Dataset.list_files(pattern).interleave(read, cycle_length=4)\n",
            line=4,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if not is_dataset_method(site.api, "interleave"):
                continue
            node = facts.node(site)
            if node is None or binds(node, "num_parallel_calls", 3) or _in_memory(facts, node, site):
                continue
            if not only_looked_at(facts, node, site.callsite.span.cell):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)


#: `Dataset` constructors that build elements in memory: interleaving them reads nothing.
IN_MEMORY = frozenset({"range", "from_tensors", "from_tensor_slices"})
#: Name endings of calls that open files (`TFRecordDataset`, `list_files`, `from_generator`).
READERS = ("Dataset", "list_files", "from_generator")


def _in_memory(facts: FileFacts, node: ast.Call | None, site) -> bool:
    """Whether the interleaved function (a lambda, or a function defined in the file) builds only
    in-memory datasets: it calls `Dataset.range`/`from_tensors`/`from_tensor_slices` and opens no
    file (no `...Dataset` reader, `list_files`, `from_generator` or `read...` call)."""
    function: ast.AST | None = argument(node, "map_func", 0)
    if function is None:
        return False
    if isinstance(function, ast.Name):
        cell = site.callsite.span.cell
        defs = [d for unit, d in facts.functions_named(function.id) if unit == cell]
        function = defs[0] if len(defs) == 1 else None
    if not isinstance(function, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    calls = [c for c in ast.walk(function) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)]
    sources = [c for c in calls if c.func.attr in IN_MEMORY]
    readers = [c for c in calls if c.func.attr.endswith(READERS) or "read" in c.func.attr.lower()]
    return bool(sources) and not readers
