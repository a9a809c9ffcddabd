"""The Python modules beside a checked file (its folder's `.py` files, the file included), where
a project keeps the code that runs what the file defines: the trainer that builds a TF1 graph's
session, the script that loads a model's weights."""

from __future__ import annotations

import os
import re

#: How many Python files of the folder are read.
MAX_BESIDE = 200


def beside_mentions(path: str, pattern: re.Pattern[str]) -> bool:
    """Whether a Python module of *path*'s folder (the first `MAX_BESIDE` by name, each read up
    to its first million characters) has text matching *pattern*."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".py"))[:MAX_BESIDE]
    except OSError:
        return False
    for name in names:
        try:
            with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as f:
                text = f.read(1_000_000)
        except OSError:
            continue
        if pattern.search(text):
            return True
    return False
