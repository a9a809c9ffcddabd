"""The Keras callbacks a `fit(callbacks=...)` is given, read from the file: the list (or the
name of the list the file builds, or its helper returns) and the call that made each element,
with the class it makes where the file or a project module it imports defines it."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterable
from typing import TypeGuard

from greenlint.analysis import trees
from greenlint.analysis.project import project_bindings
from greenlint.rules.base import FileFacts
from greenlint.rules.defaults import other_mode
from greenlint.rules.syntax import cell_units, enclosing_anywhere, last_name, scope_body


def constructors(facts: FileFacts, node: ast.expr) -> list[ast.Call] | None:
    """The calls that may have made a callback: the element itself, or each call a name in it is
    assigned from in the file (or notebook; a `None` placeholder assigned first makes no
    callback); None where a binding of the name is anything else."""
    if isinstance(node, ast.Call):
        return [node]
    if not isinstance(node, ast.Name):
        return None
    made = [
        a.value
        for cell, _ in cell_units(facts)
        for a in facts.nodes(cell, ast.Assign)  # the file's one walk, shared
        if any(isinstance(t, ast.Name) and t.id == node.id for t in a.targets)
        and not (isinstance(a.value, ast.Constant) and a.value.value is None)
    ]
    calls = [m for m in made if isinstance(m, ast.Call)]
    return calls if calls and len(calls) == len(made) else None


def constructor(facts: FileFacts, node: ast.expr) -> ast.Call | None:
    """The one call that made a callback (see `constructors`), None unless there is exactly one."""
    made = constructors(facts, node)
    return made[0] if made is not None and len(made) == 1 else None


def listed(facts: FileFacts, node: ast.expr, scope: ast.AST | None = None) -> list[ast.expr] | None:
    """The callbacks a `callbacks=` argument holds: a literal list or tuple (or a sum of them),
    or the name of one the file binds once (in the whole file, else in the function the name is
    read in, *scope*; a binding in a branch the program's defaults do not take left out), with
    what it `append`s, `extend`s or `+=`s to it, where the list may be the result of a helper
    function of the file that builds and returns it
    (`callbacks = create_callbacks(args)`, or that call itself), or a `self.` attribute its class
    assigns once, with what it adds to it; None where greenlint cannot tell (another call's
    result, a name bound twice in its function)."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return list(node.elts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = listed(facts, node.left, scope), listed(facts, node.right, scope)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.Call):
        return _returned(facts, node)
    if is_self_attribute(node):
        owner = _class_of(facts, node)
        return _grown(facts, *_built(ast.walk(owner), node), owner) if owner is not None else None
    if not isinstance(node, ast.Name):
        return None
    written = (
        (n for cell, _ in cell_units(facts) for n in facts.nodes(cell, ast.Assign, ast.AugAssign, ast.Call))
        if scope is None
        else ast.walk(scope)
    )
    bound, added = _built(written, node)
    if len(bound) > 1:  # bound in the branches of a choice on an option: the one its default takes
        bound = [value for value in bound if not _other_mode(facts, value)]
    if len(bound) != 1 and scope is None:
        function = function_of(facts, node)
        return listed(facts, node, function) if function is not None else None
    return _grown(facts, bound, added, scope)


def _grown(
    facts: FileFacts, bound: list[ast.expr], added: list[ast.expr], scope: ast.AST | None
) -> list[ast.expr] | None:
    """The callbacks of a list bound once (*bound*: its one value, a literal or a helper's result)
    with what is *added* to it; None where any of them is not known."""
    if len(bound) == 1 and isinstance(bound[0], ast.Call):
        found = _returned(facts, bound[0])
    elif len(bound) == 1 and isinstance(bound[0], (ast.List, ast.Tuple, ast.BinOp)):
        found = listed(facts, bound[0], scope)
    else:
        return None
    for value in added:
        more = listed(facts, value, scope) if not isinstance(value, ast.Name) else None
        if found is None or more is None:
            return None
        found += more
    return found


def _other_mode(facts: FileFacts, value: ast.expr) -> bool:
    """Whether *value* is written in the branch of an `if`/`else` on an option that the program's
    defaults leave for the other (`if args.wandb: callbacks = [WandbCallback()] else: callbacks = []`
    with `--wandb` off by default: defaults.other_mode), in the file's cell that holds it."""
    cell = next((c for c in facts.cells if facts.parent(value, c) is not None), None)
    return other_mode(facts, value, cell)


def is_self_attribute(node: ast.AST) -> TypeGuard[ast.Attribute]:
    """Whether *node* is an attribute of `self` (`self.model`)."""
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


def _same(target: ast.AST, ref: ast.Name | ast.Attribute) -> bool:
    """Whether *target* is the name, or the `self.` attribute, that *ref* reads."""
    if isinstance(ref, ast.Name):
        return isinstance(target, ast.Name) and target.id == ref.id
    return isinstance(target, ast.Attribute) and is_self_attribute(target) and target.attr == ref.attr


def _built(nodes: Iterable[ast.AST], ref: ast.Name | ast.Attribute) -> tuple[list[ast.expr], list[ast.expr]]:
    """What *ref* (a name, or a `self.` attribute) is assigned among *nodes* (a tree's, in
    `ast.walk`'s order), and what is added to it (`+=`, `append`, `extend`, `insert`)."""
    bound: list[ast.expr] = []
    added: list[ast.expr] = []
    for n in nodes:
        if isinstance(n, ast.Assign) and any(_same(t, ref) for t in n.targets):
            bound.append(n.value)
        elif isinstance(n, ast.AugAssign) and _same(n.target, ref):
            added.append(n.value)
        elif (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and _same(n.func.value, ref)
            and n.func.attr in ("append", "extend", "insert")
        ):
            if n.func.attr == "extend" and n.args:
                added.append(n.args[0])
            elif n.args:
                added.append(ast.List(elts=[n.args[-1]], ctx=ast.Load()))
    return bound, added


def _class_of(facts: FileFacts, node: ast.AST) -> ast.ClassDef | None:
    """The innermost class of the file holding *node*."""
    found = enclosing_anywhere(facts, node, (ast.ClassDef,))
    return found if isinstance(found, ast.ClassDef) else None


def function_of(facts: FileFacts, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The innermost function of the file holding *node*."""
    found = enclosing_anywhere(facts, node, (ast.FunctionDef, ast.AsyncFunctionDef))
    return found if isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def _returned(facts: FileFacts, call: ast.Call) -> list[ast.expr] | None:
    """The callbacks a helper function of the file returns, where *call* calls one the file defines
    once and each of its `return`s gives a list it builds (a literal, or a name: `listed`); the
    callbacks of every return, since any may be the one taken. None otherwise (another call's
    result returned, a function defined elsewhere)."""
    if not isinstance(call.func, ast.Name):
        return None
    name = call.func.id
    defined = [f for _, f in facts.functions_named(name)]
    if len(defined) != 1:
        return None
    returns = [r.value for r in scope_body(defined[0]) if isinstance(r, ast.Return)]
    found: list[ast.expr] = []
    for value in returns:
        more = (
            listed(facts, value, defined[0]) if isinstance(value, (ast.Name, ast.List, ast.Tuple, ast.BinOp)) else None
        )
        if more is None:
            return None
        found += more
    return found if returns else None


#: The base of a callback class whose whole behaviour is its own: Keras' `Callback`.
CALLBACK = frozenset({"Callback"})


def file_class(facts: FileFacts, call: ast.Call, bases: frozenset[str] = CALLBACK) -> ast.ClassDef | None:
    """The class a callback's constructor call names, where the file (or notebook) defines it
    once, subclassing Keras' `Callback` directly (`class Evaluator(keras.callbacks.Callback)`):
    its whole behaviour is in the file. None for any other class (a library's, one defined twice,
    a subclass of another callback such as `EarlyStopping`), but one on the other *bases* named."""
    name = call.func.id if isinstance(call.func, ast.Name) else None
    if name is None:
        return None
    defined = [n for cell, _ in cell_units(facts) for n in facts.nodes(cell, ast.ClassDef) if n.name == name]
    if len(defined) != 1 or not defined[0].bases:
        return None
    return defined[0] if all(last_name(base) in bases for base in defined[0].bases) else None


def project_classes(facts: FileFacts, call: ast.Call) -> list[ast.ClassDef] | None:
    """The classes a callback's constructor call names where the file imports that name from
    modules of the project (`from eval.coco import Evaluate`, at top level or in a function; each
    of several imports of the name, as in `if coco: from eval.coco import Evaluate else: from
    eval.pascal import Evaluate`), each defining it once, directly on Keras' `Callback`, in a
    module that never sets `stop_training`: the callback's whole behaviour is there. None where
    an import of the name is not such a class (a library's, a subclass of another callback)."""
    name = call.func.id if isinstance(call.func, ast.Name) else None
    found = []
    for path, imported in imported_from_project(facts, name) or [(None, "")]:
        made = _callback_class(path, imported) if path is not None else None
        if made is None:
            return None
        found.append(made)
    return found


def imported_from_project(facts: FileFacts, name: str | None) -> list[tuple[str | None, str]] | None:
    """Each import of *name* from a module in the file (`from eval.coco import Evaluate [as E]`,
    anywhere in it): the file of the project module it comes from (None where that is not a module
    of the project) and the name it has there (`project_bindings`' members); None where the file
    imports no such name."""
    if name is None:
        return None
    found = [(file, member) for file, member in _bindings(facts, name) if member]
    return found or None


def star_imported_from_project(facts: FileFacts) -> list[str]:
    """The files of the project modules the file imports everything from (`from utils import *`)."""
    return [file for file, _ in _bindings(facts, "*") if file is not None]


def _bindings(facts: FileFacts, name: str) -> list[tuple[str | None, str]]:
    """What the file's `from` imports binding *name* bind it to (`project_bindings`), every cell."""
    path = os.path.abspath(facts.path)
    return [
        bound
        for cell in facts.cells
        for bound in project_bindings(
            path, [n for n in facts.nodes(cell, ast.ImportFrom)
                   if isinstance(n, ast.ImportFrom) and any(name in (a.asname or a.name, a.name) for a in n.names)]
        ).get(name, ())
    ]


def read_tree(path: str) -> tuple[str, ast.Module] | None:
    """The text and tree of a project module (`read_text`, `parsed`); None if unreadable."""
    text = read_text(path)
    if text is None:
        return None
    tree = parsed(path, text)
    return None if tree is None else (text, tree)


def read_text(path: str) -> str | None:
    """The text of a project module (its first million characters); None if unreadable."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(1_000_000)
    except (OSError, ValueError):
        return None


def parsed(path: str, text: str) -> ast.Module | None:
    """The tree of *text*, the module at *path*'s, shared with the run's (`trees.parse_module`:
    never to be changed); None where it does not parse."""
    try:
        return trees.parse_module(text, path, edited=False)
    except (SyntaxError, ValueError):
        return None


def project_class(
    facts: FileFacts, call: ast.Call, bases: frozenset[str] = CALLBACK
) -> tuple[str, ast.ClassDef] | None:
    """The project module, and the class there, that a callback's constructor call names where the
    file imports that name from one module of the project (`from utils.callbacks import Saver`),
    which defines it once at top level directly on Keras' `Callback` (or the other *bases* named):
    its hooks' whole behaviour is there, as `file_class`'s is in the file. None for any other (a
    library's class, a name imported from several modules, a subclass of another callback)."""
    name = call.func.id if isinstance(call.func, ast.Name) else None
    imported = imported_from_project(facts, name) or []
    path, member = imported[0] if len(imported) == 1 else (None, "")
    read = read_tree(path) if path is not None else None
    made = _direct_callback(read[1], member, bases) if read is not None else None
    return (path, made) if path is not None and made is not None else None


def _callback_class(path: str, name: str) -> ast.ClassDef | None:
    """The class *name* the module at *path* defines once at top level directly on `Callback`,
    where the module never mentions `stop_training`."""
    read = read_tree(path)
    return _direct_callback(read[1], name) if read is not None and "stop_training" not in read[0] else None


def _direct_callback(tree: ast.Module, name: str, bases: frozenset[str] = CALLBACK) -> ast.ClassDef | None:
    """The class *name* the module defines once at top level directly on `Callback` (or *bases*)."""
    defined = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    if len(defined) != 1 or not defined[0].bases or not all(last_name(b) in bases for b in defined[0].bases):
        return None
    return defined[0]
