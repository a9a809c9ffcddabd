"""The Python modules beside a checked file (its folder's `.py` files, the file included), where
a project keeps the code that runs what the file defines: the trainer that builds a TF1 graph's
session, the script that loads a model's weights."""

from __future__ import annotations

import os
import re
from pathlib import Path

from greenlint.analysis.sources import MAX_BYTES, read_bytes

#: How many Python files of the folder are read.
MAX_BESIDE = 200


def beside_mentions(path: str, pattern: re.Pattern[str]) -> bool:
    """Whether a Python module of *path*'s folder (the first `MAX_BESIDE` by name; regular files
    under the sources' size limit only, never a FIFO or a device) has text matching *pattern*."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".py"))[:MAX_BESIDE]
    except OSError:
        return False
    for name in names:
        data, _ = read_bytes(Path(directory, name), MAX_BYTES)  # opening a FIFO named `x.py` would wait forever
        if data is not None and pattern.search(data.decode("utf-8", "replace")):
            return True
    return False
