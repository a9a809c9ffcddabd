"""The folders a script puts on `sys.path` itself before it imports (`sys.path.append(ROOT_DIR)` with
`ROOT_DIR = os.path.abspath("../../")`, `sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))`),
read from its syntax alone: what Python searches for the imports after the edit, besides the folders
`project.search_roots` lists.

An edit counts where it is a statement of the module's top level (or of its main guard) and its folder
is known: built from literal strings, `__file__`, a name the top level binds once to such a path, with
`os.path.join`/`dirname`/`abspath`/`realpath`/`normpath`, `str(...)`, and `pathlib.Path`'s `/`,
`.parent`, `.resolve()`, `.absolute()`. An edit may be made through a function of the module whose body
puts its parameter on `sys.path` (`add_path(lib_path)` with `def add_path(path): sys.path.insert(0, path)`),
and by importing a module of the script's own folder that edits `sys.path` at its top level (`import
_init_paths`): its edits count at that import's line (one level: what it imports in turn is not read). A path not anchored at `__file__` is relative to the working
directory, which is not known: it is read from the script's own folder (where a notebook's kernel and
most research scripts run), or else from the project's root, where that folder exists; none of them, or a
folder outside the project, is no edit. `insert(0, ...)` searches the folder first, `append` last;
anything else (`extend`, `insert` elsewhere, an assignment to `sys.path`) is no edit read here."""

from __future__ import annotations

import ast
import os
import re
from typing import Any, NamedTuple

from greenlint.analysis import entry_runners
from greenlint.paths import project_root

#: Calls that keep the path they are given (`os.path.abspath(p)`, `str(p)`, `Path(p)`): what they
#: return names the same folder, wherever the program runs.
_SAME = frozenset({"abspath", "realpath", "normpath", "expanduser", "str", "Path", "PurePath", "fspath"})
#: A top-level `import name` of one module (`import _init_paths`): what may be a module of the script's folder.
_PLAIN_IMPORT = re.compile(r"^import[ \t]+(\w+)[ \t]*(?:#.*)?$", re.MULTILINE)
#: Methods of a `pathlib.Path` that keep its folder.
_SAME_METHODS = frozenset({"resolve", "absolute", "expanduser"})


class PathEdit(NamedTuple):
    """A folder the script at a module's top level puts on `sys.path` at *line*: searched *first* (`insert(0,
    ...)`) or last (`append`)."""

    line: int
    folder: str
    first: bool


class _Path(NamedTuple):
    """A path an expression names: *anchored* where it derives from `__file__` (absolute), relative to
    the working directory otherwise."""

    path: str
    anchored: bool


def edits(path: str, text: str, follow: bool = True) -> tuple[PathEdit, ...]:
    """The `sys.path` edits of the module at *path* (its code *text*) whose folder is known, in order; with
    those of the modules of its folder it imports (`import _init_paths`) where *follow*."""
    if "sys.path" not in text and not (follow and any(_sibling(name, path) for name in _PLAIN_IMPORT.findall(text))):
        return ()
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    found: list[PathEdit] = []
    names: dict[str, _Path | None] = {}
    helpers = _helpers(tree)
    for statement in _top(tree):
        if type(statement) is ast.Assign and len(statement.targets) == 1 and type(statement.targets[0]) is ast.Name:
            name = statement.targets[0].id
            names[name] = None if name in names else _value(statement.value, names, path)
            continue
        if type(statement) is ast.Import and follow:
            siblings = [sibling for alias in statement.names if (sibling := _sibling(alias.name, path)) is not None]
            found += [edit._replace(line=statement.lineno) for module, code in siblings
                      for edit in edits(module, code, follow=False)]
            continue
        if type(statement) is not ast.Expr or type(statement.value) is not ast.Call:
            continue
        edit = _edit(statement.value, names, path) or _helper_edit(statement.value, helpers, names, path)
        if edit is not None:
            first, value = edit
            folder = _folder(value, path)
            if folder is not None:
                found.append(PathEdit(statement.lineno, folder, first))
    return tuple(found)


def roots_at(roots: tuple[str, ...], made: tuple[PathEdit, ...], line: int | None = None) -> tuple[str, ...]:
    """*roots* (`project.search_roots`) with the edits *made* before *line* (all of them where None): the
    folders an import there is looked up in, first match wins."""
    first: list[str] = []
    last: list[str] = []
    for edit in made:
        if line is None or edit.line < line:
            if edit.first:
                first.insert(0, edit.folder)
            else:
                last.append(edit.folder)
    if not first and not last:
        return roots
    return tuple(dict.fromkeys([*first, *roots, *last]))


def _top(tree: ast.Module) -> list[Any]:
    """The statements of the module's top level, its main guard's in their place."""
    found: list[Any] = []
    for statement in tree.body:
        if type(statement) is ast.If and entry_runners.is_main_guard(statement.test):
            found.extend(statement.body)
        else:
            found.append(statement)
    return found


def _sibling(name: str, path: str) -> tuple[str, str] | None:
    """(its path, its text) of the module *name* of the folder of the script at *path*, where it is one
    (not the script itself) whose text names `sys.path`."""
    if "." in name:
        return None
    module = os.path.join(os.path.dirname(os.path.abspath(path)), f"{name}.py")
    if module == os.path.abspath(path) or not os.path.isfile(module):
        return None
    try:
        with open(module, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError):
        return None
    return (module, text) if "sys.path" in text else None


def _helpers(tree: ast.Module) -> dict[str, tuple[int, bool]]:
    """The module's functions that put a parameter on `sys.path` (`def add_path(path): sys.path.insert(0,
    path)`): name -> (that parameter's position, whether searched first)."""
    found: dict[str, tuple[int, bool]] = {}
    for function in tree.body:
        if type(function) is not ast.FunctionDef:
            continue
        params = [arg.arg for arg in function.args.args]
        for node in ast.walk(function):
            if type(node) is not ast.Call:
                continue
            edit = _edit(node, {param: _Path(param, False) for param in params}, "")
            if edit is not None and not edit[1].anchored and edit[1].path in params:
                found[function.name] = (params.index(edit[1].path), edit[0])
    return found


def _helper_edit(call: Any, helpers: dict[str, tuple[int, bool]], names: dict[str, _Path | None],
                 path: str) -> tuple[bool, _Path] | None:
    """(first, the path) of a call of one of the module's *helpers* (`add_path(lib_path)`); None otherwise."""
    if type(call.func) is not ast.Name or call.func.id not in helpers or call.keywords:
        return None
    position, first = helpers[call.func.id]
    if position >= len(call.args) or type(call.args[position]) is ast.Starred:
        return None
    value = _value(call.args[position], names, path)
    return None if value is None else (first, value)


def _edit(call: Any, names: dict[str, _Path | None], path: str) -> tuple[bool, _Path] | None:
    """(first, the path) of `sys.path.insert(0, p)` (first) or `sys.path.append(p)`; None for any other call."""
    func = call.func
    if type(func) is not ast.Attribute or call.keywords or any(type(a) is ast.Starred for a in call.args):
        return None
    owner = func.value
    if not (
        type(owner) is ast.Attribute
        and owner.attr == "path"
        and type(owner.value) is ast.Name
        and owner.value.id == "sys"
    ):
        return None
    if func.attr == "append" and len(call.args) == 1:
        value = _value(call.args[0], names, path)
        return None if value is None else (False, value)
    if func.attr == "insert" and len(call.args) == 2 and type(call.args[0]) is ast.Constant and call.args[0].value == 0:
        value = _value(call.args[1], names, path)
        return None if value is None else (True, value)
    return None


def _value(node: Any, names: dict[str, _Path | None], path: str) -> _Path | None:
    """The path *node* names, where known."""
    kind = type(node)
    if kind is ast.Constant:
        return _Path(node.value, False) if type(node.value) is str else None
    if kind is ast.Name:
        if node.id == "__file__":
            return _Path(os.path.abspath(path), True)
        return names.get(node.id)
    if kind is ast.BinOp and type(node.op) is ast.Div:  # `Path(__file__).parent / ".."`
        return _joined([node.left, node.right], names, path)
    if kind is ast.Attribute and node.attr == "parent":
        inner = _value(node.value, names, path)
        return None if inner is None else _parent(inner)
    if kind is not ast.Call or node.keywords or any(type(a) is ast.Starred for a in node.args):
        return None
    func = node.func
    called = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""
    if type(func) is ast.Attribute and called in _SAME_METHODS and not node.args:
        return _value(func.value, names, path)
    if called == "join" and node.args:
        return _joined(node.args, names, path)
    if len(node.args) != 1:
        return None
    inner = _value(node.args[0], names, path)
    if inner is None:
        return None
    if called == "dirname":
        return _parent(inner)
    return inner if called in _SAME else None


def _parent(value: _Path) -> _Path:
    """The folder holding *value* (`os.path.dirname`, `.parent`): of a relative path too (`..` of `.`)."""
    return _Path(os.path.normpath(os.path.join(value.path or ".", "..")), value.anchored)


def _joined(parts: list[Any], names: dict[str, _Path | None], path: str) -> _Path | None:
    values = [_value(part, names, path) for part in parts]
    if any(value is None for value in values):
        return None
    joined = os.path.join(*(value.path for value in values if value is not None))
    return _Path(joined, any(value.anchored and os.path.isabs(value.path) for value in values if value is not None))


def _folder(value: _Path, path: str) -> str | None:
    """The folder *value* names for the module at *path*: anchored at `__file__`, or relative to its own
    folder, or else to the project's root; None where none exists inside the project."""
    here = os.path.dirname(os.path.abspath(path))
    project = project_root(here)
    if value.anchored or os.path.isabs(value.path):
        places = [os.path.normpath(value.path)]
    else:
        places = [os.path.normpath(os.path.join(base, value.path)) for base in (here, project) if base is not None]
    inside = project or here
    for place in places:
        if os.path.isdir(place):
            return place if os.path.commonpath((inside, place)) == inside else None
    return None

