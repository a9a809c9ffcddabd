"""Rewrite a copy of a script or notebook so every resolved TF/Keras call goes through the meter.

`f(a, k=v)` at a resolved call site becomes `_greenlint_call(ID, f, a, k=v)`: the callee and its
arguments are evaluated exactly as before, then the runtime times only the call itself (as FECoM
does) and reads the counters around it. Nothing else changes and no line is added or moved, so
line numbers and tracebacks still match the user's file. Which calls run as graphs (inside a
`tf.function`, or a Keras `call`/`*_step` method) is the resolver's `in_tf_function` /
`in_keras_step` (greenlint/analysis): those are left alone (the runtime also checks
`tf.executing_eagerly()`). A notebook is read, and its magics blanked, by the analysis' own
`notebook_cells`/`blank_magics`; its code cells are instrumented one by one and joined.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from greenlint.analysis.callsite import CallSite
from greenlint.analysis.sources import split_lines
from greenlint.profile.lookup import statement_hash

HELPER = "_greenlint_call"
GRAPH_FEATURES = ("in_tf_function", "in_keras_step")


@dataclass(frozen=True)
class InstrumentedSite:
    """One instrumented call site; its index in the list is the ID passed to the runtime."""

    api: str
    line: int
    column: int
    features: dict
    end_line: int | None = None
    end_column: int | None = None
    cell: int | None = None  # notebooks: 1-based code cell, line/column relative to it
    statement: str = ""  # greenlint.profile.statement_hash of its lines

    @property
    def signature(self) -> str:
        """The raw signature written as the record's key (FECoM's style: api + "()")."""
        return f"{self.api}()"


def json_features(features: dict) -> dict:
    """The features that are plain data (the resolver may keep its own objects there too)."""
    import json

    out = {}
    for key, value in features.items():
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            continue
        out[key] = value
    return out


def instrument_source(
    source: str, callsites: Sequence[CallSite], *, cell: int | None = None, sites: list[InstrumentedSite] | None = None,
    original: str | None = None,
) -> tuple[str, list[InstrumentedSite]]:
    """The instrumented source and the sites it instruments (skipped call sites are not listed).

    *cell*: only that notebook cell's call sites; *sites*: a list to number on from (several
    cells); *original*: the text the statement hashes are taken from (a cell before its magics
    were blanked), *source* by default."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    sites = [] if sites is None else sites
    lines = split_lines(original if original is not None else source)
    wanted: dict[tuple[int, int], list[CallSite]] = {}
    for cs in callsites:
        if cs.span.cell == cell and not any(cs.features.get(f) for f in GRAPH_FEATURES):
            wanted.setdefault((cs.span.line, cs.span.column - 1), []).append(cs)

    class Transformer(cst.CSTTransformer):
        METADATA_DEPENDENCIES = (PositionProvider,)

        def _match(self, node) -> CallSite | None:
            pos = self.get_metadata(PositionProvider, node)
            candidates = wanted.get((pos.start.line, pos.start.column), [])
            for cs in candidates:  # calls chained on one receiver share a start: the end decides
                if cs.span.end_line == pos.end.line and cs.span.end_column - 1 in (pos.end.column, pos.end.column - 1):
                    return cs
            return None

        def leave_Call(self, original_node, updated):
            cs = self._match(original_node)
            if cs is None:
                return updated
            sp = cs.span
            sites.append(InstrumentedSite(cs.api, sp.line, sp.column, json_features(cs.features), sp.end_line, sp.end_column,
                              sp.cell, statement_hash(lines, sp.line, sp.end_line)))
            site_id = cst.Arg(cst.Integer(str(len(sites) - 1)))
            callee = cst.Arg(updated.func)
            return updated.with_changes(func=cst.Name(HELPER), args=[site_id, callee, *updated.args])

    module = MetadataWrapper(cst.parse_module(source), unsafe_skip_copy=True)
    return module.visit(Transformer()).code, sites


def instrument_notebook(cells: Sequence[str], callsites: Sequence[CallSite]) -> tuple[str, list[InstrumentedSite]]:
    """A notebook's code cells (as `greenlint.analysis.sources.notebook_cells` reads them), each
    with its magics blanked and its call sites wrapped, joined into one script."""
    from greenlint.analysis.sources import blank_magics

    sites: list[InstrumentedSite] = []
    parts = []
    for i, cell in enumerate(cells, 1):
        code, _ = instrument_source(blank_magics(cell, "pass"), callsites, cell=i, sites=sites, original=cell)
        parts.append(code.rstrip("\n"))
    return "\n".join(parts) + "\n", sites
