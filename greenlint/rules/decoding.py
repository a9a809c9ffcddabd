"""Autoregressive decoding loops: a loop that runs a network on a sequence and grows that
sequence by what the network returned, for the next pass to run on (GL207, GL208)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts, is_keras_model_method
from greenlint.rules.networks import NETWORK_NAMES, NETWORKS, makes_network, network
from greenlint.rules.syntax import LOOPS, Loop, cell_units, definitions, last_name, own_body

#: Calls that join arrays or tensors into a longer one (`tf.concat`, `np.concatenate`, `np.append`, ...).
JOINS = frozenset({"concat", "concatenate", "append", "hstack", "column_stack"})
#: Methods that grow the object they are called on: a list's `append`/`extend`.
GROWS = frozenset({"append", "extend"})
#: Keras model methods that run the network forward.
FORWARD_METHODS = ("predict", "predict_on_batch", "__call__", "call")
#: Calls that make a function of the file a network's forward pass: a layer, a model, an
#: embedding, a matrix product (besides the convolutions and Keras calls of `NETWORKS`).
FORWARD_OPS = (
    *NETWORKS,
    "tensorflow.compat.v1.layers.",
    "tensorflow.keras.Model.",
    "tensorflow.keras.Sequential.",
    "tensorflow.nn.embedding_lookup",
    "tensorflow.einsum",
    "tensorflow.matmul",
    "tensorflow.linalg.matmul",
    "tensorflow.tensordot",
)


@dataclass(frozen=True)
class Decoding:
    """One autoregressive loop: *run* is given the whole sequence *prefix*, which the loop then
    lengthens by what *run* returned."""

    run: ast.Call
    prefix: str
    cell: int | None


def decoding_loops(facts: FileFacts) -> Iterator[Decoding]:
    """Every loop of the file that decodes autoregressively on the whole prefix (one a loop)."""
    if not may_decode(facts):
        return  # no network the file runs or makes: its tree is not needed
    for cell, _ in cell_units(facts):
        for loop in facts.nodes(cell, *LOOPS):
            found = _decoding(facts, loop, cell) if isinstance(loop, LOOPS) else None  # for the type checker
            if found is not None:
                yield found


def _decoding(facts: FileFacts, loop: Loop, cell: int | None) -> Decoding | None:
    body = list(own_body(loop))
    grows = [g for node in body if isinstance(node, ast.stmt) for g in _grows(node)]
    if not grows:
        return None
    bounded = {  # `seq = seq[-window:]`: the sequence is cut back to a window on each pass
        t.id
        for node in body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript) and _cuts(node.value.slice)
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    pairs = flow.assignments(loop.body)
    for run in (n for n in body if isinstance(n, ast.Call) and runs_network(facts, n, cell)):
        statement = _statement(facts, run, cell)
        seeds = (
            frozenset().union(*(flow.targets(t) for t in statement.targets))
            if isinstance(statement, ast.Assign)
            else frozenset()
        )
        results = flow.derived(seeds, loop.body, pairs)
        read = frozenset().union(*(_whole_names(a) for a in (*run.args, *(k.value for k in run.keywords))))
        direct = frozenset().union(*(flow.names(a) for a in (*run.args, *(k.value for k in run.keywords))))
        for prefix, added in grows:
            if prefix in bounded:
                continue
            fed_back = any(run in ast.walk(e) or flow.names(e) & results for e in added)
            whole = _whole_closure(prefix, [n for n in body if n is not statement])
            given = read & whole
            if fed_back and given and not given <= _cut_bound(whole, body) and not (direct & results) - whole:
                return Decoding(run, prefix, cell)
    return None


def _grows(node: ast.stmt) -> Iterator[tuple[str, list[ast.expr]]]:
    """(name, what is added) where the statement lengthens the sequence *name*:
    `seq = tf.concat([seq, token], 1)`, `seq += [token]`, `seq.append(token)`."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        value = node.value
        if isinstance(value, ast.Call) and last_name(value.func) in JOINS and value.args:
            first = value.args[0]
            elements = list(first.elts) if isinstance(first, (ast.List, ast.Tuple)) else list(value.args)
            name = node.targets[0].id
            if not any(_cut_of(e, name) for e in elements):  # `[seq[:, 1:], token]`: a window that slides
                yield name, elements
    elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and isinstance(node.target, ast.Name):
        yield node.target.id, [node.value]
    elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        func = node.value.func
        if isinstance(func, ast.Attribute) and func.attr in GROWS and isinstance(func.value, ast.Name):
            yield func.value.id, list(node.value.args)


def _cuts(index: ast.expr) -> bool:
    """An index that keeps part of a sequence's positions: one position (`[-1]`, `[:, i]`) or a
    slice with a start (`[:, -1:]`, `[1:]`); not a prefix (`[:, :t]`), a new axis or `...`."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    for part in parts:
        if isinstance(part, ast.Slice):
            if part.lower is not None:
                return True
        elif not (isinstance(part, ast.Constant) and part.value in (None, Ellipsis)) and last_name(part) != "newaxis":
            return True
    return False


def _cut_of(expr: ast.expr, name: str) -> bool:
    """*expr* reads part of *name*'s positions (`name[:, 1:]`)."""
    return any(
        isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name and _cuts(n.slice)
        for n in ast.walk(expr)
    )


def _whole_names(expr: ast.expr) -> frozenset:
    """The names an expression reads whole: not only through an index that cuts them (`seq[:, -1:]`)."""
    found = set()
    todo: list[ast.AST] = [expr]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Subscript) and _cuts(node.slice):
            todo.append(node.slice)
        elif not isinstance(node, ast.Lambda):
            todo.extend(ast.iter_child_nodes(node))
    return frozenset(found)


def _whole_closure(prefix: str, body: list[ast.AST]) -> frozenset:
    """*prefix* and the names the loop binds from all of it (`ys = (seq, lengths)`, `x = np.array([seq])`;
    *body* without the network's own statement, whose outputs are no part of the sequence)."""
    found = {prefix}
    bindings = [
        (frozenset().union(*(flow.targets(t) for t in n.targets)), _whole_names(n.value))
        for n in body
        if isinstance(n, ast.Assign)
    ]
    changed = True
    while changed:
        changed = False
        for bound, read in bindings:
            if read & found and not bound <= found:
                found |= bound
                changed = True
    return frozenset(found)


def _cut_bound(whole: frozenset, body: list[ast.AST]) -> frozenset:
    """The names the loop also binds to part of the sequence (`window = waveform[-1]` in one
    branch, `window = waveform` in another): a mode that runs the newest positions alone."""
    return frozenset(
        t.id
        for n in body
        if isinstance(n, ast.Assign) and any(_cut_of(n.value, name) for name in whole)
        for t in n.targets
        if isinstance(t, ast.Name)
    )


def _statement(facts: FileFacts, node: ast.AST, cell: int | None) -> ast.AST:
    """The statement holding *node*."""
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, ast.stmt):
            return parent
    return node


def may_decode(facts: FileFacts) -> bool:
    """The file runs or makes a network (a cheap look at its sites before any tree is read)."""
    return any(_forward_api(site.api) for site in facts.sites)


def _forward_api(api: str) -> bool:
    """An API that runs a network forward or makes one (`NETWORK_NAMES`, a layer, an einsum...)."""
    return (
        is_keras_model_method(api, FORWARD_METHODS)
        or api.endswith("Session.run")
        or api.startswith(FORWARD_OPS)
        or (api.startswith("tensorflow.keras.") and api.rsplit(".", 1)[-1] in NETWORK_NAMES)
    )


def runs_network(facts: FileFacts, call: ast.Call, cell: int | None) -> bool:
    """The call runs a network forward: a Keras model's `predict` or call, a TF1 session run,
    a model or layer the file makes, or a function or method of the file that runs one."""
    site = facts.site_at(call, cell)
    if site is not None:
        return is_keras_model_method(site.api, FORWARD_METHODS) or site.api.endswith("Session.run")
    func = call.func
    if isinstance(func, ast.Name):
        return network(facts, func, cell, FORWARD_OPS)
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"):
        return False  # a method of another object: which class's is not known
    functions = definitions(facts, func, cell)
    if functions:
        return any(
            isinstance(n, ast.Call) and makes_network(facts, n, cell, FORWARD_OPS)
            for function in functions
            for n in ast.walk(function)
        )
    made = _attribute_constructors(facts, func.attr)
    return bool(made) and all(makes_network(facts, m, cell, FORWARD_OPS) for m in made)


def _attribute_constructors(facts: FileFacts, attr: str) -> list[ast.Call]:
    """The calls `self.<attr>` is assigned from in the file (none where one assignment is not a call)."""
    values = [
        n.value
        for cell, _ in cell_units(facts)
        for n in facts.nodes(cell, ast.Assign)
        if any(
            isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name) and t.value.id == "self"
            for t in n.targets
        )
    ]
    calls = [v for v in values if isinstance(v, ast.Call)]
    return calls if len(calls) == len(values) else []
