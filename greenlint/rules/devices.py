"""Where a checked file's training runs, as far as the file itself says: whether it hides every GPU."""

from __future__ import annotations

import ast

from greenlint.rules.base import FileFacts
from greenlint.rules.syntax import last_name, text_mentions, units

#: `os.environ["CUDA_VISIBLE_DEVICES"]` set to one of these at top level hides every GPU from TensorFlow.
NO_GPU = frozenset({"", "-1"})


def hides_gpus(facts: FileFacts) -> bool:
    """Whether a top-level statement of the file (of any notebook cell) sets
    `os.environ["CUDA_VISIBLE_DEVICES"]` to a literal hiding every GPU: the program then trains
    on the host whatever the machine has."""
    if not text_mentions(facts, "CUDA_VISIBLE_DEVICES"):
        return False
    for module in units(facts):
        for node in module.body:
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)):
                continue
            if node.value.value in NO_GPU and any(_visible_devices(target) for target in node.targets):
                return True
    return False


def _visible_devices(target: ast.expr) -> bool:
    return (
        isinstance(target, ast.Subscript)
        and last_name(target.value) == "environ"
        and isinstance(target.slice, ast.Constant)
        and target.slice.value == "CUDA_VISIBLE_DEVICES"
    )
