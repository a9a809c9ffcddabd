"""Command-line options a program defines, read from its syntax alone: the attribute each
argparse option (`parser.add_argument("--display-step", default=100)`, read as
`args.display_step`) or absl / tf.app flag (`flags.DEFINE_integer("display_step", 100, ...)`,
read as `FLAGS.display_step`) is read as, and the default it takes when the command line
does not set it (a switch's, `action="store_true"`, is argparse's: False). The resolver reads them as the values of `args.x` and `FLAGS.x` where the program
does not set them itself (`set_by_program`): a batch size, a layer's width, a loop's period (`if
step % args.display_step == 0`); the rules read their figures (`rules.defaults`)."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import NamedTuple

from greenlint.analysis import trees


class OptionRead(NamedTuple):
    """An attribute the resolver read as the default of an option another module of the program
    defines: of an options object a script beside hands in (`config.ckpt_freq`, `self.args.epochs`:
    `constructed.Beside.calls`) or of an absl flag (`FLAGS.image_size`) defined in a module it
    imports or a script importing it (`constructed.flag_defaults`). The rules read it as that default
    (`rules.defaults`); the resolver records it where every walk of the attribute read it so."""

    #: Where the attribute is, as `ast` numbers it (columns in UTF-8 bytes) in a plain file.
    line: int
    column: int
    end_line: int
    end_column: int
    #: The option whose default it takes (`--epochs`), and that default.
    option: str
    value: object


#: absl / tf.compat.v1.flags definitions: the name is the first argument, the default the second.
ABSL = frozenset({"DEFINE_integer", "DEFINE_float", "DEFINE_string", "DEFINE_enum", "DEFINE_bool", "DEFINE_boolean"})


def keyword(call: ast.Call | None, name: str) -> ast.keyword | None:
    """The `name=` keyword argument of a call."""
    return next((k for k in call.keywords if k.arg == name), None) if call is not None else None


def argument(call: ast.Call | None, name: str, position: int | None = None) -> ast.expr | None:
    """The argument binding parameter `name`: its `name=` keyword, else the positional argument at
    `position`. None when the call does not give it, and when which argument binds it is unknowable:
    a `*args` at or before `position` (and `**kwargs`, which may carry it: `binds` tells these apart
    from a parameter left to its default)."""
    if call is None:
        return None
    given = keyword(call, name)
    if given is not None:
        return given.value
    if position is None or len(call.args) <= position:
        return None
    if any(isinstance(a, ast.Starred) for a in call.args[: position + 1]):
        return None
    return call.args[position]


def last_name(expr: ast.AST) -> str:
    """The name an expression ends in: `tf.keras.Model` -> `Model`, `fit` -> `fit`; "" otherwise."""
    return expr.attr if isinstance(expr, ast.Attribute) else expr.id if isinstance(expr, ast.Name) else ""


def defined(call: ast.Call, forwarders: frozenset[str] = frozenset()) -> tuple[str, ast.expr] | None:
    """(the attribute it is read as, its default as written) of an argparse option or absl flag
    that *call* defines with a default (`add_argument`, or a function named in *forwarders* that
    passes its arguments on to one: `forwards_option`); None for any other call."""
    name = last_name(call.func)
    if name == "add_argument" or name in forwarders:
        default = keyword(call, "default")
        value = default.value if default is not None else _switch_default(call)
        attr = dest(call)
        return (attr, value) if value is not None and attr else None
    if name in ABSL:
        flag, value = argument(call, "name", 0), argument(call, "default", 1)
        if isinstance(flag, ast.Constant) and isinstance(flag.value, str) and value is not None:
            return flag.value, value
    return None


def option_like(call: ast.Call) -> bool:
    """Whether *call* is shaped as an argparse option's definition: a first argument naming an option
    (`"--epochs"`, `"-e"`) and a `default=` or `action=` keyword."""
    first = call.args[0] if call.args else None
    return isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value.startswith("-") \
        and any(k.arg in ("default", "action") for k in call.keywords)


def forwards_option(func: ast.AST | None) -> bool:
    """Whether the function *func* defines a command-line option with the arguments it is given: its
    body passes its `*args` and `**kwargs` on to an `add_argument` (a program's wrapper of argparse:
    `def arg(*args, **kwargs): return PARSER.add_argument(*args, **kwargs)`)."""
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) or func.args.vararg is None or func.args.kwarg is None:
        return False
    star, stars = func.args.vararg.arg, func.args.kwarg.arg
    return any(
        isinstance(node, ast.Call) and last_name(node.func) == "add_argument"
        and any(isinstance(a, ast.Starred) and isinstance(a.value, ast.Name) and a.value.id == star for a in node.args)
        and any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id == stars for k in node.keywords)
        for node in ast.walk(func)
    )


#: argparse's actions whose option defaults to a constant without `default=`: a switch's opposite.
_SWITCHES = {"store_true": False, "store_false": True}


def _switch_default(call: ast.Call) -> ast.expr | None:
    """The default argparse gives an option `action="store_true"` (False) or `"store_false"` (True) sets
    without `default=`, written where its action is; None for any other option."""
    action = keyword(call, "action")
    name = action.value.value if action is not None and isinstance(action.value, ast.Constant) else None
    if action is None or not isinstance(name, str) or name not in _SWITCHES:
        return None
    return ast.copy_location(ast.Constant(_SWITCHES[name]), action.value)


#: argparse's actions that store what the command line gives, None where it gives nothing.
_STORES = frozenset({"store", "append", "extend", "count"})


def unset(call: ast.Call) -> str | None:
    """The attribute of an argparse option that *call* defines with no default, optional and stored
    as given (`add_argument("--max_epochs", type=int)`): argparse gives it None when the command
    line does not name it; None for any other call."""
    action = keyword(call, "action")
    stored = action is None or (isinstance(action.value, ast.Constant) and action.value.value in _STORES)
    required = keyword(call, "required")
    if (
        last_name(call.func) != "add_argument"
        or keyword(call, "default") is not None
        or not stored
        or (required is not None and not (isinstance(required.value, ast.Constant) and required.value.value is False))
    ):
        return None
    return dest(call)


def defaults(calls: Iterable[ast.Call], forwarders: frozenset[str] = frozenset()) -> dict[str, ast.expr | None]:
    """The default, as written, of each option or flag among *calls* by the attribute it is read as
    (*forwarders*: `defined`'s); None where more than one defines it."""
    found: dict[str, ast.expr | None] = {}
    for attr, value in filter(None, (defined(call, forwarders) for call in calls)):
        found[attr] = None if attr in found else value
    return found


def dest(call: ast.Call) -> str | None:
    """The attribute an argparse option is read as: `dest=`, else its long name (`--num-epochs` ->
    `num_epochs`), else its short one."""
    given = keyword(call, "dest")
    if given is not None:
        value = given.value
        return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else None
    names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    long = [n for n in names if n.startswith("--")]
    chosen = long[0] if long else names[0] if names else None
    return chosen.lstrip("-").replace("-", "_") if chosen else None


#: The methods that parse a command line into a namespace (`parse_known_args` also returns the rest).
PARSERS = frozenset({"parse_args", "parse_known_args"})
#: The holder of absl / tf.app flags, read as `FLAGS.x` (its module's path ends so).
FLAGS = "flags.FLAGS"
#: absl's paths to that holder (the resolver values nothing else of absl).
ABSL_PATHS = frozenset({"absl", "absl.flags", "absl.flags.FLAGS"})


def given(argv: ast.expr | None) -> frozenset[str] | None:
    """The options a literal argument list names (`parse_args(["--num-epochs", "5"])`: `num_epochs`),
    whose values the program then sets; empty for the command line itself (no argument, `None`,
    or any other expression: `parse_args(argv)`); None where a literal list holds other than strings."""
    if not isinstance(argv, (ast.List, ast.Tuple)):
        return frozenset()
    words = [a.value for a in argv.elts if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if len(words) != len(argv.elts):
        return None
    return frozenset(w.lstrip("-").partition("=")[0].replace("-", "_") for w in words if w.startswith("-"))


def set_by_program(tree: ast.AST) -> dict[tuple[str, str], bool]:
    """The options the program sets itself, by (the holder as written, the attribute; "" for a
    parser's `set_defaults`, which sets it whatever holds it), each with whether it does so only where
    the value is None (every assignment under `if <holder>.<attr> is None:`, which a default other than
    None skips): `args.x = ...`, `FLAGS.x += ...`, `setattr(args, "x", ...)`, `parser.set_defaults(x=...)`."""
    found: dict[tuple[str, str], bool] = {}
    when_none: dict[int, str] = {}  # statement -> the `<holder>.<attr>` its `if ... is None:` tests
    for node in trees.walk(tree):  # breadth first: an `if` before the statements of its body
        if isinstance(node, ast.If):
            if _is_none_test(node.test):
                when_none.update((id(s), ast.unparse(node.test.left)) for s in node.body)  # type: ignore[attr-defined]
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for part in ast.walk(target):
                    if isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store):
                        key = (_written(part.value), part.attr)
                        tested = when_none.get(id(node))
                        found[key] = found.get(key, True) and tested is not None and tested == ast.unparse(part)
        elif isinstance(node, ast.Call):
            name = last_name(node.func)
            if name == "set_defaults":
                found.update((("", k.arg), False) for k in node.keywords if k.arg)
            elif name == "setattr" and len(node.args) > 1:
                attr = node.args[1]
                if isinstance(attr, ast.Constant) and isinstance(attr.value, str):
                    found[(ast.unparse(node.args[0]), attr.value)] = False
    return found


def reassigned(tree: ast.AST, defaults: dict[str, object] | None = None) -> dict[str, bool]:
    """The options the program assigns on a holder by statements alone (`a.scale_size = CROP_SIZE`, `+=`),
    each as `holder_key` names it, with whether a function assigns it on the default run (its value there
    then not known in the functions it calls): an assignment on a branch that the options' *defaults*
    (by attribute) decide the default run does not take (`untaken`) is not one; an option also set by
    `setattr` is left out. The resolver follows their values flow-sensitively."""
    found: dict[str, bool] = {}
    called: set[str] = set()
    stack: list[tuple[ast.AST, bool, tuple[tuple[ast.expr, bool], ...]]] = [(tree, False, ())]
    while stack:
        node, inside, guards = stack.pop()
        kind = type(node)
        if kind is ast.Assign or kind is ast.AugAssign or kind is ast.AnnAssign:
            for target in node.targets if kind is ast.Assign else [node.target]:  # type: ignore[attr-defined]
                if type(target) is ast.Attribute:
                    key = holder_key(target)
                    runs = inside and not untaken(guards, _written(target.value), defaults or {})
                    found[key] = found.get(key, False) or runs
        elif kind is ast.Call and last_name(node.func) == "setattr" and len(node.args) > 1:  # type: ignore[attr-defined]
            attr = node.args[1]  # type: ignore[attr-defined]
            if type(attr) is ast.Constant and isinstance(attr.value, str):
                called.add(f"{_written(node.args[0])}.{attr.value}")  # type: ignore[attr-defined]
        inner = inside or kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
        if kind is ast.If:
            stack.append((node.test, inner, guards))  # type: ignore[attr-defined]
            stack.extend((child, inner, (*guards, (node.test, True))) for child in node.body)  # type: ignore[attr-defined]
            stack.extend((child, inner, (*guards, (node.test, False))) for child in node.orelse)  # type: ignore[attr-defined]
        else:
            stack.extend((child, inner, guards) for child in ast.iter_child_nodes(node))
    return {key: inside for key, inside in found.items() if key not in called}


def untaken(guards: tuple[tuple[ast.expr, bool], ...], holder: str, defaults: dict[str, object]) -> bool:
    """Whether code under *guards* (each an `if`'s test and whether the code is in its body) is off the
    default run: some test, read with the *defaults* of the options on *holder*, is decided against it."""
    return any(decided(test, holder, defaults) is (not body) for test, body in guards)


def decided(test: ast.expr, holder: str, defaults: dict[str, object]) -> bool | None:
    """The value of an `if`'s test read with the *defaults* of the options on *holder* (`a.mode == "test"
    or a.mode == "export"` of `--mode` defaulting to "train": False): comparisons of an option with
    literals, `and`, `or`, `not` and an option's truth; None where any part read is not decided."""
    kind = type(test)
    if kind is ast.BoolOp:
        values = [decided(v, holder, defaults) for v in test.values]  # type: ignore[attr-defined]
        stop = type(test.op) is ast.Or  # type: ignore[attr-defined]
        if stop in values:
            return stop
        return None if None in values else not stop
    if kind is ast.UnaryOp and type(test.op) is ast.Not:  # type: ignore[attr-defined]
        inner = decided(test.operand, holder, defaults)  # type: ignore[attr-defined]
        return None if inner is None else not inner
    if kind is ast.Attribute:
        known, value = _default_of(test, holder, defaults)
        return bool(value) if known else None
    if kind is ast.Compare and len(test.ops) == 1:  # type: ignore[attr-defined]
        known, value = _default_of(test.left, holder, defaults)  # type: ignore[attr-defined]
        other = test.comparators[0]  # type: ignore[attr-defined]
        try:
            literal = ast.literal_eval(other)
        except ValueError:
            return None
        if not known:
            return None
        op = type(test.ops[0])  # type: ignore[attr-defined]
        if op in (ast.In, ast.NotIn) and isinstance(literal, (tuple, list, set, frozenset)):
            return (value in literal) is (op is ast.In)
        if op in (ast.Eq, ast.NotEq):
            return (value == literal) is (op is ast.Eq)
        if op in (ast.Is, ast.IsNot) and literal is None:
            return (value is None) is (op is ast.Is)
    return None


def _default_of(expr: ast.expr, holder: str, defaults: dict[str, object]) -> tuple[bool, object]:
    """(whether *expr* reads an option on *holder* that has a default, that default)."""
    if type(expr) is ast.Attribute and type(expr.value) is ast.Name and expr.value.id == holder and expr.attr in defaults:
        return True, defaults[expr.attr]
    return False, None


def holder_key(node: ast.Attribute) -> str:
    """`a.scale_size` as written: the name under which a scope binds the option's value once assigned."""
    return f"{_written(node.value)}.{node.attr}"


def read_as(found: dict[tuple[str, str], bool], tree: ast.AST | None, holder: str, attr: str,
            default_is_none: bool) -> str | None:
    """The option whose default a read of *attr* on *holder* takes: *attr* where the program does not
    set it itself (`set_here`, by what `set_by_program` *found*); where its default is None and the
    program sets it only then to another option's value (`fallback`), that other one, unless the
    program sets that one too; else None."""
    if not set_here(found, holder, attr, default_is_none):
        return attr
    other = fallback(tree, holder, attr) if default_is_none and tree is not None else None
    return other if other is not None and not set_here(found, holder, other, False) else None


def fallback(tree: ast.AST, holder: str, attr: str) -> str | None:
    """The option whose value *attr* read on *holder* takes where it is None, where that is all the
    program sets it to: its one assignment is `<holder>.<attr> = <holder>.<other>` under `if
    <holder>.<attr> is None:` (an option whose default of None means "as another's"); else None."""
    written = f"{holder}.{attr}"
    found: list[ast.Assign | ast.AugAssign | ast.AnnAssign] = []
    for node in trees.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found.extend(node for target in targets if ast.unparse(target) == written)
    if len(found) != 1 or not isinstance(found[0], ast.Assign) or not isinstance(found[0].value, ast.Attribute):
        return None
    value = found[0].value
    if ast.unparse(value.value) != holder or value.attr == attr:
        return None
    for node in trees.walk(tree):
        if isinstance(node, ast.If) and _is_none_test(node.test) and ast.unparse(node.test.left) == written:  # type: ignore[attr-defined]
            if found[0] in node.body:
                return value.attr
    return None


def set_here(found: dict[tuple[str, str], bool], holder: str, attr: str, default_is_none: bool) -> bool:
    """Whether the program sets the option *attr* read on *holder* (`args`, `FLAGS`) itself, by what
    `set_by_program` *found*: anywhere, or only where it is None and its default is."""
    for key in ((holder, attr), ("", attr)):
        only_none = found.get(key)
        if only_none is False or only_none and default_is_none:
            return True
    return False


def _written(expr: ast.expr) -> str:
    """`ast.unparse(expr)`, a name's own text at once (`self`, `args`: most assignment targets)."""
    return expr.id if type(expr) is ast.Name else ast.unparse(expr)


def _is_none_test(test: ast.expr) -> bool:
    """`<holder>.<attr> is None`."""
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Attribute) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Is) and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None)
