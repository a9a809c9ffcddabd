"""Code a project constant keeps from running: the branch of an `if` whose test is a module-level
constant (`if LOAD_TO_RAM:` with `LOAD_TO_RAM = True` at the top of this module, or of the project
module it imports the name from, by name or with `*`) does not take, as the analysis' `s_if` reads
such a test. A constant, unlike an option's default (`defaults.off_by_default`), is the code's own: no
command line turns the other branch on. So is a parameter's literal default that every call of its
function in the project leaves it at (`def gaussian(n, use_label_info=False)`, only ever called
`prior.gaussian(64, 62)`, in its module or the modules that may call it: `ProjectIndex.callers`): the
branch `if use_label_info:` never runs, whatever a caller elsewhere might pass."""

from __future__ import annotations

import ast
import os
from collections.abc import Callable

from greenlint.analysis.project import project_index
from greenlint.analysis.trees import dotted
from greenlint.rules.base import FileFacts
from greenlint.rules.callbacks import imported_from_project, read_tree, star_imported_from_project
from greenlint.rules.defaults import bound_literal, default_expression, literal, module_constant, module_value
from greenlint.rules.syntax import SCOPES, last_name, parameters, scope_body, units

Function = ast.FunctionDef | ast.AsyncFunctionDef


def never_runs(facts: FileFacts, node: ast.AST, cell: int | None) -> bool:
    """Whether an `if` of the node's scope holds it in the branch its constant test does not take
    (`constant_truth`): the body of `if X:` with X false, the `else` with X true."""
    child = node
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, SCOPES):
            return False
        if isinstance(parent, ast.If) and child is not parent.test:
            holds = constant_truth(facts, parent.test, cell)
            if holds is not None and holds is not any(child is s for s in parent.body):
                return True
        child = parent
    return False


def constant_truth(facts: FileFacts, test: ast.expr, cell: int | None) -> bool | None:
    """Whether *test* holds: a project constant (`project_constant`), its negation, or its comparison
    with a literal (`==`, `!=`); None for any other test."""
    return _truth(test, lambda name: project_constant(facts, name, cell))


def _truth(test: ast.expr, value_of: Callable[[ast.Name], object | None]) -> bool | None:
    """Whether *test* holds, a name's value read by *value_of* (None: not known): the name, its
    negation, or its comparison with a literal (`==`, `!=`); None for any other test."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _truth(test.operand, value_of)
        return None if inner is None else not inner
    if isinstance(test, ast.Name):
        value = value_of(test)
        return None if value is None else bool(value)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))):
        return None
    name, compared = test.left, test.comparators[0]
    if literal(name) is not None:
        name, compared = compared, name
    value = value_of(name) if isinstance(name, ast.Name) else None
    if value is None or literal(compared) is None:
        return None
    return (value == literal(compared)) is isinstance(test.ops[0], ast.Eq)


def untaken(facts: FileFacts, function: Function, path: str | None) -> frozenset[int]:
    """The nodes (by identity) of *function*, of the project module at *path* (None: the file checked),
    in the branches that its `if`s on its own parameters never take, each parameter at the default
    every call of the function in the project leaves it (`left_at_default`)."""
    found: set[int] = set()
    for node in scope_body(function):
        if isinstance(node, ast.If) and id(node) not in found:
            holds = _truth(node.test, lambda name: left_at_default(facts, function, name.id, path))
            if holds is not None:
                found.update(id(n) for branch in (node.orelse if holds else node.body) for n in ast.walk(branch))
    return frozenset(found)


def left_at_default(facts: FileFacts, function: Function, name: str, path: str | None) -> object | None:
    """The literal default of *function*'s parameter *name* (which its body never binds again) where
    every call of the function in the project (its module, *path* or the file checked, and the modules
    that may call it) leaves it at that default, there being at least one; None otherwise, and where the
    function is named other than in a call (handed on, its calls not seen), a call spreads `*args`/`**kwargs`,
    or something other than the project's code may call it: a decorated function, a method of a class
    with a base (a framework's `call(inputs, training=...)`, a subclass's override)."""
    default = literal(default_expression(function, name))
    if default is None or function.decorator_list or any(_stores(n, name) for n in scope_body(function)):
        return None
    key = f"constant_branches.default.{path}.{function.name}.{function.lineno}.{name}"
    return facts.once(key, lambda: default if _left_unset(facts, function, name, path) else None)


def _left_unset(facts: FileFacts, function: Function, name: str, path: str | None) -> bool:
    """Whether the calls of *function* that the project makes (`left_at_default`) all leave *name* unset."""
    own = os.path.abspath(facts.path)
    where = os.path.abspath(path) if path is not None else own
    trees = units(facts) + [
        read[1]
        for module in sorted({where, *project_index().callers(where)} - {own})
        if (read := read_tree(module)) is not None
    ]
    owners = [n for tree in trees for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and function in n.body]
    if any(dotted(base) != ["object"] for owner in owners for base in owner.bases) or any(o.keywords for o in owners):
        return False  # a base class or a framework may call the method with the parameter set
    args = [*function.args.posonlyargs, *function.args.args]
    position = next((i for i, a in enumerate(args) if a.arg == name), None)
    if position is not None and args and args[0].arg in ("self", "cls"):
        position -= 1  # a method's receiver is not among its call's arguments
    calls = [n for tree in trees for n in ast.walk(tree) if isinstance(n, ast.Call)]
    called = {id(call.func) for call in calls}
    named = (
        n
        for tree in trees
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute) and n.attr == function.name or isinstance(n, ast.Name) and n.id == function.name
    )
    if any(id(n) not in called for n in named):
        return False
    mine = [call for call in calls if last_name(call.func) == function.name]
    return bool(mine) and not any(
        any(isinstance(a, ast.Starred) for a in call.args)
        or any(k.arg in (None, name) for k in call.keywords)
        or position is not None and len(call.args) > position
        for call in mine
    )


def project_constant(facts: FileFacts, name: ast.Name, cell: int | None) -> object | None:
    """The literal *name* holds where it is read: a constant of this module (`module_constant`), else,
    where the file never binds the name, the one its project module gives it (`_imported`); a parameter
    of the function around the read, its default where every call leaves it there (`left_at_default`);
    None where a function around the read binds the name otherwise, or its value is anything else."""
    for scope in facts.ancestors(name, cell):
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and name.id in parameters(scope):
            return left_at_default(facts, scope, name.id, None)
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and (
            name.id in parameters(scope) or any(_stores(n, name.id) for n in scope_body(scope))
        ):
            return None
    if module_value(facts, name.id) is not None:
        return module_constant(facts, name.id)
    if name.id in facts.once("constant_branches.stored", lambda: _stored(facts)):
        return None
    return facts.once(f"constant_branches.imported.{name.id}", lambda: _imported(facts, name.id))


def _stored(facts: FileFacts) -> frozenset[str]:
    """The names the file binds anywhere."""
    return frozenset(n.id for unit in facts.cells for n in facts.nodes(unit, ast.Name) if isinstance(n.ctx, ast.Store))


def _imported(facts: FileFacts, name: str) -> object | None:
    """The literal the project module the file imports *name* from binds it to once (`bound_literal`;
    imported by name, or the one `*` import whose module binds it); None otherwise."""
    sources = imported_from_project(facts, name) or [(path, name) for path in star_imported_from_project(facts)]
    values = [
        value
        for path, member in sources
        if path is not None and (read := read_tree(path)) is not None and (value := bound_literal(read[1], member)) is not None
    ]
    return values[0] if len(values) == 1 else None


def _stores(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)
