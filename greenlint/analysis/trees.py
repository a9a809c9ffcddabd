"""Parsing a module's text, once: during a run of many files (`shared()`), the tree parsed for a
project module's summary is reused when the module itself is analysed, and the reverse
(`greenlint check` of a project does both for most of its files). A few recent trees are kept,
bounded by their texts' size, and dropped when the run ends. Outside a run (the editor, which
re-analyses one buffer as it changes) nothing is kept."""

from __future__ import annotations

import ast
import contextlib
import os
import threading
from collections import OrderedDict
from collections.abc import Iterator

#: Texts larger than this are parsed but not kept (a tree takes ~30x its text's memory).
MAX_TEXT = 256_000
#: The kept trees' texts in all, in characters.
MAX_TOTAL = 1_000_000

_kept: OrderedDict[str, tuple[str, ast.Module]] = OrderedDict()
_size = 0
_lock = threading.Lock()
_runs = 0  # runs of many files in progress in this process (`shared`)


@contextlib.contextmanager
def shared() -> Iterator[None]:
    """Keep trees for reuse while the block runs (a process forked meanwhile inherits them)."""
    global _runs, _size
    with _lock:
        _runs += 1
    try:
        yield
    finally:
        with _lock:
            _runs -= 1
            if not _runs:
                _kept.clear()
                _size = 0


def parse_module(text: str, path: str) -> ast.Module:
    """`ast.parse(text, filename=path)` of a whole module, shared with the last caller that parsed
    the same text at the same path. The tree must not be changed (copy it first)."""
    key = os.path.abspath(path)
    with _lock:
        hit = _kept.get(key)
        if hit is not None and hit[0] == text:
            _kept.move_to_end(key)
            return hit[1]
    tree = ast.parse(text, filename=path)
    if _runs and len(text) <= MAX_TEXT:
        _keep(key, text, tree)
    return tree


def _keep(key: str, text: str, tree: ast.Module) -> None:
    global _size
    with _lock:
        old = _kept.pop(key, None)
        if old is not None:
            _size -= len(old[0])
        _kept[key] = (text, tree)
        _size += len(text)
        while _size > MAX_TOTAL:
            _, (dropped, _) = _kept.popitem(last=False)
            _size -= len(dropped)
