"""GL411 padded-batch-without-bucketing: shuffled variable-length sequences padded to each batch's longest, with no grouping by length."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument, keyword
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import is_dataset_method
from greenlint.rules.syntax import SCOPES, last_name, units

#: Calls that group elements of similar length before they are batched.
GROUPING = frozenset({"bucket_by_sequence_length", "group_by_window", "element_length_func"})


class PaddedBatchWithoutBucketing(Rule):
    """
    ## What it does
    Flags `Dataset.padded_batch()` on a dataset shuffled before it (in the same chain, or
    where the name it is called on was assigned earlier in the same function, a shuffle under
    an `if` included) when every component of the `padded_shapes` it is given (written in the
    call, or a name bound once in the function or the file) is a sequence of unknown length
    (`[None]`, `[None, 80]`) or a scalar: the batches are random mixes of sequences of
    different lengths, each padded to the batch's longest. Not reported when the file groups
    elements by length (`bucket_by_sequence_length`, `group_by_window`), sorts them by length
    (`sorted(..., key=len)`), or pads with a component of fixed shape (an image resized to
    `[512, 512, 3]` beside its padded boxes: the network's input is not padded), or when the
    padded shapes are not written (greenlint cannot tell what is padded), or the batch size is 1.

    ## Why is this bad?
    In a random batch of B sequences the longest is close to the longest of the data, so the
    batch is padded far beyond the typical sequence: with lengths spread evenly from 1 to 100
    and B = 128, about half of every batch's positions are padding. The embedding, every
    attention layer (quadratic in the padded length), the feed-forward layers and the output
    projection compute on those positions, and the mask then discards them. Grouping
    sequences of similar length into the same batch
    (`tf.data.experimental.bucket_by_sequence_length`, `Dataset.bucket_by_sequence_length`
    from TensorFlow 2.6, or sorting within large shuffled chunks) pads each batch only to
    lengths close to its own, and the work falls with the padding.

    ## Example
    ```python
    import tensorflow as tf

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([None], tf.int32))
    ds = ds.shuffle(10_000).padded_batch(128, padded_shapes=[None])
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([None], tf.int32))
    ds = ds.shuffle(10_000).bucket_by_sequence_length(
        lambda x: tf.shape(x)[0], bucket_boundaries=[16, 32, 64], bucket_batch_sizes=[128] * 4,
    )
    ```

    ## Energy evidence
    The saving is the share of padding positions, which depends on the spread of the data's
    lengths against the batch size. The pair under bench/rules/ (2,048 token sequences of 4 to
    256 tokens, batches of 32, a two-layer 1-D convolution network, one epoch) pads with and
    without length buckets (see the table): a spread this even is the case the rule's
    message describes; data of nearly equal lengths saves little.

    ## Fix safety
    No automatic fix: the bucket boundaries depend on the data's lengths.

    ## Options
    None.
    """

    code = "GL411"
    name = "padded-batch-without-bucketing"
    CALLS = frozenset({"padded_batch"})
    MESSAGE = (
        "`padded_batch()` pads shuffled sequences of different lengths to each batch's longest, which in a random"
        " batch is near the longest of the data: the network computes on the padding the mask then discards;"
        " group similar lengths first (`bucket_by_sequence_length`)"
    )
    FIX_TITLE = "Group sequences of similar length before padding (bucket_by_sequence_length)"
    VALID = (
        Valid(  # grouped by length before padding
            "import tensorflow as tf\nds = tf.data.Dataset.from_generator(gen, tf.int32, [None]).shuffle(1000)\n"
            "ds = ds.apply(tf.data.experimental.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [16, 32], [64, 64, 64]))\n"
            "val = tf.data.Dataset.from_generator(gen, tf.int32, [None]).shuffle(1000).padded_batch(64, padded_shapes=[None])\n"
        ),
        Valid(  # an image of fixed shape beside padded boxes: the network's input is not padded
            "import tensorflow as tf\nds = tf.data.Dataset.from_generator(gen, (tf.float32, tf.float32))\n"
            "ds = ds.shuffle(1000).padded_batch(8, padded_shapes=([512, 512, 3], [None, 4]))\n"
        ),
        Valid(  # not shuffled: the order may already group lengths
            "import tensorflow as tf\nds = tf.data.Dataset.from_generator(gen, tf.int32, [None])\n"
            "ds = ds.padded_batch(64, padded_shapes=[None])\n"
        ),
        Valid(  # padded shapes not written: what is padded is not known
            "import tensorflow as tf\nds = tf.data.Dataset.from_generator(gen, tf.int32)\nds = ds.shuffle(1000).padded_batch(64)\n"
        ),
        Valid(  # sorted by length first
            "import tensorflow as tf\npairs = sorted(pairs, key=len)\nds = tf.data.Dataset.from_generator(lambda: pairs, tf.int32, [None])\n"
            "ds = ds.shuffle(64).padded_batch(64, padded_shapes=[None])\n"
        ),
    )
    INVALID = (
        Invalid(  # a name shuffled under a condition, the shapes bound to a name
            "import tensorflow as tf\n\n\ndef input_fn(gen, batch_size, shuffle=False):\n"
            "    shapes = (([None], ()), ([None], [None], ()))\n    paddings = ((0, 0), (0, 0, 0))\n"
            "    dataset = tf.data.Dataset.from_generator(gen, output_shapes=shapes, output_types=types)\n"
            "    if shuffle:\n        dataset = dataset.shuffle(128 * batch_size)\n    dataset = dataset.repeat()\n"
            "    dataset = dataset.padded_batch(batch_size, shapes, paddings).prefetch(1)\n    return dataset\n",
            line=11,
            message_contains="pads shuffled sequences of different lengths to each batch's longest",
        ),
        Invalid(  # in one chain
            "import tensorflow as tf\nds = tf.data.Dataset.from_generator(gen, tf.int32, [None])\n"
            "ds = ds.shuffle(10000).padded_batch(128, padded_shapes=[None])\n",
            line=3,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        batches = [s for s in facts.sites if is_dataset_method(s.api, "padded_batch")]
        if not batches or not any(is_dataset_method(s.api, "shuffle") for s in facts.sites) or _grouped(facts):
            return
        for site in batches:
            call = facts.node(site)
            cell = site.callsite.span.cell
            if call is None or _one(call):
                continue
            if _all_variable(_bound(facts, argument(call, "padded_shapes", 1), call, cell)) and _shuffled(
                facts, call, cell
            ):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)


def _one(call: ast.Call) -> bool:
    """A batch size of 1 written in the call: nothing is padded."""
    size = argument(call, "batch_size", 0)
    return isinstance(size, ast.Constant) and size.value == 1


def _grouped(facts: FileFacts) -> bool:
    """The file groups or sorts elements by length somewhere."""
    for cell in facts.cells:
        for node in facts.nodes(cell, ast.Call):
            name = last_name(node.func)
            if name in GROUPING:
                return True
            length_key = keyword(node, "key")
            if name in ("sorted", "sort") and length_key is not None and last_name(length_key.value) == "len":
                return True
    return False


def _bound(facts: FileFacts, expr: ast.expr | None, call: ast.Call, cell: int | None) -> ast.expr | None:
    """*expr*, or the one value a name is bound to in the call's function (else in the file)."""
    if not isinstance(expr, ast.Name):
        return expr
    scope = next((a for a in facts.ancestors(call, cell) if isinstance(a, SCOPES)), None)
    for tree in ([scope] if scope is not None else []) + list(units(facts)):
        values = [
            n.value
            for n in ast.walk(tree)
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)
        ]
        if values:
            return values[0] if len(values) == 1 else None
    return None


def _all_variable(shapes: ast.expr | None) -> bool:
    """Every component of a padded-shapes structure is a shape with an unknown dimension or a scalar,
    and one at least has an unknown dimension."""
    if shapes is None:
        return False
    leaves: list[ast.expr] = []
    todo = [shapes]
    while todo:
        node = todo.pop()
        if (
            isinstance(node, (ast.Tuple, ast.List))
            and node.elts
            and all(isinstance(e, (ast.Tuple, ast.List)) for e in node.elts)
        ):
            todo.extend(node.elts)  # a nesting of components
        else:
            leaves.append(node)
    kinds = [_shape_kind(leaf) for leaf in leaves]
    return "variable" in kinds and all(k in ("variable", "scalar") for k in kinds)


def _shape_kind(shape: ast.expr) -> str | None:
    """ "scalar" for `()`/`[]`, "variable" for a shape with a `None` (or -1) dimension, else None (fixed or unknown)."""
    if not isinstance(shape, (ast.Tuple, ast.List)):
        return None
    if not shape.elts:
        return "scalar"
    unknown = any(
        isinstance(d, ast.Constant)
        and d.value is None
        or isinstance(d, ast.UnaryOp)
        and isinstance(d.op, ast.USub)
        and isinstance(d.operand, ast.Constant)
        for d in shape.elts
    )
    return "variable" if unknown else None


def _shuffled(facts: FileFacts, call: ast.Call, cell: int | None) -> bool:
    """A `shuffle` before the padding: in the call's own chain, or in what the name it is
    called on was assigned from earlier in the same function."""
    receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
    if receiver is None:
        return False
    if _shuffles(receiver):
        return True
    if not isinstance(receiver, ast.Name):
        return False
    scope = next((a for a in facts.ancestors(call, cell) if isinstance(a, SCOPES)), None)
    return any(
        isinstance(node, ast.Assign)
        and node.lineno < call.lineno
        and _shuffles(node.value)
        and any(isinstance(t, ast.Name) and t.id == receiver.id for t in node.targets)
        for node in (ast.walk(scope) if scope is not None else ())
    )


def _shuffles(expr: ast.expr) -> bool:
    return any(isinstance(n, ast.Call) and last_name(n.func) == "shuffle" for n in ast.walk(expr))
