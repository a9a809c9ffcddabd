"""A script's names that hold one of several classes it imports, picked at run time, read from its
syntax alone (constructed.py): `models = [GAN, CGAN]; for model in models: if args.gan_type ==
model.model_name: gan = model(sess, ...)`, `{"unet": Unet, "fcn": Fcn}[args.model](...)`. The
candidates come from a list, tuple or dict display of names the script imports (at most `MOST_CHOICES` of
them, each once), iterated by a `for` whose target the script binds nowhere else, or subscripted,
directly or through a name bound once to the display. A call through such a name or subscript is a
call of each candidate, as many times as it runs, at most: exactly one of them runs per call, which
one is not known. A display also read otherwise (passed on, changed) picks nothing: its names keep
that use, and their calls stay unseen."""

from __future__ import annotations

import ast
import re
from collections import Counter
from typing import Any

from greenlint.analysis import trees
from greenlint.analysis.values import MOST_CHOICES


class Choices:
    """The calls of a script's *tree* through a pick of one of the names of *imported* (names the script
    imports): `picked(call)`, their candidates; `displayed[name]`, a candidate's reads inside the displays
    those picks come from (no call of it themselves). None at all where a display or a pick is also read
    otherwise (`models.append(X)`, `model.build()` of a class, `train(model)`)."""

    def __init__(self, tree: ast.Module, imported: frozenset[str], text: str | None = None):
        self.calls: dict[int, tuple[str, ...]] = {}
        self.displayed: Counter[str] = Counter()
        self.tables: dict[str, ast.expr] = {}
        self.imported = imported
        self.used: Counter[str] = Counter()  # a table's reads as the source of a pick
        self.displays: dict[int, ast.expr] = {}  # the displays picks come from, by id
        if text is not None and not _may_display(text, imported):
            return  # no display of them (the tree's walk costs ~100x this test)
        nodes: list[Any] = trees.walk(tree)
        stores: Counter[str] = Counter()
        loads: Counter[str] = Counter()
        for node in nodes:
            if type(node) is ast.Name:
                (loads if type(node.ctx) is ast.Load else stores)[node.id] += 1
        self.tables = {
            node.targets[0].id: node.value
            for node in nodes  # a name bound once to a display of them
            if type(node) is ast.Assign
            and len(node.targets) == 1
            and type(node.targets[0]) is ast.Name
            and stores[node.targets[0].id] == 1
            and _candidates(node.value, imported)
        }
        held: dict[str, tuple[str, ...]] = {}  # a name holding one of them -> the candidates
        for node in nodes:
            if type(node) in (ast.For, ast.AsyncFor) and type(node.target) is ast.Name and stores[node.target.id] == 1:
                found = self._source(node.iter, listed=True)  # `for model in models:`
                if found:
                    held[node.target.id] = found
            elif (
                type(node) is ast.Assign
                and len(node.targets) == 1
                and type(node.targets[0]) is ast.Name
                and stores[node.targets[0].id] == 1
                and type(node.value) is ast.Subscript
            ):
                found = self._source(node.value.value, listed=False)  # `build = builders[args.model]`
                if found:
                    held[node.targets[0].id] = found
            elif type(node) is ast.Call and type(node.func) is ast.Subscript:
                found = self._source(node.func.value, listed=False)  # `builders[args.model](...)`
                if found:
                    self.calls[id(node)] = found
        called = {id(n.func.value) for n in nodes if type(n) is ast.Call and type(n.func) is ast.Attribute}
        picks: Counter[str] = Counter()  # a pick's reads as a call's callee, or an attribute read off it
        for node in nodes:
            if type(node) is ast.Call and type(node.func) is ast.Name and node.func.id in held:
                self.calls[id(node)] = held[node.func.id]
                picks[node.func.id] += 1
            elif (
                type(node) is ast.Attribute
                and type(node.value) is ast.Name
                and node.value.id in held
                and id(node.value) not in called
            ):
                picks[node.value.id] += 1  # `model.model_name`: a class attribute, read
        if any(picks[name] != loads[name] for name in held) or any(self.used[n] != loads[n] for n in self.tables):
            self.calls = {}
            return
        for display in self.displays.values():
            self.displayed.update(_candidates(display, imported))

    def picked(self, call: ast.Call) -> tuple[str, ...]:
        """The candidates one of which *call* calls; () for a call of anything else."""
        return self.calls.get(id(call), ())

    def _source(self, node: ast.expr, listed: bool) -> tuple[str, ...]:
        """The candidates of a display (*listed*: a list or tuple, else a dict) or of a name bound once
        to one (`tables`), noted as read as a pick's source."""
        display = node
        if type(node) is ast.Name and node.id in self.tables:
            display = self.tables[node.id]
        if (type(display) is not ast.Dict) is not listed:
            return ()
        found = _candidates(display, self.imported)
        if found:
            if type(node) is ast.Name:
                self.used[node.id] += 1
            self.displays[id(display)] = display
        return found


def _candidates(node: ast.expr, imported: frozenset[str]) -> tuple[str, ...]:
    """The names a display holds: a list or tuple of names, or a dict of them keyed by literals; each
    distinct, at least two and at most MOST_CHOICES, all of *imported*; () otherwise."""
    items: list[Any]
    if isinstance(node, (ast.List, ast.Tuple)):
        items = node.elts
    elif isinstance(node, ast.Dict) and all(type(k) is ast.Constant for k in node.keys):
        items = node.values
    else:
        return ()
    names = tuple(item.id for item in items if type(item) is ast.Name)
    if (
        len(names) != len(items)
        or not 2 <= len(names) <= MOST_CHOICES
        or len(set(names)) != len(names)
        or not set(names) <= imported
    ):
        return ()
    return names


def _may_display(text: str, imported: frozenset[str]) -> bool:
    """Whether *text* (the tree's source) may hold a display of one of *imported* (`[GAN, CGAN]`, `{"unet":
    unet}`): one of them after an opening bracket, a comma or a colon, before a comma or a closing one."""
    if not imported:
        return False
    names = "|".join(map(re.escape, sorted(imported)))
    return re.search(rf"[\[{{(,:]\s*(?:{names})\s*[,\]}})]", text) is not None
