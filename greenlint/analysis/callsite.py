"""The CallSite contract: one resolved TF/Keras call in a user's file."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import ast

#: The note of a fit's `batch_size` work taken as Keras' default where the analysis does not
#: know its input: right for arrays, while a dataset or a generator batches itself.
UNTYPED_BATCH = "Keras default for arrays (a tf.data input batches itself)"
#: An Estimator's methods that run its model over the data its `input_fn` builds.
ESTIMATOR_METHODS = frozenset({"train", "evaluate", "predict"})


def estimator_method(api: str) -> bool:
    """An Estimator's `train`, `evaluate` or `predict` (`tf.estimator.*`, TPUEstimator, `model_to_estimator`'s)."""
    return ".estimator." in api and api.rpartition(".")[2] in ESTIMATOR_METHODS


@dataclass(frozen=True)
class Span:
    """1-based line and column (characters) of a call expression; `cell` for notebooks."""

    line: int
    column: int
    end_line: int
    end_column: int
    cell: int | None = None  # 1-based code-cell index; line/column are then relative to the cell


def node_columns(node: ast.expr | ast.stmt, lines: Sequence[str] | None, base: int = 0) -> tuple[int, int]:
    """The 0-based character columns where *node* starts (on its first line) and ends (on its
    last), from `ast`'s UTF-8 byte offsets: a Span's columns count characters. *lines* are the
    lines of the text parsed (`sources.split_lines`; None for an ASCII text, whose bytes are its
    characters), *base* the lines before that text in the node's numbering (a notebook cell's in
    the joined module). The one conversion from `ast` positions to a Span's."""
    start, end = node.col_offset, node.end_col_offset or 0
    if lines is None:
        return start, end
    first, last = node.lineno - base, (node.end_lineno or node.lineno) - base
    return char_offset(lines[first - 1] if first <= len(lines) else "", start), char_offset(
        lines[last - 1] if last <= len(lines) else "", end
    )


def char_offset(line: str, byte_offset: int) -> int:
    """The character offset in *line* of a UTF-8 *byte_offset* (`ast`'s `col_offset`)."""
    if line.isascii():
        return byte_offset
    return len(line.encode("utf-8", "surrogatepass")[:byte_offset].decode("utf-8", "replace"))


@dataclass(frozen=True)
class CallSite:
    path: str
    span: Span
    api: str  # canonical name, e.g. "tensorflow.keras.Sequential.fit"
    features: dict[str, Any] = field(default_factory=dict)
    #: The work the call implies: quantity -> {"value", "provenance", "note"} (docs/calls-json.md `work`).
    work: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: How often the site runs per program run: {"count", "bound", "note"} (docs/calls-json.md `runs`).
    runs: dict[str, Any] = field(default_factory=lambda: {"count": None, "bound": "unknown", "note": None})
    #: Qualified name of the functions and classes around the call ("" at module level; docs/calls-json.md `scope`).
    scope: str = ""
    #: Positional argument count and keyword names, `2:epochs,validation_data` (docs/calls-json.md `shape`).
    shape: str = ""
    # features holds the static facts: literal args by parameter name ("epochs": 10, ...),
    # "loop_multiplier", "in_tf_function", "tensor_bytes", "receiver_kind", ...

    @property
    def counted(self) -> bool:
        """The analysis knows how often the site runs (`runs["count"]`); else only the literal loops
        around it are known."""
        return isinstance(self.runs.get("count"), int)
