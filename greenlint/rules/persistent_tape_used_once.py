"""GL313 persistent-tape-used-once: `GradientTape(persistent=True)` whose tape is asked for gradients once."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import method
from greenlint.rules.syntax import LOOPS, SCOPES, bound_name

TAPE = "tensorflow.GradientTape"
#: Tape methods that neither compute gradients nor let the tape escape.
HARMLESS = frozenset({"watch", "stop_recording", "reset", "watched_variables"})


def _used_once(facts: FileFacts, call: ast.Call, cell) -> bool:
    """Exactly one `gradient` call on the tape, in the tape's own function and outside any loop the
    tape is not created in, and no other use of the tape's name than harmless methods."""
    name = bound_name(facts, call, cell)
    scope = next((a for a in facts.ancestors(call, cell) if isinstance(a, SCOPES)), None)
    if name is None or scope is None or (cell is not None and isinstance(scope, ast.Module)):
        return False  # a notebook's later cells may use a module-level tape again
    tape_loops = {id(a) for a in facts.ancestors(call, cell) if isinstance(a, LOOPS)}
    gradients = 0
    for node in ast.walk(scope):
        if not (isinstance(node, ast.Name) and node.id == name) or isinstance(node.ctx, ast.Store):
            continue
        attribute = facts.parent(node, cell)
        use = facts.parent(attribute, cell) if isinstance(attribute, ast.Attribute) else None
        if not (isinstance(use, ast.Call) and use.func is attribute):
            return False  # the tape is passed, returned or stored: its other uses are unknown
        if attribute.attr == "gradient":
            enclosing = list(facts.ancestors(use, cell))
            own_scope = next((a for a in enclosing if isinstance(a, SCOPES)), None)
            loops = {id(a) for a in enclosing if isinstance(a, (*LOOPS, ast.comprehension))}
            if own_scope is not scope or loops - tape_loops:
                return False  # called from a nested function or a loop: maybe many times
            gradients += 1
        elif attribute.attr not in HARMLESS:
            return False  # jacobian without pfor needs persistence; other methods are unknown
    return gradients == 1


class PersistentTapeUsedOnce(Rule):
    """
    ## What it does
    Flags `tf.GradientTape(persistent=True)` when the tape (bound by a `with` statement or an
    assignment) gets exactly one `gradient()` call, written in the tape's own function (not in a
    nested function, not in a loop of its own), and is used for nothing else but `watch`,
    `stop_recording` or `reset` (a `jacobian` without vectorisation needs a persistent tape). A
    tape at the top level of a notebook cell is not reported: later cells may use it again.

    ## Why is this bad?
    A persistent tape keeps every intermediate tensor of the recorded computation alive until the
    tape itself is deleted, so that gradients can be asked for again. A non-persistent tape frees
    those resources as soon as its single `gradient()` call is done. Asked once, persistence only
    holds memory longer (on a GPU, memory that the next step could use).

    ## Example
    ```python
    import tensorflow as tf

    with tf.GradientTape(persistent=True) as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    ```

    ## Energy evidence
    Mostly memory: the pair under bench/rules/ times a small eager step both ways, and on this
    CPU the non-persistent tape was not faster (the table shows the measured figure). The
    saving is the memory the tape releases after its one `gradient()` call, not energy, so the
    rule is opt-in: enable it with `--extend-select GL313`.

    ## Fix safety
    Safe: removes `persistent=True`. The rule only fires when the tape gives gradients once, which
    a non-persistent tape allows, so the gradients are the same.

    ## Options
    None.
    """

    code = "GL313"
    name = "persistent-tape-used-once"
    CALLS = frozenset({method(TAPE)})
    MESSAGE = "a persistent GradientTape asked for gradients only once keeps its tensors alive for nothing"
    FIX_TITLE = "Remove `persistent=True`"
    FIX = FixBy("RemoveArgument", {"name": "persistent", "position": 0}, safe=True)
    DEFAULT_ENABLED = False  # opt-in: its measured pair saves no energy (see Energy evidence)
    VALID = (
        Valid(
            "import tensorflow as tf\nwith tf.GradientTape(persistent=True) as tape:\n    y = f(x)\n"
            "g1 = tape.gradient(y, a)\ng2 = tape.gradient(y, b)\n"
        ),
        Valid(
            "import tensorflow as tf\nwith tf.GradientTape(persistent=True) as tape:\n    y = f(x)\n"
            "for v in vs:\n    g = tape.gradient(y, v)\n"
        ),
        Valid(
            "import tensorflow as tf\nwith tf.GradientTape(persistent=True) as tape:\n    y = f(x)\n"
            "helper(tape)\ng = tape.gradient(y, a)\n"
        ),
        Valid("import tensorflow as tf\nwith tf.GradientTape() as tape:\n    y = f(x)\ng = tape.gradient(y, a)\n"),
        Valid(
            "import tensorflow as tf\ndef f(x):\n    with tf.GradientTape(persistent=True) as tape:\n        y = g(x)\n"
            "    def grad(v):\n        return tape.gradient(y, v)\n    return [grad(v) for v in vs]\n"
        ),
        Valid(
            "import tensorflow as tf\nwith tf.GradientTape(persistent=True) as tape:\n    y = f(x)\nj = tape.jacobian(y, x)\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\ndef step(x):\n    with tf.GradientTape(persistent=True) as tape:\n"
            "        tape.watch(x)\n        y = x * x\n    return tape.gradient(y, x)\n",
            line=3,
            expected_replacement=(
                "import tensorflow as tf\ndef step(x):\n    with tf.GradientTape() as tape:\n"
                "        tape.watch(x)\n        y = x * x\n    return tape.gradient(y, x)\n"
            ),
        ),
        Invalid(
            "import tensorflow as tf\nfor x in data:\n    with tf.GradientTape(True) as tape:\n"
            "        y = x * x\n    g = tape.gradient(y, x)\n",
            expected_replacement=(
                "import tensorflow as tf\nfor x in data:\n    with tf.GradientTape() as tape:\n"
                "        y = x * x\n    g = tape.gradient(y, x)\n"
            ),
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api != TAPE or site.features.get("persistent") is not True:
                continue
            call = facts.node(site)
            if call is not None and _used_once(facts, call, site.callsite.span.cell):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
