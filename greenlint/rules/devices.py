"""Where a checked file's training runs, as far as the file itself says: whether it hides every GPU,
places a call on the host, or on some other device."""

from __future__ import annotations

import ast

from greenlint.rules.base import FileFacts, argument
from greenlint.rules.syntax import last_name, units

#: `os.environ["CUDA_VISIBLE_DEVICES"]` set to one of these at top level hides every GPU from TensorFlow.
NO_GPU = frozenset({"", "-1"})


def hides_gpus(facts: FileFacts) -> bool:
    """Whether a top-level statement of the file (of any notebook cell) hides every GPU from
    TensorFlow: `os.environ["CUDA_VISIBLE_DEVICES"]` set to a literal hiding them all, or
    `tf.config.set_visible_devices([], "GPU")` (also its `experimental` form). The program then
    trains on the host whatever the machine has."""
    if not ("CUDA_VISIBLE_DEVICES" in facts.text or "set_visible_devices" in facts.text):
        return False
    for module in units(facts):
        for node in module.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                if node.value.value in NO_GPU and any(_visible_devices(target) for target in node.targets):
                    return True
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and _no_gpu_visible(node.value):
                return True
    return False


def placed_on_host(facts: FileFacts, node: ast.AST, cell: int | None) -> bool:
    """Whether *node* runs inside a `with tf.device("/cpu:0"):` block (any literal naming a CPU
    device, `"CPU"` or `"/job:localhost/device:CPU:0"`): its operations are placed on the host
    whatever GPU the machine has."""
    return host_block(facts, node, cell) is not None


def host_block(facts: FileFacts, node: ast.AST, cell: int | None) -> ast.With | ast.AsyncWith | None:
    """The innermost `with` around *node* that holds a `tf.device("/cpu:0")` (as `placed_on_host`
    reads it), or None."""
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, (ast.With, ast.AsyncWith)) and any(host_device(item.context_expr) for item in parent.items):
            return parent
    return None


def host_device(expr: ast.expr) -> bool:
    """`device("/cpu:0")`: a call of `device` given a literal naming a CPU."""
    if not (isinstance(expr, ast.Call) and last_name(expr.func) == "device" and expr.args):
        return False
    name = expr.args[0]
    return isinstance(name, ast.Constant) and isinstance(name.value, str) and "cpu" in name.value.lower()


def other_device(call: ast.Call) -> bool:
    """A `device(...)` call that names something other than the host: a GPU or TPU literal, a name or
    an expression (`f"/gpu:{i}"`, one tower per device), or None (which clears a placement)."""
    return last_name(call.func) == "device" and bool(call.args) and not host_device(call)


def _no_gpu_visible(call: ast.Call) -> bool:
    """`set_visible_devices([], "GPU")`: an empty device list for the GPU type."""
    if last_name(call.func) != "set_visible_devices" or not call.args:
        return False
    devices = call.args[0]
    kind = argument(call, "device_type", 1)
    return (
        isinstance(devices, (ast.List, ast.Tuple))
        and not devices.elts
        and isinstance(kind, ast.Constant)
        and kind.value == "GPU"
    )


def _visible_devices(target: ast.expr) -> bool:
    return (
        isinstance(target, ast.Subscript)
        and last_name(target.value) == "environ"
        and isinstance(target.slice, ast.Constant)
        and target.slice.value == "CUDA_VISIBLE_DEVICES"
    )
