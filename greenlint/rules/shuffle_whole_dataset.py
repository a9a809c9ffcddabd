"""GL405 shuffle-whole-dataset: `Dataset.shuffle()` with a buffer as large as the dataset."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import method
from greenlint.rules.syntax import SCOPES, last_name

SHUFFLE = "tensorflow.data.Dataset.shuffle"


def _whole(expr: ast.expr | None) -> str | None:
    """How the buffer size spans the dataset: `len(...)`, `x.shape[0]`, `cardinality()`; else None."""
    if isinstance(expr, ast.Call):
        func = expr.func
        if isinstance(func, ast.Name) and func.id == "len":
            return "len(...)"
        if isinstance(func, ast.Attribute) and func.attr == "cardinality":
            return "cardinality()"
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Attribute) and expr.value.attr == "shape":
        index = expr.slice
        if isinstance(index, ast.Constant) and index.value == 0:
            return ".shape[0]"
    return None


#: Steps before a shuffle that make each buffered element costly: decoding, reading files.
COSTLY = frozenset(
    {
        "map",
        "interleave",
        "flat_map",
        "parallel_interleave",
        "TFRecordDataset",
        "TextLineDataset",
        "FixedLengthRecordDataset",
        "from_generator",
    }
)


def _chain_names(expr: ast.expr) -> set[str]:
    names = set()
    for node in ast.walk(expr):
        if isinstance(node, ast.Call):
            func = node.func
            names.add(last_name(func))
    return names


def _costly_elements(facts: FileFacts, call: ast.Call, cell) -> bool:
    """The shuffled dataset was mapped or read from files: in its own chain, or where its name was assigned."""
    receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
    if receiver is None:
        return False
    if _chain_names(receiver) & COSTLY:
        return True
    if isinstance(receiver, ast.Name):
        scope = next((a for a in facts.ancestors(call, cell) if isinstance(a, SCOPES)), None)
        for node in ast.walk(scope) if scope is not None else ():
            if not (isinstance(node, ast.Assign) and node.lineno < call.lineno):
                continue  # only what the name held before the shuffle
            if any(isinstance(t, ast.Name) and t.id == receiver.id for t in node.targets):
                own = next((a for a in facts.ancestors(node, cell) if isinstance(a, SCOPES)), None)
                if own is scope and _chain_names(node.value) & COSTLY:
                    return True
    return False


class ShuffleWholeDataset(Rule):
    """
    ## What it does
    Flags `Dataset.shuffle()` whose buffer size is written as the size of the data
    (`len(...)`, `x.shape[0]` or `dataset.cardinality()`) when the elements it buffers are costly:
    the dataset was mapped (`map`, `interleave`, `flat_map`) or read from files
    (`TFRecordDataset`, `TextLineDataset`, `from_generator`) before the shuffle, in the same chain
    or where its name was assigned. A full shuffle of in-memory arrays or of file names is
    cheap and is not reported.

    ## Why is this bad?
    The shuffle buffer is filled before the first element comes out, and holds its elements in
    memory. A buffer of the whole dataset means reading (and, for a mapped pipeline,
    preprocessing) everything before the first training step of every epoch, and a second
    in-memory copy of the data. For data already in memory (`from_tensor_slices` of arrays) a
    full shuffle is cheap enough; for files or decoded images a buffer of a few thousand
    elements after shuffling the file names (`Dataset.list_files(shuffle=True)`) gives good
    mixing at a fraction of the start-up cost and memory.

    ## Example
    ```python
    import tensorflow as tf

    ds = tf.data.TFRecordDataset(files).map(parse).shuffle(len(records))
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    ds = tf.data.Dataset.list_files(pattern, shuffle=True).interleave(tf.data.TFRecordDataset)
    ds = ds.map(parse).shuffle(10_000)
    ```

    ## Energy evidence
    Depends on the pipeline's cost per element and on memory: the pair under bench/rules/ shows
    one mapped in-memory case, where the difference is small.

    ## Fix safety
    No automatic fix: the buffer size sets how well the data is mixed.

    ## Options
    None.
    """

    code = "GL405"
    name = "shuffle-whole-dataset"
    CALLS = frozenset({method(SHUFFLE)})
    MESSAGE = "`shuffle({how})` fills a buffer as large as the dataset before the first element"
    FIX_TITLE = "Shuffle file names, then use a buffer of a few thousand elements"
    VALID = (
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(100).shuffle(1000)\n"),
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(100).shuffle(buffer_size=BUFFER)\n"),
        Valid("import tensorflow as tf\nds = tf.data.Dataset.from_tensor_slices(x).shuffle(len(x))\n"),
        Valid("import tensorflow as tf\nfiles = tf.data.Dataset.from_tensor_slices(names).shuffle(len(names))\n"),
    )
    INVALID = (
        Invalid("import tensorflow as tf\nds = tf.data.Dataset.from_tensor_slices(x).map(f).shuffle(len(x))\n", line=2),
        Invalid(
            "import tensorflow as tf\nds = tf.data.TFRecordDataset(files).map(parse)\n"
            "ds = ds.shuffle(buffer_size=x.shape[0])\n",
            line=3,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api != SHUFFLE:
                continue
            call = facts.node(site)
            if call is None:
                continue
            how = _whole(argument(call, "buffer_size", 0))
            if how and _costly_elements(facts, call, site.callsite.span.cell):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(how=how))
