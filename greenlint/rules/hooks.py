"""The hooks of the file's Keras callback classes that a `fit` of the file runs: a class defined
directly on `Callback` (callbacks.file_class), an instance of which the fit's `callbacks=` holds
(callbacks.listed, followed through names and lists), each hook with how often that fit calls it
(analysis/handed.py: once per batch, epoch or fit). A callback defined but given to no fit of the
file has no hook here."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from greenlint.analysis import handed
from greenlint.rules.base import FileFacts, keyword
from greenlint.rules.callbacks import constructors, file_class, listed
from greenlint.rules.site import Site, is_keras_model_method
from greenlint.rules.syntax import gate_divisor, scope_body

#: A hook's own `% N` gate at or above which its work is no longer run on every call.
FEW_CALLS = 10


@dataclass(frozen=True)
class FittedHook:
    """The hook *function* (in cell *cell*) of a callback made at *made*, run *per* batch, epoch or
    fit (handed.PER_*) of the fit *fit*."""

    function: ast.FunctionDef
    cell: int | None
    per: str
    fit: Site
    made: ast.Call

    def few_batches(self) -> bool:
        """The fit runs fewer than `FEW_CALLS` batches, its count known."""
        steps = self.fit.work_value("steps")
        return isinstance(steps, int) and steps < FEW_CALLS

    def runs(self) -> str:
        """How often the hook runs, in words, with the fit's epochs or batches where known."""
        method = self.fit.api.rpartition(".")[2]
        return handed.repeat(self.per, method, self.fit.callsite.span.line, self.fit.callsite.work)[1]


def fitted_hooks(facts: FileFacts, per: str) -> Iterator[FittedHook]:
    """The hooks run once per *per* (handed.PER_BATCH, PER_EPOCH) of the file's callback classes that
    a `fit()`/`fit_generator()` of the file is given an instance of; once for each such fit."""
    for site in facts.sites:
        if not is_keras_model_method(site.api, ("fit", "fit_generator")):
            continue
        call = facts.node(site)
        given = keyword(call, "callbacks") if call is not None else None
        if given is None:
            continue
        for element in listed(facts, given.value) or ():
            for made in constructors(facts, element) or ():
                owner = file_class(facts, made)
                if owner is None:
                    continue
                cell = next((c for c in facts.cells if facts.parent(owner, c) is not None), None)
                for function in owner.body:
                    if isinstance(function, ast.FunctionDef) and handed.HOOKS.get(function.name) == per:
                        yield FittedHook(function, cell, per, site, made)


def every_call(facts: FileFacts, hook: FittedHook, node: ast.AST) -> bool:
    """Whether *node* of the hook runs on each of its calls, or on 1 in fewer than `FEW_CALLS`: no
    `if` (nor nested function, `try` handler) between it and the hook, but one gated by a literal
    `% N` of N below `FEW_CALLS` (`if batch % 5 == 0:`); a loop (over the model's weights) and a
    `try` run their bodies on each call."""
    child = node
    for parent in facts.ancestors(node, hook.cell):
        if parent is hook.function:
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
