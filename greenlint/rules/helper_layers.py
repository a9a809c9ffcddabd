"""Layers a project builds by hand, as TensorFlow 1 code does: a function returning a convolution plus
its bias (`tf.nn.bias_add`, or a `tf.layers` convolution's own), and a callable whose call
batch-normalises its input (a function, or a class whose `__call__` does, held by an attribute of
`self`), defined in the file or in a project module it imports."""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Callable
from dataclasses import dataclass

from greenlint.analysis.project import project_index
from greenlint.analysis.trees import dotted
from greenlint.rules.base import FileFacts
from greenlint.rules.importers import module_facts, per_content, text_matches
from greenlint.rules.syntax import enclosing

NN = "tensorflow.nn."
CONVOLUTIONS = frozenset(
    NN + name
    for name in (
        "conv1d",
        "conv2d",
        "conv3d",
        "conv1d_transpose",
        "conv2d_transpose",
        "conv3d_transpose",
        "depthwise_conv2d",
        "separable_conv2d",
        "atrous_conv2d",
        "convolution",
    )
)
BIAS_ADD = NN + "bias_add"
#: TensorFlow 1's layer functions that add a bias by default (`use_bias=True`, no activation, channels last).
LAYER_CONVOLUTIONS = frozenset(
    "tensorflow.compat.v1.layers." + name
    for name in (
        "conv1d",
        "conv2d",
        "conv3d",
        "conv2d_transpose",
        "conv3d_transpose",
        "separable_conv1d",
        "separable_conv2d",
    )
)
#: Calls that return their first argument's values reshaped: the bias stays per channel.
RESHAPES = frozenset({"tensorflow.reshape", "tensorflow.identity"})
#: Batch normalizations of their first argument over its last axis by default, as the catalog names them.
NORMALIZATIONS = frozenset({"tensorflow.compat.v1.layers.batch_normalization"})
#: TensorFlow 1's `tf.contrib.layers.batch_norm` (not in the catalog, which TensorFlow 2 builds): its
#: default `data_format` is channels last.
CONTRIB_BATCH_NORM = ("contrib", "layers", "batch_norm")
#: `data_format`s whose channels are the last axis (None: the default, channels last for every call read here).
CHANNELS_LAST = (None, "NHWC", "NWC", "NDHWC", "channels_last")
BIAS_TEXT = re.compile(rb"\bbias_add\b|\blayers\.(separable_)?conv")
NORM_TEXT = re.compile(rb"\bbatch_norm")
#: (module path, pattern) -> (the module's stamp, whether its text matches): `_matches` memoised.
_MATCHED: dict[tuple[str, bytes], tuple[tuple | None, bool]] = {}
#: A keyword argument given as something other than a literal.
UNKNOWN = object()


@dataclass(frozen=True)
class Bias:
    """Where a project helper adds the bias of the convolution it returns."""

    module: str  # the helper's file
    line: int  # the line of the call that adds it
    by: str  # that call, as a reader knows it: `tf.nn.bias_add`, `tf.layers.conv2d`'s default bias
    rank: int | None  # the rank of the convolution's output (None where the call does not say)


def biased_helper(facts: FileFacts, call: ast.Call) -> Bias | None:
    """Where a call of a project function (`conv2d(x, 64)`) returns a convolution plus its bias: a
    `tf.nn.bias_add` of a `tf.nn` convolution, its one `return` on every path; or, on each of its
    paths (`if separable: return tf.layers.separable_conv2d(...)` and `return tf.layers.conv2d(...)`),
    a `tf.layers` convolution that keeps its default bias and adds no activation. None where the
    function returns anything else on any path, or is not found."""
    if not isinstance(call.func, ast.Name):
        return None
    found = _definition(facts, call.func.id, BIAS_TEXT)
    if found is None:
        return None
    module, function = found
    if not isinstance(function, ast.FunctionDef):
        return None
    layers = _layer_returns(module, function)
    if layers:
        names = dict.fromkeys(f"`tf.layers.{_api(module, c).rsplit('.', 1)[-1]}`" for c in layers)
        ranks = {_rank(module, c) for c in layers}
        rank = ranks.pop() if len(ranks) == 1 else None
        return Bias(module.path, layers[0].lineno, "the default bias of " + " or ".join(names), rank)
    bias = _resolve(module, _returned(function))
    if not isinstance(bias, ast.Call):
        return None
    return bias_added(module, bias, _resolve(module, bias.args[0] if bias.args else None, env=_env_at(function, bias)))


def bias_added(module: FileFacts, bias: ast.Call, convolution: ast.expr | None) -> Bias | None:
    """Where `bias` (a `tf.nn.bias_add` of `convolution`, what its first argument stands for) adds
    a `tf.nn` convolution's bias over its channels, both channels last; None where it does not."""
    if not _is(module, bias, {BIAS_ADD}) or _data_format(bias) not in CHANNELS_LAST:
        return None
    if not (
        isinstance(convolution, ast.Call)
        and _is(module, convolution, CONVOLUTIONS)
        and _data_format(convolution) in CHANNELS_LAST
    ):
        return None
    return Bias(module.path, bias.lineno, "`tf.nn.bias_add`", _rank(module, convolution))


def keeps_bias(module: FileFacts, call: ast.Call) -> bool:
    """`call` is a `tf.layers` convolution that adds its bias at its output (`use_bias` and
    `activation` left to their defaults or given as `True` and `None`, channels last)."""
    return (
        _is(module, call, LAYER_CONVOLUTIONS)
        and _constant(call, "use_bias", True) is True
        and _constant(call, "activation", None) is None
        and _data_format(call) in CHANNELS_LAST
    )


def _layer_returns(module: FileFacts, function: ast.FunctionDef) -> list[ast.Call]:
    """The function's returned `tf.layers` convolutions, when every `return` of it returns one that
    `keeps_bias`; else none."""
    returns = [n for n in ast.walk(function) if isinstance(n, ast.Return)]
    calls = [r.value for r in returns if isinstance(r.value, ast.Call) and _is(module, r.value, LAYER_CONVOLUTIONS)]
    if not returns or len(calls) != len(returns):
        return []
    return calls if all(keeps_bias(module, c) for c in calls) else []


def _rank(module: FileFacts, convolution: ast.Call) -> int | None:
    """The rank of a convolution's output (batch, spatial axes, channels) as its name says: 4 for a `conv2d`."""
    digits = [c for c in _api(module, convolution).rsplit(".", 1)[-1] if c.isdigit()]
    return 2 + int(digits[0]) if digits else None


def _api(module: FileFacts, call: ast.Call) -> str:
    site = module.site_at(call, None)
    return site.api if site is not None else ""


def normalising(facts: FileFacts, func: ast.expr, cell: int | None, rank: int | None) -> bool:
    """Whether calling `func` (`self.bn`, `bn`) batch-normalises its first argument over its last axis
    (`-1`, or `rank - 1` where the argument's rank is known): a project function that returns such a
    normalization of its first parameter, or an instance of a project class whose `__call__` does
    (the one value the class assigns to that attribute of `self`)."""
    if isinstance(func, ast.Name):
        found = _definition(facts, func.id, NORM_TEXT)
        return (
            found is not None
            and isinstance(found[1], ast.FunctionDef)
            and _normalises(found[0], found[1], skip=0, rank=rank)
        )
    parts = dotted(func)
    if len(parts) != 2 or parts[0] != "self":
        return False
    owner = next((a for a in facts.ancestors(func, cell) if isinstance(a, ast.ClassDef)), None)
    values = [] if owner is None else _self_assigned(owner, parts[1])
    if len(values) != 1 or not isinstance(values[0], ast.Call) or not isinstance(values[0].func, ast.Name):
        return False
    found_class = _definition(facts, values[0].func.id, NORM_TEXT)
    if found_class is None:
        return False
    module, klass = found_class
    if not isinstance(klass, ast.ClassDef):
        return False
    call = next((f for f in klass.body if isinstance(f, ast.FunctionDef) and f.name == "__call__"), None)
    return call is not None and _normalises(module, call, skip=1, rank=rank)


def _normalises(module: FileFacts, function: ast.FunctionDef, skip: int, rank: int | None) -> bool:
    """The function returns a batch normalization of its parameter after the first `skip` ones, over
    its last axis."""
    params = function.args.posonlyargs + function.args.args
    if len(params) <= skip:
        return False
    norm = _resolve(module, _returned(function))
    given = batch_normalised(module, norm, rank) if isinstance(norm, ast.Call) else None
    return isinstance(given, ast.Name) and given.id == params[skip].arg


def batch_normalised(module: FileFacts, norm: ast.Call, rank: int | None) -> ast.expr | None:
    """What `norm` batch-normalises (its first argument, or `inputs=`), where it is TensorFlow 1's
    batch normalization (`tf.compat.v1.layers.batch_normalization`, `tf.contrib.layers.batch_norm`)
    over its last axis (`-1`, or `rank - 1` where the input's rank is known), trainable, and with
    its offset `beta` (`center` left True: the offset that takes over a cancelled bias's role); else None."""
    if not (_is(module, norm, NORMALIZATIONS) or _contrib_batch_norm(module, norm)):
        return None
    if not (
        _constant(norm, "trainable", True) is True
        and _constant(norm, "center", True) is True
        and _constant(norm, "axis", -1) in ((-1,) if rank is None else (-1, rank - 1))
        and _data_format(norm) in CHANNELS_LAST
    ):
        return None
    return norm.args[0] if norm.args else next((k.value for k in norm.keywords if k.arg == "inputs"), None)


def _contrib_batch_norm(module: FileFacts, call: ast.Call) -> bool:
    parts = dotted(call.func)
    return tuple(parts[1:]) == CONTRIB_BATCH_NORM and module.imported.get(parts[0]) == "tensorflow"


def _definition(
    facts: FileFacts,
    name: str,
    text: re.Pattern[bytes],
    find: Callable[[FileFacts, str], ast.stmt | None] | None = None,
) -> tuple[FileFacts, ast.stmt] | None:
    """The module-level function or class `name` of the file (a script), else of the first project
    module it imports that defines it (whose text matches `text`, read before analysing it); with
    `find`, what it finds in the module instead (a class's method)."""
    find = find or _module_level
    if not isinstance(facts.source, str):
        return None  # a notebook's cells: not followed
    own = find(facts, name)
    if own is not None:
        return facts, own
    absolute = os.path.abspath(facts.path)
    if not os.path.isfile(absolute):
        return None
    for path in project_index().imports(absolute):
        if not _matches(path, text):
            continue
        module = module_facts(path)
        found = find(module, name) if module is not None else None
        if module is not None and found is not None:
            return module, found
    return None


def stacked_bias(facts: FileFacts, call: ast.Call) -> tuple[Bias, str] | None:
    """Where `call`, `model.add_conv2d(...)` on a network builder (a project class stacking its
    layers' outputs in a list of `self`), stacks a convolution plus its bias: the one method of that
    name among the classes of the file or of the first project module defining one appends to
    `self.<list>`, in its straight-line code, a `tf.nn.bias_add` of a `tf.nn` convolution. The
    bias, and the list's name."""
    if not isinstance(call.func, ast.Attribute):
        return None
    module, method = _definition(facts, call.func.attr, BIAS_TEXT, _method) or (None, None)
    stacked = _stacked(method) if isinstance(method, ast.FunctionDef) else None
    if module is None or not isinstance(method, ast.FunctionDef) or stacked is None:
        return None
    bias = _resolve(module, stacked[1], env=_env_at(method, stacked[1]))
    if not isinstance(bias, ast.Call):
        return None
    convolution = _resolve(module, bias.args[0] if bias.args else None, env=_env_at(method, bias))
    added = bias_added(module, bias, convolution)
    return (added, stacked[0]) if added is not None else None


def stacks_batch_norm(facts: FileFacts, call: ast.Call, stack: str, rank: int | None) -> bool:
    """`call`, `model.add_batch_norm()` on a network builder, stacks on `self.<stack>` a batch
    normalization (`batch_normalised`) of that list's last output: `self.<stack>[-1]`, or a call
    of a method of the class returning it (`self.get_output()`)."""
    if not isinstance(call.func, ast.Attribute):
        return False
    module, method = _definition(facts, call.func.attr, NORM_TEXT, _method) or (None, None)
    stacked = _stacked(method) if isinstance(method, ast.FunctionDef) else None
    if module is None or not isinstance(method, ast.FunctionDef) or stacked is None or stacked[0] != stack:
        return False
    norm = _resolve(module, stacked[1], env=_env_at(method, stacked[1]))
    given = batch_normalised(module, norm, rank) if isinstance(norm, ast.Call) else None
    if isinstance(given, ast.Call) and dotted(given.func)[:1] == ["self"] and len(dotted(given.func)) == 2:
        getter = _method(module, dotted(given.func)[1])
        given = _returned(getter) if isinstance(getter, ast.FunctionDef) else None
    return _last_of(given, stack)


def _method(module: FileFacts, name: str) -> ast.stmt | None:
    """The method `name` of the module's one class that defines it (None where none or several do)."""
    tree = module.module(None)
    classes = [s for s in (tree.body if tree is not None else ()) if isinstance(s, ast.ClassDef)]
    methods = [f for c in classes for f in c.body if isinstance(f, ast.FunctionDef) and f.name == name]
    return methods[0] if len(methods) == 1 else None


def _stacked(method: ast.FunctionDef) -> tuple[str, ast.expr] | None:
    """The list of `self` the method appends to and the value appended, where it appends once, on
    its straight-line path (`self.outputs.append(out)`)."""
    appends = [
        n
        for n in ast.walk(method)
        if isinstance(n, ast.Call) and len(dotted(n.func)) == 3 and dotted(n.func)[::2] == ["self", "append"]
    ]
    if len(appends) != 1 or len(appends[0].args) != 1:
        return None
    statement = next((s for s in _straight(method.body) if isinstance(s, ast.Expr) and s.value is appends[0]), None)
    return (dotted(appends[0].func)[1], appends[0].args[0]) if statement is not None else None


def _last_of(expr: ast.expr | None, stack: str) -> bool:
    """`expr` is `self.<stack>[-1]`."""
    return (
        isinstance(expr, ast.Subscript)
        and dotted(expr.value) == ["self", stack]
        and isinstance(expr.slice, ast.UnaryOp)
        and isinstance(expr.slice.op, ast.USub)
        and isinstance(expr.slice.operand, ast.Constant)
        and expr.slice.operand.value == 1
    )


def _matches(path: str, text: re.Pattern[bytes]) -> bool:
    """`text_matches`, read once per content of the module (a script asks for each call it reads)."""
    return per_content(_MATCHED, (path, text.pattern), path, lambda: text_matches(path, text))


def _module_level(facts: FileFacts, name: str) -> ast.stmt | None:
    tree = facts.module(None)
    definitions = (ast.FunctionDef, ast.ClassDef)
    return next(
        (s for s in (tree.body if tree is not None else ()) if isinstance(s, definitions) and s.name == name), None
    )


def _returned(function: ast.FunctionDef) -> ast.expr | None:
    """The value of the function's only `return`, when it is reached by every call (in the body or
    its `with` blocks, not under a condition)."""
    returns = [n for n in ast.walk(function) if isinstance(n, ast.Return)]
    if len(returns) != 1 or returns[0].value is None:
        return None
    return returns[0].value if returns[0] in _straight(function.body) else None


def _straight(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements every run goes through, in order: the body's and its `with` blocks'."""
    out: list[ast.stmt] = []
    for statement in body:
        out.append(statement)
        if isinstance(statement, ast.With):
            out.extend(_straight(statement.body))
    return out


def _env_at(function: ast.FunctionDef, node: ast.AST) -> dict[str, ast.expr | None]:
    """Each name's value where `node` is evaluated: the last `name = value` of the straight-line code
    before the statement holding it (None where a name is bound otherwise, or under a condition)."""
    env: dict[str, ast.expr | None] = {}
    for statement in _straight(function.body):
        if any(n is node for n in ast.walk(statement)) and not isinstance(statement, ast.With):
            return env
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            env[statement.targets[0].id] = statement.value
        elif not isinstance(statement, ast.With):
            for n in ast.walk(statement):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    env[n.id] = None
    return env


def _resolve(
    module: FileFacts, expr: ast.expr | None, env: dict[str, ast.expr | None] | None = None
) -> ast.expr | None:
    """The call an expression of a helper's straight-line code stands for: a name followed to the
    value bound to it before (in the function's straight-line code), a reshape to what it reshapes."""
    scope = enclosing(module, expr, None, (ast.FunctionDef,)) if expr is not None else None
    function = scope if isinstance(scope, ast.FunctionDef) else None
    for _ in range(16):  # a chain of rebindings, bounded
        if isinstance(expr, ast.Name) and function is not None:
            expr = (env if env is not None else _env_at(function, expr)).get(expr.id)
            env = None
        elif isinstance(expr, ast.Call) and _is(module, expr, RESHAPES) and expr.args:
            env, expr = (_env_at(function, expr) if function is not None else {}), expr.args[0]
        else:
            return expr
    return None


def _is(module: FileFacts, node: ast.AST | None, apis: frozenset[str] | set[str]) -> bool:
    return isinstance(node, ast.Call) and _api(module, node) in apis


def _constant(call: ast.Call, name: str, default: object) -> object:
    """The literal a keyword argument gives (`default` where it is absent, `UNKNOWN` where it is no literal)."""
    given = next((k.value for k in call.keywords if k.arg == name), None)
    if given is None:
        return default
    if (
        isinstance(given, ast.UnaryOp)
        and isinstance(given.op, ast.USub)
        and isinstance(given.operand, ast.Constant)
        and isinstance(given.operand.value, (int, float))
    ):
        return -given.operand.value
    return given.value if isinstance(given, ast.Constant) else UNKNOWN


def _data_format(call: ast.expr | None) -> object:
    return _constant(call, "data_format", None) if isinstance(call, ast.Call) else UNKNOWN


def _self_assigned(owner: ast.ClassDef, attribute: str) -> list[ast.expr | None]:
    """The values the class's methods bind to `self.<attribute>` (None for an augmented or annotated binding)."""
    found: list[ast.expr | None] = []
    for n in ast.walk(owner):
        if isinstance(n, ast.Assign) and any(dotted(t) == ["self", attribute] for t in n.targets):
            found.append(n.value)
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)) and dotted(n.target) == ["self", attribute]:
            found.append(None)
    return found
