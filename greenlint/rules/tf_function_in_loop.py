"""GL501 tf-function-in-loop: `tf.function(...)` created anew on every loop iteration."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic

FUNCTION = "tensorflow.function"


class TfFunctionInLoop(Rule):
    """
    ## What it does
    Flags `tf.function(...)` called inside a Python loop that repeats it (wrapping a function,
    or as the decorator of a function defined in the loop), outside any function TensorFlow
    itself traces. A loop whose variable reaches the wrapped function (`for layer in layers:
    tf.function(layer)`) builds a different function each time and is not reported.

    ## Why is this bad?
    Each `tf.function` object keeps its own cache of traced graphs. A new one per iteration
    traces the Python function again on its first call, every iteration: the tracing (running
    the Python code symbolically, building and optimising a graph) usually costs far more than
    running the graph. TensorFlow warns about this as "excessive retracing". Create the
    `tf.function` once, before the loop.

    ## Example
    ```python
    import tensorflow as tf

    for x in batches:
        step = tf.function(train_step)
        step(x)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    step = tf.function(train_step)
    for x in batches:
        step(x)
    ```

    ## Energy evidence
    The pair under bench/rules/ wraps and calls a small function in a loop, and wraps it once.

    ## Fix safety
    No automatic fix: the wrapped function may depend on the loop variable.

    ## Options
    None.
    """

    code = "GL501"
    name = "tf-function-in-loop"
    MESSAGE = "`tf.function` created {where} traces its function again on every {each}"
    FIX_TITLE = "Create the tf.function once, before the loop"
    VALID = (
        Valid("import tensorflow as tf\nstep = tf.function(f)\nfor x in xs:\n    step(x)\n"),
        Valid("import tensorflow as tf\n@tf.function\ndef g(x):\n    return x\n"),
        # each iteration wraps a different layer: one tf.function per layer is the point
        Valid("import tensorflow as tf\nfor layer in model.layers:\n    f = tf.function(layer)\n    f(x)\n"),
        Valid(  # one concrete function per shape is the point
            "import tensorflow as tf\nfor shape in [(2, 4), (1, 2, 4)]:\n"
            "    fn = tf.function(f).get_concrete_function(tf.TensorSpec(shape=shape))\n"
        ),
        Valid(  # a helper called from two places makes two functions, in no loop
            "import tensorflow as tf\ndef compiled(fn):\n    return tf.function(fn)\n"
            "a = compiled(f1)\nb = compiled(f2)\n"
        ),
    )
    INVALID = (
        Invalid("import tensorflow as tf\nfor x in xs:\n    step = tf.function(f)\n    step(x)\n", line=3),
        Invalid(
            "import tensorflow as tf\nfor x in xs:\n    @tf.function(reduce_retracing=True)\n"
            "    def g(v):\n        return v * 2\n    g(x)\n",
            line=3,
        ),
        Invalid(
            "import tensorflow as tf\ndef make():\n    return tf.function(f)\nfor i in range(3):\n    make()\n",
            line=3,
            message_contains="in a function a loop calls",
        ),
        Invalid(  # the loop variable feeds the function, not its creation
            "import tensorflow as tf\nfor i in range(10):\n    step = tf.function(f)\n    step(batches[i])\n", line=3
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api == FUNCTION and site.in_loop and not site.features.get("in_tf_function"):
                own = site.features.get("loop_depth", 0) > 0  # else the loop is around calls of its function
                where, each = ("inside a loop", "iteration") if own else ("in a function a loop calls", "call")
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(where=where, each=each))
