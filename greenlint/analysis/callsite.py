"""The CallSite contract: one resolved TF/Keras call in a user's file."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

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


class Quantity(NamedTuple):
    """One quantity of the work a call implies (docs/calls-json.md `work`): immutable, and a
    NamedTuple rather than a frozen dataclass since the analysis makes thousands per file (a
    frozen dataclass' `__init__` costs four times as much)."""

    value: Any  # None: unknown
    provenance: str  # "literal", "inferred", "table", "documented" or "unknown"
    note: str | None = None
    bound: str | None = None  # "upper" (at most: early stopping, a filtered dataset), "lower" (a known part)
    least: int | None = None  # the fewest epochs an early stop allows, with `bound` "upper"
    arguments: dict[str, str] | None = None  # `options`: each parameter given an option's default -> the option

    def to_json(self) -> dict[str, Any]:
        """The work entry of docs/calls-json.md: value, provenance and note; the others where set."""
        out = {"value": self.value, "provenance": self.provenance, "note": self.note}
        for name in _QUANTITY_EXTRAS:
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        return out


_QUANTITY_EXTRAS = ("bound", "least", "arguments")
#: The work a call implies: quantity name (`epochs`, `samples`, `flops_per_sample`, ...) -> Quantity.
Work = dict[str, Quantity]


def work_json(work: Work) -> dict[str, dict[str, Any]]:
    """A call site's `work` object (docs/calls-json.md)."""
    return {name: quantity.to_json() for name, quantity in work.items()}


def work_from_json(obj: dict[str, Any]) -> Work:
    """The Work `work_json` wrote; ValueError for an entry that is not a quantity object."""
    fields = ("value", "provenance", "note", *_QUANTITY_EXTRAS)
    work = {}
    for name, entry in obj.items():
        if type(entry) is not dict or type(entry.get("provenance")) is not str:
            raise ValueError("a call site's work entries are objects with a provenance")
        work[name] = Quantity(**{k: entry[k] for k in fields if k in entry})
    return work


class _Unsaid(enum.Enum):
    UNSAID = "unsaid"


#: A `Runs.loop` its record does not say (one made by hand with a count alone): readers fall back
#: to the literal loops around the call (`features.loop_multiplier`).
UNSAID = _Unsaid.UNSAID
#: `Runs`' fields in the order of their JSON object (docs/calls-json.md `runs`), the optional ones first.
_RUNS_JSON = ("loop_option", "request", "least", "count", "bound", "note", "loop", "loop_bound", "callers", "varies", "varying")


@dataclass(frozen=True)
class Runs:
    """How often a call site runs in one run of the program, and why (docs/calls-json.md `runs`;
    made by analysis/runs.py)."""

    count: int | None = None  # loops × `if`/`break` × calls of its function; None: unknown
    bound: str = "unknown"  # "exact", "upper" or "unknown"
    note: str | None = None
    loop: int | None | _Unsaid = UNSAID  # the runs loops alone give; None: a loop of unknown length
    loop_bound: str | None = None  # `loop`'s bound; None where not said
    callers: int | None = 1  # calls of its function the file makes; None: not counted
    varies: bool = False  # every loop that repeats the site changes some of its inputs
    varying: tuple[tuple[str, ...], ...] = ()  # per repeating loop, the inputs it changes
    loop_option: str | None = None  # the command-line options whose defaults are loops' trip counts (comma-separated)
    request: str | None = None  # what runs it once per web request
    least: int | None = None  # where `count` is unknown, the fewest runs certain (each loop of unknown length once)

    def to_json(self) -> dict[str, Any]:
        """The `runs` object of docs/calls-json.md (its optional keys only where set; a record
        that does not say its loop, count, bound and note alone)."""
        out: dict[str, Any] = {}
        for name in _RUNS_JSON[:6] if self.loop is UNSAID else _RUNS_JSON:
            value = getattr(self, name)
            if value is not None or name not in ("loop_option", "request", "least"):
                out[name] = [list(names) for names in value] if name == "varying" else value
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Runs:
        """The Runs `to_json` wrote; ValueError for a `varying` that is not lists of names."""
        known = {k: obj[k] for k in _RUNS_JSON if k in obj}
        if "varying" in known:
            varying = known["varying"]
            if not (type(varying) is list and all(type(n) is list for n in varying)):
                raise ValueError("a call site's runs.varying is lists of names")
            known["varying"] = tuple(tuple(names) for names in varying)
        return cls(**known)


@dataclass(frozen=True)
class CallSite:
    path: str
    span: Span
    api: str  # canonical name, e.g. "tensorflow.keras.Sequential.fit"
    features: dict[str, Any] = field(default_factory=dict)
    #: The work the call implies (docs/calls-json.md `work`).
    work: Work = field(default_factory=dict)
    #: How often the site runs per program run (docs/calls-json.md `runs`).
    runs: Runs = Runs()
    #: Qualified name of the functions and classes around the call ("" at module level; docs/calls-json.md `scope`).
    scope: str = ""
    #: Positional argument count and keyword names, `2:epochs,validation_data` (docs/calls-json.md `shape`).
    shape: str = ""
    # features holds the static facts: literal args by parameter name ("epochs": 10, ...),
    # "loop_multiplier", "in_tf_function", "tensor_bytes", "receiver_kind", ...

    @property
    def counted(self) -> bool:
        """The analysis knows how often the site runs (`runs.count`); else only the literal loops
        around it are known."""
        return isinstance(self.runs.count, int)
