"""Loops a person paces through a function they call: a call on every pass to a function of the file,
or of the project module the file imports it from, whose body waits for the person (`blocks_on_user`:
`cv2.waitKey(0)`, `input()`, `plt.show()`), itself or under an `if` on a parameter the call makes
true (`detect(image, show=True)` of `def detect(image, show=False): ... if show: cv2.waitKey(0)`)."""

from __future__ import annotations

import ast

from greenlint.rules.base import FileFacts
from greenlint.rules.callbacks import imported_from_project, read_tree
from greenlint.rules.defaults import literal
from greenlint.rules.syntax import (
    LOOPS,
    SCOPES,
    blocks_on_user,
    definitions,
    parameters,
    statement_blocks,
    unguarded_body,
)

#: A function a call can run whose body is statements.
Named = ast.FunctionDef | ast.AsyncFunctionDef


def calls_waiting_for_user(facts: FileFacts, loop: ast.AST, cell: int | None) -> bool:
    """Whether a call on every pass of *loop* (not under an `if`) runs a function that waits for a person."""
    return any(
        isinstance(call, ast.Call) and any(_waits(function.body, function, call) for function in _called(facts, call, cell))
        for call in unguarded_body(loop)
    )


def _called(facts: FileFacts, call: ast.Call, cell: int | None) -> list[Named]:
    """The functions of the file named like the call (`definitions`), else the module-level function
    of that name in the project module the file imports it from."""
    found = [f for f in definitions(facts, call.func, cell) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if found or not isinstance(call.func, ast.Name):
        return found
    return [
        statement
        for path, member in imported_from_project(facts, call.func.id) or ()
        if path is not None and (read := read_tree(path)) is not None
        for statement in read[1].body
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.name == member
    ]


def _waits(block: list[ast.stmt], function: Named, call: ast.Call) -> bool:
    """A statement of *block* (entering `if`s whose test *call* makes true, `with` and `try`, not
    loops or nested definitions) waits for a person."""
    for statement in block:
        if isinstance(statement, (*LOOPS, *SCOPES)):
            continue
        inner = list(statement_blocks(statement))
        head = statement.test if isinstance(statement, ast.If) else None if inner else statement
        if head is not None and any(isinstance(n, ast.Call) and blocks_on_user(n) for n in ast.walk(head)):
            return True
        if isinstance(statement, ast.If):
            inner = [statement.body] if _true_at(statement.test, function, call) else []
        if any(_waits(b, function, call) for b in inner):
            return True
    return False


def _true_at(test: ast.expr, function: Named, call: ast.Call) -> bool:
    """*test* is a parameter of *function* that *call* passes a true literal (by keyword, or by
    position to a function called by its name), or leaves at a true literal default."""
    if not isinstance(test, ast.Name) or test.id not in parameters(function):
        return False
    given = next((k.value for k in call.keywords if k.arg == test.id), None)
    positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    if given is None and isinstance(call.func, ast.Name) and test.id in positional:
        index = positional.index(test.id)
        given = call.args[index] if index < len(call.args) else None
    if given is None:
        defaults = dict(zip(reversed(positional), reversed(function.args.defaults)))
        defaults |= {a.arg: d for a, d in zip(function.args.kwonlyargs, function.args.kw_defaults) if d is not None}
        given = defaults.get(test.id)
    return bool(literal(given))
