"""GL505 host-random-tensor: random numbers drawn with NumPy on the host and copied in, on every pass of a loop."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import is_keras_model_method, method
from greenlint.rules.syntax import enclosing

#: Calls that turn their first argument into a tensor (a copy from host memory).
TENSORS = frozenset({"tensorflow.constant", "tensorflow.convert_to_tensor"})
#: Keras model calls whose inputs are copied in from host arrays.
MODEL_CALLS = ("train_on_batch", "test_on_batch", "predict_on_batch", "predict", "__call__")
_NUMPY_RANDOM = re.compile(r"^(np|numpy)\.random\.\w+$")


class HostRandomTensor(Rule):
    """
    ## What it does
    Flags, inside a loop (or a function a loop calls), a tensor made from random numbers drawn
    with NumPy: `tf.constant(np.random.normal(...))`, `tf.convert_to_tensor(...)` of such an
    array, or the array given to a Keras model's `train_on_batch`/`test_on_batch`/`predict`/
    `predict_on_batch` or call (`generator(noise)`), either directly or through a name the
    same function assigns it to (`noise = np.random.normal(size=(64, 100))`). Not in test code
    (a `test*` function, a test class, a pytest fixture), where random inputs exercise the
    code under test.

    ## Why is this bad?
    NumPy draws the numbers on one CPU core, in host memory, and TensorFlow then copies the
    array into a tensor, onto the accelerator when there is one, on every pass: a GAN's noise
    or a dropout mask made this way puts a host computation and a transfer on each training
    step. `tf.random.normal(shape)` (or a `tf.random.Generator`) draws them where the tensor
    lives, inside the graph when the step is a `tf.function`.

    ## Example
    ```python
    for step in range(10000):
        noise = np.random.normal(0, 1, (64, 100))
        gan.train_on_batch(noise, valid)
    ```

    ## Use instead
    ```python
    for step in range(10000):
        noise = tf.random.normal((64, 100))
        gan.train_on_batch(noise, valid)
    ```

    ## Energy evidence
    Not measured yet: the saving grows with the array's size and is largest on an
    accelerator, where the copy crosses the bus; bench/rules/not_measurable.json says so.

    ## Fix safety
    No automatic fix: NumPy's and TensorFlow's generators give different numbers for a seed,
    and their distributions take their parameters differently.

    ## Options
    None.
    """

    code = "GL505"
    name = "host-random-tensor"
    CALLS = frozenset({*map(method, TENSORS), *MODEL_CALLS})
    DEFAULT_ENABLED = False  # opt-in until bench/realworld/ shows its precision
    MESSAGE = "`{draw}` draws random numbers on the host and copies them in on every pass: use `tf.random` instead"
    FIX_TITLE = "Draw the numbers with `tf.random` (on the device)"
    VALID = (
        Valid("import numpy as np\nimport tensorflow as tf\nw = tf.constant(np.random.rand(3, 3))\n"),
        Valid(
            "import numpy as np\nimport tensorflow as tf\nfor step in range(100):\n"
            "    noise = tf.random.normal((64, 100))\n    gan.train_on_batch(noise, valid)\n"
        ),
        Valid(  # a test compares against a reference on random inputs
            "import numpy as np\nimport tensorflow as tf\ndef test_r2():\n    for _ in range(10):\n"
            "        x = tf.constant(np.random.rand(64, 3))\n"
        ),
        Valid(  # data from files, not random draws
            "import numpy as np\nimport tensorflow as tf\nfor f in files:\n    x = tf.constant(np.load(f))\n"
        ),
    )
    INVALID = (
        Invalid(
            "import numpy as np\nimport tensorflow as tf\nfor step in range(100):\n"
            "    x = tf.constant(np.random.rand(64, 100))\n",
            line=4,
            message_contains="`np.random.rand` draws random numbers on the host",
        ),
        Invalid(  # a GAN's noise, through a name
            "import numpy as np\nimport tensorflow as tf\ngan = tf.keras.Sequential()\nfor step in range(10000):\n"
            "    noise = np.random.normal(0, 1, (64, 100))\n    gan.train_on_batch(noise, valid)\n",
            line=6,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if not (site.api in TENSORS or is_keras_model_method(site.api, MODEL_CALLS)):
                continue
            loop = site.loop_runs
            if (loop is not None and loop <= 1) or in_test_code(facts, site):
                continue
            call = facts.node(site)
            if call is None or not call.args:
                continue
            draw = _numpy_draw(facts, call.args[0], site.callsite.span.cell)
            if draw is not None:
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(draw=draw))


def _numpy_draw(facts: FileFacts, expr: ast.expr, cell: int | None) -> str | None:
    """`np.random.<f>` when *expr* is such a call, or a name its function (or module) assigns
    one to and nothing else."""
    if isinstance(expr, ast.Call):
        name = ast.unparse(expr.func)
        return name if _NUMPY_RANDOM.match(name) else None
    if not isinstance(expr, ast.Name):
        return None
    scope = enclosing(facts, expr, cell)
    if scope is None or isinstance(scope, ast.Lambda):
        return None
    values = [
        n.value
        for n in ast.walk(scope)
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)
    ]
    if len(values) != 1 or not isinstance(values[0], ast.Call):
        return None
    name = ast.unparse(values[0].func)
    return name if _NUMPY_RANDOM.match(name) else None
