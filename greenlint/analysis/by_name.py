"""Modules a program names by a string: `importlib.import_module(s)` and `__import__(s)`, where the
walk knows the string (a literal, a constant, the default of a command-line option: `args.model_def`
defaulting to `"models.inception_resnet_v1"`). The resolver asks the project for the module at that
path (`Imports.module`), so `network.inference(x)` is a call of that module's function, as after
`import models.inception_resnet_v1 as network`. A string not known, a relative name (`".mod"`) or a
module outside the project leaves the value unknown, as before.

The project's import graph (project.py) learns these imports from the text alone (`named_imports`): in
a module whose code calls `import_module` or `__import__`, each string literal that is a dotted name may be a module it
imports; one naming a project module is an import of it (not run at import time: a function's, as an
indented `import`), so the cache key covers that module and the scripts calling it are its callers."""

from __future__ import annotations

import re

from greenlint.analysis.values import Const

#: `importlib.import_module(name, package=None)`.
IMPORT_MODULE = "importlib.import_module"
#: The module `importlib` and the one function of it the resolver values.
IMPORTLIB_PATHS = frozenset({"importlib", IMPORT_MODULE})
#: The builtin `__import__(name, globals=None, locals=None, fromlist=(), level=0)`.
DUNDER_IMPORT = "__import__"
#: A call that imports a module named by a string.
_LOADER_CALL = re.compile(r"\b(?:import_module|__import__)\s*\(")
#: A string literal closed on its line that is a dotted name (`'models.inception_resnet_v1'`).
_DOTTED_STRING = re.compile(r"""(['"])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\1""")
#: The name a string-named import binds in `named_imports`' statements (none the code reads).
_BOUND = "_by_name"


def named_imports(text: str) -> list[tuple[str | None, ...]]:
    """The modules *text* may import by a string, as the groups of a plain `import path as name`
    statement (project.py's `_IMPORT_LINE`: only the whole path bound), one per distinct string; none
    where the code calls no loader."""
    if _LOADER_CALL.search(text) is None:
        return []
    paths = dict.fromkeys(match.group(2) for match in _DOTTED_STRING.finditer(text))
    return [("", None, None, f"{path} as {_BOUND}") for path in paths]


def imported_path(name: str, args: list, keywords: list) -> Const | None:
    """The dotted path (a string `Const`, maybe an option's default) of the module the call of *name*
    (`IMPORT_MODULE` or `DUNDER_IMPORT`) with the walked *args* and *keywords* gives: a known absolute
    name; for `__import__`, only with a `fromlist` known not empty (without one it gives the top
    package, `a` for `"a.b"`). None otherwise."""
    if any(starred for starred, _ in args) or any(key is None for key, _ in keywords):
        return None
    given = dict(keywords)
    value = args[0][1] if args else given.get("name")
    if type(value) is not Const or type(value.value) is not str or not _dotted(value.value):
        return None
    if name == IMPORT_MODULE:
        return value
    level = args[4][1] if len(args) > 4 else given.get("level", Const(0))
    fromlist = args[3][1] if len(args) > 3 else given.get("fromlist")
    known = type(level) is Const and level.value == 0 and type(fromlist) is Const and fromlist.value
    return value if known else None


def _dotted(text: str) -> bool:
    """Whether *text* is an absolute dotted module path (`models.inception_resnet_v1`)."""
    return all(part.isidentifier() for part in text.split("."))
