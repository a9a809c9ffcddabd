"""How the scripts beside a module call a class or function it defines but never names itself
(`dcgan = DCGAN(sess, batch_size=FLAGS.batch_size, ...)` in main.py, `class DCGAN` in model.py):
the project index's `importers` (the modules of its folder naming TensorFlow that import it, which
the per-file cache key covers), read from their syntax alone, never walked or imported. An argument
is known where it is a literal, a module constant of the script bound once to a literal, or the
default of one of the script's command-line options that it does not set itself (`options.py`:
its `Const.option` says so); unknown otherwise."""

from __future__ import annotations

import ast
import functools
import os
import re

from greenlint.analysis import options, trees
from greenlint.analysis.values import Const

#: One call's arguments: the positional values in order and the keyword values by name (None: unknown).
Arguments = tuple[list[Const | None], dict[str, Const | None]]


def importing_by_name(importers: dict[str, str | None], path: str) -> dict[str, str]:
    """Of the scripts beside *path* that import it (*importers*: their texts by path, None where
    unreadable), those whose text may import names from it (`from model import DCGAN`): what
    `calls_elsewhere` reads, chosen once per module rather than once per name."""
    stem = os.path.splitext(os.path.basename(path))[0]
    return {importer: text for importer, text in importers.items() if text is not None and _imports_from(text, stem)}


def calls_elsewhere(importers: dict[str, str], path: str, name: str) -> list[Arguments] | None:
    """The arguments of each call of *name* in the scripts beside *path* that import it by name
    (*importers*: their texts by path, `importing_by_name`); None where none calls it, or where one
    names it otherwise than in a plain call (passes it on, subclasses it, spreads `*args` or
    `**kwargs` into it)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    found: list[Arguments] = []
    for importer, text in importers.items():
        if name not in text:
            continue
        calls = _script(importer, text).get((stem, name), ())
        if calls is None:
            return None
        found.extend(calls)
    return found or None


def _imports_from(text: str, stem: str) -> bool:
    """Whether *text* may hold `from ...<stem> import`: the module's last name followed by `import`,
    with only blanks and line continuations between (a test of the text before its parse). Tried
    where the name occurs only: a search for the pattern, which starts with `\\b`, does not skip
    ahead to the name and cost 40× more on Keras's modules."""
    pattern = re.compile(rf"\b{re.escape(stem)}[\s\\]*import\b")
    at = text.find(stem)
    while at != -1:
        if pattern.match(text, at) is not None:
            return True
        at = text.find(stem, at + 1)
    return False


@functools.lru_cache(maxsize=16)
def _script(path: str, text: str) -> dict[tuple[str, str], list[Arguments] | None]:
    """(module stem, name) -> the arguments of each call of a name this script imports from that
    module, None where the script names it otherwise than in plain calls."""
    try:
        tree = trees.parse_module(text, path, edited=False)
    except SyntaxError:
        return {}
    imported = {
        alias.asname or alias.name: ((node.module or "").rpartition(".")[2], alias.name)
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    if not imported:
        return {}
    script = _Script(tree)
    by_name: dict[str, list[ast.Call]] = {}
    for call in script.calls:
        if isinstance(call.func, ast.Name):
            by_name.setdefault(call.func.id, []).append(call)
    found: dict[tuple[str, str], list[Arguments] | None] = {}
    for local, key in imported.items():
        named = script.loads.get(local, 0)
        if not named:
            continue
        calls = by_name.get(local, [])
        if named != len(calls) or any(_spreads(c) for c in calls):
            found[key] = None
        else:
            found[key] = [([script.value(a) for a in c.args], {k.arg: script.value(k.value) for k in c.keywords if k.arg})
                          for c in calls]
    return found


def _spreads(call: ast.Call) -> bool:
    return any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords)


class _Script:
    """What a script's arguments are read from: its calls (option definitions among them), the
    options it sets itself and its names bound once at its top level to a literal."""

    def __init__(self, tree: ast.Module):
        self.tree = tree
        self.calls: list[ast.Call] = []
        self.loads: dict[str, int] = {}
        stores: dict[str, int] = {}
        for node in trees.walk(tree):
            if isinstance(node, ast.Name):
                counts = self.loads if type(node.ctx) is ast.Load else stores
                counts[node.id] = counts.get(node.id, 0) + 1
            elif isinstance(node, ast.Call):
                self.calls.append(node)
        self.constants = {
            target.id: node.value
            for node in tree.body
            if isinstance(node, ast.Assign) and len(node.targets) == 1
            for target in node.targets
            if isinstance(target, ast.Name) and stores.get(target.id) == 1
        }

    def value(self, node: ast.expr) -> Const | None:
        """The argument *node*'s value, where known."""
        if isinstance(node, ast.Name) and node.id in self.constants:
            node = self.constants[node.id]
        if isinstance(node, ast.Attribute):  # `FLAGS.batch_size`, `args.batch_size`
            default = self.defaults.get(node.attr)
            if isinstance(default, ast.Name):
                default = self.constants.get(default.id)
            known = _literal(default) if default is not None else None
            if known is None or options.set_here(self.set, ast.unparse(node.value), node.attr, known.value is None):
                return None
            return Const(known.value, node.attr)
        return _literal(node)

    @functools.cached_property
    def defaults(self) -> dict[str, ast.expr | None]:
        """The defaults of the options the script defines (`options.defaults`)."""
        return options.defaults(self.calls)

    @functools.cached_property
    def set(self) -> dict[tuple[str, str], bool]:
        """The options the script sets itself (`options.set_by_program`), read where an argument
        names one with a known default."""
        return options.set_by_program(self.tree)


def _literal(node: ast.expr) -> Const | None:
    try:
        return Const(ast.literal_eval(node))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
