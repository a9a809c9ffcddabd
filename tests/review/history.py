"""A small git repository built commit by commit, each commit one intended change or one refactor.

`build(root)` writes it and returns the commit of each step by name; `EXPECTED` says what
`greenlint diff` must report for each step (the test of issue 22's "Done when"), `REFACTORS`
the steps that must report nothing.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

FILES = {
    "pyproject.toml": "[tool.greenlint]\n",
    "train.py": '''\
"""Train a classifier."""
import numpy as np
import tensorflow as tf

from models import make_model

x = np.zeros((4096, 32), dtype="float32")
y = np.zeros((4096,), dtype="int64")
model = make_model()
model.fit(x, y, epochs=10, batch_size=64)
''',
    "tune.py": '''\
import numpy as np
import tensorflow as tf

x = np.zeros((512, 16), dtype="float32")
y = np.zeros((512,), dtype="int64")
model = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(4)])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(x, y, epochs=5, batch_size=32)
''',
    "finetune.py": '''\
import numpy as np
import tensorflow as tf

x = np.zeros((1024, 8), dtype="float32")
y = np.zeros((1024,), dtype="int64")
net = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(2)])
net.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
net.fit(x, y, epochs=4, batch_size=64)
''',
    "pipeline.py": '''\
import tensorflow as tf


def load(paths):
    ds = tf.data.Dataset.from_tensor_slices(paths)
    return ds.shuffle(256).batch(32)
''',
    "models.py": '''\
import tensorflow as tf


def make_model():
    model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    return model


def summary(model):
    return model.count_params()
''',
    "evaluate.py": '''\
import numpy as np
import tensorflow as tf

x = np.zeros((256, 32), dtype="float32")
model = tf.keras.models.load_model("model.keras")
scores = model.predict(x, batch_size=32)
''',
}

#: (step, message, {path: new content or None to delete}, {old path: new path} renamed by `git mv`)
STEPS = [
    ("epochs", "train longer", {"train.py": FILES["train.py"].replace("epochs=10", "epochs=100")}, {}),
    ("loop", "tune: three folds", {"tune.py": FILES["tune.py"].replace(
        "model.fit(x, y, epochs=5, batch_size=32)\n",
        "for fold in range(3):\n    model.fit(x, y, epochs=5, batch_size=32)\n")}, {}),
    ("batch", "finetune in small batches", {"finetune.py": FILES["finetune.py"].replace("batch_size=64", "batch_size=8")}, {}),
    ("prefetch", "prefetch the pipeline", {"pipeline.py": FILES["pipeline.py"].replace(
        ".batch(32)", ".batch(32).prefetch(tf.data.AUTOTUNE)")}, {}),
    ("move", "rename make_model to build_network and move it below summary", {
        "models.py": '''\
import tensorflow as tf


def summary(model):
    return model.count_params()


def build_network():
    model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    return model
''',
        "train.py": FILES["train.py"].replace("epochs=10", "epochs=100").replace("make_model", "build_network"),
    }, {}),
    ("rename", "evaluate.py becomes scoring.py", {}, {"evaluate.py": "scoring.py"}),
    ("noise", "reformat, comment, rename a variable", {
        "finetune.py": '''\
import numpy as np
import tensorflow as tf

# the fine-tuning data
x = np.zeros((1024, 8), dtype="float32")
y = np.zeros((1024,), dtype="int64")
classifier = tf.keras.Sequential(
    [
        tf.keras.layers.Dense(16, activation="relu"),
        tf.keras.layers.Dense(2),
    ]
)
classifier.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
classifier.fit(
    x,
    y,
    epochs=4,
    batch_size=8,
)
''',
    }, {}),
]
REFACTORS = ("move", "rename", "noise")


def git(root: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(root),
           "PATH": "/usr/bin:/bin:/usr/local/bin"}
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True, env=env).stdout


def build(root: Path) -> dict[str, str]:
    """Write the repository at *root*: `base` on branch main, then each step on branch `change`."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    for path, text in FILES.items():
        (root / path).write_text(text, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    commits = {"base": git(root, "rev-parse", "HEAD").strip()}
    git(root, "checkout", "-q", "-b", "change")
    for name, message, files, moves in STEPS:
        for old, new in moves.items():
            git(root, "mv", old, new)
        for path, text in files.items():
            (root / path).write_text(text, encoding="utf-8")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", message)
        commits[name] = git(root, "rev-parse", "HEAD").strip()
    return commits
