"""A command line whose sub-commands each pick a function: `p = sub.add_parser("train");
p.set_defaults(func=train)` for each, then `args = parser.parse_args(); args.func(args)`. The parse
sets `args.func` to the function of the sub-command the command line names, so a call of it runs one
of them, each at most once per run of that call (the resolver's `Choice`). Read from the syntax
alone: that holds only where every sub-parser the module adds sets the attribute with `set_defaults`
and the module sets it nowhere else (an option of that name or `dest`, an assignment, `setattr`);
where some sub-parser sets none, `args.func` is not one of them."""

from __future__ import annotations

import ast

from greenlint.analysis import trees

SET_DEFAULTS = "set_defaults"
_ADD_PARSER = "add_parser"
_ADD_ARGUMENT = "add_argument"


def setters(tree: ast.AST, attr: str) -> list[ast.Call]:
    """The `set_defaults(attr=name)` calls of *tree* (a name, `train` or `module.train`), where there is one
    for each `add_parser` call and nothing else in *tree* sets *attr* (an option named so or with `dest=attr`, `x.attr = ...`,
    `setattr(x, "attr", ...)`); [] otherwise."""
    found: list[ast.Call] = []
    parsers = 0
    for node in trees.walk(tree):
        if type(node) is ast.Attribute and type(node.ctx) is not ast.Load and node.attr == attr:
            return []  # `args.func = ...`, `del args.func`
        if type(node) is not ast.Call:
            continue
        name = (
            node.func.attr if type(node.func) is ast.Attribute else node.func.id if type(node.func) is ast.Name else ""
        )
        if name == _ADD_PARSER:
            parsers += 1
        elif name == SET_DEFAULTS and any(k.arg == attr for k in node.keywords):
            if not all(trees.dotted(k.value) for k in node.keywords if k.arg == attr):
                return []  # `set_defaults(phase="train")`: a value, no function
            found.append(node)
        elif name == SET_DEFAULTS and any(k.arg is None for k in node.keywords):
            return []  # `set_defaults(**defaults)`: which it sets is not read
        elif name == _ADD_ARGUMENT and _names(node, attr) or name == "setattr" and _names_attribute(node, attr):
            return []
    return found if found and len(found) == parsers else []


def _names(call: ast.Call, attr: str) -> bool:
    """Whether an `add_argument` call defines an option read as *attr* (`"--func"`, `dest="func"`)."""
    dest = next((k.value for k in call.keywords if k.arg == "dest"), None)
    if dest is not None:
        return not (type(dest) is ast.Constant and dest.value != attr)
    return any(
        type(a) is ast.Constant and isinstance(a.value, str) and a.value.lstrip("-").replace("-", "_") == attr
        for a in call.args
    )


def _names_attribute(call: ast.Call, attr: str) -> bool:
    """Whether a `setattr` call may set *attr* (its name a string equal to it, or not a literal)."""
    if len(call.args) < 2:
        return True
    name = call.args[1]
    return not (type(name) is ast.Constant and name.value != attr)
