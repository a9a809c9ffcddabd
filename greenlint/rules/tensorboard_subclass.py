"""How often a `TensorBoard` subclass of a project module writes from its per-batch hook: the
module's own `on_batch_end` writing (`writer.add_summary`, `flush`) on every call, or every
`self.every` calls (`if self.counter % self.every == 0:`) where `__init__` sets `self.every` from
its parameter, the constructor call's argument (or that parameter's default) giving the figure."""

from __future__ import annotations

import ast

from greenlint.rules.base import FileFacts, argument
from greenlint.rules.callbacks import imported_from_project, read_tree
from greenlint.rules.defaults import default_expression, known_value
from greenlint.rules.syntax import last_name, period_divisor

#: The per-batch hooks of a Keras callback.
HOOKS = frozenset({"on_batch_end", "on_train_batch_end"})
#: Calls that write or flush a summary to the event file.
WRITES = frozenset({"add_summary", "flush"})


def batches_between_writes(facts: FileFacts, call: ast.Call, cell: int | None) -> tuple[object, str] | None:
    """The batches between the per-batch writes of the project's `TensorBoard` subclass *call* makes
    (1 where ungated), and where the figure comes from; None where *call* makes no such class or the
    figure is not known."""
    name = call.func.id if isinstance(call.func, ast.Name) else None
    imported = imported_from_project(facts, name) or []
    if len(imported) != 1 or imported[0][0] is None:
        return None
    path, member = imported[0]
    read = read_tree(path) if path is not None else None
    defined = [n for n in read[1].body if isinstance(n, ast.ClassDef) and n.name == member] if read else []
    if len(defined) != 1 or not any(last_name(b) == "TensorBoard" for b in defined[0].bases):
        return None
    methods = {f.name: f for f in defined[0].body if isinstance(f, ast.FunctionDef)}
    gates = {_gate(hook) for name, hook in methods.items() if name in HOOKS}
    attribute = gates.pop() if len(gates) == 1 else None
    if attribute is None:
        return None
    if attribute == "":
        return 1, ""
    init = methods.get("__init__")
    parameter = _set_from(init, attribute) if init is not None else None
    if init is None or parameter is None:
        return None
    if any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args):
        return None  # `**options` may carry it
    position = init.args.args.index(parameter) - 1 if parameter in init.args.args else None
    given = argument(call, parameter.arg, position)
    if given is not None:
        value, source = known_value(facts, given, cell)
        return (value, source) if value is not None else None
    default = default_expression(init, parameter.arg)
    if not isinstance(default, ast.Constant):
        return None
    return default.value, f" (`{parameter.arg}` = {default.value!r} by default)"


def _gate(hook: ast.FunctionDef) -> str | None:
    """The attribute a hook's writes are gated on (`if self.n % self.every == 0:` gives "every"),
    "" where it writes on every call, None where it writes nothing or under another condition."""
    parents = {id(child): node for node in ast.walk(hook) for child in ast.iter_child_nodes(node)}
    writes = [n for n in ast.walk(hook) if isinstance(n, ast.Call) and last_name(n.func) in WRITES]
    found: set[str] = set()
    for write in writes:
        gate = ""
        node: ast.AST = write
        while (parent := parents.get(id(node))) is not None and parent is not hook:
            if isinstance(parent, ast.If) and node in parent.body:
                divisor = _self_attribute(period_divisor(parent.test))
                if divisor is None or gate:
                    return None
                gate = divisor
            elif isinstance(parent, (ast.If, ast.IfExp, ast.Try, ast.FunctionDef, ast.Lambda, ast.ClassDef)):
                return None
            node = parent
        found.add(gate)
    return found.pop() if len(found) == 1 else None


def _self_attribute(divisor: int | ast.expr | None) -> str | None:
    """The attribute a gate's divisor is read from (`x % self.every == 0` gives "every"), None for
    any other divisor."""
    if isinstance(divisor, ast.Attribute) and isinstance(divisor.value, ast.Name) and divisor.value.id == "self":
        return divisor.attr
    return None


def _set_from(init: ast.FunctionDef, attribute: str) -> ast.arg | None:
    """The parameter of `__init__` that its one `self.<attribute> = <parameter>` sets."""
    sets = [
        n.value
        for n in ast.walk(init)
        if isinstance(n, ast.Assign)
        and any(isinstance(t, ast.Attribute) and t.attr == attribute for t in n.targets)
    ]
    if len(sets) != 1 or not isinstance(sets[0], ast.Name):
        return None
    named = sets[0].id
    return next((a for a in (*init.args.args, *init.args.kwonlyargs) if a.arg == named), None)
