"""What tf.data does by itself, by TensorFlow version and `tf.data.Options`: the premise of the
input-pipeline rules that advise doing it by hand (GL401 prefetch, GL402 parallel map).

`tf.data.experimental.OptimizationOptions` (`tf.data.Options().experimental_optimization`;
TensorFlow's tensorflow/python/data/ops/options.py) documents, per release:
`map_parallelization` ("Whether to parallelize stateless map transformations. If None, defaults
to True.") from TensorFlow 2.7, and `inject_prefetch` ("Whether to inject prefetch
transformation as the last transformation when the last transformation is a synchronous
transformation. If None, defaults to True.") from 2.11 (2.10's page: "defaults to False").
Both are default graph rewrites: `apply_default_optimizations = False` leaves only those
enabled explicitly.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Option
from greenlint.rules.tf_target import target

#: The first release whose tf.data applies each optimisation by default.
SINCE = {"map_parallelization": (2, 7), "inject_prefetch": (2, 11)}
OPTION = Option(
    "tensorflow-version",
    str,
    "",
    'The TensorFlow version the checked code targets (`"2.10"`), for GL401/GL402/GL204/GL408/GL409/GL413/GL602; empty: read from the'
    " project's pins (pyproject.toml, requirements*.txt, setup.cfg, setup.py, environment.yml), else the"
    " installed `tensorflow`, else the newest catalogued.",
)


def by_hand(facts: FileFacts, options: Mapping[str, Any], optimisation: str) -> str | None:
    """Why tf.data does not apply *optimisation* to this file's pipelines by itself: the
    TensorFlow release targeted predates its default, or a `tf.data.Options` in the file turns
    it (or the default rewrites) off. None where tf.data does it: advice to do it by hand is moot."""
    found = target(facts.path, str(options.get(OPTION.key) or ""))
    major, minor = SINCE[optimisation]
    if found.older_than(major, minor):
        return f"{found.shown()} has no `{optimisation}` by default"
    if _turned_off(facts, optimisation):
        return f"`tf.data.Options` here turn `{optimisation}` off"
    return None


def _turned_off(facts: FileFacts, optimisation: str) -> bool:
    """The file sets *optimisation* or `apply_default_optimizations` to False (an attribute
    assignment, or a keyword argument)."""
    names = {optimisation, "apply_default_optimizations"}
    if not any(name in facts.text for name in names):
        return False
    for cell in facts.cells:
        for node in facts.nodes(cell, ast.Assign, ast.keyword):
            if isinstance(node, ast.Assign) and _false(node.value):
                if any(isinstance(t, ast.Attribute) and t.attr in names for t in node.targets):
                    return True
            elif isinstance(node, ast.keyword) and node.arg in names and _false(node.value):
                return True
    return False


def _false(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is False
