"""GL502 constant-in-loop: the same literal converted to a tensor on every loop iteration."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.predict.work_energy import DISPATCH_S
from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid, argument
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.material import immaterial, repeated_cost
from greenlint.rules.site import method
from greenlint.rules.syntax import LOOPS

APIS = {"tensorflow.constant": "value", "tensorflow.convert_to_tensor": "value"}


def _literal_array(facts: FileFacts, site) -> bool:
    """The value is written in the call as a list or tuple literal of numbers (not a name, not a scalar)."""
    call = facts.node(site)
    if call is None:
        return False
    value = argument(call, "value", 0)
    if not isinstance(value, (ast.List, ast.Tuple)) or not value.elts:
        return False
    return all(
        isinstance(n, (ast.Constant, ast.List, ast.Tuple, ast.UnaryOp, ast.Load, ast.USub)) for n in ast.walk(value)
    )


def _under_with(facts: FileFacts, site) -> bool:
    """A `with` between the call and its loop (`tf.device(...)`, a name scope) may make each
    iteration's tensor different (placed on another device): not reported."""
    node = facts.node(site)
    for parent in facts.ancestors(node, site.callsite.span.cell) if node is not None else ():
        if isinstance(parent, (ast.With, ast.AsyncWith)):
            return True
        if isinstance(parent, (*LOOPS, ast.comprehension)):
            return False
    return False


#: Parameter names that say nothing about what a value is (`tf.multiply(x, y)`).
_GENERIC = frozenset({"input", "inputs", "tensor", "value", "values", "args", "kwargs"})


def _parameter(facts: FileFacts, site) -> str | None:
    """The parameter of the enclosing call the literal tensor is passed to, by keyword or by
    position (from the catalog's signature of that call): what the tensor is for."""
    call = facts.node(site)
    outer = facts.parent(call, site.callsite.span.cell) if call is not None else None
    if isinstance(outer, ast.keyword):
        name = outer.arg
    elif isinstance(outer, ast.Call) and call in outer.args and not any(isinstance(a, ast.Starred) for a in outer.args):
        from greenlint.catalog.catalog import load_catalog

        enclosing = facts.site_at(outer, site.callsite.span.cell)
        api = enclosing.api if enclosing is not None else None
        params = [p for p in load_catalog().params(api)] if api else []
        at = outer.args.index(call)
        name = params[at] if at < len(params) and not params[at].startswith("*") else None
    else:
        name = None
    return name if name and len(name) > 2 and name not in _GENERIC and name.isidentifier() else None


class ConstantInLoop(Rule):
    """
    ## What it does
    Flags `tf.constant(...)` and `tf.convert_to_tensor(...)` of a list or tuple literal of numbers
    written in the call (not a name, not a scalar) inside a Python loop that repeats it, outside
    code TensorFlow traces. Not reported: a call whose arguments the loop variable reaches
    (`for dtype in dtypes: tf.constant([1, 2], dtype=dtype)` makes a different tensor each
    time), a loop of one trip (`ds.take(1)`), a function merely called from several places, and
    a call inside a `with` block within the loop (`with tf.device(d):`): each iteration may place
    the tensor elsewhere.

    Nor where the saving is not material (greenlint/rules/material.py): in test code (a test's
    loop over a few dtypes or settings), or where the analysis counts the call's runs and they
    add up to less than a second at one eager dispatch each (50 µs: fewer than 20,000 runs).
    The message gives that price, and the total where the runs are counted.

    ## Why is this bad?
    In eager code each call converts the Python value again: it walks the nested lists, infers
    the dtype, allocates a tensor and copies the data (to the accelerator, on a GPU), every
    iteration, for a value that never changes. Created once before the loop, the tensor is
    reused; tensors are immutable, so sharing it is safe. Inside a `tf.function` the constant
    is folded into the graph once, so that case is not flagged.

    ## Example
    ```python
    import tensorflow as tf

    for x in batches:
        y = x * tf.constant([[0.299], [0.587], [0.114]])
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    weights = tf.constant([[0.299], [0.587], [0.114]])
    for x in batches:
        y = x * weights
    ```

    ## Energy evidence
    The pair under bench/rules/ converts a literal matrix in a loop, and once before it.

    ## Fix safety
    Safe: binds the call to a new name on the line before the outermost loop around it and uses
    the name inside the loop. The name says what the tensor holds: the parameter it is passed
    to, by keyword or by position (`tf.IndexedSlices(v, tf.constant([0, 2]))` -> `indices`),
    unless that name says nothing (`x`, `y`, `input`), else its literal's shape (`vector_3`, `matrix_3x1`,
    `zeros_4`, `ones_2x2`), numbered when the file (or notebook) already uses it, so it never
    shadows a variable, parameter, import or builtin. Not offered when the new line would be
    longer than the project's line length (see `line-length`). Offered only when the
    call names nothing but the tensorflow module (literals and `tf.float32`-like dtypes), so
    its value cannot depend on the loop; tensors are immutable, so one tensor serves every
    iteration. The tensor is now created even when the loop runs zero times.

    ## Options
    None.
    """

    code = "GL502"
    name = "constant-in-loop"
    CALLS = frozenset(map(method, APIS))
    MESSAGE = "`{call}` of a literal runs on every {where} ({price}): create the tensor once, {hoist}"
    FIX_TITLE = "Create the tensor once before the loop and reuse it"
    FIX = FixBy("HoistBeforeLoop", {"name": "constant"}, safe=True)
    VALID = (
        Valid("import tensorflow as tf\nw = tf.constant([1.0, 2.0])\nfor x in xs:\n    y = x * w\n"),
        Valid("import tensorflow as tf\nfor x in xs:\n    y = tf.constant(x)\n"),
        Valid(
            "import tensorflow as tf\n@tf.function\ndef f(x):\n    for i in range(3):\n        x = x * tf.constant(2.0)\n    return x\n"
        ),
        Valid("import tensorflow as tf\nfor i in range(3):\n    n = tf.constant(100)\n"),
        Valid("import tensorflow as tf\nW = [1.0, 2.0]\nfor i in range(3):\n    w = tf.constant(W)\n"),
        Valid(
            "import tensorflow as tf\nfor d in devices:\n    with tf.device(d):\n        a = tf.constant([1.0, 2.0])\n"
        ),
        # each iteration makes a tensor of another dtype: nothing to hoist
        Valid("import tensorflow as tf\nfor d in dtypes:\n    y = tf.constant([1, 2], dtype=d)\n"),
        Valid(
            "import tensorflow as tf\nfor name in names:\n    dtype = getattr(tf, name)\n    y = tf.constant([1, 2], dtype=dtype)\n"
        ),
        Valid("import tensorflow as tf\nts = [tf.constant([1, 2], dtype=d) for d in dtypes]\n"),
        # a helper called from two cells runs twice, in no loop
        Valid("import tensorflow as tf\ndef weights():\n    return tf.constant([1.0, 2.0])\nweights()\nweights()\n"),
        Valid("import tensorflow as tf\nfor x in ds.take(1):\n    y = x * tf.constant([1.0, 2.0])\n"),
        # not material: 1,000 conversions cost about 50 ms in all
        Valid("import tensorflow as tf\nfor i in range(1000):\n    print(i, tf.constant([1.0, 2.0]))\n"),
        # a test's loop over a few dtypes: an invariant index constant, converted again for no user
        Valid(
            "import tensorflow as tf\n\n\nclass YogiTest(tf.test.TestCase):\n    def test_sparse(self):\n"
            "        for dtype in self.dtypes:\n            grads = tf.IndexedSlices(g, tf.constant([0, 1]))\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nfor x in xs:\n    y = x * tf.constant([1.0, 2.0])\n",
            line=3,
            expected_replacement=(
                "import tensorflow as tf\nvector_2 = tf.constant([1.0, 2.0])\nfor x in xs:\n    y = x * vector_2\n"
            ),
        ),
        Invalid(
            "import tensorflow as tf\ndef f(xs, matrix_1x2):\n    while xs:\n"
            "        xs = g(xs, tf.constant([[1, 2]], dtype=tf.int64))\n",
            expected_replacement=(  # named after what it holds, never shadowing a name in use
                "import tensorflow as tf\ndef f(xs, matrix_1x2):\n"
                "    matrix_1x2_2 = tf.constant([[1, 2]], dtype=tf.int64)\n    while xs:\n"
                "        xs = g(xs, matrix_1x2_2)\n"
            ),
        ),
        Invalid(
            "import tensorflow as tf\nfor e in range(2):\n    for x in xs:\n        y = x + tf.constant([1.0])\n",
            expected_replacement=(
                "import tensorflow as tf\nones_1 = tf.constant([1.0])\nfor e in range(2):\n"
                "    for x in xs:\n        y = x + ones_1\n"
            ),
        ),
        Invalid(
            "import tensorflow as tf\nfor x in xs:\n    y = tf.nn.conv1d(x, filters=tf.constant([[[1.0]], [[0.5]]]), stride=1, padding='SAME')\n",
            expected_replacement=(  # the parameter it is passed to names it
                "import tensorflow as tf\nfilters = tf.constant([[[1.0]], [[0.5]]])\nfor x in xs:\n"
                "    y = tf.nn.conv1d(x, filters=filters, stride=1, padding='SAME')\n"
            ),
        ),
        Invalid(
            "import tensorflow as tf\nfor v in vs:\n    s = tf.IndexedSlices(v, tf.constant([0, 2]))\n",
            expected_replacement=(  # named after the positional parameter it fills
                "import tensorflow as tf\nindices = tf.constant([0, 2])\nfor v in vs:\n"
                "    s = tf.IndexedSlices(v, indices)\n"
            ),
        ),
        Invalid(
            "import tensorflow as tf\nfor x in xs:\n    y = tf.multiply(x, tf.constant([[1.0, 1.0], [1.0, 1.0]]))\n",
            expected_replacement=(  # `y` says nothing: the shape names it
                "import tensorflow as tf\nones_2x2 = tf.constant([[1.0, 1.0], [1.0, 1.0]])\nfor x in xs:\n"
                "    y = tf.multiply(x, ones_2x2)\n"
            ),
        ),
        Invalid(
            "import tensorflow as tf\nfor x in xs:\n    y = x * tf.constant([[1.0, 1.0], [1.0, 1.0]])\n",
            expected_replacement=(
                "import tensorflow as tf\nones_2x2 = tf.constant([[1.0, 1.0], [1.0, 1.0]])\nfor x in xs:\n"
                "    y = x * ones_2x2\n"
            ),
        ),
        Invalid(  # a helper called from a loop
            "import tensorflow as tf\ndef sample(k):\n    return tf.constant([0, 1])\nfor k in ks:\n    sample(k)\n",
            line=3,
            message_contains="every call of its function, which a loop repeats (about 50 µs of eager dispatch each): create",
        ),
        Invalid(  # the loop variable only prints: every iteration makes the same tensor
            "import tensorflow as tf\nfor i in range(100000):\n    print(i)\n    y = tf.constant([1.0, 2.0])\n",
            line=4,
            message_contains="(about 50 µs of eager dispatch each, 100,000 times: 5 s)",
            expected_replacement=(
                "import tensorflow as tf\nvector_2 = tf.constant([1.0, 2.0])\nfor i in range(100000):\n"
                "    print(i)\n    y = vector_2\n"
            ),
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            param = APIS.get(site.api)
            if (
                param
                and site.repeats()
                and not site.features.get("in_tf_function")
                and _literal_array(facts, site)
                and not _under_with(facts, site)
                and not immaterial(facts, site, DISPATCH_S)
            ):
                holds = _parameter(facts, site)
                own = site.features.get("loop_depth", 0) > 0  # else the loop is around calls of its function
                yield self.diagnostic(
                    site.callsite.span,
                    facts.path,
                    self.MESSAGE.format(
                        call=method(site.api) + "()",
                        where="loop iteration" if own else "call of its function, which a loop repeats",
                        hoist="before the loop" if own else "outside the function",
                        price=repeated_cost(site, DISPATCH_S, "of eager dispatch"),
                    ),
                    data={"holds": holds} if holds else {},
                )
