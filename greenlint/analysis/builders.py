"""Python idioms research code builds its models with, valued for the resolver.

- Keyword dicts (`values.Kw`): a dict display whose keys are strings (or `dict(k=v)`, or `{}` given
  literal keys), changed by `d["k"] = v`,
  `d.update(other)`, `d.setdefault(k, v)`, read by `d.get(k)` and `d.pop(k)`, and spread into a call
  by `**d`; a function's `**kwargs` and `*args` for one call hold what that call passed beyond its
  parameters, so that a layer factory (`def conv(*args, **kwargs): return Conv2D(*args, **kwargs)`,
  `@wraps(Conv2D)` or not) builds the layer that call asks for.
- Composition by `functools.reduce` (`values.Composed`): `reduce(lambda f, g: lambda *a, **kw:
  g(f(*a, **kw)), funcs)` (or `f(g(...))`, right to left) is the functions composed, a callable
  applying them in turn; `reduce(lambda x, f: f(x), funcs, x)` applies them to x at once.
- A builder's later calls (`builds_afresh`): a model of their own each, as Python builds one per call.
- A free input dimension sized where the program states it (`stated_size`): the image size given
  to the function that builds the model (`create_model(input_shape=(416, 416))` around
  `Input(shape=(None, None, 3))`).
"""

from __future__ import annotations

import ast
from typing import Any

from greenlint.analysis import flow
from greenlint.analysis.arrays import is_sym
from greenlint.analysis.values import MISSING, Const, Kw, Seq

#: The fold whose function argument `composition` recognises.
REDUCE = "functools.reduce"
#: Dict methods a `Kw` follows (any other call on it leaves it as it is).
KW_METHODS = frozenset({"get", "update", "pop", "setdefault"})
#: Calls that make an attribute bag: a dict whose keys are attributes too (`cfg.TRAIN.EPOCHS = 20`).
ATTRIBUTE_BAGS = frozenset({"easydict.EasyDict", "types.SimpleNamespace"})
#: Their modules, valued for them alone.
BAG_MODULES = frozenset(path.partition(".")[0] for path in ATTRIBUTE_BAGS)
#: Dict methods that take keys out in a way a Kw does not follow: afterwards no key of it is known.
_KW_EMPTIES = frozenset({"clear", "popitem"})
#: Calls that read a dict given them and never change it: any other call not walked may (`unknown_keys`).
READ_ONLY_CALLS = frozenset({"print", "len", "str", "repr", "sorted", "list", "dict", "isinstance", "json.dumps", "json.dump"})
#: The key a Kw holds once something unknown was added to it (`d.update(unknown)`): then no key is known absent.
_OPEN = "**"
#: Words of a parameter's name that say it holds a size (`input_shape`, `image_size`, `img_size`), and the
#: beginnings that make it the input's (not `kernel_size`, `pool_size`, `output_shape`): `shape` alone too.
_SIZE_WORDS = ("shape", "size")
_INPUT_WORDS = ("input", "image", "img", "in_", "target")


def keywords_of(node: ast.Dict, values: list) -> Kw | None:
    """A dict display whose keys are all literal strings (`**other` spread in where *other* is a Kw), else None."""
    items: dict[str, Any] = {}
    for key, value in zip(node.keys, values):
        if key is None and type(value) is Kw and _OPEN not in value.items:
            items.update(value.items)
        elif type(key) is ast.Constant and type(key.value) is str:
            items[key.value] = value
        else:
            return None
    return Kw(items)


def built_dict(args: list, keywords: list) -> Kw | None:
    """`dict(k=v, ...)`, `dict(other, k=v)` with *other* a Kw: a Kw of those keys; None otherwise."""
    if len(args) > 1 or any(name is None for name, _ in keywords):
        return None
    items: dict[str, Any] = {}
    if args:
        starred, other = args[0]
        if starred or type(other) is not Kw or _OPEN in other.items:
            return None
        items.update(other.items)
    items.update(keywords)
    return Kw(items)


def spread(args: list, keywords: list) -> tuple[list, list]:
    """A call's arguments with `*seq` of a known sequence and `**kw` of a known Kw spread out, as Python
    passes them; what cannot be spread is left as it is."""
    flat: list = []
    for starred, value in args:
        items = _items(value) if starred else None
        if items is None:
            flat.append((starred, value))
        else:
            flat.extend((False, item) for item in items)
    named: list = []
    for name, value in keywords:
        if name is None and type(value) is Kw and _OPEN not in value.items:
            named.extend(value.items.items())
        else:
            named.append((name, value))
    return flat, named


def unspread_parameters(node: ast.arguments, params: list[str], args: list, keywords: list, given: dict) -> list[str]:
    """The parameters (*params*: the positional ones a call fills) a call's unspread `*seq` or `**d`
    may fill, not named otherwise (*given*): Python may pass them anything, so no default holds."""
    starred = next((i for i, (star, _) in enumerate(args) if star), None)
    open_names = any(name is None for name, _ in keywords)
    names = params[starred:] if starred is not None else []
    if open_names:
        names = [*params, *(a.arg for a in node.kwonlyargs)]
    return [name for name in names if name not in given]


def extra_arguments(node: ast.arguments, method: bool, args: list, keywords: list) -> dict[str, Any]:
    """What a call passes beyond a function's parameters: its `*args` (a Seq) and `**kwargs` (a Kw), named
    by the function's own names for them; none where the call still spreads something unknown."""
    if any(starred for starred, _ in args) or any(name is None for name, _ in keywords):
        return {}
    bound: dict[str, Any] = {}
    positional = len(node.posonlyargs) + len(node.args) - method
    if node.vararg is not None:
        bound[node.vararg.arg] = Seq(tuple(value for _, value in args[positional:])) \
            if len(args) > positional else Const(())
    if node.kwarg is not None:
        names = {a.arg for a in (*node.posonlyargs, *node.args, *node.kwonlyargs)}
        bound[node.kwarg.arg] = Kw({name: value for name, value in keywords if name not in names})
    return bound


def kw_method(kw: Kw, method: str, args: list, merged: bool) -> Any:
    """`d.get(k, default)`, `d.update(other)`, `d.pop(k, default)`, `d.setdefault(k, v)` on a Kw: the
    value returned (MISSING for a method not followed). *merged*: the call runs on some paths only (an
    `if` body), so a key it sets may or may not hold the new value."""
    if method in _KW_EMPTIES:
        unknown_keys(kw)
    if method not in KW_METHODS:
        return MISSING
    values = [value for _, value in args]
    if method == "update":
        other = values[0] if len(values) == 1 and not args[0][0] else None
        if type(other) is not Kw:
            unknown_keys(kw)
            return Const(None)
        for key, value in other.items.items():
            set_key(kw, key, value, merged)
        return Const(None)
    key = values[0] if values else None
    if type(key) is not Const or type(key.value) is not str or _OPEN in kw.items:
        return None
    default = values[1] if len(values) > 1 else Const(None)
    found = kw.items.get(key.value, MISSING)
    if method == "setdefault" and found is MISSING:
        set_key(kw, key.value, default, merged)
    if method == "pop" and not merged:
        kw.items.pop(key.value, None)
    return default if found is MISSING else found


def bag(args: list, keywords: list) -> Kw | None:
    """`EasyDict()`, `EasyDict({"lr": 0.1})`, `SimpleNamespace(lr=0.1)` (ATTRIBUTE_BAGS): an attribute bag
    of those keys, a dict given among them one too (EasyDict makes its nested dicts bags); None otherwise."""
    found = built_dict(args, keywords)
    return None if found is None else _as_bag(found)


def _as_bag(kw: Kw) -> Kw:
    return Kw({key: _as_bag(value) if type(value) is Kw else value for key, value in kw.items.items()}, attrs=True)


def kw_item(kw: Kw, key: str) -> Any:
    """`d[key]` of a Kw: the value it holds there; None where unknown (no such key, or keys changed unseen)."""
    return None if _OPEN in kw.items else kw.items.get(key)


def unknown_keys(kw: Kw) -> None:
    """Something not followed changed *kw* (`d.update(unknown)`, `d[name] = v`, `d.clear()`): no key
    of it is known any more, so it spreads nothing (`spread`)."""
    kw.items.clear()
    kw.items[_OPEN] = None


def set_key(kw: Kw, key: str, value: Any, merged: bool) -> None:
    """`d[key] = value`; on some paths only (*merged*), unknown unless the dict held that value already."""
    if merged:
        old = kw.items.get(key, MISSING)
        value = value if old is value or (type(old) is Const and old == value) else None
    kw.items[key] = value


def composition(fn: ast.AST, items: Any, initial: Any) -> tuple[str, tuple | None] | None:
    """What `functools.reduce(fn, items[, initial])` does with callables: ("compose", the functions in the
    order they apply) for a composing *fn*, ("apply", the functions) for `lambda x, f: f(x)` given an
    initial value; their tuple is None where *items* is not known. None for any other fold."""
    if type(fn) is not ast.Lambda or len(fn.args.args) != 2:
        return None
    first, second = (a.arg for a in fn.args.args)
    body = fn.body
    if initial is not MISSING:
        applies = type(body) is ast.Call and _named(body.func, second) and len(body.args) == 1 \
            and _named(body.args[0], first)
        return ("apply", _items(items)) if applies else None
    if type(body) is not ast.Lambda:
        return None
    outer = body.body
    if type(outer) is not ast.Call or len(outer.args) != 1 or type(outer.args[0]) is not ast.Call:
        return None
    inner = outer.args[0].func
    found = _items(items)
    if _named(outer.func, second) and _named(inner, first):
        return "compose", found
    if _named(outer.func, first) and _named(inner, second):
        return "compose", tuple(reversed(found)) if found is not None else None
    return None


def stated_size(shape: tuple, given: dict[str, Any], builder: str) -> tuple[tuple, str] | None:
    """An input shape whose leading dimensions are free (`(None, None, 3)`) with them filled from the
    parameter of the function building the model that states the input's size (`_input_size`) in as many
    integers (`input_shape=(416, 416)`), or the whole shape (`(416, 416, 3)`), bound in *given*, and a
    note saying so; None where no parameter does, or more than one with different sizes."""
    free = 0
    while free < len(shape) and shape[free] is None:
        free += 1
    if not free or None in shape[free:]:
        return None
    found = {}
    for name, value in given.items():
        if not _input_size(name.lower()) or type(value) is not Const:
            continue
        size = value.value
        if not isinstance(size, (tuple, list)) or not all(type(d) is int and d > 0 for d in size):
            continue
        if len(size) == len(shape) and tuple(size[free:]) == shape[free:]:
            size = size[:free]
        if len(size) == free:
            found[name] = tuple(size)
    if len(set(found.values())) != 1:
        return None
    name, size = next(iter(found.items()))
    note = f"input {' x '.join(map(str, size))} per sample: the size `{name}` given to {builder}()"
    return (*size, *shape[free:]), note


def builds_afresh(node: ast.AST) -> bool:
    """Whether a function returns only what it builds on each call: every `return` gives a call or a name
    the function binds itself (`return Model(d0, out)`, `return model`), never an attribute or a global
    (`return self._model`, `return shared`: the same object each time)."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    returns: list[ast.Return] = []
    bound: set[str] = set()
    for item in flow.own_nodes(node):
        if type(item) is ast.Return:
            returns.append(item)
        elif type(item) is ast.Name and type(item.ctx) is ast.Store:
            bound.add(item.id)
    return bool(returns) and all(
        type(r.value) is ast.Call or type(r.value) is ast.Name and r.value.id in bound for r in returns
    )


def returns_closure(node: ast.AST) -> bool:
    """Whether a function returns a function it defines in its body (`def conv_block(filters): def f(x):
    ... return f`): the closure's free names are what each call of it is given."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    own = flow.own_nodes(node)
    defined = {item.name for item in own if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return any(type(item) is ast.Return and type(item.value) is ast.Name and item.value.id in defined for item in own)


def starred_items(value: Any) -> tuple | None:
    """What `*value` spreads into a display: a known sequence's items; a Keras symbolic tensor (a model's
    `output`, of outputs not counted) as itself, standing for them all in the graph they reach
    (`Lambda(loss)([*model.output, *y_true])`); None otherwise."""
    if is_sym(value):
        return (value,)
    return _items(value)


def _input_size(name: str) -> bool:
    """Whether a parameter so named states the model input's size (`input_shape`, `img_size`, `shape`)."""
    return name in _SIZE_WORDS or name.startswith(_INPUT_WORDS) and any(word in name for word in _SIZE_WORDS)


def _named(node: ast.AST, name: str) -> bool:
    return type(node) is ast.Name and node.id == name


def _items(value: Any) -> tuple | None:
    if type(value) is Seq:
        return value.items
    if type(value) is Const and isinstance(value.value, (tuple, list)):
        return tuple(Const(item) for item in value.value)
    return None
