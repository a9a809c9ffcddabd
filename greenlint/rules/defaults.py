"""The value an argument takes when the program runs with its defaults: a parameter's default
(`def train(epochs=100)`, or of a class's `__init__` read as `self.epochs`), an argparse option's (`parser.add_argument("--epochs", default=100)`
read as `args.epochs`) or an absl flag's (`flags.DEFINE_integer("epochs", 100, ...)` read as
`FLAGS.epochs`), where this file (or notebook) writes it; a default given as a module constant
(`default=CHECKPOINT_EVERY` with `CHECKPOINT_EVERY = 50` at the top of the file) is that constant's value.
A name bound once to one of those (`epochs = args.epochs`, in the function that reads it or at the
top of the module) holds that default, and a parameter holds the one value every call of its
function in the file gives it (`train(model, args.epochs)`; its default where a call passes none,
or where the file never calls it). An attribute of a parameter that every script beside the module
hands the same options object (`config.ckpt_freq` in `def train(self, config)`, `dcgan.train(FLAGS)`
in main.py), or an absl flag another module of the program defines, is that option's default as the
analysis read it (`FileFacts.option_read`). An argparse option defined with no default is None (`unset_default`)
to the tests that decide a branch or a way out. A name its function binds several times holds, for `reaching_value`,
the binding the defaults reach a read with. Each value says where it comes from (`Origin`), so that a
rule can tell a library's default from one the file runs with. `known_value` also reads a
configuration of the file: a class attribute or a dict entry no statement sets again (`configured`)."""

from __future__ import annotations

import ast
import enum
import operator
from collections.abc import Iterator
from dataclasses import dataclass, replace

from greenlint.analysis import options
from greenlint.analysis.values import set_as
from greenlint.rules.base import FileFacts, argument, last_name
from greenlint.rules.framework_calls import called_by_framework
from greenlint.rules.site import Site
from greenlint.rules.syntax import (
    SCOPES,
    Function,
    calls_by_name,
    cell_units,
    is_method,
    parameters,
    positional_parameters,
    scope_body,
    statement_blocks,
    target_binds,
    uncalled,
)

#: Caller levels a parameter's value is followed up (`main` -> `train` -> the `fit` that reads it).
CALLERS = 3


class Origin(enum.Enum):
    """Where a value read with the program's defaults comes from."""

    #: A literal, where it is read or where a call of the file passes it.
    LITERAL = "literal"
    #: A default the file runs with: a parameter's (its function called without it), an option's or
    #: a flag's, or that of `__init__` for `self.x`.
    DEFAULT = "default"
    #: The default of a parameter of a function (or of `__init__` of a class) the file never calls
    #: nor names otherwise, nor a framework calls (`framework_calls.called_by_framework`: a decorated
    #: command, a Keras layer's `call`, a callback's `on_epoch_end`): a library's API, which its callers elsewhere run with this value only
    #: where they pass none. GL301 declines it (`batch_origin.written_batch`: a public helper's
    #: `batch_size=1`, judged false, is the callers' to set; making it larger changes what every
    #: caller gets). The other readers take it, their messages saying it is a default: the same
    #: decline in GL316 would drop image-segmentation-keras' `train(..., val_steps_per_epoch=512)`,
    #: judged true (its command line runs that default and cannot change it; debatable for a second
    #: judge: the parameter is exposed). GL308's, GL330's, GL408's and GL412's claims stand on code
    #: (no early stopping, no way out, no cache, a deque) that a caller's value only sizes; GL311's
    #: and GL321's periods, GL407's workers and GL318's `visualize` read no such default on the
    #: benchmark, so nothing judged tells them apart.
    UNCALLED = "uncalled"


@dataclass(frozen=True)
class DefaultValue:
    """The value an expression takes with the program's defaults, and where that comes from."""

    value: object
    #: Where it comes from, as a message says it ("the default of parameter `epochs`"; "" for a
    #: literal).
    where: str = ""
    origin: Origin = Origin.LITERAL


def default_value(
    facts: FileFacts, expr: ast.expr, cell: int | None, depth: int = CALLERS, least: bool = False
) -> DefaultValue | None:
    """The value of *expr* run with its defaults: a literal as written, a parameter's default
    ("the default of parameter `epochs`"), a flag's ("the default of `--epochs`"), or, for a
    parameter without a default, what every call of its function in the file passes it (*depth*:
    the caller levels still followed; with *least*, the smallest of the whole numbers they pass
    where they differ: a bound below that holds whichever caller runs); None when it is none of
    those or the default is not a literal."""
    if isinstance(expr, ast.Constant) or literal(expr) is not None:
        return DefaultValue(literal(expr))
    if isinstance(expr, ast.Name):
        for scope in facts.ancestors(expr, cell):  # the innermost function that binds the name holds it
            if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if expr.id in parameters(scope):
                default = _parameter_held(facts, scope, expr.id, cell)
                if depth <= 0 or isinstance(scope, ast.Lambda):
                    return default
                return _passed(facts, scope, expr.id, cell, depth - 1, default, least)
            bindings = [] if isinstance(scope, ast.Lambda) else [n for n in scope_body(scope) if _binds(n, expr.id)]
            if bindings:
                return _flag_held(facts, _plain(bindings[0]) if len(bindings) == 1 else None, cell, depth)
        return _flag_held(facts, module_value(facts, expr.id), cell, depth)
    if isinstance(expr, ast.Attribute):
        held = _attribute_default(facts, expr, cell)
        if held is not None:
            return held
        found = _flag_default(facts, expr.attr)
        if found is not None:
            return DefaultValue(found, f"the default of `{set_as(expr.attr)}`", Origin.DEFAULT)
        read = facts.option_read(expr) if cell is None else None
        return None if read is None else DefaultValue(read.value, f"the default of `{set_as(read.option)}`", Origin.DEFAULT)
    return None


def _passed(
    facts: FileFacts,
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    name: str,
    cell: int | None,
    depth: int,
    default: DefaultValue | None,
    least: bool = False,
) -> DefaultValue | None:
    """The one value every call of *function* in the file gives its parameter *name*, run with
    its defaults (`default_value`, *depth* caller levels further; the parameter's *default* where
    a call passes none): `train(epochs=4000)` of `def train(self, epochs=100)` gives 4000. The
    *default* where the file never calls it, `Origin.UNCALLED` where it never names it either and
    no framework calls it (a function passed on, `app.run(main)`, or registered by a decorator,
    `@app.command()`, runs with its defaults); None where two calls give
    different values (with *least*, unless all are whole numbers: the smallest, said to be a bound) or
    one is not known; where they agree, one from a call that runs if there is one."""
    method = is_method(facts, function, cell)
    positional = positional_parameters(facts, function, cell)
    found = [
        default_value(facts, given, where, depth, least)
        if (given := argument(call, name, positional.index(name) if name in positional else None)) is not None
        else default
        for where, call in calls_by_name(facts, function.name, method)
    ]
    if not found:
        if default is not None and uncalled(facts, function.name, method) and not called_by_framework(facts, function, cell):
            return replace(default, origin=Origin.UNCALLED)
        return default
    known = [f for f in found if f is not None]
    if len(known) != len(found):
        return None
    if any(f.value != known[0].value for f in known):
        if not (least and all(isinstance(f.value, int) and not isinstance(f.value, bool) for f in known)):
            return None
        low = min(known, key=lambda f: f.value)  # type: ignore[arg-type,return-value]
        return replace(low, where=f"the least that the calls of `{function.name}()` pass it, so at least that many")
    return next((f for f in known if f.origin is not Origin.UNCALLED), known[0])  # a value a call that runs gives


def known_value(facts: FileFacts, expr: ast.expr, cell: int | None, least: bool = False) -> tuple[object, str]:
    """The value of *expr* with the program's defaults (`default_value`, *least* passed on), or the
    literal a module-level name holds (`module_constant`), and where it comes from, ready to follow the
    figure in a message (" (`EPISODES` = 1000)"; "" as written); (None, "") when unknown."""
    found = default_value(facts, expr, cell, least=least)
    if found is not None:
        return found.value, f" (`{ast.unparse(expr)}`: {found.where})" if found.where else ""
    if isinstance(expr, ast.Name):
        value = module_constant(facts, expr.id)
        return value, f" (`{expr.id}` = {value!r})"
    value = configured(facts, expr, cell)
    return (value, f" (`{ast.unparse(expr)}` = {value!r})") if value is not None else (None, "")


def argument_value(facts: FileFacts, site: Site, name: str, position: int | None = None) -> tuple[object, str]:
    """The value of *site*'s argument *name* (or at *position*) with the program's defaults
    (`known_value`), else the literal the analysis resolved for it (`site.features`: a class
    attribute, a dict's entry, a namespace's field, `cfg.SAVE_FREQ`), and where it comes from as
    `known_value` says it (" (`cfg.SAVE_FREQ` = 2)"); (None, "") when neither knows it."""
    call = facts.node(site)
    given = argument(call, name, position) if call is not None else None
    value, where = known_value(facts, given, site.callsite.span.cell) if given is not None else (None, "")
    if value is not None:
        return value, where
    resolved = site.features.get(name)
    if resolved is None or given is None or isinstance(given, ast.Constant):
        return resolved, ""
    return resolved, f" (`{ast.unparse(given)}` = {resolved!r})"


def _attribute_default(facts: FileFacts, expr: ast.Attribute, cell: int | None) -> DefaultValue | None:
    """`self.epochs` read in a method, where the class assigns `self.epochs` once, in its
    `__init__`: a literal, a parameter of `__init__` with a literal default
    (`def __init__(self, epochs=100): self.epochs = epochs`; `Origin.UNCALLED` where the file
    never names the class), or an option's attribute with a default known as `args.epochs` is
    (`self.epochs = args.epochs`, the options made in this file or in a script beside)."""
    found = init_binding(facts, expr, cell)
    if found is None:
        return None
    owner, init, value = found
    if isinstance(value, ast.Constant):
        return DefaultValue(value.value)
    if isinstance(value, ast.Name):
        default = _parameter_default(init, value.id)
        if default is not None:
            origin = Origin.UNCALLED if uncalled(facts, owner.name, False) else Origin.DEFAULT
            return DefaultValue(default, f"the default of parameter `{value.id}` of `{owner.name}`", origin)
    if isinstance(value, ast.Attribute) and not (isinstance(value.value, ast.Name) and value.value.id == "self"):
        return default_value(facts, value, cell, 0)  # `self.n_critic = args.n_critic`: the option's default
    return None


def init_binding(
    facts: FileFacts, expr: ast.Attribute, cell: int | None
) -> tuple[ast.ClassDef, ast.FunctionDef | ast.AsyncFunctionDef, ast.expr] | None:
    """The class, its `__init__` and the value of `self.<attr>` read in a method (*expr*), where the
    class assigns `self.<attr>` once, in its `__init__`; None otherwise."""
    if not (isinstance(expr.value, ast.Name) and expr.value.id == "self"):
        return None
    owner = next((a for a in facts.ancestors(expr, cell) if isinstance(a, ast.ClassDef)), None)
    if owner is None:
        return None
    assigned = [
        (method, node.value)
        for method in owner.body
        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef))
        for node in ast.walk(method)
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign))
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Attribute)
        and target.attr == expr.attr
        and isinstance(target.value, ast.Name)
        and target.value.id == "self"
    ]
    if len(assigned) != 1 or assigned[0][0].name != "__init__":
        return None
    ((init, value),) = assigned
    return (owner, init, value) if value is not None else None


def _parameter_default(func: Function, name: str) -> object | None:
    """The literal default of *func*'s parameter *name* (None: none, or not a literal)."""
    return literal(default_expression(func, name))


def default_expression(func: Function, name: str) -> ast.expr | None:
    """What *func*'s definition gives its parameter *name* as its default, as written."""
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    return next((value for arg, value in pairs if arg.arg == name), None)


def _parameter_held(facts: FileFacts, func: Function, name: str, cell: int | None) -> DefaultValue | None:
    """The default of *func*'s parameter *name*: a literal, or what the definition reads when it runs, an
    option's default (`def train(epochs=args.epochs)`) or a module constant (`steps=STEPS`); None otherwise."""
    where = f"the default of parameter `{name}`"
    written = default_expression(func, name)
    value = literal(written)
    if written is None or value is not None:
        return None if value is None else DefaultValue(value, where, Origin.DEFAULT)
    held: DefaultValue | None = None
    if isinstance(written, ast.Attribute):
        held = default_value(facts, written, cell, 0)
    elif isinstance(written, ast.Name) and (constant := module_constant(facts, written.id)) is not None:
        held = DefaultValue(constant, f"`{written.id}` = {constant!r}")
    if held is None or held.value is None:
        return None
    return DefaultValue(held.value, f"{where}, `{ast.unparse(written)}`: {held.where}", Origin.DEFAULT)


def _flag_default(facts: FileFacts, attr: str) -> object | None:
    """The literal default of the one argparse option or absl flag of the file named *attr*."""
    return literal(flag_default(facts, attr))


def flag_default(facts: FileFacts, attr: str) -> ast.expr | None:
    """The expression the default of the one argparse option or absl flag of the file named *attr*
    is written as: the module constant's value where it names one (`default=BATCH`)."""
    found = options.defaults(node for cell, _ in cell_units(facts) for node in facts.nodes(cell, ast.Call)).get(attr)
    return module_value(facts, found.id) if isinstance(found, ast.Name) else found


def unset_default(facts: FileFacts, expr: ast.expr) -> DefaultValue | None:
    """None, the value argparse gives an option defined with no default that the command line does
    not name (`options.unset`), for an attribute read (`args.max_steps`) of a name the file binds to
    the parsed command line (`args = parser.parse_args()`), of the file's one option of that name,
    which the program neither gives a default by `set_defaults` nor assigns; None (not known) for
    any other expression."""
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)):
        return None
    holder = expr.value.id
    if not any(
        isinstance(node.value, ast.Call)
        and last_name(node.value.func) in options.PARSERS
        and any(target_binds(t.elts[0] if isinstance(t, ast.Tuple) and t.elts else t, holder) for t in node.targets)
        for cell, _ in cell_units(facts)
        for node in facts.nodes(cell, ast.Assign)
    ):
        return None
    calls = [node for cell, _ in cell_units(facts) for node in facts.nodes(cell, ast.Call)]
    if expr.attr in options.defaults(calls) or sum(options.unset(call) == expr.attr for call in calls) != 1:
        return None
    if any(key[1] == expr.attr for _, tree in cell_units(facts) for key in options.set_by_program(tree)):
        return None
    return DefaultValue(None, f"`{set_as(expr.attr)}` not given", Origin.DEFAULT)


def reaching_value(facts: FileFacts, expr: ast.Name, cell: int | None) -> tuple[DefaultValue, ast.Assign] | None:
    """The value the name *expr* reads holds there when the program runs with its defaults, where its
    function binds it more than once: the last plain binding before it in the blocks around it, each
    later `if` that binds it decided by the defaults against the branch that does (`max_steps = 2**32`
    then `if a.max_steps is not None: max_steps = a.max_steps` with `--max_steps` unset: 2**32); a
    constant expression of whole numbers folded; with that binding. None where a binding may run that
    is not known (in a loop, under an undecided `if`), or the one reached is not a literal."""
    child: ast.AST = expr
    for parent in facts.ancestors(expr, cell):
        if isinstance(parent, (ast.For, ast.AsyncFor, ast.While)) and any(
            _binds(n, expr.id) for n in scope_body(parent)
        ):
            return None  # an earlier pass may rebind it
        block = next((b for b in statement_blocks(parent) if any(s is child for s in b)), None)
        for statement in reversed(block[: [id(s) for s in block].index(id(child))] if block else []):
            value = _plain(statement)
            if value is not None and isinstance(statement, ast.Assign) and target_binds(statement.targets[0], expr.id):
                held = folded(value)
                where = f"`{expr.id} = {ast.unparse(value)}`, the binding the program's defaults reach it with"
                return None if held is None else (DefaultValue(held, where, Origin.DEFAULT), statement)
            if not any(_binds(n, expr.id) for n in ast.walk(statement)):
                continue
            if not (isinstance(statement, ast.If) and _skipped(facts, statement, expr.id, cell)):
                return None
        if isinstance(parent, SCOPES):
            return None
        child = parent
    return None


def _skipped(facts: FileFacts, statement: ast.If, name: str, cell: int | None) -> bool:
    """Whether the branch of the `if` that the program's defaults take binds *name* nowhere."""
    holds = _holds_by_default(facts, statement.test, cell)
    taken = statement.body if holds else statement.orelse if holds is False else None
    return taken is not None and not any(_binds(n, name) for s in taken for n in ast.walk(s))


#: Operators a constant expression of whole numbers is folded through (`2**32`, `10 * 1000`).
_FOLDS = {
    ast.Pow: operator.pow,
    ast.Mult: operator.mul,
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.LShift: operator.lshift,
}


def folded(node: ast.expr) -> object | None:
    """A literal's value, or that of an arithmetic of whole-number literals (`2**32`); None otherwise."""
    if isinstance(node, ast.BinOp) and type(node.op) in _FOLDS:
        left, right = folded(node.left), folded(node.right)
        if type(left) is int and type(right) is int and (not isinstance(node.op, ast.Pow) or 0 <= right <= 64):
            return _FOLDS[type(node.op)](left, right)
        return None
    return literal(node)


def module_constant(facts: FileFacts, name: str) -> object | None:
    """The literal a module-level name holds (`module_value`), None where it holds anything else."""
    return literal(module_value(facts, name))


def configured(facts: FileFacts, expr: ast.expr, cell: int | None = None) -> object | None:
    """The literal a configuration of the file holds: `cfg.EVERY` (or `Config.EVERY`), where `cfg`
    is a module-level name (no function around *expr* binding it) holding `Config()` (no argument
    that may set it) or the class, a class of the file whose body, or
    that of a base class of the file (the nearest first), assigns `EVERY` a literal, and no statement
    of the file assigns an attribute `EVERY`; `config["every"]`, where `config` is a module-level
    name holding a dict literal with that key, never assigned an item nor called a method of in the
    file. None otherwise, and wherever the file sets attributes by name (`setattr`, `__dict__`, `vars`)."""
    if any(word in facts.text for word in ("setattr", "__dict__", "vars(")):
        return None
    base = expr.value if isinstance(expr, (ast.Attribute, ast.Subscript)) else None
    if isinstance(base, ast.Name) and _bound_locally(facts, base, cell):
        return None
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        classes = _classes(facts)
        held = expr.value if expr.value.id in classes else module_value(facts, expr.value.id)
        if isinstance(held, ast.Call) and (held.args or held.keywords):
            return None  # a dataclass's or named tuple's fields, an `__init__`'s parameters: set by the call
        made = held.func if isinstance(held, ast.Call) else held
        if not (isinstance(made, ast.Name) and made.id in classes) or _attribute_stored(facts, expr.attr):
            return None
        return _class_literal(classes, made.id, expr.attr, set())
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name) and isinstance(expr.slice, ast.Constant):
        held = module_value(facts, expr.value.id)
        if not isinstance(held, ast.Dict) or _changed_in_place(facts, expr.value.id):
            return None
        entries = [v for k, v in zip(held.keys, held.values) if isinstance(k, ast.Constant) and k.value == expr.slice.value]
        return literal(entries[0]) if len(entries) == 1 and None not in held.keys else None
    return None


def _bound_locally(facts: FileFacts, name: ast.Name, cell: int | None) -> bool:
    """Whether a function around *name* binds it: a parameter or a binding of its body."""
    return any(
        isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        and (name.id in parameters(scope) or any(_binds(n, name.id) for n in scope_body(scope)))
        for scope in facts.ancestors(name, cell)
    )


def _classes(facts: FileFacts) -> dict[str, ast.ClassDef]:
    """The file's module-level classes by name, a name defined twice left out."""
    found: dict[str, list[ast.ClassDef]] = {}
    for _, module in cell_units(facts):
        for node in module.body:
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(node)
    return {name: nodes[0] for name, nodes in found.items() if len(nodes) == 1}


def _class_literal(classes: dict[str, ast.ClassDef], name: str, attr: str, seen: set[str]) -> object | None:
    """The literal the class *name*'s body assigns *attr* once, else its nearest base class of the file's."""
    if name in seen or name not in classes:
        return None
    seen.add(name)
    owner = classes[name]
    bound = [n for n in owner.body if _binds(n, attr)]
    if bound:
        held = bound[0].value if isinstance(bound[0], ast.AnnAssign) else _plain(bound[0])  # `EVERY: int = 50`
        return literal(held) if len(bound) == 1 else None
    for base in owner.bases:
        found = _class_literal(classes, base.id, attr, seen) if isinstance(base, ast.Name) else None
        if found is not None or isinstance(base, ast.Name) and base.id in classes:
            return found
    return None


def _attribute_stored(facts: FileFacts, attr: str) -> bool:
    """Whether any statement of the file assigns (or deletes) an attribute *attr* of anything."""
    return any(
        n.attr == attr and not isinstance(n.ctx, ast.Load) for cell in facts.cells for n in facts.nodes(cell, ast.Attribute)
    )


def _changed_in_place(facts: FileFacts, name: str) -> bool:
    """Whether the file assigns or deletes an item of *name*, or calls a method of it (`update`)."""
    for cell in facts.cells:
        for node in facts.nodes(cell, ast.Subscript):
            if isinstance(node.value, ast.Name) and node.value.id == name and not isinstance(node.ctx, ast.Load):
                return True
        for called in facts.nodes(cell, ast.Call):
            func = called.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == name:
                return True
    return False


def literal(node: ast.expr | None) -> object | None:
    """The value of a literal as written: a constant, or a signed number (`-1`); None for anything else."""
    if isinstance(node, ast.Constant):
        return node.value
    if not (isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd))):
        return None
    number = node.operand.value if isinstance(node.operand, ast.Constant) else None
    if type(number) not in (int, float):
        return None
    assert isinstance(number, (int, float))
    return -number if isinstance(node.op, ast.USub) else number


#: Statements and clauses that bind a name.
_BINDINGS = (
    ast.Assign,
    ast.AugAssign,
    ast.AnnAssign,
    ast.For,
    ast.AsyncFor,
    ast.withitem,
    ast.NamedExpr,
    ast.comprehension,
)


def _binds(node: ast.AST, name: str) -> bool:
    """Whether *node* (one of `_BINDINGS`) binds *name*."""
    return isinstance(node, _BINDINGS) and any(target_binds(t, name) for t in _targets(node))


def _targets(node: ast.AST) -> list[ast.expr]:
    """The targets of a binding (one of `_BINDINGS`)."""
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, ast.withitem):
        return [node.optional_vars] if node.optional_vars is not None else []
    if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr, ast.comprehension)):
        return [node.target]
    return []


def _plain(node: ast.AST) -> ast.expr | None:
    """The value of a plain `name = value` statement, None for any other binding."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.value
    return None


def module_value(facts: FileFacts, name: str) -> ast.expr | None:
    """The expression a module-level name holds: assigned once in the file (or notebook), at its
    top level, and never rebound anywhere else in it (no `global` rebinding, no other assignment,
    loop or `with` target of that name); None otherwise."""
    values = []
    for node, top in facts.once("defaults.bound_by_name", lambda: _bound_by_name(facts)).get(name, ()):
        value = _plain(node) if top and not isinstance(node, ast.Global) else None
        if value is None:
            return None
        values.append(value)
    return values[0] if len(values) == 1 else None


def _bound_by_name(facts: FileFacts) -> dict[str, list[tuple[ast.AST, bool]]]:
    """Each name the file binds (`_binds`) or declares `global`, with those nodes in order (every
    unit's, from the file's one walk), each with whether it is a statement of its unit's top level."""
    found: dict[str, list[tuple[ast.AST, bool]]] = {}
    for cell, module in cell_units(facts):
        top = {id(statement) for statement in module.body}
        for node in facts.nodes(cell, ast.Global, *_BINDINGS):
            names = node.names if isinstance(node, ast.Global) else _bound_names(node)
            for name in dict.fromkeys(names):
                found.setdefault(name, []).append((node, id(node) in top))
    return found


def _bound_names(node: ast.AST) -> Iterator[str]:
    """The names a binding's targets hold (`target_binds`: a name anywhere in a target)."""
    for target in _targets(node):
        if type(target) is ast.Name:
            yield target.id
        else:
            yield from (n.id for n in ast.walk(target) if isinstance(n, ast.Name))


def _flag_held(facts: FileFacts, bound: ast.expr | None, cell: int | None, depth: int) -> DefaultValue | None:
    """The default a name's one binding holds where it reads a flag or an attribute (`epochs =
    args.epochs`); None for any other value (a literal is `known_value`'s, as a module constant)."""
    return default_value(facts, bound, cell, depth) if isinstance(bound, ast.Attribute) else None


def bound_literal(scope: ast.AST, name: str) -> object | None:
    """The literal *name* holds in a function (*scope*) that binds it once, to a literal or
    unpacked from a tuple of literals (`r, c = 5, 5`); None otherwise."""
    bindings = [n for n in scope_body(scope) if _binds(n, name)]
    if len(bindings) != 1 or not isinstance(bindings[0], ast.Assign) or len(bindings[0].targets) != 1:
        return None
    target, value = bindings[0].targets[0], bindings[0].value
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
        pairs = list(zip(target.elts, value.elts))
    else:
        pairs = [(target, value)]
    held = [v for t, v in pairs if isinstance(t, ast.Name) and t.id == name]
    return held[0].value if len(held) == 1 and isinstance(held[0], ast.Constant) else None


def other_mode(facts: FileFacts, node: ast.AST | None, cell: int | None) -> bool:
    """The node is in one branch of an `if`/`elif`/`else` choice on an option while the program's
    defaults take another branch of the same choice (`if FLAGS.mode == "eager_tf": <loop> else:
    <fit>` with `--mode` defaulting to "fit"): a mode the program offers beside its default, run
    only when asked for. An `if` without an alternative (`if FLAGS.do_train:`) chooses no mode."""
    return any(branch.orelse for branch in _branches_not_taken(facts, node, cell))


def off_by_default(facts: FileFacts, node: ast.AST | None, cell: int | None) -> ast.expr | None:
    """The test of the innermost `if` of the node's scope whose branch holding the node the
    program's defaults do not take (`if FLAGS.cache_dataset: ds = ds.cache()` with the flag
    defaulting to False), with or without an alternative: the node runs only when an option asks
    for it. None where the defaults run it, or its guard is not an option read with a literal default."""
    return next((branch.test for branch in _branches_not_taken(facts, node, cell)), None)


def _branches_not_taken(facts: FileFacts, node: ast.AST | None, cell: int | None) -> Iterator[ast.If]:
    """The `if` statements of the node's scope, innermost first, whose branch holding the node the
    program's defaults do not take (`_holds_by_default`)."""
    if node is None:
        return
    child = node
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, SCOPES):
            return
        if isinstance(parent, ast.If) and child is not parent.test:
            holds = _holds_by_default(facts, parent.test, cell)
            in_body = any(child is s for s in parent.body)
            if holds is not None and (holds is False if in_body else holds is True):
                yield parent
        child = parent


def _holds_by_default(facts: FileFacts, test: ast.expr, cell: int | None) -> bool | None:
    """Whether *test*, a comparison of an option with literals (`==`, `!=`, `in`, `not in`) or the
    option's truth (`X`, `not X`), holds with the option's default; None for any other test, or an
    option whose default is not a literal the program runs with (a flag's, a parameter's)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _holds_by_default(facts, test.operand, cell)
        return None if inner is None else not inner
    if isinstance(test, (ast.Name, ast.Attribute)):
        held = default_value(facts, test, cell)
        return bool(held.value) if held is not None and held.origin is Origin.DEFAULT else None
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    option, compared, op = test.left, test.comparators[0], test.ops[0]
    if literal(option) is not None and isinstance(op, (ast.Eq, ast.NotEq)):
        option, compared = compared, option
    if not isinstance(option, (ast.Name, ast.Attribute)):
        return None
    held = default_value(facts, option, cell)
    if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(compared, ast.Constant) and compared.value is None:
        held = held if held is not None else unset_default(facts, option)
        return (
            None
            if held is None or held.origin is not Origin.DEFAULT
            else (held.value is None) is isinstance(op, ast.Is)
        )
    if held is None or held.origin is not Origin.DEFAULT:
        return None
    if isinstance(op, (ast.Eq, ast.NotEq)) and literal(compared) is not None:
        return (held.value == literal(compared)) is isinstance(op, ast.Eq)
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(compared, (ast.Tuple, ast.List, ast.Set)):
        values = [literal(e) for e in compared.elts]
        if any(v is None for v in values):
            return None
        return (held.value in values) is isinstance(op, ast.In)
    return None
