"""GL404 py-function-in-graph: `tf.py_function`/`tf.numpy_function` inside a tf.data map or a tf.function."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import method

APIS = ("tensorflow.py_function", "tensorflow.numpy_function", "tensorflow.compat.v1.py_func")


class PyFunctionInGraph(Rule):
    """
    ## What it does
    Flags `tf.py_function`, `tf.numpy_function` and `tf.compat.v1.py_func` called in code that
    TensorFlow runs as a graph: a function decorated with or wrapped by `tf.function`, or one
    passed to `Dataset.map`/`filter`/`flat_map`/`interleave`.

    ## Why is this bad?
    The wrapped Python function runs in the Python interpreter, under the global interpreter
    lock: a tf.data `map` with `num_parallel_calls` then processes one element at a time anyway,
    the graph cannot be optimised across the call, and the data crosses between TensorFlow and
    Python on every element. The tf.data guide lists this among the things that limit
    performance; TensorFlow ops (`tf.image`, `tf.strings`, `tf.io`) do the same work in the graph.

    ## Example
    ```python
    import tensorflow as tf

    ds = ds.map(lambda path: tf.py_function(load_with_pillow, [path], tf.uint8))
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    ds = ds.map(lambda path: tf.io.decode_jpeg(tf.io.read_file(path)), num_parallel_calls=tf.data.AUTOTUNE)
    ```

    ## Energy evidence
    The pair under bench/rules/ maps the same arithmetic through `tf.py_function` and as
    TensorFlow ops.

    ## Fix safety
    No automatic fix: the Python function has to be rewritten with TensorFlow ops.

    ## Options
    None.
    """

    code = "GL404"
    name = "py-function-in-graph"
    CALLS = frozenset(map(method, APIS))
    MESSAGE = "`{call}` runs Python under the GIL inside a graph or tf.data pipeline"
    FIX_TITLE = "Rewrite the function with TensorFlow ops"
    VALID = (
        Valid("import tensorflow as tf\ny = tf.py_function(f, [x], tf.float32)\n"),
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(3).map(lambda x: x * 2)\n"),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nds = tf.data.Dataset.range(3).map(lambda x: tf.py_function(f, [x], tf.int64))\n",
            line=2,
            message_contains="py_function",
        ),
        Invalid(
            "import tensorflow as tf\n@tf.function\ndef g(x):\n    return tf.numpy_function(f, [x], tf.float32)\n",
            line=4,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api in APIS and site.features.get("in_tf_function"):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(call=method(site.api)))
