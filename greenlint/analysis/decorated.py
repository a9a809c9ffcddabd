"""The parameters of a decorated function that its project decorator's wrapper fills itself (issue 26).

Caffe-converted networks (kaffe) build layers through `@layer def conv(self, input, k_h, k_w, c_o, ...)`,
where `layer(op)` returns `layer_decorated(self, *args, **kwargs)`, which calls `op(self, layer_input,
*args, **kwargs)`: `self.conv(7, 7, 64, ...)` gives `k_h` 7, and `input` comes from the wrapper.
Binding that call to the undecorated signature would give `input` 7 and every later parameter its
neighbour's argument. A decorator whose wrapper passes its own parameters through unchanged
(`fn(*args, **kwargs)`, `fn(self, *args)`) keeps the signature: nothing is inserted.
"""

from __future__ import annotations

import ast


def inserted(decorator: ast.FunctionDef, method: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """The positional parameters of *method* that *decorator*'s wrapper passes itself, between the
    wrapper's own positional parameters (passed through in order) and its `*args` (the caller's
    other arguments); () where the wrapper is not read so."""
    wrapper = _wrapper(decorator)
    if wrapper is None or wrapper.args.vararg is None:
        return ()
    (op,) = [a.arg for a in (*decorator.args.posonlyargs, *decorator.args.args)]
    calls = [
        node for node in ast.walk(wrapper)
        if type(node) is ast.Call and type(node.func) is ast.Name and node.func.id == op
    ]
    if len(calls) != 1:
        return ()
    own = [a.arg for a in (*wrapper.args.posonlyargs, *wrapper.args.args)]
    args = calls[0].args
    last = args[-1] if args else None
    if not isinstance(last, ast.Starred) or not _names(last.value, wrapper.args.vararg.arg):
        return ()
    given = args[:-1]
    if any(type(arg) is ast.Starred for arg in given):
        return ()
    if len(given) <= len(own) or not all(_names(arg, name) for arg, name in zip(given, own)):
        return ()
    params = [a.arg for a in (*method.args.posonlyargs, *method.args.args)]
    return tuple(params[len(own) : len(given)]) if len(params) >= len(given) else ()


def _wrapper(decorator: ast.FunctionDef) -> ast.FunctionDef | None:
    """The function a one-parameter *decorator* defines in its body and returns; None otherwise."""
    args = decorator.args
    if len(args.posonlyargs) + len(args.args) != 1 or args.vararg or args.kwonlyargs or args.kwarg:
        return None
    defined = {stmt.name: stmt for stmt in decorator.body if type(stmt) is ast.FunctionDef}
    returned = [stmt.value for stmt in decorator.body if type(stmt) is ast.Return]
    if len(returned) != 1 or type(returned[0]) is not ast.Name:
        return None
    return defined.get(returned[0].id)


def _names(node: ast.expr, name: str) -> bool:
    return type(node) is ast.Name and node.id == name
