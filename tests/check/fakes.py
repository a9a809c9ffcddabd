"""Stand-ins for the resolver and the predictor, so the pipeline is tested on its own.

`analyse_file` names a call `tensorflow.<dotted>` when its callee is an attribute chain
starting at a name `tf` (through calls: `tf.keras.Sequential().fit`); `predictor` costs 500 J
for `fit` and 1 J for anything else, except three shapes of figure the real predictor also gives:
`tensorflow.keras.config.*` is negligible (an upper bound of 1 J, no lower end), `tensorflow.signal.*`
unknown (never measured) and `tensorflow.linalg.*` 1 J with an interval 10,000× wide.
Both are module-level so worker processes can import them.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from pathlib import Path

from greenlint.analysis.callsite import CallSite, Span
from greenlint.predict.prediction import Basis, Evidence, Prediction

#: Set by tests to count analyses across processes (each call appends a line).
LOG_ENV = "GREENLINT_FAKE_LOG"


@dataclass
class Error:
    path: str
    line: int
    column: int
    code: str
    message: str


@dataclass
class Analysis:
    path: str
    callsites: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    source_text: str = ""
    cells: list | None = None


def _dotted(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, (ast.Attribute, ast.Call)):
        if isinstance(node, ast.Call):
            node = node.func
            continue
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == "tf" and parts:
        return "tensorflow." + ".".join(reversed(parts))
    return None


def analyse_file(path) -> Analysis:
    if os.environ.get(LOG_ENV):
        with open(os.environ[LOG_ENV], "a") as log:
            log.write(f"{path}\n")
    data = Path(path).read_bytes()
    if b"\0" in data:
        return Analysis(str(path), errors=[Error(str(path), 1, 1, "binary", "binary file")])
    text = data.decode("utf-8")
    if "KILL_THE_WORKER" in text:
        os._exit(9)  # what the kernel's out-of-memory killer does to a worker
    if "CRASH_THE_ANALYSIS" in text:
        raise RuntimeError("simulated resolver bug")
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        error = Error(str(path), exc.lineno or 1, exc.offset or 1, "syntax-error", exc.msg)
        return Analysis(str(path), errors=[error], source_text=text)
    sites = []

    def visit(node, in_loop):
        if isinstance(node, ast.Call):
            api = _dotted(node.func)
            if api:
                span = Span(node.lineno, node.col_offset + 1, node.end_lineno, node.end_col_offset + 1)
                features = {"loop_depth": int(in_loop), "loop_multiplier": 1}
                features.update({k.arg: k.value.value for k in node.keywords if isinstance(k.value, ast.Constant)})
                if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Call):
                    features["n_layers"] = 0  # a model built in place (`Sequential().fit(...)`): its layers, none, seen
                sites.append(CallSite(str(path), span, api, features))
        for child in ast.iter_child_nodes(node):
            visit(child, in_loop or isinstance(node, (ast.For, ast.While)))

    visit(tree, False)
    return Analysis(str(path), callsites=sorted(sites, key=lambda s: (s.span.line, s.span.column)), source_text=text)


class Predictor:
    fingerprint = "fake"

    def predict(self, api: str, features: dict) -> Prediction:
        j = 500.0 if api.endswith(".fit") else 1.0
        if api.startswith("tensorflow.keras.config."):
            return Prediction(j, (0.0, j), None, None, None, Basis.NEGLIGIBLE, Evidence(records=3, level="kind"))
        if api.startswith("tensorflow.signal."):
            return Prediction.unknown("never measured")
        if api.startswith("tensorflow.linalg."):
            return Prediction(j, (j / 100, j * 100), j, 0.0, 0.0, Basis.PREDICTED, Evidence(records=3, level="module"))
        return Prediction(j, (j / 2, j * 2), j, 0.0, 0.0, Basis.FROM_DATA, Evidence(records=3, api=api, level="api"))


def load_predictor(overlay: bool | str = True) -> Predictor:
    return Predictor()


def broken_predictor(overlay: bool | str = True) -> Predictor:
    raise FileNotFoundError("no model")
