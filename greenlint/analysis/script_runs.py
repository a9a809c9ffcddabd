"""How often a call a script makes runs per run of that script as the program, read from its syntax
alone (constructed.py: `trainer.train()` in main.py, of a class another module defines). A call runs
once per run of its scope where no loop encloses it there (a comprehension is one); at most so under a
condition (an `if`, an `except`, a `case`, a branch of `x if c else y` or of `a and b`; the main
guard `if __name__ == "__main__":` is none: the script runs as the program). Module-level code runs
once; a top-level function of the script as often as the script's calls of it, where it names it only
in those calls or hands it to an entry runner (`app.run(main)`, or `app.run()` for its `main`:
entry_runners.py). Anything else is not known: a loop (however long), a nested function, a method, a
lambda, a function named otherwise or called recursively."""

from __future__ import annotations

import ast
from collections import Counter
from typing import Any

from greenlint.analysis import entry_runners, trees

#: A count not known.
UNKNOWN: tuple[int | None, bool] = (None, False)
#: The comprehensions: their first iterable is read once, the rest once per element.
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
#: The nodes that change how often, or whether, the calls inside them run (`ScriptRuns._visit`).
_SHAPING = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.For, ast.AsyncFor, ast.While,
                      *_COMPREHENSIONS, ast.If, ast.IfExp, ast.BoolOp, ast.Try, getattr(ast, "TryStar", ast.Try), ast.Match})


class ScriptRuns:
    """The runs of the calls of one script (its parsed *tree*; *loads*: how often it reads each name)."""

    def __init__(self, tree: ast.Module, loads: dict[str, int]):
        self.loads = loads
        self.functions = {node.name: node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
        #: id of a call -> (the top-level function it runs in, None at module level; repeated; under a condition)
        self.places: dict[int, tuple[str | None, bool, bool]] = {}
        self.calls_of: dict[str, list[ast.Call]] = {}  # a top-level function -> the calls running it
        self.named: Counter[str] = Counter()  # a top-level function -> the reads of its name those calls make
        self.memo: dict[str, tuple[int | None, bool]] = {}
        for statement in tree.body:
            self._visit(statement, None, False, False)

    def total(self, calls: list[ast.Call]) -> tuple[int | None, bool]:
        """The runs of *calls* together per run of the script, and whether that is at most so."""
        return self._sum(calls, frozenset())

    def _sum(self, calls: list[ast.Call], active: frozenset[str]) -> tuple[int | None, bool]:
        count, upper = 0, False
        for call in calls:
            runs, held = self.call(call, active)
            if runs is None:
                return UNKNOWN
            count += runs
            upper = upper or held
        return count, upper

    def call(self, call: ast.Call, active: frozenset[str]) -> tuple[int | None, bool]:
        scope, repeated, guarded = self.places.get(id(call), (None, True, False))
        if repeated:
            return UNKNOWN
        if scope is None:
            return 1, guarded
        runs, upper = self.function(scope, active)
        return runs, upper or guarded

    def function(self, name: str, active: frozenset[str]) -> tuple[int | None, bool]:
        """The runs of the script's top-level function *name*: the sum of its calls' runs."""
        if name in active:
            return UNKNOWN
        if name not in self.memo:
            calls = self.calls_of.get(name, [])
            named_otherwise = self.loads.get(name, 0) != self.named[name]  # passed on, kept: run elsewhere
            self.memo[name] = UNKNOWN if not calls or named_otherwise else self._sum(calls, active | {name})
        return self.memo[name]

    def _visit(self, node: Any, scope: str | None, repeated: bool, guarded: bool) -> None:
        """Note the place of each call in *node* (told apart by exact type: a parsed tree's nodes are of
        ast's own classes)."""
        kind = type(node)
        if kind not in _SHAPING:  # most nodes: a call's place is its parent's
            if kind is ast.Call:
                self.places[id(node)] = (scope, repeated, guarded)
                self._runner(node)
            self._children(node, scope, repeated, guarded)
            return
        if kind in (ast.FunctionDef, ast.AsyncFunctionDef):
            top = scope is None and not repeated and self.functions.get(node.name) is node
            for part in (*node.decorator_list, *node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)):
                self._visit(part, scope, repeated, guarded)
            for statement in node.body:
                self._visit(statement, node.name if top else scope, repeated or not top, False if top else guarded)
            return
        if kind in (ast.ClassDef, ast.Lambda):
            self._children(node, scope, True, guarded)
            return
        if kind in (ast.For, ast.AsyncFor):
            self._visit(node.iter, scope, repeated, guarded)
            self._children(node, scope, True, guarded, skip=node.iter)
            return
        if kind is ast.While:
            self._children(node, scope, True, guarded)
            return
        if kind in _COMPREHENSIONS:
            first = node.generators[0].iter
            self._visit(first, scope, repeated, guarded)
            self._children(node, scope, True, guarded, skip=first)
            return
        if kind is ast.If:
            main = scope is None and not repeated and entry_runners.is_main_guard(node.test)
            self._visit(node.test, scope, repeated, guarded)
            for statement in node.body:
                self._visit(statement, scope, repeated, guarded or not main)
            for statement in node.orelse:
                self._visit(statement, scope, repeated, True)
            return
        if kind is ast.IfExp:
            self._visit(node.test, scope, repeated, guarded)
            self._visit(node.body, scope, repeated, True)
            self._visit(node.orelse, scope, repeated, True)
            return
        if kind is ast.BoolOp:
            self._visit(node.values[0], scope, repeated, guarded)
            for value in node.values[1:]:
                self._visit(value, scope, repeated, True)
            return
        if kind in (ast.Try, getattr(ast, "TryStar", ast.Try)):
            for statement in (*node.body, *node.orelse, *node.finalbody):
                self._visit(statement, scope, repeated, guarded)
            for handler in node.handlers:
                self._visit(handler, scope, repeated, True)
            return
        # ast.Match, the last of _SHAPING
        self._visit(node.subject, scope, repeated, guarded)
        for case in node.cases:
            self._visit(case, scope, repeated, True)

    def _children(self, node: ast.AST, scope: str | None, repeated: bool, guarded: bool, skip: ast.AST | None = None) -> None:
        """Visit *node*'s children in `ast.iter_child_nodes`' order, less the shared leaves no call is
        in (`trees.child_fields`: a `Name`'s context, an operator), which were most of the visits."""
        for name in trees.child_fields(type(node)):
            value = getattr(node, name, None)
            if type(value) is list:
                for child in value:
                    if child is not skip and isinstance(child, ast.AST):
                        self._visit(child, scope, repeated, guarded)
            elif value is not skip and isinstance(value, ast.AST):
                self._visit(value, scope, repeated, guarded)

    def _runner(self, call: ast.Call) -> None:
        """Note *call* as a call of the top-level function it runs: `main(args)`, or an entry runner's
        (`app.run(main)`; `app.run()`: the script's `main`)."""
        func = call.func
        if type(func) is ast.Name and func.id in self.functions:
            self.calls_of.setdefault(func.id, []).append(call)
            self.named[func.id] += 1
            return
        if trees.dotted(func)[-2:] != ["app", "run"]:
            return
        given = entry_runners.given_main([(type(a) is ast.Starred, a) for a in call.args], [(k.arg, k.value) for k in call.keywords])
        name = given.id if type(given) is ast.Name else entry_runners.DEFAULT_MAIN if given is None else None
        if name is not None and name in self.functions:
            self.calls_of.setdefault(name, []).append(call)
            self.named[name] += given is not None
