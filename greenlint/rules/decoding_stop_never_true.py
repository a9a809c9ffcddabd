"""GL208 decoding-stop-never-true: a decoding loop whose only early stop compares a TensorFlow 1 graph tensor with `==`, which is never true."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.catalog.names import TF1_PREFIX
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.callbacks import constructors
from greenlint.rules.decoding import may_decode, runs_network
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.syntax import cell_units, own_body
from greenlint.rules.tf_target import target

#: Calls that give a program TensorFlow 1's identity `==` on tensors under TensorFlow 2.
DISABLE_EQUALITY = frozenset(
    {"tensorflow.compat.v1.disable_v2_behavior", "tensorflow.compat.v1.disable_tensor_equality"}
)
#: APIs under TF1's namespace that a TF2 program reaches through `tf.keras` as well (no sign of a TF1 program).
BOTH = (TF1_PREFIX + "keras.",)
#: `tf.compat.v1` imported under a name of its own: its TF1 names run under TensorFlow 2 as well.
V1_ALIAS = re.compile(r"compat\.v1\s+as\s+\w+|compat\s+import\s+v1\b")
#: Calls whose result is a NumPy value or a Python one, not a graph tensor.
FETCHES = (".run", ".eval", ".numpy")


class DecodingStopNeverTrue(Rule):
    """
    ## What it does
    Flags the early stop of a decoding loop that can never fire: a `for` loop over a
    `range(...)` (also wrapped, `tqdm(range(n))`) whose body runs a network (as GL207 reads it:
    a Keras model's `predict()` or call, a `Session.run`, a model or a function of the file that
    runs layers, an embedding or a matrix product) and whose every `break` or `return` sits under
    an `if` that compares a TensorFlow tensor with `==` (`if tf.reduce_sum(y_hat, 1) == pad:
    break`, the tensor made by a TensorFlow call in the test or by every assignment of the name
    compared), in a program that runs with TensorFlow 1's tensor equality: its project pins
    TensorFlow 1, it calls `tf.compat.v1.disable_v2_behavior()` or
    `disable_tensor_equality()`, or it calls a TensorFlow 1 name that TensorFlow 2 no longer
    has (`tf.to_int32`, `tf.placeholder`, `tf.train.AdamOptimizer`) without importing
    `tf.compat.v1` under another name.

    Not reported: a stop that compares a fetched value (`sess.run(done) == 1`, `.numpy()`), or
    any other test; a loop with another exit; a loop with no exit at all (a fixed number of
    steps may be what the program wants: audio samples, a forecast horizon); a program under
    TensorFlow 2's equality, where `==` is elementwise (a non-scalar `if` then raises at once,
    so no energy is wasted).

    ## Why is this bad?
    Under TensorFlow 1, `Tensor.__eq__` is Python's identity test: a tensor is never the
    integer it is compared with, so the `if` is always false and the loop always runs all of
    its steps, decoding (or building a graph that decodes) past the point where every sequence
    has ended. Translation and captioning outputs are mostly far shorter than the maximum
    length: with sentences of 20 to 30 tokens and a maximum of 100, three quarters of the
    network's passes compute nothing the output keeps. A `tf.while_loop` whose condition
    tests whether every sequence has produced the end token (`tf.reduce_all(finished)`)
    stops there, as does an eager loop testing a fetched value.

    ## Example
    ```python
    import tensorflow as tf

    for _ in range(maxlen):
        logits, y_hat = decode(ys, memory)
        if tf.reduce_sum(y_hat, 1) == pad_id:
            break
        ys = tf.concat((start, y_hat), 1)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    def not_done(i, ys, finished):
        return tf.logical_and(i < maxlen, tf.logical_not(tf.reduce_all(finished)))

    def step(i, ys, finished):
        logits, y_hat = decode(ys, memory)
        finished = tf.logical_or(finished, tf.equal(y_hat[:, -1], end_id))
        return i + 1, tf.concat((start, y_hat), 1), finished

    _, ys, _ = tf.while_loop(not_done, step, (0, start, tf.zeros_like(start[:, 0], tf.bool)),
                             shape_invariants=(tf.TensorShape([]), tf.TensorShape([None, None]), tf.TensorShape([None])))
    ```

    ## Energy evidence
    The pair under bench/rules/ decodes 3 batches of 64 sequences with a recurrent greedy
    decoder (256 units, 4,000 tokens) of at most 100 steps, each sequence ending at 20 to 30
    tokens: before, the Python loop unrolled to the maximum under `disable_v2_behavior()`, its
    stop a tensor `==`; after, a `tf.while_loop` that stops once every sequence has produced the
    pad token. The saving is the share of steps after the longest sequence has ended, which the
    data's lengths against the maximum set.

    ## Fix safety
    No automatic fix: the loop must be rewritten as a graph loop or test a fetched value.

    ## Options
    None.
    """

    code = "GL208"
    name = "decoding-stop-never-true"
    MENTIONS = ("==",)  # the stop's test
    MESSAGE = (
        "`{test}` compares a graph tensor with `==`, which TensorFlow 1 answers by identity ({why}): it is never true,"
        " so this loop runs the network on all of its `{steps}` steps, also after every sequence has ended;"
        " stop when every sequence has produced the end token (a `tf.while_loop` whose condition tests it)"
    )
    FIX_TITLE = "Stop the decoding when every sequence has ended: a tf.while_loop whose condition tests the end token"
    VALID = (
        Valid(  # TensorFlow 2 (no TF1 name): `==` is elementwise, a non-scalar `if` raises at once
            "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for _ in range(100):\n    y = model(seq)\n    if tf.reduce_sum(y) == 0:\n        break\n"
            "    seq = tf.concat([seq, y], 1)\n"
        ),
        Valid(  # a fetched value compared: NumPy's `==` works
            "import tensorflow as tf\nx = tf.placeholder(tf.int32)\nsess = tf.Session()\n"
            "for _ in range(100):\n    ids = sess.run(y_hat, feed_dict={x: seq})\n    if sess.run(done) == 1:\n        break\n"
        ),
        Valid(  # another exit that can fire
            "import tensorflow as tf\nx = tf.placeholder(tf.int32)\nsess = tf.Session()\n"
            "for _ in range(100):\n    ids = sess.run(y_hat, feed_dict={x: seq})\n    if tf.reduce_sum(y_hat) == 0:\n        break\n"
            "    if ids[-1] == end:\n        break\n"
        ),
        Valid(  # no exit at all: a fixed number of steps may be the program's intent
            "import tensorflow as tf\nx = tf.placeholder(tf.float32)\nsess = tf.Session()\n"
            "for _ in range(16000):\n    sample = sess.run(y, feed_dict={x: wave})\n    wave.append(sample)\n"
        ),
        Valid(  # tf.compat.v1 imported under `tf`: the program may run with TensorFlow 2's equality
            "import tensorflow.compat.v1 as tf\nx = tf.placeholder(tf.int32)\nsess = tf.Session()\n"
            "for _ in range(100):\n    ids = sess.run(y_hat, feed_dict={x: seq})\n    if tf.reduce_sum(y_hat) == 0:\n        break\n"
        ),
    )
    INVALID = (
        Invalid(  # a TF1 graph decoder built once per position, its stop never true
            "import tensorflow as tf\n\n\nclass Transformer:\n    def decode(self, ys, memory):\n"
            "        logits = tf.einsum('ntd,dk->ntk', tf.nn.embedding_lookup(self.embeddings, ys) + memory, self.w)\n"
            "        return logits, tf.to_int32(tf.argmax(logits, axis=-1))\n\n"
            "    def eval(self, start, memory):\n        ys = start\n        for _ in range(self.maxlen):\n"
            "            logits, y_hat = self.decode(ys, memory)\n            if tf.reduce_sum(y_hat, 1) == self.pad:\n"
            "                break\n            ys = tf.concat((start, y_hat), 1)\n        return y_hat\n",
            line=13,
            message_contains="`tf.reduce_sum(y_hat, 1) == self.pad` compares a graph tensor with `==`, which TensorFlow 1"
            " answers by identity (`tf.to_int32` is a TensorFlow 1 name)",
        ),
        Invalid(  # a name every assignment of which makes a tensor; TF2 with v2 behaviour disabled
            "import tensorflow as tf\ntf.compat.v1.disable_v2_behavior()\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for _ in tqdm(range(64)):\n    out = model(seq)\n    last = tf.argmax(out[:, -1], -1)\n"
            "    if last == end_id:\n        break\n    seq = tf.concat([seq, last[:, None]], 1)\n",
            line=7,
            message_contains="`disable_v2_behavior()` is called",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        text = facts.text
        if not may_decode(facts) or "range" not in text:  # before the file's tree is indexed
            return
        why: str | None = None
        for cell, _ in cell_units(facts):
            for loop in (n for n in facts.nodes(cell, ast.For) if _counted(n.iter)):  # the file's one walk, shared
                body = list(own_body(loop))
                exits = [n for n in body if isinstance(n, (ast.Break, ast.Return))]
                tests = [_dead_test(facts, e, cell) for e in exits]
                if (
                    not exits
                    or None in tests
                    or not any(isinstance(n, ast.Call) and runs_network(facts, n, cell) for n in body)
                ):
                    continue
                why = _identity_equality(facts) if why is None else why
                if not why:
                    return
                test = tests[0]
                assert test is not None
                yield self.diagnostic(
                    facts.span(test, cell),
                    facts.path,
                    self.MESSAGE.format(
                        test=ast.unparse(test),
                        why=why,
                        steps=ast.unparse(loop.iter),
                    ),
                )


def _counted(iterable: ast.expr) -> bool:
    """`range(n)`, also wrapped (`tqdm(range(n))`, `enumerate(range(n))`)."""
    return isinstance(iterable, ast.Call) and any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "range" for n in ast.walk(iterable)
    )


def _dead_test(facts: FileFacts, exit_: ast.stmt, cell: int | None) -> ast.Compare | None:
    """The `tensor == value` test of the `if` an exit sits in the body of, None where the exit
    is not under such a test."""
    child: ast.AST = exit_
    for parent in facts.ancestors(exit_, cell):
        if isinstance(parent, ast.If) and child in parent.body:
            test = parent.test
            if (
                isinstance(test, ast.Compare)
                and len(test.ops) == 1
                and isinstance(test.ops[0], ast.Eq)
                and any(_graph_tensor(facts, side, cell) for side in (test.left, *test.comparators))
            ):
                return test
            return None
        if isinstance(parent, (ast.For, ast.While, ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        child = parent
    return None


def _graph_tensor(facts: FileFacts, expr: ast.expr, cell: int | None) -> bool:
    """A TensorFlow op's result: a call of one in place, or a name every assignment of which is one."""
    made = [expr] if isinstance(expr, ast.Call) else constructors(facts, expr) if isinstance(expr, ast.Name) else None
    if not made:
        return False
    for call in made:
        site = facts.site_at(call, cell)
        if (
            site is None
            or not site.api.startswith("tensorflow.")
            or site.api.endswith(FETCHES)
            or "Session" in site.api
        ):
            return False
    return True


def _identity_equality(facts: FileFacts) -> str:
    """Why the program compares tensors by identity (TensorFlow 1's `==`), "" where nothing says so."""
    tf = target(facts.path)
    if tf.older_than(2, 0):
        return f"{tf.shown()}"
    if any(site.api in DISABLE_EQUALITY for site in facts.sites):
        return (
            "`disable_v2_behavior()` is called"
            if any(site.api.endswith("disable_v2_behavior") for site in facts.sites)
            else "`disable_tensor_equality()` is called"
        )
    if V1_ALIAS.search(facts.text):
        return ""
    for site in facts.sites:
        if site.api.startswith(TF1_PREFIX) and not site.api.startswith(BOTH):
            call = facts.node(site)
            written = ast.unparse(call.func) if call is not None else "compat"
            if "compat" not in written:
                return f"`{written}` is a TensorFlow 1 name"
    return ""
