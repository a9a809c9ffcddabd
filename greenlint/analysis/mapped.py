"""The functions `Dataset.map` runs: their work is spent where the pipeline is iterated.

`ds.map(f)` builds a pipeline; it runs nothing at its line. Each element the pipeline yields (each
batch, for a `map` after `batch`) calls f's traced graph once, in every pass over the data: a `fit`
fed that pipeline pays it per sample and per epoch. A dataset value carries the functions mapped on
it (`MAPPED`: the function, whether it runs per batch, the line of the `map`); the model method fed
that dataset gets `map_per_sample` and `map_per_step`, the calls of mapped functions that run TF
work per element and per batch (the predictor prices each call, analysis says how many). What the
function's ops compute on each element is not counted here: their tensors' shapes are not bound.
A Python `for` loop over such a pipeline runs them as it draws each batch: the first call in that
loop handed the batch (a traced training step, a `train_on_batch`) pays them, one batch's worth per call.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from greenlint.analysis import flow
from greenlint.analysis.arrays import BATCHED, Data
from greenlint.analysis.callsite import Work
from greenlint.analysis.values import Inst, UserFunc
from greenlint.analysis.work import INFERRED, q

#: A dataset value's meta key: the functions mapped on it, ((FuncInfo, per batch, line), ...).
MAPPED = "mapped"
#: A loop's batch's meta key: the `for` loop that drew it from a mapped pipeline, in a tuple (`drawn_from`).
DRAWN_IN = "drawn_in"
#: The transformation `Dataset.apply` takes that maps then batches, and its value's meta key (its arguments).
MAP_AND_BATCH = "tensorflow.data.experimental.map_and_batch"


def dataset_step(meta: dict, name: str, named: dict, line: int) -> None:
    """Record in a dataset value's (copied) *meta* what its Dataset method *name* adds: a function it maps,
    or that it batches from here on."""
    if name in ("batch", "padded_batch"):
        meta[BATCHED] = True
    elif name == "unbatch":
        meta.pop(BATCHED, None)
    elif name == "map" and type(named.get("map_func")) is UserFunc:
        meta[MAPPED] = (*meta.get(MAPPED, ()), (named["map_func"].info, bool(meta.get(BATCHED)), line))


def steps_of(name: str, named: dict) -> tuple[tuple[str, dict], ...]:
    """The Dataset methods a call of the method *name* amounts to, each with its arguments: `apply` of
    `map_and_batch(f, n)` a `map(f)` then a `batch(n)`; any other call itself."""
    given = named.get("transformation_func") if name == "apply" else None
    fused = given.meta.get(MAP_AND_BATCH) if type(given) is Inst and isinstance(given.meta, dict) else None
    if fused is None:
        return ((name, named),)
    return (("map", {"map_func": fused["map_func"]}), ("batch", {"batch_size": fused["batch_size"]}))


def mapped_element(data: Data, func: Any) -> Data:
    """The pipeline *data* after `map(func)` (`arrays.dataset_step` has made its element's shape unknown):
    where every `return` of the project function *func* (a lambda's body) is a literal tuple of the same
    length, each element a tuple of that many parts of unknown shape (`get_next()` then gives one tensor
    per part, of the pipeline's batch: `images, labels = it.get_next()`); else as it was."""
    count = _tuple_length(func.info.node) if type(func) is UserFunc else None
    return data if count is None else replace(data, whole=False, parts=(None,) * count)


def _tuple_length(node: ast.AST) -> int | None:
    """The length of the literal tuple every `return` of a function gives (a lambda's body); None where a
    return gives anything else (a name may hold a tuple of any length), where lengths differ, or none is seen."""
    if type(node) is ast.Lambda:
        values: list[ast.AST | None] = [node.body]
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        values = [item.value for item in flow.own_nodes(node) if type(item) is ast.Return]
    else:
        return None
    lengths = {len(v.elts) if type(v) is ast.Tuple and not any(type(e) is ast.Starred for e in v.elts) else None
               for v in values}
    return lengths.pop() if len(lengths) == 1 and None not in lengths else None


def fed_maps(named: dict) -> tuple:
    """The functions mapped on the dataset a model method is fed (`x`, a generator method's `generator`)."""
    data = named.get("x", named.get("generator"))
    if type(data) is not Inst or not isinstance(data.meta, dict) or DRAWN_IN in data.meta:
        return ()  # (a batch a loop drew: `handed_maps`)
    return data.meta.get(MAPPED, ())


def drawn_from(batch: Any, pipeline: Any, loop: ast.AST) -> Any:
    """A batch the `for` *loop* binds from *pipeline*, carrying the functions mapped on it and the loop
    (an Inst copied with them): a call in that loop handed it pays one batch's calls of them."""
    maps = pipeline.meta.get(MAPPED) if type(pipeline) is Inst and isinstance(pipeline.meta, dict) else None
    if not maps or type(batch) is not Inst:
        return batch
    return Inst(batch.cls, batch.how, {**batch.meta, MAPPED: maps, DRAWN_IN: (loop,)})


def handed_maps(values: list, open_loops: set[int], draws: dict[int, Any], call: Any) -> tuple:
    """The functions mapped on the pipeline one of *values* was drawn from (`drawn_from`) by a loop among
    *open_loops* (the loops around the call: a call after the loop draws nothing), where *call* is the
    first call that loop hands it to (*draws*: loop id -> that call; each draw is paid once)."""
    for v in values:
        loop = id(v.meta[DRAWN_IN][0]) if type(v) is Inst and DRAWN_IN in v.meta else None
        if loop in open_loops and draws.setdefault(loop, call) is call:
            return v.meta[MAPPED]
    return ()


def map_work(mapped: Iterable[tuple[Any, bool, int]], runs_work: Callable[[Any], bool]) -> Work:
    """`map_per_sample` / `map_per_step` of a call fed a pipeline with the mapped functions *mapped*: those
    whose body runs TF work (*runs_work(info)*), by whether each runs per element or per batch; {} where none."""
    per: dict[bool, list[int]] = {False: [], True: []}
    for info, batched, line in mapped:
        if runs_work(info):
            per[batched].append(line)
    work: Work = {}
    for batched, key, each in ((False, "map_per_sample", "element"), (True, "map_per_step", "batch")):
        lines = per[batched]
        if lines:
            work[key] = q(len(lines), INFERRED, f"the Dataset.map function(s) of line(s) {', '.join(map(str, lines))} "
                                                 f"run once per {each} of every pass over the data")
    return work
