"""Which names a value derives from, read from the syntax alone: what makes loop iterations differ.

`derived(seeds, body)` closes a set of names over the assignments of a block (`y = f(x)` makes
`y` derive from `x`; tuple targets, `+=`, `for`/`with` targets too; a method call made for
its effect that sets state, `model.compile(optimizer=opt)`, makes `model` derive from `opt`), flow-insensitively
and without entering nested functions or classes. `inputs(call, params)` names what a call reads:
its receiver (the object a method is called on, or the instance called) and each argument by
parameter name.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from greenlint.analysis import trees

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
RECEIVER = "receiver"
RESULT = "result"


def own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of a scope's own body (a function's, a lambda's, a loop's), depth first, not of the functions
    and classes defined in it: those are listed (`def name` binds a name here), their bodies not entered;
    nor the shared leaves (`trees.children`: a `Name`'s context, an operator)."""
    found: list[ast.AST] = []
    todo = trees.children(scope)
    children, scopes = trees.children, _SCOPES
    while todo:
        node = todo.pop()
        found.append(node)
        if not isinstance(node, scopes):
            todo.extend(children(node))
    return found


def names(node: ast.AST | None) -> frozenset:
    """The names an expression reads (not inside lambdas)."""
    if node is None:
        return frozenset()
    found = set()
    stack = [node]
    name_type, lambda_type, ast_type = ast.Name, ast.Lambda, ast.AST
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is name_type:
            found.add(item.id)
            continue
        if kind is lambda_type:
            continue
        for field in trees.child_fields(kind):  # (names, constants, contexts and operators hold no name)
            value = getattr(item, field, None)
            if isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, ast_type))
            elif isinstance(value, ast_type):
                stack.append(value)
    return frozenset(found)


def targets(node: ast.AST) -> frozenset:
    """The names an assignment target binds (`a`, `a, (b, c)`, `*rest`); not attributes or items."""
    if type(node) is ast.Name:  # most targets
        return frozenset((node.id,))
    if type(node) not in (ast.Tuple, ast.List, ast.Starred):
        return frozenset()
    return frozenset(n.id for n in trees.walk(node) if type(n) is ast.Name)


def _filled(target: ast.AST) -> str | None:
    """The name whose object an item or attribute assignment fills (`d` in `d[k] = v`, `a.b[i] = v`)."""
    if type(target) not in (ast.Subscript, ast.Attribute):
        return None
    while type(target) in (ast.Subscript, ast.Attribute):
        target = target.value
    return target.id if type(target) is ast.Name else None


def assignments(body: list[ast.stmt], steady: Steady | None = None) -> list[tuple[frozenset, frozenset, bool]]:
    """(names bound, names read, fresh) of every assignment statement in a block (`:=` inside
    expressions aside; an item or attribute assignment binds the object it fills), and of every statement calling a method that sets state
    (`obj.compile(args)` binds `obj` from its arguments), nested functions excluded. *fresh*:
    each run of the statement may bind another value whatever the names it reads (a call's
    result, `n += 1`, a `for` or `with` target). A call *steady* accepts gives the same value for
    the same names read (a function that only assembles its arguments); with *steady*, a container
    filled by a method (`feed.update({x: batch})`) is bound from what it is filled with."""
    found = []
    stack: list[ast.stmt] = list(body)
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind in _SCOPES:
            continue
        if kind is ast.Assign:
            bound = frozenset().union(*(targets(t) for t in node.targets))
            found.append((bound, names(node.value), _calls(node.value, steady)))
            for target in node.targets:  # `feed[x] = v`, `obj.field = v`: the object changes with v
                base = _filled(target)
                if base is not None:
                    found.append((frozenset((base,)), names(node.value) | names(target), _calls(node.value, steady)))
        elif kind is ast.AnnAssign:
            if node.value is not None:
                found.append((targets(node.target), names(node.value), _calls(node.value, steady)))
        elif kind is ast.AugAssign:
            found.append((targets(node.target), names(node.value), True))
        elif kind in (ast.For, ast.AsyncFor):
            found.append((targets(node.target), names(node.iter), True))
        elif kind in (ast.With, ast.AsyncWith):
            for item in node.items:
                if item.optional_vars is not None:
                    found.append((targets(item.optional_vars), names(item.context_expr), True))
        elif kind is ast.Expr and type(node.value) is ast.Call and type(node.value.func) is ast.Attribute:
            call = node.value  # `model.compile(optimizer=Adam(lr))`: the object changes with its arguments
            if type(call.func.value) is ast.Name and (
                call.func.attr in SETTERS or call.func.attr.startswith("set_") or steady is not None and call.func.attr in FILLS
            ):
                read = frozenset().union(*(names(a) for a in call.args), *(names(k.value) for k in call.keywords))
                found.append((frozenset((call.func.value.id,)), read, False))
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack.extend(getattr(node, field, ()))
    return found


#: The methods that write a TF variable in place.
VARIABLE_WRITES = frozenset({"assign", "assign_add", "assign_sub"})


#: Methods that set an object's state from their arguments, with any `set_*` one (a layer added to a `Sequential`,
#: Keras's `compile`, weights loaded or set, a variable assigned): after `model.add(layer)` or
#: `model.compile(optimizer=Adam(lr))` in a loop over layers or rates, each iteration's `model`
#: is another one. Training and inference calls change weights or nothing and are not among
#: them: the same model trained step after step is the loop's repeat.
SETTERS = frozenset({"add", "compile", "load_weights", "set_weights"}) | VARIABLE_WRITES


#: The expressions whose value may differ from one run to the next (`_calls`).
_CALLING = (ast.Call, ast.Await, ast.Yield, ast.YieldFrom)


#: Methods that fill a container from their arguments (`feed.update({x: batch})`).
FILLS = frozenset({"update", "setdefault", "append", "extend", "insert"})
#: Whether a call gives the same value whenever the names it reads hold the same ones.
Steady = Callable[[ast.Call], bool]


def _calls(node: ast.AST, steady: Steady | None = None) -> bool:
    """Whether an expression calls something (its value may differ from one run to the next), but
    for the calls *steady* accepts."""
    if steady is None:
        return type(node) in _CALLING or any(type(n) in _CALLING for n in trees.walk(node))
    return any(type(n) in _CALLING and not (type(n) is ast.Call and steady(n)) for n in trees.walk(node))


def derived(seeds: frozenset, body: list[ast.stmt], pairs: list | None = None) -> frozenset:
    """*seeds* and every name the block assigns from them, transitively (*pairs*: the block's
    `assignments`, when already listed)."""
    if not seeds:
        return seeds
    pairs = assignments(body) if pairs is None else pairs
    return _closed(set(seeds), pairs)


def read_first(body: list[ast.stmt], bound: frozenset = frozenset()) -> frozenset:
    """The names a loop's body reads before it binds them, its statements taken in order (*bound*:
    what the loop binds before the body, its variable): the names whose values one pass can hand
    the next. A name a plain assignment of the body's own level binds before any read of it
    (`ok, frame = reader.read()` opening each pass) starts afresh every pass; a binding in a
    nested block (a branch, an inner loop) may not run, so it starts nothing afresh; but within a
    branch, a name it binds before it reads it (`if faces: ages = predict(faces); draw(ages)`) is read
    in that branch only after this pass bound it. A nested `for` binds its variable before its body
    runs (`for j, path in enumerate(paths[start:stop]): batch[j] = load(path)` reads neither `j`
    nor `path` first)."""
    fresh: set[str] = set(bound)
    found: set[str] = set()
    for statement in body:
        if type(statement) is ast.If:
            found |= names(statement.test) - fresh
            found |= read_first(statement.body, frozenset(fresh)) | read_first(statement.orelse, frozenset(fresh))
            continue
        if isinstance(statement, (ast.For, ast.AsyncFor)):
            found |= names(statement.iter) - fresh
            found |= read_first(statement.body, frozenset(fresh | targets(statement.target)))
            found |= read_first(statement.orelse, frozenset(fresh))
            continue
        found |= names(statement) - fresh if type(statement) not in (ast.Assign, ast.AnnAssign) else set()
        if type(statement) is ast.Assign:
            found |= names(statement.value) - fresh
            for target in statement.targets:
                found |= names(target) - targets(target) - fresh  # `d[k] = v` reads `d`
            fresh |= frozenset().union(*(targets(t) for t in statement.targets))
        elif type(statement) is ast.AnnAssign and statement.value is not None:
            found |= names(statement.value) - fresh
            fresh |= targets(statement.target)
    return frozenset(found)


def next_pass(seeds: frozenset, body: list[ast.stmt], bound: frozenset = frozenset(),
              pairs: list | None = None) -> frozenset:
    """The names of a loop's body that derive from what *seeds* held in the previous pass: the
    names derived from *seeds* that the body reads before binding them (`read_first`), and every
    name assigned from those. A name each pass binds afresh before reading it (the frame read at
    the top of a video loop, later redrawn from the model's boxes) hands nothing on."""
    pairs = assignments(body) if pairs is None else pairs
    return derived(derived(seeds, body, pairs) & read_first(body, bound), body, pairs)


def varying(target: ast.AST, body: list[ast.stmt], steady: Steady | None = None) -> frozenset:
    """The names a loop's iterations differ in: its variable (*target*), every name its body
    binds afresh (`batch = next(it)`, `n += 1`, an inner loop's variable), and every name the
    body assigns from those. A name the body binds to the same value each time (`shape = (2,
    2)`, or a call *steady* accepts given names bound before the loop) is not among them."""
    pairs = assignments(body, steady)
    found = set(targets(target))
    for bound, _, fresh in pairs:
        if fresh:
            found |= bound
    return _closed(found, pairs)


def _closed(found: set, pairs: list) -> frozenset:
    changed = True
    while changed:
        changed = False
        for bound, read, _ in pairs:
            if read & found and not bound <= found:
                found |= bound
                changed = True
    return frozenset(found)


def inputs(call: ast.Call, params: list[str], used_by: ast.Call | None = None) -> dict[str, frozenset]:
    """The names each input of a call reads: "receiver" (`m` in `m.predict(x)`, `layer` in
    `layer(x)`), each argument under its parameter name (`argN` past the known ones, `**`), and
    "result": the arguments of the call *used_by* made on its result (`spec` in
    `tf.function(f).get_concrete_function(spec)`, where the two go together)."""
    func = call.func
    found = {RECEIVER: names(func.value if type(func) is ast.Attribute else func)}
    for i, arg in enumerate(call.args):
        label = "*" if type(arg) is ast.Starred else params[i] if i < len(params) else f"arg{i}"
        found[label] = found.get(label, frozenset()) | names(arg)
    for keyword in call.keywords:
        label = keyword.arg or "**"
        found[label] = found.get(label, frozenset()) | names(keyword.value)
    if used_by is not None:
        read = [names(a) for a in used_by.args] + [names(k.value) for k in used_by.keywords]
        found[RESULT] = frozenset().union(*read)
    return found
