"""Program entry runners (analysis/entry_runners.py): absl's `app.run(main)` and TF1's `tf.compat.v1.app.run`
call main once, so what main runs is counted; a function handed to anything else stays uncounted."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source

MAIN = """\
import numpy as np
import tensorflow as tf
{imports}


def main(argv):
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    model.compile("adam", "mse")
    for epoch in range(3):
        model.fit(np.zeros((100, 4)), np.zeros((100, 10)), epochs=1)


if __name__ == "__main__":
{run}
"""


def fit_runs(imports: str, run: str) -> dict:
    code = MAIN.format(imports=imports, run=textwrap.indent(textwrap.dedent(run), "    "))
    result = analyse_source(code, "train.py")
    assert result.errors == []
    (fit,) = [s for s in result.callsites if s.api.endswith(".fit")]
    return fit.runs.to_json()


@pytest.mark.parametrize(
    ("imports", "run"),
    [
        ("from absl import app", "app.run(main)"),
        ("import absl.app", "absl.app.run(main)"),
        ("", "tf.compat.v1.app.run(main)"),
        ("", "tf.compat.v1.app.run(main=main)"),  # the keyword names no reference of its own
        ("from absl import app", "app.run(main=main, argv=None)"),
        ("", "tf.compat.v1.app.run()"),  # TF finds `main` in `__main__` itself
        ("import tensorflow.compat.v1 as tf1", "tf1.app.run()"),
    ],
)
def test_main_run_by_an_entry_runner_runs_once(imports: str, run: str) -> None:
    found = fit_runs(imports, run)
    assert (found["count"], found["bound"]) == (3, "exact")


@pytest.mark.parametrize(
    ("imports", "run"),
    [
        ("import threading", "threading.Thread(target=main).start()"),  # when, and how often, is not seen
        ("from absl import app", "app.run(main)\nregistry = {'train': main}"),  # named elsewhere too
        ("from absl import app", "app.run(main=main)\nhooks = dict(main=main)"),  # a keyword, and named again
        ("", "tf.compat.v1.app.run(other)"),  # another function runs: main itself is never called here
    ],
)
def test_main_handed_elsewhere_stays_uncounted(imports: str, run: str) -> None:
    code_other = "\n\ndef other(argv):\n    pass\n"
    imports = imports + code_other if "other" in run else imports
    found = fit_runs(imports, run)
    assert found["count"] is None
