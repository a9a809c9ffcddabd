"""GL307 log-device-placement: `tf.debugging.set_log_device_placement(True)` left in the code."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid
from greenlint.rules.deliberate import deliberate_switch
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import method

API = "tensorflow.debugging.set_log_device_placement"


class LogDevicePlacement(Rule):
    """
    ## What it does
    Flags `tf.debugging.set_log_device_placement(True)` called with the literal `True` on the
    program's path. A switch turned on on purpose is not reported: a call under a condition
    (`if args.verbose:`, `if __debug__:`; `if __name__ == "__main__":` is no condition), a
    value that is not a literal, test code (a `test*` function, a test class, a fixture), and
    a helper function of the file that is only called that way (`if args.debug: enable_debugging()`).

    ## Why is this bad?
    With the switch on, TensorFlow logs the device of every operation it places, so in eager code
    every op of every training step writes a log line. It is meant for finding out where ops
    run, once; left in a training script it adds formatting and I/O to each op.

    ## Example
    ```python
    import tensorflow as tf

    tf.debugging.set_log_device_placement(True)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    tf.debugging.set_log_device_placement(False)
    ```

    ## Energy evidence
    The pair under bench/rules/ runs the same eager ops with and without placement logging, at
    TensorFlow's default log level, where the placement lines are written (run with
    `TF_CPP_MIN_LOG_LEVEL=2`, which hides them, the pair showed no saving).

    ## Fix safety
    Safe: sets the argument to `False`. The switch only decides whether TensorFlow logs where
    it places each op: ops are placed on the same devices and compute the same values either
    way, so only the log output changes (the placement lines are no longer written). Only
    offered for the unconditional calls this rule reports: a literal written under a condition
    is never flipped.

    ## Options
    None.
    """

    code = "GL307"
    name = "log-device-placement"
    CALLS = frozenset({method(API)})
    MESSAGE = "`set_log_device_placement(True)` logs the placement of every op: a debugging aid"
    FIX_TITLE = "Turn placement logging off"
    FIX = FixBy("SetArgument", {"name": "enabled", "value": "False", "position": 0}, safe=True)
    VALID = (
        Valid("import tensorflow as tf\ntf.debugging.set_log_device_placement(False)\n"),
        Valid("import tensorflow as tf\ntf.debugging.set_log_device_placement(verbose)\n"),
        Valid("import tensorflow as tf\nif debug:\n    tf.debugging.set_log_device_placement(True)\n"),
        Valid(
            "import tensorflow as tf\n\n\ndef main(argv):\n    if FLAGS.log_placement:\n"
            "        tf.debugging.set_log_device_placement(True)\n    train()\n"
        ),
        Valid(  # a helper only called under the debug flag
            "import tensorflow as tf\n\n\ndef enable_debugging():\n"
            "    tf.debugging.set_log_device_placement(True)\n    tf.config.run_functions_eagerly(True)\n\n\n"
            "if args.debug:\n    enable_debugging()\n"
        ),
        Valid(
            "import tensorflow as tf\n\n\nclass PlacementTest(tf.test.TestCase):\n"
            "    def test_logs(self):\n        tf.debugging.set_log_device_placement(True)\n"
        ),
    )
    INVALID = (
        Invalid(  # the helper also runs unconditionally
            "import tensorflow as tf\n\n\ndef enable_debugging():\n    tf.debugging.set_log_device_placement(True)\n\n\n"
            "if args.debug:\n    enable_debugging()\nenable_debugging()\n",
            line=5,
        ),
        Invalid(
            "import tensorflow as tf\ntf.debugging.set_log_device_placement(True)\n",
            line=2,
            expected_replacement="import tensorflow as tf\ntf.debugging.set_log_device_placement(False)\n",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api == API and site.features.get("enabled") is True and not deliberate_switch(facts, site):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
