"""Modules a program names by a string: `importlib.import_module(s)` and `__import__(s)`, where the
walk knows the string (a literal, a constant, the default of a command-line option: `args.model_def`
defaulting to `"models.inception_resnet_v1"`). The resolver asks the project for the module at that
path (`Imports.module`), so `network.inference(x)` is a call of that module's function, as after
`import models.inception_resnet_v1 as network`. A string not known, a relative name (`".mod"`) or a
module outside the project leaves the value unknown, as before. A name built from known parts is
known too (`built`: `"models." + args.model`, `"models.{}".format(...)`, an f-string, `"models.%s" % ...`).
A name of the program's own namespace looked up by a string is that name too (`namespace`): `globals()[key]`
the module-level name *key* (its own definitions and what its imports bind, star imports included),
`locals()[key]` the name of the scope it is in, where the walk knows *key* (a literal, a constant, a parameter
its one call binds); a key not known leaves the value unknown.
A function importing the module its string parameter names, or looking a name up in its namespace (`loads_by_name`:
`get_obj_by_name(module_name, obj_name)`, `build(model_name)` returning `globals()[model_name](...)`) is walked
again for each call giving it literals, as a factory by name is (`Resolver.instantiated`).

The project's import graph (project.py) learns these imports from the text alone (`named_paths`): in a
module whose code calls `import_module` or `__import__`, each string literal that is a dotted name may be a
module it imports, and one starting with a package's dotted prefix (`'models.' + name`) any module of that
package; one of the project is an import of it (not run at import time: a function's, as an indented
`import`), so the cache key covers that module and the scripts calling it are its callers."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import Any

from greenlint.analysis.values import OPAQUE, Const

#: `importlib.import_module(name, package=None)`.
IMPORT_MODULE = "importlib.import_module"
#: The module `importlib` and the one function of it the resolver values.
IMPORTLIB_PATHS = frozenset({"importlib", IMPORT_MODULE})
#: The builtin `__import__(name, globals=None, locals=None, fromlist=(), level=0)`.
DUNDER_IMPORT = "__import__"
#: The builtins giving a namespace of the program's names: the module's, the scope's.
NAMESPACES = frozenset({"globals", "locals"})
#: A call that imports a module named by a string.
_LOADER_CALL = re.compile(r"\b(?:import_module|__import__)\s*\(")
#: A string literal closed on its line that is a dotted name (`'models.inception_resnet_v1'`), or starts
#: with the dotted prefix of one the code completes (`'models.' + name`, `f'models.{name}'`, `'models.%s'`).
_DOTTED_STRING = re.compile(r"""(['"])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(\.?)(?:[{%][^'"\n]*)?\1""")


def named_paths(text: str) -> list[str]:
    """The dotted paths of the modules *text* may import by a string, once each: a string literal that
    is a dotted name, and the prefix (ending with its dot: `models.`) of one the code builds; none
    where the code calls no loader."""
    if ("import_module" not in text and DUNDER_IMPORT not in text) or _LOADER_CALL.search(text) is None:
        return []  # (the plain substrings first: the pattern, with no literal prefix, is tried at every position)
    return list(dict.fromkeys(match.group(2) + match.group(3) for match in _DOTTED_STRING.finditer(text)))


def namespace(node: ast.expr) -> str | None:
    """The builtin of `NAMESPACES` that *node* calls with no argument (`globals()`), else None."""
    if type(node) is ast.Call and type(node.func) is ast.Name and node.func.id in NAMESPACES \
            and not node.args and not node.keywords:
        return node.func.id
    return None


def loads_by_name(node: ast.AST) -> bool:
    """Whether the function *node* has parameters and its body imports a module by a string
    (`importlib.import_module(name)`, `__import__(name, ...)`) or looks a name up in a `namespace`
    (`globals()[name]`): a factory by name, whose value a call giving it a literal picks
    (`get_obj_by_name("models.net", "build")`, `build("resnet")`, walked with it)."""
    args = getattr(node, "args", None)
    if args is None or not (args.posonlyargs or args.args or args.kwonlyargs):
        return False
    return any(
        type(call) is ast.Call
        and (
            type(call.func) is ast.Name
            and call.func.id in (DUNDER_IMPORT, "import_module")
            or type(call.func) is ast.Attribute
            and call.func.attr == "import_module"
        )
        or type(call) is ast.Subscript
        and namespace(call.value) is not None
        for call in ast.walk(node)
    )


def imported_path(
    name: str, node: ast.Call, args: list, keywords: list, value_of: Callable[[ast.expr], Any]
) -> Const | None:
    """The dotted path (a string `Const`, maybe an option's default) of the module the call *node* of
    *name* (`IMPORT_MODULE` or `DUNDER_IMPORT`), with the walked *args* and *keywords*, gives: a known
    absolute name, given or `built`; for `__import__`, only with a `fromlist` known not empty (without
    one it gives the top package, `a` for `"a.b"`). None otherwise."""
    if any(starred for starred, _ in args) or any(key is None for key, _ in keywords):
        return None
    given = dict(keywords)
    value = args[0][1] if args else given.get("name")
    if type(value) is not Const or value is OPAQUE:
        argument = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "name"), None)
        value = built(argument, value_of) if argument is not None else None
    if value is None or type(value.value) is not str or not _dotted(value.value):
        return None
    if name == IMPORT_MODULE:
        return value
    level = args[4][1] if len(args) > 4 else given.get("level", Const(0))
    fromlist = args[3][1] if len(args) > 3 else given.get("fromlist")
    known = type(level) is Const and level.value == 0 and type(fromlist) is Const and fromlist.value
    return value if known else None


def built(node: ast.expr, value_of: Callable[[ast.expr], Any]) -> Const | None:
    """The string *node* builds from known strings: literals, names and attributes whose value
    (*value_of*, the walk's) is a known string, joined by `+`, an f-string (plain fields), `str.format`
    of a literal (positional fields) or `%` of a literal; marked with the first command-line option
    whose default a part is. None where a part is not known or calls anything else."""
    if type(node) is ast.Constant:
        return Const(node.value) if type(node.value) is str else None
    if type(node) in (ast.Name, ast.Attribute):
        value = value_of(node)
        return value if type(value) is Const and type(value.value) is str else None
    parts: list[Const | None]
    if type(node) is ast.BinOp and type(node.op) is ast.Add:
        parts = [built(node.left, value_of), built(node.right, value_of)]
        return _joined(parts, lambda texts: "".join(texts))
    if type(node) is ast.BinOp and type(node.op) is ast.Mod and type(node.left) is ast.Constant:
        fields = node.right.elts if type(node.right) is ast.Tuple else [node.right]
        parts = [built(node.left, value_of), *(built(f, value_of) for f in fields)]
        return _joined(parts, lambda texts: texts[0] % tuple(texts[1:]))
    if type(node) is ast.JoinedStr:
        return _joined([_piece(v, value_of) for v in node.values], lambda texts: "".join(texts))
    if (
        type(node) is ast.Call
        and type(node.func) is ast.Attribute
        and node.func.attr == "format"
        and type(node.func.value) is ast.Constant
        and not node.keywords
    ):
        parts = [built(node.func.value, value_of), *(built(a, value_of) for a in node.args)]
        return _joined(parts, lambda texts: texts[0].format(*texts[1:]))
    return None


def _piece(node: ast.expr, value_of: Callable[[ast.expr], Any]) -> Const | None:
    """A piece of an f-string: its literal text, or a plain field's known string (no conversion, no format)."""
    if type(node) is ast.FormattedValue:
        return built(node.value, value_of) if node.conversion == -1 and node.format_spec is None else None
    return built(node, value_of)


def _joined(parts: list[Const | None], join: Callable[[list[str]], str]) -> Const | None:
    """*join* of the texts of *parts*, all known; the first option among them marks the result."""
    if any(part is None for part in parts):
        return None
    try:
        text = join([part.value for part in parts if part is not None])
    except (TypeError, ValueError, IndexError, KeyError):  # `"%s %s" % x`: fields and values disagree
        return None
    return Const(text, next((part.option for part in parts if part is not None and part.option), ""))


def _dotted(text: str) -> bool:
    """Whether *text* is an absolute dotted module path (`models.inception_resnet_v1`)."""
    return all(part.isidentifier() for part in text.split("."))
