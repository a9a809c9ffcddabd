"""Symbolic tensors that alternative paths of the code give one name or return.

`if not self.y_dim: ... return tf.nn.tanh(h4)` / `else: ... return tf.nn.sigmoid(h3)`: the program
builds one of the graphs, which the code does not say. Their join is a symbolic tensor carrying the
graph of the path whose known FLOPs are fewest, the weights of the path whose known weights are
fewest and the layers of the one dispatching fewest (unknown where a path's count is): a floor of
what runs, whichever path it is; its shape where the paths agree (each axis the paths give one
size), and the choice among the unknown, so that the graph built on it goes on being followed and
its figure is a lower bound, never one path's work taken for the other's. A tuple of them (`return tf.nn.sigmoid(h4), h4`) joins item by
item, an item of no such kind unknown. A loop whose trips are not walked one by one (`for i in range(n_up - 1): h = conv(h)`, `n_up` a
parameter) is such a choice too, between the tensor before it and after its body (`looped`).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from greenlint.analysis import graphrun
from greenlint.analysis.arrays import Sym, is_sym
from greenlint.analysis.values import Inst, Seq

#: The unknown a join adds: the work of the other paths.
CHOICE = "one of several paths (the least work counted)"


def either_path(values: list) -> Any:
    """The join of *values*, each an optimizer's update (`updates`), a symbolic tensor, or each a tuple
    of them, of one length (an item joined so where some are, the others unknown: `return train_op,
    swap_op, ema` of two optimizers); None for anything else."""
    if not values or all(v is values[0] for v in values):
        return values[0] if values else None
    if all(graphrun.is_update(v) for v in values):
        return updates(values)
    if all(is_sym(v) for v in values):
        return _joined([v.meta["sym"] for v in values], values[0].cls)
    if all(type(v) is Seq for v in values) and len({len(v.items) for v in values}) == 1:
        items = [either_path([v.items[i] for v in values]) for i in range(len(values[0].items))]
        return Seq(tuple(items)) if any(item is not None for item in items) else None
    return None


def updates(values: list) -> Inst:
    """The join of ops each of whose runs is a training step (`opt_apply` the update of a gradient
    accumulator on one path, `opt.apply_gradients(grads)` on the other): such an op still, of the
    latest update's line (a Saver built after it wrote either's variables), computed by the floor of
    their graphs (`_joined`) where each path's is known, else by a graph not known; with the fewest
    slots per weight of their optimizers where each path's is known."""
    meta: dict = {"train_op": max(v.meta["train_op"] for v in values)}
    slots = [v.meta.get(graphrun.UPDATE_SLOTS) for v in values]
    if None not in slots:
        meta[graphrun.UPDATE_SLOTS] = min(slots)
    if all(is_sym(v) for v in values):
        meta["sym"] = _joined([v.meta["sym"] for v in values], values[0].cls).meta["sym"]
    same = all(v.cls == values[0].cls for v in values)
    return Inst(values[0].cls if same else graphrun.OPERATION, "join", meta)


def looped(values: list) -> Inst | None:
    """The join of a symbolic tensor's values before a loop whose trips are not walked one by one and
    after its body (`for i in range(n_up - 1): h = conv(h)`), as `either_path`; None (unknown) where that
    floor holds no known FLOPs (`x = inp` before the loop: nothing of the graph is known to run)."""
    joined = either_path(values) if len(values) == 2 and is_sym(values[0]) else None
    return joined if joined is not None and is_sym(joined) and _flops(joined.meta["sym"]) > 0 else None


def _joined(syms: list[Sym], cls: str) -> Inst:
    """The floor of *syms*: the FLOPs (and the outputs and owners they come with) of the path of fewest
    known FLOPs, the weights of the path of fewest known weights, the layers of the path dispatching
    fewest (of one whose count is unknown, where any is); the choice among the unknown unless every
    path has the same work and shape."""
    least = min(syms, key=_flops)
    lightest = min(syms, key=_params)
    counts = [_dispatched(s) for s in syms]
    fewest = syms[counts.index(max(counts) if math.inf in counts else min(counts))]  # (unknown where any path's is)
    same = len({(_flops(s), _params(s), _dispatched(s), s.shape) for s in syms}) == 1  # (one graph walked again)
    unknown = tuple(dict.fromkeys((*least.unknown, *lightest.unknown, *(() if same else (CHOICE,)))))
    sym = replace(least, shape=_shape([s.shape for s in syms]), params=dict(lightest.params), flops=dict(least.flops),
                  unknown=unknown, owners=dict(least.owners), layers=dict(fewest.layers), outputs=dict(least.outputs),
                  batch=least.batch if len({s.batch for s in syms}) == 1 else None)  # (which path's batch: not known)
    return Inst(cls, "join", {"sym": sym})


def _flops(sym: Sym) -> int:
    return sum(f for f in sym.flops.values() if f is not None)


def _params(sym: Sym) -> int:
    return sum(p for p, _ in sym.params.values())


def _dispatched(sym: Sym) -> float:
    """The layers a path dispatches (infinite where some call's count is not known)."""
    counts = list(sym.layers.values())
    return math.inf if None in counts else sum(counts)


def _shape(shapes: list[tuple | None]) -> tuple | None:
    """Each axis's size where every path gives it that size (None where they differ); None where the
    paths' ranks differ or a shape is not known."""
    known = [s for s in shapes if s is not None]
    if len(known) != len(shapes) or len({len(s) for s in known}) != 1:
        return None
    return tuple(sizes[0] if len(set(sizes)) == 1 else None for sizes in zip(*known))
