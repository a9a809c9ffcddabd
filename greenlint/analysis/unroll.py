"""Walking graph-building code again for the values it makes: the layers research code stacks in
helpers and loops (`x = conv_block(x, 64)`, `for filters in (64, 128, 256): x = Conv2D(filters, 3)(x)`).

The resolver walks a function's body once, with its parameters merged over every call, and a loop's
body once: enough to list the call sites and count their runs, but the graph a model is built from
then loses every layer added by the second call of a helper or the second trip of a loop, and with
them the model's FLOPs. So, for the values only:

- a call of a user function with a Keras symbolic tensor among its arguments walks the body again
  with this call's arguments (`Resolver.instantiated`): what it returns is that call's part of the
  graph;
- a `for` loop over a literal sequence of at most `MAX_TRIPS` items whose body rebinds a name that
  holds a symbolic tensor, or adds layers to a model, is walked once per item, the loop variable
  bound to that item (`unrollable`), after its ordinary walk; the names after it are those of the
  last trip.

Those extra walks record nothing (`Resolver.shadowed`): the call sites, their runs and the calls of
functions are those of the ordinary walk. A helper is not walked again inside its own walk, and such
walks nest at most `MAX_DEPTH` deep.
"""

from __future__ import annotations

import ast
from typing import Any

from greenlint.analysis import trees
from greenlint.analysis.arrays import is_sym
from greenlint.analysis.values import Const, Inst, Seq, items_of

#: Most items of a literal loop walked one by one (a network's stages, its blocks' filter counts).
MAX_TRIPS = 64
#: Most walks for values nested in one another (a helper calling a helper in a loop...).
MAX_DEPTH = 8
#: Methods that add a layer to a model a loop builds (`model.add(Conv2D(f, 3))`).
_ADDS = frozenset({"add"})


def literal_items(value: Any, enumerated: bool = False) -> list | None:
    """The values a loop binds in turn: the items of a tuple or list known here (*value*, the iterable's: a
    literal display, the integers of a `range` whose bounds are known, `range(self.blocks - 1)`, or a
    display of values such as a model's output tensors), each with its index where the loop is over
    their `enumerate` (*enumerated*); None otherwise, or beyond MAX_TRIPS."""
    items: list[Any]
    if type(value) is Const and isinstance(value.value, (tuple, list)):
        items = [Const(item) for item in value.value]
    elif type(value) is Seq:
        items = list(value.items)
    else:
        return None
    if enumerated:
        items = [Seq((Const(index), item)) for index, item in enumerate(items)]
    return items if items and len(items) <= MAX_TRIPS else None


def enumerated(iterable: ast.expr, shadowed: bool) -> bool:
    """Whether a loop's iterable is `enumerate(x)` of the builtin (not *shadowed* by a binding of the name)."""
    return type(iterable) is ast.Call and type(iterable.func) is ast.Name and iterable.func.id == "enumerate" \
        and len(iterable.args) == 1 and not iterable.keywords and not shadowed


def _leaves(body: list[ast.stmt]) -> bool:
    """A `break`, `continue`, `return`, `yield` or `raise` in the body (not in a nested function):
    the trips are not all alike."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Break, ast.Continue, ast.Return, ast.Yield, ast.YieldFrom, ast.Raise)):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False


def _assigned(body: list[ast.stmt]) -> set[str]:
    """Names the body binds (assignments, augmented assignments, `with ... as`), nested functions aside."""
    names: set[str] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if type(node) is ast.Name and type(node.ctx) is ast.Store:
            names.add(node.id)
        stack.extend(ast.iter_child_nodes(node))
    return names


def _added_to(body: list[ast.stmt]) -> set[str]:
    """Names of the receivers of `name.add(...)` calls in the body, and of `self.model.add(...)`'s as
    `self.model` (`added_attributes`)."""
    found = set()
    for stmt in body:
        for node in trees.walk(stmt):
            if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr in _ADDS:
                receiver = node.func.value
                if type(receiver) is ast.Name:
                    found.add(receiver.id)
                elif type(receiver) is ast.Attribute and type(receiver.value) is ast.Name:
                    found.add(f"{receiver.value.id}.{receiver.attr}")
    return found


def added_attributes(node: ast.For) -> dict[str, ast.Attribute]:
    """The `self.model` receivers of `self.model.add(...)` calls in the loop's body (a model a layer's or
    model's `__init__` builds layer by layer), by their dotted name: the resolver reads their values
    before the loop."""
    return {name: ast.Attribute(ast.Name(name.partition(".")[0], ast.Load()), name.partition(".")[2], ast.Load())
            for name in sorted(_added_to(node.body)) if "." in name}


def unrollable(node: ast.For, names: dict[str, Any], is_model, items: list) -> bool:
    """Whether a `for` loop builds a graph trip by trip: its body rebinds a name that holds a symbolic
    tensor in *names* (the bindings before the loop), adds layers to a name holding a model
    (*is_model*), or appends to a list of a graph's tensors (`_graph_list`) while its *items* hold some,
    and leaves no trip early."""
    body = node.body
    grows = any(is_sym(names.get(name)) for name in _assigned(body))
    grows = grows or any(is_model(names.get(name)) for name in _added_to(body))
    grows = grows or any(is_sym(part) for item in items for part in items_of(item)) and any(
        _graph_list(names.get(name)) for name in _appended_to(body))  # the items first: they seldom hold tensors
    grows = grows or any(_tensors(names.get(name)) for name in _indexed(node)) and any(_graph_list(names.get(name)) for name in _appended_to(body))
    return grows and not _leaves(body)


def _tensors(value: Any) -> bool:
    """A display holding symbolic tensors (a discriminator's logits at each scale)."""
    return type(value) is Seq and any(is_sym(v) for v in value.items)


def _indexed(node: ast.For) -> set[str]:
    """Names the body indexes by the loop's variable (`real[i]` in `for i in range(2)`): each trip reads its own item."""
    if type(node.target) is not ast.Name:
        return set()
    index = node.target.id
    return {sub.value.id for stmt in node.body for sub in trees.walk(stmt)
            if type(sub) is ast.Subscript and type(sub.value) is ast.Name and type(sub.slice) is ast.Name
            and sub.slice.id == index}


def _graph_list(value: Any) -> bool:
    """An empty list, or a display of symbolic tensors: what a loop appending a graph's tensors fills."""
    return type(value) is Const and value.value == [] or type(value) is Seq and all(is_sym(v) for v in value.items)


def _appended_to(body: list[ast.stmt]) -> set[str]:
    """Names of the receivers of `name.append(...)` calls in the body."""
    return {node.func.value.id for stmt in body for node in trees.walk(stmt)
            if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "append"
            and type(node.func.value) is ast.Name}


def models_added_to(node: ast.For, names: dict[str, Any], is_model) -> list[tuple[Inst, dict]]:
    """The models the loop adds layers to, each with a copy of what is known of it before the loop:
    the ordinary walk's trip adds a layer of unknown size, which the trips walked one by one replace."""
    if not any(is_model(value) for value in names.values()):  # no model to add to: the body is not walked
        return []
    return [(names[name], dict(names[name].meta)) for name in sorted(_added_to(node.body)) if is_model(names.get(name))]
