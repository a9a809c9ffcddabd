"""Code a project constant keeps from running: the branch of an `if` whose test is a module-level
constant (`if LOAD_TO_RAM:` with `LOAD_TO_RAM = True` at the top of this module, or of the project
module it imports the name from, by name or with `*`) does not take, as the analysis' `s_if` reads
such a test. A constant, unlike an option's default (`defaults.off_by_default`), is the code's own: no
command line turns the other branch on."""

from __future__ import annotations

import ast

from greenlint.rules.base import FileFacts
from greenlint.rules.callbacks import imported_from_project, read_tree, star_imported_from_project
from greenlint.rules.defaults import bound_literal, literal, module_constant, module_value
from greenlint.rules.syntax import SCOPES, parameters, scope_body


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
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = constant_truth(facts, test.operand, cell)
        return None if inner is None else not inner
    if isinstance(test, ast.Name):
        value = project_constant(facts, test, cell)
        return None if value is None else bool(value)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))):
        return None
    name, compared = test.left, test.comparators[0]
    if literal(name) is not None:
        name, compared = compared, name
    value = project_constant(facts, name, cell) if isinstance(name, ast.Name) else None
    if value is None or literal(compared) is None:
        return None
    return (value == literal(compared)) is isinstance(test.ops[0], ast.Eq)


def project_constant(facts: FileFacts, name: ast.Name, cell: int | None) -> object | None:
    """The literal *name* holds where it is read: a constant of this module (`module_constant`), else,
    where the file never binds the name, the one its project module gives it (`_imported`); None where
    a function around the read binds the name, or its value is anything else."""
    for scope in facts.ancestors(name, cell):
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
