"""Callbacks of a `fit()` whose `on_epoch_end` runs a model over the data they were given on every
epoch, while nothing in that training acts on the result (GL319's second case)."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from dataclasses import dataclass

from greenlint.analysis import flow
from greenlint.analysis.project import project_bindings
from greenlint.rules.base import FileFacts, keyword
from greenlint.rules.callbacks import (
    constructors,
    file_class,
    imported_from_project,
    is_self_attribute,
    listed,
    read_tree,
)
from greenlint.rules.site import is_keras_model_method
from greenlint.rules.syntax import cell_units, last_name

#: Keras model methods that run the model over data.
RUNS_MODEL = ("predict", "evaluate", "predict_on_batch", "test_on_batch", "predict_generator", "evaluate_generator")
#: Of those, the ones that run over a whole dataset in one call; the others (`predict` of a
#: sample grid, `predict_on_batch`) make a pass only in a loop over the data.
WHOLE = frozenset({"evaluate", "predict_generator", "evaluate_generator"})
#: Keras callbacks that never act on what an epoch's `logs` hold (they show or record it).
RECORDERS = frozenset({"TensorBoard", "CSVLogger", "ProgbarLogger", "History", "TerminateOnNaN", "BackupAndRestore"})
#: Calls by which a callback acts on the model (keeps or changes its weights).
ACTS = frozenset({"save", "save_weights", "set_weights", "load_weights", "set_value"})
#: Attributes whose setting steers the training (`self.model.stop_training = True`, a learning rate).
STEERS = frozenset({"stop_training", "learning_rate", "lr"})
#: The nodes that repeat their body over an iterable (a comprehension over the data is a loop too).
LOOPS = (ast.For, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
#: How many calls deep a pass is followed from the hook into the functions it calls.
DEPTH = 3


@dataclass(frozen=True)
class UnreadPass:
    """A callback made at *made* (cell *cell*) of class *callback* that runs a model over *data*."""

    made: ast.Call
    cell: int | None
    callback: str
    data: str


@dataclass(frozen=True)
class _Module:
    """A module's file and tree (a notebook's cells as one body)."""

    path: str
    body: tuple[ast.stmt, ...]


def unread_passes(facts: FileFacts) -> Iterator[UnreadPass]:
    """The callbacks of each `fit()`/`fit_generator()` of at least two epochs whose `on_epoch_end`
    runs a model over data they hold on every epoch (see `_pass`) where nothing reads the result."""
    here = _Module(os.path.abspath(facts.path), tuple(s for _, m in cell_units(facts) for s in m.body))
    for site in facts.sites:
        if not is_keras_model_method(site.api, ("fit", "fit_generator")):
            continue
        epochs = site.features.get("epochs")
        call = facts.node(site)
        given = keyword(call, "callbacks") if call is not None else None
        if given is None or (isinstance(epochs, int) and epochs < 2):
            continue
        elements = listed(facts, given.value)
        made = [c for e in elements or () for c in constructors(facts, e) or ()]
        for construction in made:
            for module, owner in _classes(facts, here, construction):
                attr = _pass(module, owner)
                if attr is not None and not _acted_on(facts, owner, made, construction):
                    cell = next((c for c in facts.cells if any(n is construction for n in facts.calls(c))), None)
                    yield UnreadPass(construction, cell, owner.name, _argument(owner, construction, attr))
                    break  # one finding for the construction, whichever class it makes


def _classes(facts: FileFacts, here: _Module, call: ast.Call) -> list[tuple[_Module, ast.ClassDef]]:
    """The callback classes *call* may make (the file's, or a project module's), directly on `Callback`."""
    made = file_class(facts, call)
    if made is not None:
        return [(here, made)]
    found = []
    name = call.func.id if isinstance(call.func, ast.Name) else None
    for path, imported in imported_from_project(facts, name) or ():
        module = _read(path)
        defined = [n for n in module.body if isinstance(n, ast.ClassDef) and n.name == imported] if module else []
        if (
            module
            and len(defined) == 1
            and defined[0].bases
            and all(last_name(b) == "Callback" for b in defined[0].bases)
        ):
            found.append((module, defined[0]))
    return found


def _read(path: str | None) -> _Module | None:
    """The project module at *path*, None where there is none or it does not parse."""
    read = read_tree(path) if path else None
    return _Module(path, tuple(read[1].body)) if path and read is not None else None


def _argument(owner: ast.ClassDef, construction: ast.Call, attr: str) -> str:
    """What the construction passes for the `__init__` parameter the attribute *attr* is set
    from (`validation_generator` for `self.generator`), else `self.<attr>`."""
    param = _given(owner).get(attr)
    init = next((f for f in owner.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
    names = [a.arg for a in init.args.args[1:]] if init is not None else []
    given = {k.arg: k.value for k in construction.keywords if k.arg}
    if param in names and names.index(param) < len(construction.args):
        given[param] = construction.args[names.index(param)]
    value = given.get(param or "")
    return ast.unparse(value) if value is not None else f"self.{attr}"


def _hook(owner: ast.ClassDef) -> ast.FunctionDef | None:
    return next((f for f in owner.body if isinstance(f, ast.FunctionDef) and f.name == "on_epoch_end"), None)


def _pass(module: _Module, owner: ast.ClassDef) -> str | None:
    """The attribute holding the data (`generator` for `self.generator`) the class's `on_epoch_end` runs a model over on every epoch: a call
    not under an `if`, given an attribute `__init__` sets from one of its parameters, of a function
    (of the module, or imported from the project) that runs a model it is given over data: a
    `predict`/`evaluate` of a parameter, or its `predict_on_batch` in a loop; None otherwise."""
    hook, given = _hook(owner), _given(owner)
    if hook is None or not given:
        return None
    for call in unguarded_calls(hook):
        data = [a for a in (*call.args, *(k.value for k in call.keywords)) if _self_attribute(a) in given]
        if len(data) < 2 or isinstance(call.func, ast.Attribute):
            continue  # the data and the model, both given at construction; a function, not a method
        function = _function(module, last_name(call.func))
        if function is not None and _runs_over_data(*function, DEPTH) and _unread(hook, call):
            return _self_attribute(data[0])
    return None


def _given(owner: ast.ClassDef) -> dict[str, str]:
    """The attributes `__init__` sets from its parameters, each with its parameter
    (`self.generator = generator`)."""
    init = next((f for f in owner.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
    if init is None:
        return {}
    params = {a.arg for a in (*init.args.args, *init.args.kwonlyargs)} - {"self"}
    return {
        attr: node.value.id
        for node in ast.walk(init)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in params
        for t in node.targets
        if (attr := _self_attribute(t))
    }


def _self_attribute(node: ast.AST) -> str | None:
    """The name of the `self` attribute *node* reads, if it is one."""
    return node.attr if is_self_attribute(node) else None


def unguarded_calls(hook: ast.FunctionDef) -> Iterator[ast.Call]:
    """The calls `on_epoch_end` makes on every epoch: not under an `if`, nor in a nested function."""
    todo: list[ast.AST] = list(hook.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.If, ast.IfExp, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Call):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def _function(module: _Module, name: str) -> tuple[_Module, ast.FunctionDef] | None:
    """The top-level function *name* of the module, or of the project module it imports it from."""
    defined = [n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == name]
    if len(defined) == 1:
        return module, defined[0]
    statements = [n for n in module.body if isinstance(n, ast.ImportFrom)]
    bound = [(file, member) for file, member in project_bindings(module.path, statements).get(name, ()) if member]
    if not bound:
        return None
    file, member = bound[0]  # the first import of it
    imported = _read(file)
    defined = [n for n in imported.body if isinstance(n, ast.FunctionDef) and n.name == member] if imported else []
    return (imported, defined[0]) if imported is not None and len(defined) == 1 else None


def _runs_over_data(module: _Module, function: ast.FunctionDef, depth: int) -> bool:
    """The function runs a model it is given (a parameter) over data: `model.evaluate(data)` (or a
    `_generator` form), or `model.predict(x)` or `model.predict_on_batch(x)` in a loop (or a
    comprehension) over another parameter (`for i in range(generator.size())`); or calls a function
    of the module (or imported from the project) that does, passing it on (*depth* calls deep)."""
    params = {a.arg for a in (*function.args.args, *function.args.kwonlyargs)}
    looped = {
        id(n)
        for loop in ast.walk(function)
        if isinstance(loop, LOOPS) and flow.names(_iterables(loop)) & params
        for n in ast.walk(loop)
    }
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in RUNS_MODEL:
            if isinstance(func.value, ast.Name) and func.value.id in params:
                if func.attr in WHOLE or id(node) in looped:
                    return True
        elif isinstance(func, ast.Name) and depth > 1:
            passed = {a.id for a in (*node.args, *(k.value for k in node.keywords)) if isinstance(a, ast.Name)}
            callee = _function(module, func.id) if passed & params else None
            if callee is not None and callee[1] is not function and _runs_over_data(*callee, depth - 1):
                return True
    return False


def _iterables(loop: ast.AST) -> ast.Tuple:
    """What a `for` loop or a comprehension iterates over."""
    if isinstance(loop, ast.For):
        return ast.Tuple(elts=[loop.iter], ctx=ast.Load())
    return ast.Tuple(elts=[g.iter for g in getattr(loop, "generators", ())], ctx=ast.Load())


def _unread(hook: ast.FunctionDef, call: ast.Call) -> bool:
    """Nothing in the hook after *call* acts on its result: no `if`/`while` test reads it (a test
    that it `is None` aside) and no other method reads an attribute set from it. (Whether it is
    written into `logs` for another callback is `_acted_on`'s question.)"""
    bound = frozenset().union(
        *(
            flow.targets(t)
            for node in ast.walk(hook)
            if isinstance(node, ast.Assign) and any(n is call for n in ast.walk(node.value))
            for t in node.targets
        )
    )
    results = flow.derived(bound, hook.body) - {"self", "logs"}
    end = call.end_lineno or call.lineno
    for node in ast.walk(hook):
        if isinstance(node, (ast.If, ast.While, ast.IfExp)) and node.test.lineno > end:
            if _reads(node.test, results):
                return False
    return True


def _reads(test: ast.expr, results: frozenset) -> bool:
    """Whether a test reads a result other than to compare it with `None`."""
    if isinstance(test, ast.BoolOp):
        return any(_reads(v, results) for v in test.values)
    if isinstance(test, ast.UnaryOp):
        return _reads(test.operand, results)
    if (
        isinstance(test, ast.Compare)
        and all(isinstance(op, (ast.Is, ast.IsNot)) for op in test.ops)
        and any(isinstance(c, ast.Constant) and c.value is None for c in test.comparators)
    ):
        return False
    return bool(flow.names(test) & results)


def _acted_on(facts: FileFacts, owner: ast.ClassDef, made: list[ast.Call], construction: ast.Call) -> bool:
    """Whether something may act on what the callback computes: the class saves or sets weights,
    sets `stop_training` or a learning rate, keeps an attribute from its hook that another of its
    methods reads, or writes `logs` while another callback of the fit may read them (any but
    `RECORDERS`, and a `ModelCheckpoint` that keeps every epoch's weights)."""
    hook = _hook(owner)
    if hook is None:
        return True
    for node in ast.walk(owner):
        if isinstance(node, ast.Call) and last_name(node.func) in ACTS:
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and node.attr in STEERS:
            return True
    kept = {
        attr
        for node in ast.walk(hook)
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and (attr := _self_attribute(node))
    }
    for method in owner.body:
        if isinstance(method, ast.FunctionDef) and method is not hook:
            if any(_self_attribute(n) in kept for n in ast.walk(method) if isinstance(n, ast.Attribute)):
                return True
    writes_logs = any(
        isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == "logs"
        for node in ast.walk(hook)
        if isinstance(node, ast.Assign)
        for t in node.targets
    )
    name = last_name(construction.func)  # another of its kind (made in another branch) reads none of them
    return writes_logs and any(last_name(other.func) != name and not _records(other) for other in made)


def _records(call: ast.Call) -> bool:
    """A callback known to act on no `logs` value: one of `RECORDERS`, or a `ModelCheckpoint` that
    writes every epoch (`save_best_only` not set, or False)."""
    name = last_name(call.func)
    if name in RECORDERS:
        return True
    best = keyword(call, "save_best_only")
    return name == "ModelCheckpoint" and (
        best is None or (isinstance(best.value, ast.Constant) and best.value.value is False)
    )
