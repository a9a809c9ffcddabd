"""GL305 check-numerics-enabled: `tf.debugging.enable_check_numerics()` left in the code."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid
from greenlint.rules.deliberate import deliberate_switch
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import method

API = "tensorflow.debugging.enable_check_numerics"


class CheckNumericsEnabled(Rule):
    """
    ## What it does
    Flags calls of `tf.debugging.enable_check_numerics()` that run unconditionally: a call under
    an `if` (a debug option the user turns on; `if __name__ == "__main__":` is no condition) or
    in test code (a `test*` function, a test class, a pytest fixture), or in a helper function
    only called that way, is not reported.

    ## Why is this bad?
    Once enabled, TensorFlow checks the output of every floating-point operation, eager or in a
    graph, for NaN and infinity. Its documentation warns that this "will slow down" the program.
    It is a debugging tool for finding where a NaN first appears; left in training code, every
    operation of every step carries an extra check.

    ## Example
    ```python
    import tensorflow as tf

    tf.debugging.enable_check_numerics()
    model.fit(dataset, epochs=10)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    model.fit(dataset, epochs=10)
    ```

    ## Energy evidence
    The pair under bench/rules/ times the same small step (400 steps) with and without the
    checks, side by side: on this shared 2-core CPU its rounds ranged from a loss to a saving
    (the table shows the figure), so no saving is stated and the rule is opt-in: enable it with
    `--extend-select GL305`. The checks' cost grows with the number of op outputs checked per
    step, which a pair of one size cannot state for every model.

    ## Fix safety
    Unsafe: deletes the statement. The program then no longer stops at the first NaN or
    infinity, which is the behaviour the call asked for.

    ## Options
    None.
    """

    code = "GL305"
    name = "check-numerics-enabled"
    CALLS = frozenset({method(API)})
    MESSAGE = "`enable_check_numerics()` checks every floating-point op for NaN and Inf: a debugging aid"
    FIX_TITLE = "Remove the call (keep it behind a debug flag if needed)"
    FIX = FixBy("RemoveStatement", safe=False)
    DEFAULT_ENABLED = False  # opt-in: its measured pair shows no saving above 0 here (see Energy evidence)
    VALID = (
        Valid("import tensorflow as tf\ntf.debugging.disable_check_numerics()\n"),
        Valid("import tensorflow as tf\ntf.debugging.check_numerics(x, 'x')\n"),
        Valid("import tensorflow as tf\nif options.enable_check_numerics:\n    tf.debugging.enable_check_numerics()\n"),
        Valid(
            "import pytest\nimport tensorflow as tf\n\n\n@pytest.fixture\ndef check_numerics():\n"
            "    tf.debugging.enable_check_numerics()\n    yield\n    tf.debugging.disable_check_numerics()\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\ntf.debugging.enable_check_numerics()\nx = 1\n",
            line=2,
            expected_replacement="import tensorflow as tf\nx = 1\n",
        ),
        Invalid(
            "import tensorflow as tf\ndef main():\n    tf.debugging.enable_check_numerics()\n",
            expected_replacement="import tensorflow as tf\ndef main():\n    pass\n",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api == API and not deliberate_switch(facts, site):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
