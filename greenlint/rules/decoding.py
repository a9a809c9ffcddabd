"""Autoregressive decoding loops: a loop that runs a network on a sequence and grows that
sequence by what the network returned, for the next pass to run on (GL207, GL208)."""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from greenlint.analysis import flow, trees
from greenlint.rules.base import FileFacts
from greenlint.rules.base_classes import FUNCTIONS, classes_named
from greenlint.rules.networks import NETWORK_NAMES, NETWORKS, makes_network, network
from greenlint.rules.site import is_keras_model_method
from greenlint.rules.syntax import (
    GROWS,
    LOOPS,
    SCOPES,
    Loop,
    cell_units,
    definitions,
    last_name,
    own_body,
    statement_blocks,
)

#: Calls that join arrays or tensors into a longer one (`tf.concat`, `np.concatenate`, `np.append`, ...).
JOINS = frozenset({"concat", "concatenate", "append", "hstack", "column_stack"})
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
        growing = _growing_loops(facts, cell)
        for loop in facts.nodes(cell, *LOOPS):
            found = _decoding(facts, loop, cell) if id(loop) in growing and isinstance(loop, LOOPS) else None
            if found is not None:
                yield found


def _growing_loops(facts: FileFacts, cell: int | None) -> set[int]:
    """The ids of the unit's loops whose own body (`own_body`) holds a statement that grows a
    sequence (`_grows`): the only loops `feedbacks` can find a run in, from one pass over the
    unit's indexed statements (most loops grow nothing, and their bodies are then not walked)."""
    found: set[int] = set()
    for statement in facts.nodes(cell, ast.Assign, ast.AugAssign, ast.Expr):
        if isinstance(statement, ast.stmt) and next(_grows(statement), None) is not None:
            parent = facts.parent(statement, cell)
            while parent is not None and not isinstance(parent, (*LOOPS, *SCOPES)):
                parent = facts.parent(parent, cell)
            if isinstance(parent, LOOPS):
                found.add(id(parent))
    return found


@dataclass(frozen=True)
class DrivenDecoding:
    """A method of a subclass, which its base class's method *driver* calls in a loop that grows a
    sequence by what the method returned, gives its parameter *given* (that sequence) whole to the
    network call *run*."""

    run: ast.Call
    given: str
    driver: str
    cell: int | None


def driven_decodings(facts: FileFacts) -> Iterator[DrivenDecoding]:
    """Every method of a class of the file that a base class drives as the step of an
    autoregressive loop (a template method: bert4keras' `AutoRegressiveDecoder.beam_search` calls
    `self.predict(inputs, output_ids, states)` and grows `output_ids` by its result), where the
    method runs a network on the whole sequence it is given. A state the loop hands back counts
    against it only where the method reads it (else it is no cache)."""
    if not any(_forward_api(site.api) and "." in site.callsite.scope for site in facts.sites):
        return  # no network run in a method (a site's scope is `Class.method`): its tree is not needed
    for cell, _ in cell_units(facts):
        for owner in facts.nodes(cell, ast.ClassDef):
            steps = {n.name: n for n in owner.body if isinstance(n, FUNCTIONS)} if owner.bases else {}
            drivers = [
                (made, method)
                for base in (owner.bases if steps else ())
                for made in classes_named(facts, base)
                for method in made.body
                if isinstance(method, FUNCTIONS) and method.name not in steps
            ]
            called: set[str | None] | None = None  # the class's own `self.f()` calls, read at its first candidate
            found: dict[int, tuple[bool, str, ast.Call, str]] = {}  # per network call, the loop the class calls first
            for made, method in drivers:
                held = _statements(method)
                for loop, calling in _driver_loops(method):
                    if calling.isdisjoint(steps):
                        continue
                    calls = (n for n in own_body(loop) if isinstance(n, ast.Call) and _self_method(n) in steps)
                    for fed in feedbacks(loop, calls, held):
                        whole = _whole_to_network(facts, steps[_self_method(fed.run) or ""], fed, cell)
                        if whole is not None:
                            if called is None:
                                called = {_self_method(n) for n in trees.walk(owner) if isinstance(n, ast.Call)}
                            candidate = (method.name not in called, f"{made.name}.{method.name}", *whole)
                            found[id(whole[0])] = min(found.get(id(whole[0]), candidate), candidate, key=_first_two)
            for _, driver, run, given in found.values():
                yield DrivenDecoding(run, given, driver, cell)


@functools.lru_cache(maxsize=1024)
def _driver_loops(method: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[tuple[Loop, frozenset[str]], ...]:
    """The loops of a base class's method that grow a sequence in their own body (the only ones
    `feedbacks` can find a run in), in `trees.walk`'s order, each with the `self` methods its own
    body calls: read once per tree of the method (a base class of another module is read by each
    file that subclasses it, and its tree shared while the run keeps it)."""
    found = []
    for loop in (n for n in trees.walk(method) if isinstance(n, LOOPS)):
        body = list(own_body(loop))
        if any(next(_grows(n), None) is not None for n in body if isinstance(n, ast.stmt)):
            calling = frozenset(name for n in body if isinstance(n, ast.Call) and (name := _self_method(n)) is not None)
            found.append((loop, calling))
    return tuple(found)


def _first_two(candidate: tuple) -> tuple:
    """A driver candidate's order: the loops the class itself calls first, then by name."""
    return candidate[:2]


def _self_method(call: ast.Call) -> str | None:
    """`predict` for `self.predict(...)`; None for another call."""
    func = call.func
    is_self = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"
    return func.attr if is_self and isinstance(func, ast.Attribute) else None


def _statements(function: ast.AST) -> Callable[[ast.AST], ast.AST]:
    """The innermost statement of *function* holding a node of it, indexed on the first question
    (most of a driver's loops grow no sequence, and ask none)."""
    held: dict[int, ast.AST] = {}

    def holding(node: ast.AST) -> ast.AST:
        todo: list[tuple[ast.AST, ast.AST | None]] = [] if held else [(function, None)]
        while todo:
            inner, statement = todo.pop()
            statement = inner if isinstance(inner, ast.stmt) else statement
            if statement is not None:
                held[id(inner)] = statement
            todo.extend((child, statement) for child in ast.iter_child_nodes(inner))
        return held.get(id(node), node)

    return holding


def _whole_to_network(
    facts: FileFacts, step: ast.FunctionDef | ast.AsyncFunctionDef, fed: Feedback, cell: int | None
) -> tuple[ast.Call, str] | None:
    """The network call of *step* that reads, whole, the parameter the loop gives the grown
    sequence to, and that parameter; None where the step reads a state the loop hands back."""
    params = [a.arg for a in (*step.args.posonlyargs, *step.args.args)][1:]  # after `self`
    given = {params[i] if i < len(params) else None: arg for i, arg in enumerate(fed.run.args)} | {
        k.arg: k.value for k in fed.run.keywords
    }
    read = frozenset().union(*(flow.names(statement) for statement in step.body))
    if any(name in read for name, arg in given.items() if flow.names(arg) & fed.states):
        return None
    body = trees.walk(step)  # `ast.walk`'s statements and calls, in its order, as a list
    for name, arg in given.items():
        if name is None or fed.prefix not in _whole_names(arg):
            continue
        whole = _whole_closure(name, body)
        for run in (n for n in body if isinstance(n, ast.Call)):
            reads = frozenset().union(*(_whole_names(a) for a in (*run.args, *(k.value for k in run.keywords))))
            if reads & whole and not reads & whole <= _cut_bound(whole, body) and runs_network(facts, run, cell):
                return run, name
    return None


def _decoding(facts: FileFacts, loop: Loop, cell: int | None) -> Decoding | None:
    runs = (n for n in own_body(loop) if isinstance(n, ast.Call) and runs_network(facts, n, cell))
    for fed in feedbacks(loop, runs, lambda run: _statement(facts, run, cell)):
        if not fed.states:
            return Decoding(fed.run, fed.prefix, cell)
    return None


@dataclass(frozen=True)
class Feedback:
    """*run* is given the whole sequence *prefix*, which its loop then lengthens by what *run*
    returned; *states*: the other names given to *run* that it returned on an earlier pass (a
    recurrent state or a cache, which makes the decoder incremental where the network reads it)."""

    run: ast.Call
    prefix: str
    states: frozenset


def feedbacks(loop: Loop, runs: Iterable[ast.Call], statement: Callable[[ast.Call], ast.AST]) -> Iterator[Feedback]:
    """Each of the loop's *runs* (calls in its own body) that is given a sequence the loop grows
    by what that run returned; *statement*: the statement holding a run."""
    body = list(own_body(loop))
    grows = [
        g for node in body if isinstance(node, ast.stmt) for g in _grows(node) if not _fresh_each_pass(loop.body, node, g[0])
    ]
    if not grows:
        return
    pairs = flow.assignments(loop.body)
    bounded = {axis: _bounded(body, axis) for _, _, axis in grows}
    for run in runs:
        held = statement(run)
        seeds = (
            frozenset().union(*(flow.targets(t) for t in held.targets)) if isinstance(held, ast.Assign) else frozenset()
        )
        results = flow.derived(seeds, loop.body, pairs)
        read = frozenset().union(*(_whole_names(a) for a in (*run.args, *(k.value for k in run.keywords))))
        direct = frozenset().union(*(flow.names(a) for a in (*run.args, *(k.value for k in run.keywords))))
        for prefix, added, axis in grows:
            if prefix in bounded[axis]:
                continue
            fed_back = any(run in ast.walk(e) or flow.names(e) & results for e in added)
            whole = _whole_closure(prefix, [n for n in body if n is not held])
            given = read & whole
            if fed_back and given and not given <= _cut_bound(whole, body, axis):
                yield Feedback(run, prefix, (direct & results) - whole)


def _bounded(body: list[ast.AST], axis: int | None) -> frozenset:
    """The names cut back to a window on each pass (`seq = seq[-window:]`; *axis*: the one the
    sequence grows along, where known)."""
    return frozenset(
        t.id
        for node in body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript) and _cuts(node.value.slice, axis)
        for t in node.targets
        if isinstance(t, ast.Name)
    )


def _grows(node: ast.stmt) -> Iterator[tuple[str, list[ast.expr], int | None]]:
    """(name, what is added, the axis it grows along where the join names one) where the statement
    lengthens the sequence *name*: `seq = tf.concat([seq, token], 1)`, `seq += [token]`, `seq.append(token)`."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        value = node.value
        if isinstance(value, ast.Call) and last_name(value.func) in JOINS and value.args:
            first = value.args[0]
            if isinstance(first, (ast.List, ast.Tuple)):
                elements, axis = list(first.elts), _axis(value)
            elif last_name(value.func) == "append" and len(value.args) > 1:  # `np.append(seq, token)`
                elements, axis = list(value.args[:2]), None
            else:  # `tf.concat(pieces, 0)`: the pieces a list holds joined into one, no sequence grown
                return
            name = node.targets[0].id
            if not any(_cut_of(e, name, axis) for e in elements):  # `[seq[:, 1:], token]`: a window that slides
                yield name, elements, axis
    elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and isinstance(node.target, ast.Name):
        if not _arithmetic(node.value):  # `img += g * step` updates an array in place; `seq += [token]` grows
            yield node.target.id, [node.value], None
    elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        func = node.value.func
        if isinstance(func, ast.Attribute) and func.attr in GROWS and isinstance(func.value, ast.Name):
            yield func.value.id, list(node.value.args), None


def _fresh_each_pass(block: list[ast.stmt], grow: ast.stmt, prefix: str) -> bool | None:
    """Whether a statement before *grow* on its way from *block* (a loop's body) binds *prefix* anew
    from a value that does not read it (`heads = []`, then `heads.append(head)`): each pass grows a
    sequence of its own, which no later pass runs on. None where *block* does not hold *grow*."""
    fresh = False
    for statement in block:
        if statement is grow:
            return fresh
        for inner in () if isinstance(statement, (*LOOPS, *SCOPES)) else statement_blocks(statement):
            found = _fresh_each_pass(inner, grow, prefix)
            if found is not None:
                return fresh or found
        fresh = fresh or _binds_anew(statement, prefix)
    return None


def _binds_anew(statement: ast.stmt, name: str) -> bool:
    """*statement* binds *name* to a value that does not read it (`seq = []`; not `seq = seq[1:]`)."""
    if isinstance(statement, ast.Assign):
        targets = statement.targets
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        targets = [statement.target]
    else:
        return False
    return any(isinstance(t, ast.Name) and t.id == name for t in targets) and name not in flow.names(statement.value)


def _arithmetic(expr: ast.expr) -> bool:
    """Whether *expr* is arithmetic on numbers or arrays (`g * step`, `-lr * grad`): an operator with
    no list, tuple or string among its operands, which repeat or join a sequence instead."""
    if not isinstance(expr, (ast.BinOp, ast.UnaryOp)):
        return False
    sequences = (ast.List, ast.Tuple, ast.ListComp, ast.JoinedStr)
    return not any(isinstance(n, sequences) or (isinstance(n, ast.Constant) and isinstance(n.value, str))
                   for n in ast.walk(expr))


def _axis(join: ast.Call) -> int | None:
    """The axis a join of a list names as a literal (`np.concatenate([a, b], 1)`, `axis=1`); None otherwise."""
    given = next((k.value for k in join.keywords if k.arg == "axis"), join.args[1] if len(join.args) > 1 else None)
    return given.value if isinstance(given, ast.Constant) and type(given.value) is int else None


def _cuts(index: ast.expr, axis: int | None = None) -> bool:
    """An index that keeps part of a sequence's positions: one position (`[-1]`, `[:, i]`) or a
    slice with a start (`[:, -1:]`, `[1:]`); not a prefix (`[:, :t]`), a new axis or `...`. Where
    the sequence grows along a later *axis* than the first, only the index's part on that axis
    counts (`ids[beams]`, `ids[mask]` pick rows and keep every position)."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    if axis is not None and axis > 0 and not any(isinstance(p, ast.Constant) and p.value is Ellipsis for p in parts):
        parts = parts[axis : axis + 1]
    for part in parts:
        if isinstance(part, ast.Slice):
            if part.lower is not None:
                return True
        elif not (isinstance(part, ast.Constant) and part.value in (None, Ellipsis)) and last_name(part) != "newaxis":
            return True
    return False


def _cut_of(expr: ast.expr, name: str, axis: int | None = None) -> bool:
    """*expr* reads part of *name*'s positions (`name[:, 1:]`; *axis*: the one it grows along, where known)."""
    return any(
        isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name and _cuts(n.slice, axis)
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
    sized = flow.derived(frozenset((prefix,)), [n for n in body if isinstance(n, ast.stmt)])
    bindings = [
        (frozenset().union(*(flow.targets(t) for t in n.targets)), _whole_names(n.value))
        for n in body
        if isinstance(n, ast.Assign) and not _fixed_length(n.value, sized)
    ]
    changed = True
    while changed:
        changed = False
        for bound, read in bindings:
            if read & found and not bound <= found:
                found |= bound
                changed = True
    return frozenset(found)


#: Calls that pad a sequence (`tf.pad`, `np.pad`, Keras' `pad_sequences`).
PADS = frozenset({"pad", "pad_sequences"})


def _fixed_length(value: ast.expr, sized: frozenset) -> bool:
    """*value* pads the sequence to a fixed length: `pad_sequences(..., maxlen=n)` (which also
    truncates), or a pad whose widths are computed from the sequence's own size
    (`tf.pad(seq, [[0, 0], [0, n - seq.shape[1]]])`; *sized*: the names derived from it). The
    network then runs on as many positions on every pass, whatever the prefix's length."""
    if not (isinstance(value, ast.Call) and last_name(value.func) in PADS):
        return False
    if any(k.arg == "maxlen" for k in value.keywords):
        return True
    widths = frozenset().union(*(flow.names(a) for a in value.args[1:]), *(flow.names(k.value) for k in value.keywords))
    return bool(widths & sized)


def _cut_bound(whole: frozenset, body: list[ast.AST], axis: int | None = None) -> frozenset:
    """The names the loop also binds to part of the sequence (`window = waveform[-1]` in one
    branch, `window = waveform` in another): a mode that runs the newest positions alone."""
    return frozenset(
        t.id
        for n in body
        if isinstance(n, ast.Assign) and any(_cut_of(n.value, name, axis) for name in whole)
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
        functions = definitions(facts, func, cell)
        if functions and all(_builds_fresh_layers(facts, function, cell) for function in functions):
            return False  # a builder of a model's block (Inception's `conv2d_bn`): new layers each call, none run again
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


def _builds_fresh_layers(facts: FileFacts, function: ast.AST, cell: int | None) -> bool:
    """Every network the function makes is a Keras layer it builds and applies in place
    (`Conv2D(64, 3)(x)`): each call adds new layers, with new weights, to a model being built, as a
    functional model's block builder does; it runs no network made before it."""
    calls = [n for n in ast.walk(function) if isinstance(n, ast.Call)]
    applied = {id(n.func) for n in calls if isinstance(n.func, ast.Call)}
    makers = [n for n in calls if makes_network(facts, n, cell, FORWARD_OPS)]
    return bool(makers) and all(isinstance(n.func, ast.Call) or id(n) in applied for n in makers)


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
