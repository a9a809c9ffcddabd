"""One shared set of diagnostics (and their sources) that every reporter is snapshotted on.

Given out of order on purpose; covers a notebook cell, a multi-line span, a tab before a span,
a fix, every severity, a file whose source is unknown, and characters GitHub must escape.
"""

from __future__ import annotations

from greenlint.analysis.callsite import Span
from greenlint.report.rulemeta import RuleMeta
from greenlint.rules.diagnostic import Diagnostic, Edit, Fix

TRAIN = """\
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([keras.layers.Dense(10)])
model.compile(optimizer="adam", loss="mse")

for _ in range(100):
\tmodel.fit(x, y, epochs=50)

model.fit(
    x,
    y,
    epochs=500,
)
"""

CELL_1 = "import tensorflow as tf\n"
CELL_3 = "x = tf.random.normal([1024, 1024])\nfor _ in range(1000):\n    y = tf.linalg.matmul(x, x)\n"

SOURCES = {"src/train.py": TRAIN, "notebooks/explore.ipynb": [CELL_1, "%timeit pass\n", CELL_3]}

HOTSPOT_LOOP = Diagnostic(
    path="src/train.py",
    span=Span(8, 2, 8, 28),
    code="GL101",
    name="energy-hotspot",
    message="`tensorflow.keras.Sequential.fit` costs 2.4 kJ per run (x100 loop): 240 kJ",
    energy_j=240000.0,
    fix=Fix("Hoist the call out of the loop", (Edit(Span(8, 17, 8, 26), "epochs=5000"),), safe=False),
)
HOTSPOT_MULTILINE = Diagnostic(
    path="src/train.py",
    span=Span(10, 1, 14, 2),
    code="GL101",
    name="energy-hotspot",
    message="`tensorflow.keras.Sequential.fit` costs 24 kJ per run",
    energy_j=24000.0,
)
INFO_SAME_LINE = Diagnostic(
    path="src/train.py",
    span=Span(8, 2, 8, 28),
    code="GL301",
    name="small-batch-size",
    message="`fit()` runs with the default batch size of 32",
    severity="info",
)
NOTEBOOK = Diagnostic(
    path="notebooks/explore.ipynb",
    span=Span(3, 9, 3, 31, cell=3),
    code="GL101",
    name="energy-hotspot",
    message="`tensorflow.linalg.matmul` costs 1.2 J per run (x1000 loop): 1.2 kJ",
    energy_j=1200.0,
)
PARSE_ERROR = Diagnostic(
    path="src/broken, 100%.py",
    span=Span(3, 1, 3, 2),
    code="GL001",
    name="syntax-error",
    message="cannot parse: expected ':', got 'x'\n(file skipped)",
    severity="error",
)

DIAGNOSTICS = [HOTSPOT_MULTILINE, PARSE_ERROR, NOTEBOOK, HOTSPOT_LOOP, INFO_SAME_LINE]

#: Rule metadata for the SARIF snapshot (the registry's own is tested apart: its docs change).
RULES = {
    "GL001": RuleMeta("syntax-error", "A file greenlint cannot parse", level="error"),
    "GL101": RuleMeta(
        "energy-hotspot",
        "A call site predicted to cost more than a threshold",
        full="Flags a call site whose predicted energy exceeds `hotspot-threshold-j`.",
        help_markdown="## What it does\nFlags a call site whose predicted energy exceeds `hotspot-threshold-j`.",
        level="warning",
        fix_title="Run it fewer times or on less data",
    ),
}
