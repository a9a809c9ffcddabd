"""How many epochs a loop over a batch generator makes: `for batch in batches`, where `batches =
batch_iter(data, 64, FLAGS.num_epochs)` and the generator (of the file, or of a project module the
file imports) yields all its batches inside one `for epoch in range(num_epochs):` of its body. The
count is the argument the call gives that parameter (else its default), with the program's defaults
(`rules/defaults.py`)."""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass

from greenlint.analysis.project import project_bindings
from greenlint.rules.base import FileFacts, argument
from greenlint.rules.callbacks import imported_from_project, read_tree
from greenlint.rules.defaults import known_value
from greenlint.rules.syntax import own_yields, scope_body, scope_of

Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class GeneratorEpochs:
    epochs: int
    basis: str  # where the count comes from (" (`FLAGS.num_epochs`: the default of `--num_epochs`)")
    generator: str  # the generator's name, for the message


def generator_epochs(facts: FileFacts, loop: ast.For, cell: int | None) -> GeneratorEpochs | None:
    """The epochs of the batch generator *loop* runs over (module docstring); None where the loop
    is over anything else or the count is not known."""
    call = _generator_call(facts, loop, cell)
    if call is None:
        return None
    function = _definition(facts, call, cell)
    parameter = _epoch_parameter(function) if function is not None else None
    if function is None or parameter is None:
        return None
    names = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    given = argument(call, parameter, names.index(parameter) if parameter in names else None)
    if given is None:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None  # `*args` or `**kwargs` may give it
        return _default(function, parameter)
    value, basis = known_value(facts, given, cell)
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return GeneratorEpochs(value, basis, function.name)


def _generator_call(facts: FileFacts, loop: ast.For, cell: int | None) -> ast.Call | None:
    """The call the loop iterates over: `for b in batch_iter(...)`, or a name its scope binds once,
    outside the loop, to such a call (`batches = data_helpers.batch_iter(...)`); either numbered by
    `enumerate()`."""
    over = loop.iter
    if isinstance(over, ast.Call) and isinstance(over.func, ast.Name) and over.func.id == "enumerate" and over.args:
        over = over.args[0]
    if isinstance(over, ast.Call):
        return over
    if not isinstance(over, ast.Name):
        return None
    scope = scope_of(facts, loop, cell)
    assigned = [  # from the unit's one walk, shared: no walk of the scope per loop
        a for a in facts.nodes(cell, ast.Assign)
        if isinstance(a, ast.Assign) and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)
        and a.targets[0].id == over.id and isinstance(a.value, ast.Call) and scope_of(facts, a, cell) is scope
    ]
    if len(assigned) != 1:
        return None
    stores = [
        n for n in facts.nodes(cell, ast.Name)
        if isinstance(n, ast.Name) and n.id == over.id and not isinstance(n.ctx, ast.Load)
        and scope_of(facts, n, cell) is scope
    ]
    value = assigned[0].value
    return value if len(stores) == 1 and isinstance(value, ast.Call) else None


def _definition(facts: FileFacts, call: ast.Call, cell: int | None) -> Function | None:
    """The one function *call* calls: the file's (`batch_iter(...)`), else a project module's
    top-level one, imported by name (`from data_helpers import batch_iter`) or called through
    its module (`data_helpers.batch_iter(...)` after `import data_helpers`)."""
    func = call.func
    if isinstance(func, ast.Name):
        own = facts.functions_named(func.id)
        if own:
            return own[0][1] if len(own) == 1 else None
        imported = imported_from_project(facts, func.id) or []
        files = [path for path, _ in imported if path is not None]
        name = imported[0][1] if len(imported) == 1 else ""
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        files, name = _module_files(facts, func.value.id, cell), func.attr
    else:
        return None
    if len(files) != 1 or not name:
        return None
    read = read_tree(files[0])
    defined = [
        n for n in (read[1].body if read is not None else ())
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name
    ]
    return defined[0] if len(defined) == 1 else None


def _module_files(facts: FileFacts, alias: str, cell: int | None) -> list[str]:
    """The project files of the module the file binds *alias* to (`import data_helpers`, `from
    utils import data_helpers`: `project_bindings`' modules)."""
    bound = project_bindings(os.path.abspath(facts.path), facts.nodes(cell, ast.Import, ast.ImportFrom))
    return [file for file, member in bound.get(alias, ()) if file is not None and not member]


def _epoch_parameter(function: Function) -> str | None:
    """The parameter of a generator that counts its epochs: every `yield` of its body sits in one
    statement of its top level, `for ... in range(parameter):`, which has no way out (a `break`,
    `return` or `raise` would end the epochs early)."""
    yields = {id(n) for n in own_yields(function)}
    if not yields:
        return None
    outer = [s for s in function.body if any(id(n) in yields for n in ast.walk(s))]
    if len(outer) != 1 or not isinstance(outer[0], ast.For):
        return None
    loop = outer[0]
    counted = loop.iter
    if not (
        isinstance(counted, ast.Call)
        and isinstance(counted.func, ast.Name)
        and counted.func.id in ("range", "xrange")
        and len(counted.args) == 1
        and isinstance(counted.args[0], ast.Name)
    ):
        return None
    if any(isinstance(n, (ast.Break, ast.Return, ast.Raise)) for n in scope_body(loop)):
        return None
    parameters = {a.arg for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)}
    return counted.args[0].id if counted.args[0].id in parameters else None


def _default(function: Function, parameter: str) -> GeneratorEpochs | None:
    """The generator's own default for *parameter* where the call leaves it out: a literal int."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    pairs = list(zip(positional[len(positional) - len(arguments.defaults):], arguments.defaults, strict=True))
    pairs += [(a, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d is not None]
    value = next((d.value for a, d in pairs if a.arg == parameter and isinstance(d, ast.Constant)), None)
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return GeneratorEpochs(value, f" (the default of `{function.name}`'s `{parameter}`)", function.name)
