"""GL306 dump-debug-info-enabled: `tf.debugging.experimental.enable_dump_debug_info()` left in the code."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid
from greenlint.rules.deliberate import deliberate_switch
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import method

API = "tensorflow.debugging.experimental.enable_dump_debug_info"


class DumpDebugInfoEnabled(Rule):
    """
    ## What it does
    Flags calls of `tf.debugging.experimental.enable_dump_debug_info()` that run unconditionally:
    a call under an `if` (a debug option the user turns on; `if __name__ == "__main__":` is no
    condition) or in test code (a `test*` function, a test class, a pytest fixture), or in a
    helper function only called that way, is not reported.

    ## Why is this bad?
    The Debugger V2 dump writes information about every executed op and graph (with
    `tensor_debug_mode` other than `NO_TENSOR`, summaries of the tensors too) to files under
    `dump_root`, for TensorBoard's debugger. Its documentation notes the overhead. Left in, every
    step does extra work and disk writes.

    ## Example
    ```python
    import tensorflow as tf

    tf.debugging.experimental.enable_dump_debug_info("/tmp/tfdbg2", tensor_debug_mode="FULL_HEALTH")
    model.fit(dataset, epochs=10)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    model.fit(dataset, epochs=10)
    ```

    ## Energy evidence
    The pair under bench/rules/ times the same small step with and without the dump.

    ## Fix safety
    Safe: deletes the statement, so no debug dump is written. The dump is diagnostic output for
    TensorBoard's Debugger V2 (debug events under `dump_root`): the debug ops it instruments
    graphs with are identity maps, so every op computes the same values without it and only
    the log output changes. The fix applies only to a call that is a statement of its own: when
    its return value (the events writer) is kept, nothing is changed. A later
    `disable_dump_debug_info()` stays; without a dump it does nothing.

    ## Options
    None.
    """

    code = "GL306"
    name = "dump-debug-info-enabled"
    CALLS = frozenset({method(API)})
    MESSAGE = "`enable_dump_debug_info()` records every executed op to disk: a debugging aid"
    FIX_TITLE = "Remove the call (keep it behind a debug flag if needed)"
    FIX = FixBy("RemoveStatement", safe=True)
    VALID = (
        Valid("import tensorflow as tf\ntf.debugging.experimental.disable_dump_debug_info()\n"),
        Valid(
            "import tensorflow as tf\nif args.dump:\n    tf.debugging.experimental.enable_dump_debug_info(args.dump)\n"
        ),
        Valid(
            "import tensorflow as tf\n\n\nclass DumpTest(tf.test.TestCase):\n    def test_dump(self):\n"
            "        tf.debugging.experimental.enable_dump_debug_info(self.get_temp_dir())\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\ntf.debugging.experimental.enable_dump_debug_info('/tmp/d')\nrun()\n",
            line=2,
            expected_replacement="import tensorflow as tf\nrun()\n",
        ),
        Invalid(  # the writer is kept: reported, but the statement is not removed
            "import tensorflow as tf\nwriter = tf.debugging.experimental.enable_dump_debug_info('/tmp/d')\nrun()\nwriter.FlushExecutionFiles()\n",
            line=2,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api == API and not deliberate_switch(facts, site):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
