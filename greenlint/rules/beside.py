"""The Python modules beside a checked file (its folder's `.py` files, the file included), where
a project keeps the code that runs what the file defines: the trainer that builds a TF1 graph's
session, the script that loads a model's weights.

What the rules look for there is listed once, in `SOUGHT`: a folder's modules are read once for
all of it, and the answers kept while the modules keep their stamps (every file of a folder asks
of the same modules). The lint cache's key holds the answers (`stamp`): a module written beside a
file that changes one checks the file again, and any other edit beside it does not. The lint cache
keeps them too, under the modules' names and stamps, so that a later run stats a folder's modules
instead of reading them; stamps younger than `SETTLED_S` are not kept (an edit within a file
system's time resolution may leave them as they were)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any, Protocol

from greenlint.analysis.project import file_stamp
from greenlint.analysis.sources import MAX_BYTES, read_bytes

#: How many Python files of the folder are read.
MAX_BESIDE = 200
#: Words whose presence says the program chooses its floating-point precision itself: a policy
#: name, the `mixed_precision` module or a project helper named after it
#: (`performance.set_mixed_precision_policy(dtype)`, the TF 1.14+ graph rewrite
#: `enable_mixed_precision_graph_rewrite`), or Keras' global float type.
CHOSEN = ("mixed_float16", "mixed_bfloat16", "mixed_precision", "set_floatx", "AUTO_MIXED_PRECISION")
#: A TF1 session's own switch for the rewrite (`rewrite_options.auto_mixed_precision`), and float16
#: written into the graph by hand: the program chooses its precision.
GRAPH_CHOSEN = ("auto_mixed_precision", "float16", "bfloat16")
#: Any of them, in the text of a module beside a TF1 model's (GL602).
PRECISION_WORDS = (*CHOSEN, *GRAPH_CHOSEN)
PRECISION_CHOSEN = re.compile("|".join(re.escape(word) for word in PRECISION_WORDS))
#: A checkpoint loaded by layer name (GL504).
LOADED_BY_NAME = re.compile(r"\bby_name\s*=\s*True\b")
#: What rules look for beside a file: each pattern with the words one of which any match of it
#: holds (most modules hold none: their bytes are searched for them, and never decoded).
SOUGHT = ((PRECISION_CHOSEN, PRECISION_WORDS), (LOADED_BY_NAME, ("by_name",)))
_NEEDLES = tuple(tuple(word.encode() for word in words) for _, words in SOUGHT)

#: Seconds since a module's last change (mtime, ctime) before its stamp is kept for later runs: file
#: systems keep times to 1 s (ext3, HFS+) or 2 s (FAT), so a later edit within that time can keep them.
SETTLED_S = 2.0

#: folder -> (its modules' names and stamps, whether each of `SOUGHT` matches one of them)
_answers: dict[str, tuple[tuple, tuple[bool, ...]]] = {}


class Store(Protocol):
    """Where answers outlive the run: the lint cache (greenlint.check.cache.Cache)."""

    def key(self, path: str, content: bytes, dependencies: str = "") -> str: ...

    def get(self, key: str) -> Any: ...

    def put(self, key: str, value: Any) -> None: ...


def beside_mentions(path: str, pattern: re.Pattern[str]) -> bool:
    """Whether a Python module of *path*'s folder (the first `MAX_BESIDE` by name; regular files
    under the sources' size limit only, never a FIFO or a device) has text matching *pattern*,
    one of `SOUGHT`."""
    return _folder_answers(path)[[sought for sought, _ in SOUGHT].index(pattern)]


def stamp(path: str, store: Store | None = None) -> str:
    """The answers for *path*'s folder, for the lint cache's key; *store* keeps them for later runs."""
    return "".join("1" if found else "0" for found in _folder_answers(path, store))


def _folder_answers(path: str, store: Store | None = None) -> tuple[bool, ...]:
    directory = os.path.dirname(os.path.abspath(path))
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".py"))[:MAX_BESIDE]
    except OSError:
        return (False,) * len(SOUGHT)
    now = time.time_ns()
    stamps = tuple((name, file_stamp(os.path.join(directory, name))) for name in names)
    known = _answers.get(directory)
    if known is not None and known[0] == stamps:
        return known[1]
    found = None
    if store is not None:
        key = store.key(directory, repr(stamps).encode(), "beside")
        stored = store.get(key)
        if isinstance(stored, list) and len(stored) == len(SOUGHT) and all(type(x) is bool for x in stored):
            found = tuple(stored)
    if found is None:
        found = _search(directory, names)
        settled = now - int(SETTLED_S * 1e9)
        if store is not None and all(s is None or max(s[1], s[2]) < settled for _, s in stamps):
            store.put(key, list(found))
    _answers[directory] = (stamps, found)
    return found


def _search(directory: str, names: list[str]) -> tuple[bool, ...]:
    """Whether each of `SOUGHT` matches a module of *directory* named in *names*."""
    found = [False] * len(SOUGHT)
    for name in names:
        data, _ = read_bytes(Path(directory, name), MAX_BYTES)  # opening a FIFO named `x.py` would wait forever
        if data is None:
            continue
        text = None
        for i, ((pattern, _), needles) in enumerate(zip(SOUGHT, _NEEDLES)):
            if not found[i] and any(needle in data for needle in needles):
                text = text if text is not None else data.decode("utf-8", "replace")
                found[i] = pattern.search(text) is not None
        if all(found):
            break
    return tuple(found)
