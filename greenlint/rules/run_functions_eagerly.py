"""GL303 run-functions-eagerly: `tf.config.run_functions_eagerly(True)` left in the code."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid
from greenlint.rules.deliberate import deliberate_switch
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import method

APIS = ("tensorflow.config.run_functions_eagerly", "tensorflow.config.experimental_run_functions_eagerly")


class RunFunctionsEagerly(Rule):
    """
    ## What it does
    Flags `tf.config.run_functions_eagerly(True)` (and its older name
    `tf.config.experimental_run_functions_eagerly(True)`) called with the literal `True` on
    the program's path. A switch turned on on purpose is not reported: a call under a condition
    (`if args.debug:`, `if __debug__:`, an environment variable; `if __name__ == "__main__":`
    is no condition), a value that is not a literal (`run_functions_eagerly(args.eager)`), and
    test code (a `test*` function, a test class, a pytest fixture such as one parametrised to
    run each test eagerly and as a graph), where running eagerly is what is being tested; and
    a helper function of the file that is only called that way (`if args.debug: enable_debugging()`).

    ## Why is this bad?
    The switch turns every `tf.function` of the process, including the training step Keras
    compiles for `fit()`, back into op-by-op Python execution. It exists for debugging; left in,
    it removes graph optimisation (op fusion, constant folding) and adds Python dispatch to every
    step, so each step takes longer and costs more energy.

    ## Example
    ```python
    import tensorflow as tf

    tf.config.run_functions_eagerly(True)
    model.fit(dataset, epochs=10)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    model.fit(dataset, epochs=10)
    ```

    ## Energy evidence
    The pair under bench/rules/ times a small `tf.function` step run eagerly and as a graph.

    ## Fix safety
    Unsafe: sets the argument to `False`. Results are the same for traceable code, but Python
    side effects inside a `tf.function` (prints, list appends) then run only while tracing,
    and numerics can differ in the last bits after graph optimisation. Only offered for the
    unconditional calls this rule reports, so it never turns the eager half of an eager/graph
    test fixture into a second graph run.

    ## Options
    None.
    """

    code = "GL303"
    name = "run-functions-eagerly"
    CALLS = frozenset(map(method, APIS))
    MESSAGE = "`run_functions_eagerly(True)` makes every tf.function, and Keras' training step, run op by op"
    FIX_TITLE = "Remove the debugging switch (or pass `False`)"
    FIX = FixBy("SetArgument", {"name": "run_eagerly", "value": "False", "position": 0}, safe=False)
    VALID = (
        Valid("import tensorflow as tf\ntf.config.run_functions_eagerly(False)\n"),
        Valid("import tensorflow as tf\ntf.config.run_functions_eagerly(args.debug)\n"),
        Valid(
            "import os\nimport tensorflow as tf\nif os.environ.get('TF_DEBUG'):\n    tf.config.run_functions_eagerly(True)\n"
        ),
        Valid("import tensorflow as tf\nif __debug__:\n    tf.config.run_functions_eagerly(True)\n"),
        Valid(  # an eager/graph fixture: each test runs both ways on purpose
            "import pytest\nimport tensorflow as tf\n\n\n"
            "@pytest.fixture(params=['eager_mode', 'tf_function'])\n"
            "def maybe_run_functions_eagerly(request):\n"
            "    if request.param == 'eager_mode':\n"
            "        tf.config.run_functions_eagerly(True)\n"
            "    else:\n"
            "        tf.config.run_functions_eagerly(False)\n"
            "    request.addfinalizer(lambda: tf.config.run_functions_eagerly(False))\n"
        ),
        Valid(
            "import pytest\nimport tensorflow as tf\n\n\n@pytest.fixture\ndef only_run_functions_eagerly(request):\n"
            "    tf.config.run_functions_eagerly(True)\n    request.addfinalizer(lambda: tf.config.run_functions_eagerly(False))\n"
        ),
        Valid(
            "import tensorflow as tf\n\n\nclass EagerTest(tf.test.TestCase):\n    def setUp(self):\n"
            "        tf.config.run_functions_eagerly(True)\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\ntf.config.run_functions_eagerly(True)\n",
            line=2,
            expected_replacement="import tensorflow as tf\ntf.config.run_functions_eagerly(False)\n",
        ),
        Invalid("import tensorflow as tf\ntf.config.experimental_run_functions_eagerly(run_eagerly=True)\n"),
        Invalid(  # the main guard is the script's path, not a condition
            "import tensorflow as tf\nif __name__ == '__main__':\n    tf.config.run_functions_eagerly(True)\n    main()\n",
            line=3,
            expected_replacement=(
                "import tensorflow as tf\nif __name__ == '__main__':\n    tf.config.run_functions_eagerly(False)\n    main()\n"
            ),
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api in APIS and site.features.get("run_eagerly") is True and not deliberate_switch(facts, site):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
