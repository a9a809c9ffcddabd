"""GL406 prefetch-not-last: `Dataset.prefetch()` followed by more transformations in its chain."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.material import in_tests
from greenlint.rules.site import method

PREFETCH = "tensorflow.data.Dataset.prefetch"
#: Dataset methods returning a dataset of the same elements' successors: prefetch can move past them.
TRANSFORMS = frozenset(
    {
        "batch",
        "cache",
        "filter",
        "flat_map",
        "interleave",
        "map",
        "padded_batch",
        "ragged_batch",
        "rebatch",
        "repeat",
        "shuffle",
        "skip",
        "take",
        "unbatch",
    }
)
#: Of those, the ones that do real work per element: prefetching before them overlaps nothing of it.
WORK = frozenset({"batch", "filter", "flat_map", "interleave", "map", "padded_batch", "ragged_batch"})


class PrefetchNotLast(Rule):
    """
    ## What it does
    Flags `tf.data.Dataset.prefetch()` followed, in the same method chain, by a transformation
    that works on every element (`map`, `batch`, `padded_batch`, `ragged_batch`, `filter`,
    `interleave`, `flat_map`). For example `ds.prefetch(tf.data.AUTOTUNE).map(f).batch(32)`.
    Not in test code (a test module, a test, or a helper only tests call): a test draws a few
    elements of trivial data, and the overlap it misses is paid by no user
    (greenlint/rules/material.py).

    ## Why is this bad?
    `prefetch` overlaps the work of everything *before* it with the consumer of what comes
    *after* it. Placed before `map` or `batch`, it buffers raw elements while the mapping and
    batching still run in the consumer's thread, between training steps: the step waits for
    the input and the machine draws its baseline power for longer. The tf.data performance
    guide: "add `prefetch` at the end of your input pipeline".

    ## Example
    ```python
    import tensorflow as tf

    ds = tf.data.Dataset.from_tensor_slices(images).prefetch(tf.data.AUTOTUNE).map(augment).batch(64)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    ds = tf.data.Dataset.from_tensor_slices(images).map(augment).batch(64).prefetch(tf.data.AUTOTUNE)
    ```

    ## Energy evidence
    The pair under bench/rules/ feeds the same small step from a mapped, batched pipeline with
    `prefetch` first and last. Overlap needs an idle core: on this 2-core machine, shared with
    other work while the pair ran, moving `prefetch` saved nothing measurable (see the table).
    On a machine whose accelerator waits on the input pipeline the gain is the one the
    tf.data guide describes; greenlint has no such measurement to state.

    ## Fix safety
    Safe: moves `.prefetch(...)`, with its arguments as written, to the end of the run of
    dataset transformations that follows it (`batch`, `cache`, `filter`, `flat_map`,
    `interleave`, `map`, `padded_batch`, `ragged_batch`, `rebatch`, `repeat`, `shuffle`,
    `skip`, `take`, `unbatch`). `prefetch` passes every element through unchanged and in
    order, so the pipeline yields the same elements in the same order; only when they are
    produced, and how much memory the buffer holds (batches instead of elements), change.

    ## Options
    None.
    """

    code = "GL406"
    name = "prefetch-not-last"
    CALLS = frozenset({method(PREFETCH)})
    MESSAGE = "`prefetch()` before `{after}()`: the transformations after it do not overlap with training"
    FIX_TITLE = "Move `prefetch()` to the end of the pipeline"
    FIX = FixBy("MoveToChainEnd", {"over": TRANSFORMS}, safe=True)
    VALID = (
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(8).map(f).batch(4).prefetch(tf.data.AUTOTUNE)\n"),
        # a test module's trivial data: nothing a user waits on
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(1).repeat().prefetch(1).batch(1)\n", filename="util_test.py"),
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(8).batch(4).prefetch(2).repeat()\n"),
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(8).batch(4).prefetch(2).cache().take(3)\n"),
        Valid(
            "import tensorflow as tf\nfor x in tf.data.Dataset.range(8).prefetch(2).as_numpy_iterator():\n    pass\n"
        ),
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(8).batch(4).prefetch(2).unbatch()\n"),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nds = tf.data.Dataset.range(8).prefetch(tf.data.AUTOTUNE).map(f).batch(4)\n",
            line=2,
            message_contains="before `map()`",
            expected_replacement=(
                "import tensorflow as tf\nds = tf.data.Dataset.range(8).map(f).batch(4).prefetch(tf.data.AUTOTUNE)\n"
            ),
        ),
        Invalid(
            "import tensorflow as tf\n"
            "ds = (\n"
            "    tf.data.Dataset.range(8)\n"
            "    .cache()\n"
            "    .prefetch(buffer_size=2)\n"
            "    .batch(4)\n"
            "    .repeat()\n"
            ")\n"
            "it = iter(ds.prefetch(1).unbatch().map(f).as_numpy_iterator())\n",
            expected_replacement=(
                "import tensorflow as tf\n"
                "ds = (\n"
                "    tf.data.Dataset.range(8)\n"
                "    .cache()\n"
                "    .batch(4)\n"
                "    .repeat().prefetch(buffer_size=2)\n"
                ")\n"
                "it = iter(ds.unbatch().map(f).prefetch(1).as_numpy_iterator())\n"
            ),
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api != PREFETCH or in_tests(facts, site):  # a test's few elements: nothing to overlap
                continue
            after = _work_after(facts, facts.node(site), site.callsite.span.cell)
            if after is not None:
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(after=after))


def _work_after(facts: FileFacts, call: ast.Call | None, cell: int | None) -> str | None:
    """The first per-element transformation chained after the call (through TRANSFORMS only), or None."""
    node = call
    while node is not None:
        attribute = facts.parent(node, cell)
        outer = facts.parent(attribute, cell) if isinstance(attribute, ast.Attribute) else None
        if not (isinstance(outer, ast.Call) and outer.func is attribute and attribute.value is node):
            return None
        name = attribute.attr
        if name not in TRANSFORMS:
            return None
        if name in WORK:
            return name
        node = outer
    return None
