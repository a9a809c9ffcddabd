"""GL501 tf-function-in-loop: `tf.function(...)` created anew on every loop iteration."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument
from greenlint.rules.deliberate import everywhere
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import Site, method
from greenlint.rules.syntax import Function, autograph_loop, enclosing, loop_varying, own_loops, parameters

FUNCTION = "tensorflow.function"


class TfFunctionInLoop(Rule):
    """
    ## What it does
    Flags `tf.function(...)` called inside a Python loop that repeats it (wrapping a function,
    or as the decorator of a function defined in the loop), outside any function TensorFlow
    itself traces. A loop whose variable reaches the wrapped function (`for layer in layers:
    tf.function(layer)`) builds a different function each time and is not reported; so is a
    function the loop defines around what its iteration changes (`for aug in augmentations:
    layer = aug()`, then `@tf.function def apply(x): return layer(x)`: one graph per layer, the
    point of a benchmark), and a helper whose wrapped function closes over its parameters. A
    `for _ in tf.range(n)` loop (around the call, or around every call of its function) is not
    a Python loop: AutoGraph makes it one graph loop when its function is traced, and its body
    runs once.

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
    CALLS = frozenset({method(FUNCTION)})
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
        Valid(  # each iteration's function closes over another layer (a benchmark of one layer after another)
            "import tensorflow as tf\nfor aug in [RandomFlip, RandomZoom]:\n    layer = aug()\n"
            "    @tf.function(jit_compile=True)\n    def apply(x):\n        return layer(x)\n"
            "    for n in [10, 100]:\n        apply(images[:n])\n"
        ),
        Valid(  # a lambda over the loop's layer
            "import tensorflow as tf\nfor layer in layers:\n    f = tf.function(lambda x: layer(x))\n    f(x)\n"
        ),
        Valid(  # a function defined per iteration around the loop's function, then wrapped
            "import tensorflow as tf\nfor fn in [f1, f2]:\n    def timed(x):\n        return fn(x)\n"
            "    g = tf.function(timed)\n    g(x)\n"
        ),
        Valid(  # a helper wraps a closure over what each call gives it
            "import tensorflow as tf\ndef bench(layer):\n    @tf.function(jit_compile=True)\n"
            "    def f(x):\n        return layer(x)\n    f(x)\n    f(x)\nfor layer in [A(), B()]:\n    bench(layer)\n"
        ),
        Valid(  # an AutoGraph loop: one `tf.while_loop` when predict_function is traced
            "import tensorflow as tf\ndef predict_function(iterator):\n    for _ in tf.range(steps):\n"
            "        step = tf.function(predict_step)\n        step(next(iterator))\n"
        ),
        Valid(  # the same, around every call of the helper that creates the function
            "import tensorflow as tf\ndef step_function(iterator):\n    return tf.function(predict_step)(next(iterator))\n"
            "def predict_function(iterator):\n    for _ in tf.range(steps):\n        step_function(iterator)\n"
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
        Invalid(  # the inner loop re-creates the function around the same layer
            "import tensorflow as tf\nfor aug in augs:\n    layer = aug()\n    for n in [10, 100]:\n"
            "        @tf.function(jit_compile=True)\n        def apply(x):\n            return layer(x)\n"
            "        apply(images[:n])\n",
            line=5,
        ),
        Invalid(  # a closure over nothing the loop changes
            "import tensorflow as tf\nfor x in xs:\n    f = tf.function(lambda v: model(v))\n    f(x)\n", line=3
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if (
                site.api == FUNCTION
                and site.repeats()
                and not site.features.get("in_tf_function")
                and not _varies(facts, site)
            ):
                own = site.features.get("loop_depth", 0) > 0  # else the loop is around calls of its function
                where, each = ("inside a loop", "iteration") if own else ("in a function a loop calls", "call")
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(where=where, each=each))


def _varies(facts: FileFacts, site: Site) -> bool:
    """No iteration repeats another's tf.function: each wraps a function that closes over what
    every loop around it changes, or the loops are AutoGraph loops, traced once."""
    node, cell = facts.node(site), site.callsite.span.cell
    if node is None:
        return False
    wrapped = _wrapped(facts, node, cell)
    decorated = isinstance(wrapped, (ast.FunctionDef, ast.AsyncFunctionDef)) and node in wrapped.decorator_list
    start: ast.AST = wrapped if decorated and wrapped is not None else node
    loops = own_loops(facts, start, cell)
    if any(autograph_loop(facts, loop, cell) for loop in loops):
        return True
    if not loops and everywhere(
        facts, site, lambda call: any(autograph_loop(facts, loop, cell) for loop in own_loops(facts, call, cell))
    ):
        return True
    if wrapped is None:
        return False
    free = _free_names(wrapped)
    if loops:
        return all(free & loop_varying(loop) for loop in loops)
    helper = next(
        (
            a
            for a in facts.ancestors(node, cell)
            if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef)) and a is not wrapped
        ),
        None,
    )
    if helper is None:
        return False
    return bool(free & flow.derived(frozenset(parameters(helper)), helper.body))


def _wrapped(facts: FileFacts, call: ast.Call, cell: int | None) -> Function | None:
    """The function a `tf.function` call wraps, where written here: the function it decorates,
    a lambda argument, or a function of that name defined in the same scope."""
    parent = facts.parent(call, cell)
    if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and call in parent.decorator_list:
        return parent
    first = argument(call, "func", 0)
    if isinstance(first, ast.Lambda):
        return first
    if not isinstance(first, ast.Name):
        return None
    scope = enclosing(facts, call, cell)
    found = (
        [n for n in ast.walk(scope) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == first.id]
        if scope is not None and not isinstance(scope, ast.Lambda)
        else []
    )
    return found[0] if len(found) == 1 else None


def _free_names(func: Function) -> frozenset:
    """The names a function reads from around it: not its parameters, not what its body binds."""
    bound: frozenset = frozenset()
    if isinstance(func, ast.Lambda):
        read = flow.names(func.body)
    else:
        read = frozenset().union(*(flow.names(n) for n in func.body))
        bound = frozenset().union(*(b for b, _, _ in flow.assignments(func.body)))
    return read - frozenset(parameters(func)) - bound
