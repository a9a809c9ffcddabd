"""GL601 tf-function-without-jit (opt-in): a `tf.function(...)` not compiled with XLA."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid, binds
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import method

FUNCTION = "tensorflow.function"


class TfFunctionWithoutJit(Rule):
    """
    ## What it does
    Flags `tf.function(...)` (called, or as a decorator with arguments) that does not set
    `jit_compile`. Bare `@tf.function` decorators are not calls and are not flagged. Off by
    default.

    ## Why is this bad?
    With `jit_compile=True` XLA compiles the whole function into fused kernels, which on GPUs
    and TPUs often cuts memory traffic and time per step (the TensorFlow XLA guide reports
    speed-ups on many models). Whether it helps depends on the model and hardware, and some ops
    are not supported, so this rule is for projects that train on accelerators and want to be
    reminded, and is opt-in: enable it with `--extend-select GL601`.

    ## Example
    ```python
    import tensorflow as tf

    @tf.function(reduce_retracing=True)
    def train_step(x, y):
        ...
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    @tf.function(reduce_retracing=True, jit_compile=True)
    def train_step(x, y):
        ...
    ```

    ## Energy evidence
    Hardware-dependent: the pair under bench/rules/ measures a small dense step on this machine's
    CPU, which is not where XLA is expected to help most.

    ## Fix safety
    Unsafe: adds `jit_compile=True`. Functions using ops XLA cannot compile then fail, and
    numerics can differ in the last bits.

    ## Options
    None.
    """

    code = "GL601"
    name = "tf-function-without-jit"
    CALLS = frozenset({method(FUNCTION)})
    MESSAGE = "this `tf.function` is not compiled with XLA (`jit_compile=True`)"
    FIX_TITLE = "Add `jit_compile=True` (check that the function's ops are supported)"
    FIX = FixBy("SetArgument", {"name": "jit_compile", "value": "True"}, safe=False)
    DEFAULT_ENABLED = False
    VALID = (
        Valid("import tensorflow as tf\nstep = tf.function(f, jit_compile=True)\n"),
        Valid("import tensorflow as tf\nstep = tf.function(f, jit_compile=False)\n"),
        Valid("import tensorflow as tf\n@tf.function\ndef g(x):\n    return x\n"),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nstep = tf.function(f)\n",
            options={},
            line=2,
            expected_replacement="import tensorflow as tf\nstep = tf.function(f, jit_compile=True)\n",
        ),
        Invalid(  # the keyword follows the tuple's closing parenthesis, not its last item
            "import tensorflow as tf\nstep = tf.function(f, input_signature=(spec,))\n",
            options={},
            line=2,
            expected_replacement="import tensorflow as tf\nstep = tf.function(f, input_signature=(spec,), jit_compile=True)\n",
        ),
        Invalid(
            "import tensorflow as tf\nstep = tf.function(\n    f,\n    input_signature=(\n        spec,\n    )\n)\n",
            options={},
            line=2,
            expected_replacement=(
                "import tensorflow as tf\nstep = tf.function(\n    f,\n    input_signature=(\n        spec,\n    ), jit_compile=True\n)\n"
            ),
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api == FUNCTION and not binds(facts.node(site), "jit_compile", 5):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
