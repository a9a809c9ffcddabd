"""Programs the hardening tests run greenlint on: beside a bad file (the run goes on), or in a
repository someone else controls (a finding to keep or suppress)."""

import json
import os
from pathlib import Path

#: A finding at 3:5 whatever the figures (GL301: a batch of 2), in a loop.
TRAIN = "import tensorflow as tf\nfor i in range(9):\n    tf.keras.Sequential().fit(x, y, epochs=100, batch_size=2)\n"

#: A loop of predicts of known work, material (over `material-saving-j` at the high end) and not a
#: tiny model's: GL101 and GL201 at line 4.
LOOP = (
    "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(4096)])\n"
    "for i in range(21000):\n    model.predict(tf.ones((64, 4096)))\n"
)


def codes(out: str) -> list[tuple[str, int]]:
    """(code, line) of each finding of `--format json` output."""
    return sorted((d["code"], d["location"]["row"]) for d in json.loads(out))


def edit_loop(repo: Path) -> None:
    """Change the repository's a.py (LOOP with another bound), its mtime set in the past."""
    (repo / "a.py").write_text(LOOP.replace("100", "1000"), encoding="utf-8")
    os.utime(repo / "a.py", (1, 1))
