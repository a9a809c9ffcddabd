"""The CallSite contract: one resolved TF/Keras call in a user's file."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: The note of a fit's `batch_size` work taken as Keras' default where the analysis does not
#: know its input: right for arrays, while a dataset or a generator batches itself.
UNTYPED_BATCH = "Keras default for arrays (a tf.data input batches itself)"


@dataclass(frozen=True)
class Span:
    """1-based line and column (characters) of a call expression; `cell` for notebooks."""

    line: int
    column: int
    end_line: int
    end_column: int
    cell: int | None = None  # 1-based code-cell index; line/column are then relative to the cell


def char_offset(line: str, byte_offset: int) -> int:
    """The character offset in *line* of a UTF-8 *byte_offset* (`ast`'s `col_offset`): a Span's
    columns count characters. The one conversion from `ast` to Span; `byte_offset` goes back."""
    if line.isascii():
        return byte_offset
    return len(line.encode("utf-8", "surrogatepass")[:byte_offset].decode("utf-8", "replace"))


def byte_offset(line: str, char_offset: int) -> int:
    """The UTF-8 byte offset in *line* of a character offset (a Span's column less one): where
    `ast` puts it."""
    if line.isascii():
        return char_offset
    return len(line[:char_offset].encode("utf-8", "surrogatepass"))


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



def work_values(work: dict | None) -> dict:
    """`{quantity: value}` from a calls-JSON `work` object (entries with a known value), and
    `{quantity}_unknown: True` for the quantities the call needs but the code does not state
    (provenance `unknown`: the predictor must not assume a size for them)."""
    out = {}
    for key, entry in (work or {}).items():
        value = entry.get("value") if isinstance(entry, dict) else entry
        if value is not None:
            out[key] = value
            if isinstance(entry, dict) and entry.get("bound") in ("upper", "lower"):
                out[f"{key}_bound"] = entry["bound"]
            if isinstance(entry, dict) and entry.get("least") is not None:
                out[f"{key}_least"] = entry["least"]
        elif isinstance(entry, dict) and entry.get("provenance") == "unknown":
            out[f"{key}_unknown"] = True
    return out


def with_work(features: dict | None, work: dict | None, runs: dict | None = None) -> dict:
    """A call's features with its work values folded in (work wins: it is followed through the code),
    the predictor's input; with *runs* known exactly (docs/calls-json.md `runs`), `runs_count` too:
    a one-off cost of the call's first run (tracing its function) is shared by that many runs."""
    values = work_values(work)
    out = {**(features or {}), **values} if values else dict(features or {})
    count = (runs or {}).get("count")
    if (runs or {}).get("bound") == "exact" and isinstance(count, int) and not isinstance(count, bool) and count > 0:
        out["runs_count"] = count
    return out


#: Test-framework assertions: checks in tests, not the program's energy (excluded from `calls` and GL101).
TEST_ASSERTION_CLASSES = ("tensorflow.test.TestCase",)


def is_test_assertion(api: str) -> bool:
    """`tensorflow.test.TestCase.assertAllClose` and the other `assert*` helpers of test cases."""
    owner, _, name = api.rpartition(".")
    return name.startswith("assert") and owner in TEST_ASSERTION_CLASSES
