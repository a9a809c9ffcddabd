"""Command-line options a program defines, read from its syntax alone: the attribute each
argparse option (`parser.add_argument("--display-step", default=100)`, read as
`args.display_step`) or absl / tf.app flag (`flags.DEFINE_integer("display_step", 100, ...)`,
read as `FLAGS.display_step`) is read as, and the default it takes when the command line
does not set it. The resolver reads a loop's period from these (`if step % args.display_step
== 0`), the rules their figures (`rules.defaults`)."""

from __future__ import annotations

import ast
from collections.abc import Iterable

#: absl / tf.compat.v1.flags definitions: the name is the first argument, the default the second.
ABSL = frozenset({"DEFINE_integer", "DEFINE_float", "DEFINE_string", "DEFINE_bool", "DEFINE_boolean"})


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


def defined(call: ast.Call) -> tuple[str, ast.expr] | None:
    """(the attribute it is read as, its default as written) of an argparse option or absl flag
    that *call* defines with a default; None for any other call."""
    name = last_name(call.func)
    if name == "add_argument":
        default = keyword(call, "default")
        attr = dest(call)
        return (attr, default.value) if default is not None and attr else None
    if name in ABSL:
        flag, value = argument(call, "name", 0), argument(call, "default", 1)
        if isinstance(flag, ast.Constant) and isinstance(flag.value, str) and value is not None:
            return flag.value, value
    return None


def default(calls: Iterable[ast.Call], attr: str) -> ast.expr | None:
    """The default, as written, of the one option or flag among *calls* read as *attr*; None where
    none or more than one defines it."""
    found = [d[1] for d in map(defined, calls) if d is not None and d[0] == attr]
    return found[0] if len(found) == 1 else None


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
