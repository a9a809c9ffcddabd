"""The model a class of a module trains when the scripts beside it build the model and hand it over:
a trainer class (`Trainer(model, loss)`, whose `train_step` runs `self.model(x, training=True)`)
knows nothing of the model's size, and its driver (a script or notebook beside it that imports it:
`EdsrTrainer(model=edsr(scale=4))`) does.

Read only for a module whose training runs in a class method with no evidence of its own, and of
its users only those whose text calls the class: most modules have no such user, and no user is
parsed twice in a run (`trees.parse_module`). The module's lint cache key holds its users' digests
(`ProjectIndex.analysis_inputs`), so an edit of a driver checks the module again."""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterator

from greenlint.analysis import trees
from greenlint.analysis.project import module_code, project_index
from greenlint.rules.beside import PRECISION_CHOSEN
from greenlint.rules.deliberate import test_module
from greenlint.rules.large_step import architecture
from greenlint.rules.syntax import last_name


def given_model(path: str, classes: frozenset[str]) -> str:
    """Why the model that the users of the module at *path* give one of *classes* (a trainer class
    and the subclasses the module defines) is large: a user's call of the class passes a call of a
    factory named after a large architecture (`EdsrTrainer(model=edsr(scale=4))`), or a name that
    user bound to one (`model = resnet50(); Trainer(model)`); "" where none does. A user whose text
    chooses the precision (`mixed_float16`, `mixed_precision`: `beside.PRECISION_CHOSEN`) is passed
    over: it sets the policy for the model it hands over; so is a test module."""
    users = project_index().users(os.path.abspath(path)) if classes else []
    if not users:
        return ""
    called = re.compile(r"\b(?:" + "|".join(re.escape(name) for name in sorted(classes)) + r")\s*\(")
    for user in users:
        if test_module(user):
            continue  # a test's model says nothing of what the class trains in use
        text = module_code(user)
        if text is None or not called.search(text) or PRECISION_CHOSEN.search(text):
            continue  # a user that chooses the precision has done what the finding would ask
        try:
            tree = trees.parse_module(text, user, edited=False)
        except (SyntaxError, ValueError):
            continue
        for call, factory, word in _given(tree, classes):
            return (
                f"{os.path.basename(user)} gives {last_name(call.func)}() the model {factory}() builds,"
                f" named after the {word} architecture"
            )
    return ""


def _given(tree: ast.Module, classes: frozenset[str]) -> Iterator[tuple[ast.Call, str, str]]:
    """The calls of *classes* in *tree* passing a large architecture's factory call, or a name bound
    to one anywhere in the module: each with the factory's name and the architecture's word."""
    built: dict[str, tuple[str, str]] = {}
    calls = []
    for node in trees.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            made = _factory(node.value)
            for target in node.targets:
                if isinstance(target, ast.Name) and made:
                    built[target.id] = made
        elif isinstance(node, ast.Call) and last_name(node.func) in classes:
            calls.append(node)
    for call in calls:
        for value in (*call.args, *(k.value for k in call.keywords)):
            made = _factory(value) if isinstance(value, ast.Call) else None
            if made is None and isinstance(value, ast.Name):
                made = built.get(value.id)
            if made:
                yield call, *made


def _factory(call: ast.Call) -> tuple[str, str] | None:
    """The factory's name and the large architecture it is named after (`edsr`, `resnet50`: snake_case,
    as a class named so may be a layer of any size); None for any other call."""
    name = last_name(call.func)
    word = architecture(name)
    return (name, word) if word else None
