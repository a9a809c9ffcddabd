"""The Python modules beside a checked file (its folder's `.py` files, the file included), where
a project keeps the code that runs what the file defines: the trainer that builds a TF1 graph's
session, the script that loads a model's weights.

What the rules look for there is listed once, in `SOUGHT`: a folder's modules are read once for
all of it, and the answers kept while the modules keep their stamps (every file of a folder asks
of the same modules). The lint cache's key holds the answers (`stamp`): a module written beside a
file that changes one checks the file again, and any other edit beside it does not. The lint cache
keeps them too (greenlint.check.keys), under the modules' names and stamps (`modules`), so that a
later run stats a folder's modules instead of reading them; stamps younger than `SETTLED_S` are not
kept (an edit within a file system's time resolution may leave them as they were)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any, NamedTuple

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
#: A Keras 2 generator method called, Keras 1's `nb_epoch=` given, or an extension of multi-backend Keras imported: what says a
#: program on the standalone `keras` runs multi-backend Keras 2.0-2.3 (rules/keras_flavour.py).
KERAS_2_SIGNS = re.compile(r"\.(?:fit|predict|evaluate)_generator\s*\(|\bkeras_contrib\b|\bnb_epoch\s*=")
#: APIs Keras 3 (TensorFlow 2.16 on) removed: code using them runs on tf.keras 2, whatever TensorFlow is
#: installed beside it (`tf.keras.losses.Reduction.NONE`, `tf.keras.optimizers.legacy.Adam`); a project
#: runs one Keras, so a module beside a file that uses one says the file's Keras too (GL602).
KERAS_2_ONLY = re.compile(r"\blosses\.Reduction\b|\boptimizers\.legacy\b")
#: What rules look for beside a file: each pattern with the words one of which any match of it
#: holds (most modules hold none: their bytes are searched for them, and never decoded).
SOUGHT = (
    (PRECISION_CHOSEN, PRECISION_WORDS),
    (LOADED_BY_NAME, ("by_name",)),
    (KERAS_2_SIGNS, ("_generator", "keras_contrib", "nb_epoch")),
    (KERAS_2_ONLY, ("Reduction", "legacy")),
)
_NEEDLES = tuple(tuple(word.encode() for word in words) for _, words in SOUGHT)

#: Seconds since a module's last change (mtime, ctime) before its stamp is kept for later runs: file
#: systems keep times to 1 s (ext3, HFS+) or 2 s (FAT), so a later edit within that time can keep them.
SETTLED_S = 2.0

#: folder -> (its modules' names and stamps, whether each of `SOUGHT` matches one of them)
_answers: dict[str, tuple[tuple, tuple[bool, ...]]] = {}


class Modules(NamedTuple):
    """The Python modules of a folder (the first `MAX_BESIDE` by name) and their stamps, as listed
    at `listed_ns`: what the answers depend on."""

    folder: str
    stamps: tuple[tuple[str, tuple | None], ...]
    listed_ns: int

    def settled(self) -> bool:
        """Every module older than `SETTLED_S` when listed: answers a later run may trust."""
        settled = self.listed_ns - int(SETTLED_S * 1e9)
        return all(s is None or max(s[1], s[2]) < settled for _, s in self.stamps)


def beside_mentions(path: str, pattern: re.Pattern[str]) -> bool:
    """Whether a Python module of *path*'s folder (the first `MAX_BESIDE` by name; regular files
    under the sources' size limit only, never a FIFO or a device) has text matching *pattern*,
    one of `SOUGHT`."""
    return answers(modules(path))[[sought for sought, _ in SOUGHT].index(pattern)]


def modules(path: str) -> Modules | None:
    """The modules of *path*'s folder, None where it cannot be listed."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".py"))[:MAX_BESIDE]
    except OSError:
        return None
    now = time.time_ns()
    return Modules(directory, tuple((name, file_stamp(os.path.join(directory, name))) for name in names), now)


def known(listed: Modules) -> bool:
    """This process found the answers for these modules already."""
    found = _answers.get(listed.folder)
    return found is not None and found[0] == listed.stamps


def read(stored: Any) -> tuple[bool, ...] | None:
    """The answers a lint cache kept (`answers`' result as a list), None for anything else."""
    if isinstance(stored, list) and len(stored) == len(SOUGHT) and all(type(x) is bool for x in stored):
        return tuple(stored)
    return None


def answers(listed: Modules | None, stored: tuple[bool, ...] | None = None) -> tuple[bool, ...]:
    """Whether each of `SOUGHT` matches one of the *listed* modules: found already in this
    process, else *stored* (kept by an earlier run for the same stamps: greenlint.check.keys),
    else searched."""
    if listed is None:
        return (False,) * len(SOUGHT)
    if known(listed):
        return _answers[listed.folder][1]
    found = stored if stored is not None else _search(listed.folder, [name for name, _ in listed.stamps])
    _answers[listed.folder] = (listed.stamps, found)
    return found


def stamp(found: tuple[bool, ...]) -> str:
    """The answers as they enter the lint cache's key."""
    return "".join("1" if f else "0" for f in found)


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
