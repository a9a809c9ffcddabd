"""Rewrite a copy of a script so every resolved TF/Keras call goes through the meter.

`f(a, k=v)` at a resolved call site becomes `_greenlint_call(ID, f, a, k=v)`: the callee and its
arguments are evaluated exactly as before, then the runtime times only the call itself (as FECoM
does) and records its input sizes. Nothing else changes and no line is added or moved, so line
numbers and tracebacks still match the user's file. Calls are left alone inside `@tf.function`
bodies and Keras `call`/`*_step` methods (they run as graphs; the runtime also checks
`tf.executing_eagerly()`), and wherever the resolver flagged `in_tf_function`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from greenlint.analysis.callsite import CallSite

HELPER = "_greenlint_call"
GRAPH_METHODS = frozenset({"call", "train_step", "test_step", "predict_step"})


@dataclass(frozen=True)
class Site:
    """One instrumented call site; its index in the list is the ID passed to the runtime."""

    api: str
    line: int
    column: int
    features: dict

    @property
    def signature(self) -> str:
        """The raw signature written as the record's key (FECoM's style: api + "()")."""
        return f"{self.api}()"


def _is_graph_function(node) -> bool:
    import libcst as cst

    for dec in node.decorators:
        expr = dec.decorator.func if isinstance(dec.decorator, cst.Call) else dec.decorator
        if isinstance(expr, (cst.Attribute, cst.Name)) and (
            (expr.attr.value if isinstance(expr, cst.Attribute) else expr.value) == "function"
        ):
            return True
    return node.name.value in GRAPH_METHODS


def instrument_source(source: str, callsites: Sequence[CallSite]) -> tuple[str, list[Site]]:
    """The instrumented source and the sites it instruments (skipped call sites are not listed)."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    wanted: dict[tuple[int, int], list[CallSite]] = {}
    for cs in callsites:
        if cs.span.cell is None and not cs.features.get("in_tf_function"):
            wanted.setdefault((cs.span.line, cs.span.column - 1), []).append(cs)
    sites: list[Site] = []

    class Transformer(cst.CSTTransformer):
        METADATA_DEPENDENCIES = (PositionProvider,)

        def __init__(self):
            super().__init__()
            self.graph_depth = 0

        def visit_FunctionDef(self, node):
            self.graph_depth += _is_graph_function(node)

        def leave_FunctionDef(self, original, updated):
            self.graph_depth -= _is_graph_function(original)
            return updated

        def _match(self, node) -> CallSite | None:
            pos = self.get_metadata(PositionProvider, node)
            candidates = wanted.get((pos.start.line, pos.start.column), [])
            for cs in candidates:  # calls chained on one receiver share a start: the end decides
                if cs.span.end_line == pos.end.line and cs.span.end_column - 1 in (pos.end.column, pos.end.column - 1):
                    return cs
            return None

        def leave_Call(self, original, updated):
            if self.graph_depth:
                return updated
            cs = self._match(original)
            if cs is None:
                return updated
            sites.append(Site(cs.api, cs.span.line, cs.span.column, dict(cs.features)))
            site_id = cst.Arg(cst.Integer(str(len(sites) - 1)))
            callee = cst.Arg(updated.func)
            return updated.with_changes(func=cst.Name(HELPER), args=[site_id, callee, *updated.args])

    module = MetadataWrapper(cst.parse_module(source), unsafe_skip_copy=True)
    return module.visit(Transformer()).code, sites


def notebook_to_script(text: str) -> str:
    """A notebook's code cells joined into a script; IPython magics and shell lines become comments."""
    import json

    nb = json.loads(text)
    out = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        src = "".join(src) if isinstance(src, list) else src
        lines = [f"# {ln}" if ln.lstrip().startswith(("%", "!")) else ln for ln in src.splitlines()]
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"
