"""The hooks of the Keras callback classes that a `fit` of the file runs: a class defined directly on
`Callback` (or `ModelCheckpoint`, `TensorBoard`: `HOOKED_BASES`) in the file (callbacks.file_class)
or in a project module the file imports it from (callbacks.project_class: `from utils.callbacks
import Saver`), an instance of which the fit's `callbacks=` holds (callbacks.listed, followed through names and lists), each hook with how often
that fit calls it (analysis/handed.py: once per batch, epoch or fit). A callback defined but given
to no fit of the file has no hook here. A finding about a hook of another module's class is
reported where the file makes its instance, the module named: the fit that runs it is the file's."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from dataclasses import dataclass

from greenlint.analysis import handed
from greenlint.analysis.callsite import Span
from greenlint.rules.base import FileFacts, keyword
from greenlint.rules.callbacks import constructors, file_class, listed, project_class
from greenlint.rules.site import Site, is_keras_model_method
from greenlint.rules.syntax import gate_divisor, scope_body

#: A hook's own `% N` gate at or above which its work is no longer run on every call.
FEW_CALLS = 10
#: The bases of a callback class whose hooks are read: Keras' `Callback`, and the checkpoint and
#: TensorBoard callbacks, whose subclass's hook does its own work on top of the base's (a save or a
#: histogram of each weight in `on_batch_end` is one on every batch whatever the base does).
HOOKED_BASES = frozenset({"Callback", "ModelCheckpoint", "TensorBoard"})


@dataclass(frozen=True)
class FittedHook:
    """The hook *function* of the class *owner* (in cell *cell* of the file, or in the project module
    *module*), of a callback made at *made* (in cell *made_cell*), run *per* batch, epoch or fit
    (handed.PER_*) of the fit *fit*."""

    function: ast.FunctionDef
    cell: int | None
    per: str
    fit: Site
    made: ast.Call
    owner: ast.ClassDef
    made_cell: int | None = None
    module: str | None = None

    def span(self, facts: FileFacts, node: ast.expr | ast.stmt) -> Span:
        """Where a finding about *node* of the hook is reported: at it, or, for a class of another
        module, at the call making the instance."""
        if self.module is None:
            return facts.span(node, self.cell)
        return facts.span(self.made, self.made_cell)

    def of(self, facts: FileFacts) -> str:
        """` of utils/callbacks.py` for a class of another module (from the file's folder), else ""."""
        if self.module is None:
            return ""
        return " of " + os.path.relpath(self.module, os.path.dirname(os.path.abspath(facts.path))).replace(os.sep, "/")

    def few_batches(self) -> bool:
        """The fit runs fewer than `FEW_CALLS` batches, its count known."""
        steps = self.fit.work_value("steps")
        return isinstance(steps, int) and steps < FEW_CALLS

    def runs(self) -> str:
        """How often the hook runs, in words, with the fit's epochs or batches where known."""
        method = self.fit.api.rpartition(".")[2]
        return handed.repeat(self.per, method, self.fit.callsite.span.line, self.fit.callsite.work)[1]


def fitted_hooks(facts: FileFacts, per: str) -> Iterator[FittedHook]:
    """The hooks run once per *per* (handed.PER_BATCH, PER_EPOCH) of the callback classes of the file
    or of a project module that a `fit()`/`fit_generator()` of the file is given an instance of; once
    for each such fit."""
    for site in facts.sites:
        if not is_keras_model_method(site.api, ("fit", "fit_generator")):
            continue
        call = facts.node(site)
        given = keyword(call, "callbacks") if call is not None else None
        if given is None:
            continue
        for element in listed(facts, given.value) or ():
            for made in constructors(facts, element) or ():
                owner, module = file_class(facts, made, HOOKED_BASES), None
                if owner is None and (found := project_class(facts, made, HOOKED_BASES)) is not None:
                    module, owner = found
                if owner is None:
                    continue
                cell = _cell(facts, owner) if module is None else None
                for function in owner.body:
                    if isinstance(function, ast.FunctionDef) and handed.HOOKS.get(function.name) == per:
                        yield FittedHook(function, cell, per, site, made, owner, _cell(facts, made), module)


def _cell(facts: FileFacts, node: ast.AST) -> int | None:
    """The cell of the file (None: a script) that holds *node*."""
    return next((c for c in facts.cells if facts.parent(node, c) is not None), None)


def every_call(function: ast.FunctionDef, node: ast.AST) -> bool:
    """Whether *node* of the function (a hook, a logger's method) runs on each of its calls, or on 1
    in fewer than `FEW_CALLS`: no `if` (nor nested function, `try` handler) between it and the
    function, but one gated by a literal `% N` of N below `FEW_CALLS` (`if batch % 5 == 0:`); a loop
    (over the model's weights) and a `try` run their bodies on each call."""
    parents = {child: parent for parent in ast.walk(function) for child in ast.iter_child_nodes(parent)}
    child = node
    while (parent := parents.get(child)) is not None:
        if parent is function:
            return True
        divisor = gate_divisor(parent, child)
        if divisor is not None:
            if not (isinstance(divisor, int) and divisor < FEW_CALLS):
                return False
        elif isinstance(parent, (ast.If, ast.IfExp, ast.ExceptHandler, ast.Lambda)):
            return False
        elif isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return False
        child = parent
    return False


def own_calls(hook: FittedHook) -> Iterator[ast.Call]:
    """The calls the hook's own body makes (not those of a function nested in it)."""
    return (node for node in scope_body(hook.function) if isinstance(node, ast.Call))
