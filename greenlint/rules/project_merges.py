"""TF1 merged summaries a file gets from a project module: `loss, train_op, summaries = model.train(x)`
where the project's `train` returns `tf.summary.merge_all()` and the project builds a histogram,
image or audio summary unconditionally (in that module or a project module it imports directly);
and what a file's own `merge_all()` holds from the project modules it imports.

Read statically from the modules' text (never imported), as greenlint.rules.callbacks reads a
callback class: the file's `from module import Name` is looked up like Python's `sys.path`
would, and the function (or the method of the class the file instantiates) is found by name.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator

from greenlint.analysis.project import direct_imports
from greenlint.rules.base import FileFacts
from greenlint.rules.callbacks import imported_from_project, read_tree
from greenlint.rules.syntax import SCOPES, cell_units, last_name

#: The last names of the TF summary ops that copy a whole tensor out (what makes a merge heavy),
#: TensorFlow 0.x's (`tf.histogram_summary`) included.
HEAVY_NAMES = frozenset({"histogram", "image", "audio", "histogram_summary", "image_summary", "audio_summary"})


def project_merge_names(facts: FileFacts) -> dict[str, str]:
    """Names the file binds to a `merge_all()` a project function or method returns, where the
    project builds a heavy summary outside any `if` of its function (what `merge_all` then holds),
    each with where that summary is built (`tf.summary.image` of modules.py:89)."""
    cells = [cell for cell, _ in cell_units(facts)]
    instances, imported = _made_and_imported(facts, cells)
    here = os.path.dirname(os.path.abspath(facts.path))
    found: dict[str, str] = {}
    heavy: dict[str, str | None] = {}  # each project module read once per file
    for cell in cells:
        for node in facts.nodes(cell, ast.Assign):
            if not (len(node.targets) == 1 and isinstance(node.value, ast.Call)):
                continue
            for path, function in _callees(facts, node.value.func, instances, imported):
                positions = _merge_positions(function)
                if path not in heavy and positions:
                    heavy[path] = _heavy_in_project(path, here)
                held = heavy.get(path)
                if positions and held:
                    found.update(dict.fromkeys(_targets_at(node.targets[0], positions), held))
    return found


def project_calls(facts: FileFacts) -> Iterator[tuple[int | None, ast.Call, str, ast.FunctionDef]]:
    """Each call of the file naming a project definition (`_callees`: a function the file imports, or
    a method of a project class the file made the receiver from, `logger = Logger('logs')` then
    `logger.log_weights(model, step)`), with its cell, the module's file and the definition."""
    cells = [cell for cell, _ in cell_units(facts)]
    instances, imported = _made_and_imported(facts, cells)
    for cell in cells:
        for call in facts.nodes(cell, ast.Call):  # the file's one walk, shared
            if isinstance(call, ast.Call):
                for path, function in _callees(facts, call.func, instances, imported):
                    yield cell, call, path, function


def _made_and_imported(facts: FileFacts, cells: list[int | None]) -> tuple[dict[str, str], set[str]]:
    """The names the file binds to an instance of a class it names (`m = Transformer(hp)`: "m" to
    "Transformer"), and the names its `from` imports bind."""
    instances = {
        node.targets[0].id: node.value.func.id
        for cell in cells
        for node in facts.nodes(cell, ast.Assign)  # the file's one walk, shared
        if len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
    }
    imported = {
        alias.asname or alias.name
        for cell in cells
        for node in facts.nodes(cell, ast.ImportFrom)
        for alias in node.names
    }
    return instances, imported


def _callees(
    facts: FileFacts, func: ast.expr, instances: dict[str, str], imported: set[str]
) -> list[tuple[str, ast.FunctionDef]]:
    """The project definitions a call names: a function the file imports (`build(...)`), or a
    method of a project class the file made the receiver from (`m = Model(hp)`; `m.train(...)`)."""
    if isinstance(func, ast.Name):
        owner, wanted = func.id, None
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in instances:
        owner, wanted = instances[func.value.id], func.attr
    else:
        return []
    if owner not in imported:
        return []
    found: list[tuple[str, ast.FunctionDef]] = []
    for path, name in imported_from_project(facts, owner) or ():
        read = read_tree(path) if path is not None else None
        if path is None or read is None:
            continue
        for top in read[1].body:
            if wanted is None and isinstance(top, ast.FunctionDef) and top.name == name:
                found.append((path, top))
            elif wanted is not None and isinstance(top, ast.ClassDef) and top.name == name:
                found += [(path, f) for f in top.body if isinstance(f, ast.FunctionDef) and f.name == wanted]
    return found


def _is_merge_all(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and last_name(node.func) in ("merge_all", "merge_all_summaries")
        and "summar" in ast.unparse(node.func)
    )


def _merge_positions(function: ast.FunctionDef) -> set[int | None]:
    """Where the function's returns hold a `merge_all()`: each index in a returned tuple, None
    for the whole value returned."""
    merged = {
        n.targets[0].id
        for n in ast.walk(function)
        if isinstance(n, ast.Assign)
        and len(n.targets) == 1
        and isinstance(n.targets[0], ast.Name)
        and _is_merge_all(n.value)
    }

    def merge(expr: ast.expr) -> bool:
        return _is_merge_all(expr) or isinstance(expr, ast.Name) and expr.id in merged

    positions: set[int | None] = set()
    for n in ast.walk(function):
        if isinstance(n, ast.Return) and n.value is not None:
            if isinstance(n.value, ast.Tuple):
                positions |= {i for i, e in enumerate(n.value.elts) if merge(e)}
            elif merge(n.value):
                positions.add(None)
    return positions


def _targets_at(target: ast.expr, positions: set[int | None]) -> set[str]:
    if isinstance(target, ast.Name):
        return {target.id} if None in positions else set()
    if isinstance(target, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in target.elts):
        return {e.id for i, e in enumerate(target.elts) if i in positions and isinstance(e, ast.Name)}
    return set()


def _heavy_in_project(path: str, here: str) -> str | None:
    """Where the module at *path*, or a project module it imports directly, builds a histogram,
    image or audio summary outside any `if` of its function (a flag the user turns on leaves it
    out), the module named from the folder *here*: `tf.summary.image` of modules.py:89; None
    where none does."""
    read = read_tree(path)
    if read is None:
        return None
    call = _unconditional_heavy(read[1])
    return _where(call, path, here) if call is not None else heavy_imported(path, read[0], here)


def heavy_imported(path: str, text: str, here: str | None = None) -> str | None:
    """Where a project module the module at *path* (its *text*) imports directly builds a
    histogram, image or audio summary outside any `if` of its function (what a `merge_all()`
    there holds), the module named from the folder *here* (*path*'s own by default); None where
    none does."""
    for other in direct_imports(os.path.abspath(path), text):
        read = read_tree(other)
        call = _unconditional_heavy(read[1]) if read is not None and "summary" in read[0] else None
        if call is not None:
            return _where(call, other, here or os.path.dirname(os.path.abspath(path)))
    return None


def _where(call: ast.Call, path: str, here: str) -> str:
    return f"`{ast.unparse(call.func)}` of {os.path.relpath(os.path.abspath(path), here)}:{call.lineno}"


def _unconditional_heavy(tree: ast.Module) -> ast.Call | None:
    """The first histogram, image or audio summary the module builds outside any `if` of its function."""

    def visit(node: ast.AST, guarded: bool) -> ast.Call | None:
        if isinstance(node, SCOPES):
            guarded = False
        if (
            isinstance(node, ast.Call)
            and last_name(node.func) in HEAVY_NAMES
            and "summary" in ast.unparse(node.func)
            and not guarded
        ):
            return node
        inner = guarded or isinstance(node, (ast.If, ast.IfExp, ast.ExceptHandler))
        return next((found for child in ast.iter_child_nodes(node) if (found := visit(child, inner)) is not None), None)

    return visit(tree, False)
