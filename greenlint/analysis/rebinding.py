"""Which module globals a function reads that the module binds more than once.

A function reads a global when it runs, not when it is defined: a notebook that rebinds `model` in
cell 40 and calls `decode(x)`, whose body reads `model`, in cells 30 and 50 runs it with two models.
The resolver walks a function's body once for all its calls, so each call records the value of these
globals where it is made (`Resolver.bind_call`) as it records its arguments, and the body sees
what its calls agree on, as a parameter does. Read from the syntax alone: a name bound by two
statements of the module's own code (outside functions and classes), or by a loop's target, is
rebound; a function's free names are those its body (nested functions included) reads and never
binds, and a call of it reads those of the module's functions they name too (`reads`).
"""

from __future__ import annotations

import ast
from collections import Counter

from greenlint.analysis import trees

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_LOOPS = (ast.For, ast.AsyncFor)


def rebound(body: list[ast.stmt]) -> frozenset[str]:
    """The names a module's code (its functions' and classes' bodies aside) binds in more than one
    statement, or in a loop's target (bound afresh each trip)."""
    count: Counter[str] = Counter()
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, _DEFINITIONS):
            count[node.name] += 1
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            count.update((alias.asname or alias.name).partition(".")[0] for alias in node.names if alias.name != "*")
            continue
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and (type(node) is ast.AugAssign or node.value is not None):
            targets = [node.target]
        elif isinstance(node, _LOOPS):
            targets = [node.target, node.target]
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
        for target in targets:
            count.update(n.id for n in ast.walk(target) if type(n) is ast.Name)
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack.extend(getattr(node, field, ()))
        if isinstance(node, ast.ExceptHandler) and node.name:
            count[node.name] += 1
    return frozenset(name for name, times in count.items() if times > 1)


def functions(body: list[ast.stmt]) -> dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]]:
    """The functions a module's code defines (its functions' and classes' bodies aside), by name: every
    definition of each, a name defined twice (a notebook's cells) giving both."""
    found: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.setdefault(node.name, []).append(node)
        elif not isinstance(node, ast.ClassDef):
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                stack.extend(getattr(node, field, ()))
    return found


_Function = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


def reads(node: _Function, names: frozenset[str], defined: dict[str, list], free: dict[ast.AST, frozenset[str]],
          memo: dict[ast.AST, frozenset[str]]) -> frozenset[str]:
    """Which of *names* a call of the function *node* reads: its free names, and those of every function
    of the module (*defined*, `functions`) named among them, followed through their calls (each once;
    every definition of a name, whichever a call runs); *free* keeps each function's `free_names`, *memo*
    each answer."""
    found = memo.get(node)
    if found is not None:
        return found
    read: set[str] = set()
    seen: set[ast.AST] = {node}
    stack: list[_Function] = [node]
    while stack:
        func = stack.pop()
        names_read = free.get(func)
        if names_read is None:
            names_read = free[func] = free_names(func)
        read |= names_read & names
        for name in names_read:
            for other in defined.get(name, ()):
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
    found = memo[node] = frozenset(read)
    return found


def free_names(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> frozenset[str]:
    """The names a function's body reads and nothing in it binds (its parameters, assignments,
    imports, nested definitions and their parameters are bindings): the globals and builtins it
    reads when it runs. A name bound in a nested scope only is taken as bound: fewer names, never
    a wrong one."""
    read: set[str] = set()
    bound: set[str] = {arg.arg for arg in _parameters(node.args)}
    body = node.body if isinstance(node.body, list) else [node.body]
    for statement in body:
        for item in trees.walk(statement):
            if isinstance(item, ast.Name):
                (read if type(item.ctx) is ast.Load else bound).add(item.id)
            elif isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                bound.update(arg.arg for arg in _parameters(item.args))
                if not isinstance(item, ast.Lambda):
                    bound.add(item.name)
            elif isinstance(item, ast.ClassDef):
                bound.add(item.name)
            elif isinstance(item, (ast.Import, ast.ImportFrom)):
                bound.update((alias.asname or alias.name).partition(".")[0] for alias in item.names)
            elif isinstance(item, ast.ExceptHandler) and item.name:
                bound.add(item.name)
            elif isinstance(item, (ast.Global, ast.Nonlocal)):
                bound.update(item.names)
    return frozenset(read - bound)


def _parameters(args: ast.arguments) -> list[ast.arg]:
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *(a for a in (args.vararg, args.kwarg) if a is not None)]
