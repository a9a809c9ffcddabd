"""How often `fit()` runs a `tf.data` pipeline through again: the premise of GL408 and GL413.

Without `steps_per_epoch` each epoch makes a new iterator, a new pass. With it, both Keras
versions keep one iterator across epochs where the dataset's cardinality is infinite (`repeat()`)
or unknown to tf.data (`from_generator`, `filter`, `TFRecordDataset`): no epoch starts a pass.
Where it is known and finite they differ. tf.keras 2 (`keras/engine/data_adapter.py`,
`DataHandler.enumerate_epochs`) makes a new iterator each epoch only where
`DatasetAdapter.should_recreate_iterator()` holds: `steps_per_epoch` equals the cardinality
(otherwise the epochs draw one pass, and `_validate_dataset` refuses more than it holds). Keras 3
(TensorFlow 2.16 on; `keras/src/trainers/epoch_iterator.py`, `EpochIterator._enumerate_iterator`)
keeps the iterator and makes a new one each time its batches are all drawn. The validation data
is counted anew on each epoch: tf.keras 2's cached `_eval_data_handler` calls `iter()` in each
`enumerate_epochs`, and Keras 3's JAX trainer resets its cached `_eval_epoch_iterator` in
`evaluate` (`epoch_iterator.reset()`); its TensorFlow trainer was not read to do so, and is taken alike.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any, Literal

from greenlint.analysis.handed import epochs_run
from greenlint.analysis.options import argument, last_name
from greenlint.rules.base import FileFacts
from greenlint.rules.syntax import chain_methods, enclosing, last_bindings
from greenlint.rules.tf_data_defaults import OPTION
from greenlint.rules.tf_target import target

#: A dataset's cardinality as tf.data knows it: finite and known, or endless (infinite, or unknown:
#: Keras keeps one iterator for either); None where greenlint does not know it.
Size = Literal["known", "endless"] | None
#: Sources whose dataset has a known, finite cardinality.
KNOWN_SOURCES = frozenset(
    {"from_tensor_slices", "from_tensors", "range", "list_files", "image_dataset_from_directory",
     "audio_dataset_from_directory", "text_dataset_from_directory", "timeseries_dataset_from_array"}
)
#: Methods that keep their input's cardinality known (scaled) or endless.
KEEPS = frozenset(
    {"map", "batch", "padded_batch", "ragged_batch", "shuffle", "prefetch", "cache", "with_options", "enumerate",
     "shard", "skip"}
)
#: Sources and methods whose cardinality tf.data does not know (`tf.data.UNKNOWN_CARDINALITY`).
UNKNOWN = frozenset(
    {"from_generator", "TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset", "filter", "flat_map",
     "interleave", "unbatch", "take_while", "rejection_resample", "group_by_window", "bucket_by_sequence_length",
     "ignore_errors"}
)
#: How many names a dataset's source is followed back through (`ds = ds.map(f)` after `ds = ...`).
MAX_BINDINGS = 8
#: The first TensorFlow whose `tf.keras` is Keras 3.
KERAS_3 = (2, 16)


def chain_size(facts: FileFacts, chain: ast.expr, cell: int | None) -> Size:
    """The cardinality of the dataset *chain* gives, its source read (`source_size`)."""
    methods, root = chain_methods(chain)
    size, methods = source_size(facts, root, cell, methods)
    return _applied(methods, size)


def size_after(chain: ast.expr, size: Size, stop: ast.AST | None = None) -> Size:
    """The cardinality of the dataset *chain* gives, where what its methods are called on (down to
    *stop*, a call of a function returning the dataset) has *size*."""
    return _applied(chain_methods(chain, stop)[0], size)


def _applied(methods: list[ast.Call], size: Size) -> Size:
    for method in reversed(methods):
        size = _after(method, size)
    return size


def source_size(facts: FileFacts, node: ast.expr, cell: int | None, methods: list[ast.Call]) -> tuple[Size, list[ast.Call]]:
    """The cardinality of the root of a chain (a name's last plain binding before it, followed),
    with the chain's *methods* still to apply: a source call (`tf.data.TFRecordDataset(files)`,
    `Dataset.from_tensor_slices(x)`) is the last of them."""
    for _ in range(MAX_BINDINGS):
        if isinstance(node, ast.Name):
            bound = last_bindings(enclosing(facts, node, cell), node.lineno).get(node.id)
            if bound is None:
                return None, methods
            more, node = chain_methods(bound.value)
            methods += more
            continue
        break
    if isinstance(node, ast.Call):  # `TFRecordDataset(files)`, as imported
        source, rest = node, methods
    elif methods:
        source, rest = methods[-1], methods[:-1]
    else:
        return None, methods
    name = last_name(source.func)
    if name in KNOWN_SOURCES:
        return "known", rest
    if name in UNKNOWN:
        return "endless", rest
    return None, methods


def _after(method: ast.Call, size: Size) -> Size:
    """The cardinality after *method* of a dataset of *size*."""
    name = last_name(method.func)
    if name in UNKNOWN:
        return "endless"
    if name == "repeat":
        count = argument(method, "count", 0)
        return "endless" if count is None or _literal(count) in (None, -1) else size
    if name == "take":
        return size if _literal(argument(method, "count", 0)) == -1 else "known"
    return size if name in KEEPS else None


def _literal(node: ast.expr | None) -> object:
    """The value a literal argument writes; None for none given, `...` for an expression."""
    try:
        return ast.literal_eval(node) if node is not None else None
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return ...  # written, not a literal


def epochs_of(site: Any) -> tuple[str, int] | None:
    """The epochs a fit's *site* runs where its `epochs` is a literal: ("", 6) for `epochs=10,
    initial_epoch=4`; ("at most ", 10) where it resumes from an `initial_epoch` not known; None otherwise."""
    epochs = site.features.get("epochs")
    if not isinstance(epochs, int) or isinstance(epochs, bool):
        return None
    run, _, _ = epochs_run(site.callsite.work)
    return ("at most ", epochs) if run is None else ("", run)


def fit_passes(
    facts: FileFacts, fit: ast.Call, given: ast.expr, cell: int | None, size: Size, options: Mapping[str, Any]
) -> str | None:
    """How often `fit()` runs the dataset *given* to it (of *size*) through again: "each of 30 epochs",
    "every epoch (`epochs=args.epochs`)", or, with `steps_per_epoch` over a finite dataset, as the
    Keras version does (the module's docstring); None for one pass, or where that is not known."""
    written = argument(fit, "epochs")
    if written is None:
        return None  # Keras' default: one epoch
    site = facts.site_at(fit, cell)
    epochs = epochs_of(site) if site is not None else None
    if epochs is not None:
        if epochs[1] <= 1:
            return None
        each, count = f"each of {epochs[0]}{epochs[1]} epochs", f"{epochs[0]}{epochs[1]} epochs"
    else:
        each, count = f"every epoch (`epochs={ast.unparse(written)}`)", f"`epochs={ast.unparse(written)}`"
    steps = argument(fit, "steps_per_epoch")
    keyword = facts.parent(given, cell)
    if steps is None or _literal(steps) is None or isinstance(keyword, ast.keyword) and keyword.arg == "validation_data":
        return each  # a new iterator on each epoch
    if size != "known":
        return None  # one iterator across the epochs (endless), or not known whether Keras makes another
    steps_text = f"`steps_per_epoch={ast.unparse(steps)}`"
    if target(facts.path, str(options.get(OPTION.key) or "")).older_than(*KERAS_3):
        return f"{each}, where {steps_text} is its number of batches (tf.keras 2 starts it again on each epoch only then)"
    return (
        f"every pass `fit()` makes over its batches ({count} of {steps_text}: Keras 3 starts the dataset again"
        " each time they are all drawn)"
    )
