"""The lint cache's data-only format: JSON that can describe greenlint's own records and nothing else.

A cache directory may be chosen by the repository being checked (`cache-dir`), so an entry is
untrusted input: reading one must never run code. Unlike pickle, decoding here only builds
JSON values, tuples, sets, bytes and instances of greenlint's plain record classes: dataclasses,
`__slots__` classes and enums defined in a `greenlint.` module that is already imported. Such an
instance is made with `object.__new__` and given exactly its declared attributes, each of its
annotated type (no `__init__`, no import, no lookup outside those classes); anything else makes
the entry invalid, which callers treat as a cache miss.

Layout: `[classes, value]`. `classes` lists each record class or enum the value holds once, as
`[module:qualname, attribute names]` (None for an enum), the attributes in their declared order.
In `value` a JSON object is a dict with string keys and every JSON array is tagged by its first
item: a class's index `[i, attribute values...]` (a record, its values by position; `["u"]` for
a `__slots__` attribute left unset), `["l", items...]` a list, `"t"` a tuple, `"s"` a set,
`"f"` a frozenset, `["d", key, value, ...]` a dict with other keys, `["e", i, value]` an enum
member, `"b"` base64 bytes, `["c", real, imag]`, `["n", name]` NotImplemented or Ellipsis.

Records are numbered as they are written, so shared and cyclic references (the analysis'
summaries of project classes) come back as they were (`["r", number]`); module-level singletons
of those classes (`greenlint.analysis.values.OPAQUE`) come back as themselves (`["g",
"module:name"]`).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import operator
import sys
from collections.abc import Callable
from itertools import islice
from typing import Any

PREFIX = "greenlint."
_PLAIN = frozenset({bool, int, float, str, type(None)})
_JSON_CONTAINERS = frozenset({list, dict})
_STR_ONLY = {str}
_UNSET = object()
_UNSET_MARK = ["u"]


class InvalidEntry(ValueError):
    """The JSON does not describe values this format can hold."""


def _name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


@functools.cache
def _attribute_order(cls: type) -> tuple[str, ...] | None:
    """The attributes a record class declares, in order, or None if *cls* is not one."""
    if not cls.__module__.startswith(PREFIX) or cls.__new__ is not object.__new__:
        return None
    if dataclasses.is_dataclass(cls):
        return tuple(f.name for f in dataclasses.fields(cls))
    slots = [s for klass in cls.__mro__ for s in klass.__dict__.get("__slots__", ())]
    return tuple(slots) if slots and "__dict__" not in slots else None


@functools.cache
def _getter(cls: type) -> Callable[[Any], tuple] | None:
    """All of a record's attributes in one call (it raises AttributeError for an unset slot)."""
    names = _attribute_order(cls)
    if names is None:
        return None
    get = operator.attrgetter(*names)
    return get if len(names) > 1 else (lambda obj: (get(obj),))


@functools.cache
def _singletons(module: str) -> dict[int, str]:
    """id -> global name of the module-level instances of record classes in *module*."""
    namespace = vars(sys.modules[module])
    return {id(v): k for k, v in namespace.items() if not isinstance(v, type) and _attribute_order(type(v)) is not None}


def _class(name: Any) -> type:
    """A record class or enum by `module:qualname`, from an already imported greenlint module."""
    if not isinstance(name, str) or not name.startswith(PREFIX):
        raise InvalidEntry(f"not a greenlint class: {name!r}")
    module, _, qualname = name.partition(":")
    obj: Any = sys.modules.get(module)
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
    if not isinstance(obj, type) or obj.__module__ != module:
        raise InvalidEntry(f"unknown class {name!r}")
    return obj


def dumps(value: Any) -> str:
    """*value* as JSON; TypeError for anything this format cannot hold."""
    classes: dict[type, int] = {}
    table: list[list] = []
    records: dict[type, tuple[int, Callable[[Any], tuple], dict[int, str]] | None] = {}
    ids: dict[int, int] = {}
    keep: list[Any] = []  # written records stay alive, so their ids stay theirs
    plain = _PLAIN

    def index(kind: type, attrs: tuple[str, ...] | None) -> int:
        i = classes.get(kind)
        if i is None:
            i = classes[kind] = len(table)
            table.append([_name(kind), None if attrs is None else list(attrs)])
        return i

    def record(kind: type) -> tuple[int, Callable[[Any], tuple], dict[int, str]] | None:
        """(its index in the table, its attributes' getter, its module's singletons), or None."""
        getter = _getter(kind)
        spec = None if getter is None else (index(kind, _attribute_order(kind)), getter, _singletons(kind.__module__))
        records[kind] = spec
        return spec

    def enc(v: Any) -> Any:
        kind = type(v)
        if kind in plain:  # exact types: a `str` enum is an enum, not a string
            return v
        if kind is dict:
            if set(map(type, v)) <= _STR_ONLY:
                if set(map(type, v.values())) <= plain:
                    return v  # as it is: JSON already
                return {k: x if type(x) in plain else enc(x) for k, x in v.items()}
            out: list[Any] = ["d"]
            for k, x in v.items():
                out += (enc(k), enc(x))
            return out
        if kind is list or kind is tuple:
            if set(map(type, v)) <= plain:
                return ["l" if kind is list else "t", *v]
            return ["l" if kind is list else "t", *[x if type(x) in plain else enc(x) for x in v]]
        spec = records[kind] if kind in records else record(kind)
        if spec is not None:
            number = ids.get(id(v))
            if number is not None:
                return ["r", number]
            i, getter, singletons = spec
            if singletons and id(v) in singletons:
                return ["g", f"{kind.__module__}:{singletons[id(v)]}"]
            ids[id(v)] = len(ids)
            keep.append(v)
            try:
                values = getter(v)
            except AttributeError:  # a slot left unset
                unset = [getattr(v, a, _UNSET) for a in _attribute_order(kind) or ()]
                return [i, *[_UNSET_MARK if x is _UNSET else x if type(x) in plain else enc(x) for x in unset]]
            if set(map(type, values)) <= plain:
                return [i, *values]
            return [i, *[x if type(x) in plain else enc(x) for x in values]]
        if kind is set or kind is frozenset:
            return ["s" if kind is set else "f", *[enc(x) for x in v]]
        if kind is bytes:
            import base64

            return ["b", base64.b64encode(v).decode("ascii")]
        if kind is complex:
            return ["c", v.real, v.imag]
        if v is NotImplemented or v is Ellipsis:
            return ["n", repr(v)]
        if isinstance(v, enum.Enum) and kind.__module__.startswith(PREFIX):
            return ["e", index(kind, None), enc(v.value)]
        raise TypeError(f"the lint cache cannot hold a {kind.__module__}.{kind.__qualname__}")

    body = enc(value)
    # no check for cycles: what enc returns is a tree (a record met again is written as a reference)
    return json.dumps([table, body], separators=(",", ":"), ensure_ascii=False, check_circular=False)


@dataclasses.dataclass(frozen=True)
class _Declared:
    """A class of an entry's table, checked against the class greenlint defines now."""

    cls: type
    attrs: tuple[str, ...] | None  # None: an enum
    checks: tuple[Callable[[Any], bool] | None, ...] = ()
    complete: bool = True  # a dataclass: every attribute is given


def _declared(entry: Any) -> _Declared:
    if type(entry) is not list or len(entry) != 2:
        raise InvalidEntry(f"not a class entry: {entry!r}")
    name, attrs = entry
    cls = _class(name)
    if attrs is None:
        if not issubclass(cls, enum.Enum):
            raise InvalidEntry(f"{name} is not an enum")
        return _Declared(cls, None)
    declared = _attribute_order(cls)
    if declared is None or type(attrs) is not list or tuple(attrs) != declared:
        raise InvalidEntry(f"{name} with attributes {attrs!r}")
    return _Declared(cls, declared, _checks(cls), dataclasses.is_dataclass(cls))


def loads(text: str) -> Any:
    """The value `dumps` wrote; InvalidEntry (a ValueError) for anything else."""
    objects: list[Any] = []
    containers = _JSON_CONTAINERS

    def dec(v: Any) -> Any:
        kind = type(v)
        if kind is dict:
            return {k: x if type(x) not in containers else dec(x) for k, x in v.items()}
        if kind is not list:
            return v
        if not v:
            raise InvalidEntry("an untagged empty array")
        tag = v[0]
        if type(tag) is int:
            if not 0 <= tag < len(table):
                raise InvalidEntry(f"no class {tag!r}")
            spec = table[tag]
            if spec.attrs is None or len(v) != len(spec.attrs) + 1:
                raise InvalidEntry(f"{_name(spec.cls)} with {len(v) - 1} values")
            obj = object.__new__(spec.cls)
            objects.append(obj)
            for attr, check, x in zip(spec.attrs, spec.checks, islice(v, 1, None)):
                if type(x) in containers:
                    if x == _UNSET_MARK and not spec.complete:
                        continue
                    x = dec(x)
                if check is not None and not check(x):
                    raise InvalidEntry(f"{_name(spec.cls)}.{attr} = {type(x).__name__}")
                object.__setattr__(obj, attr, x)
            return obj
        if tag == "l" or tag == "t":
            items = [x if type(x) not in containers else dec(x) for x in islice(v, 1, None)]
            return items if tag == "l" else tuple(items)
        if tag == "r":
            number = _one(v)
            if type(number) is not int or not 0 <= number < len(objects):
                raise InvalidEntry(f"dangling reference {number!r}")
            return objects[number]
        if tag == "d":
            if len(v) % 2 != 1:
                raise InvalidEntry("a dict without a value for its last key")
            return {dec(k): dec(x) for k, x in zip(islice(v, 1, None, 2), islice(v, 2, None, 2))}
        if tag == "s":
            return {dec(x) for x in islice(v, 1, None)}
        if tag == "f":
            return frozenset(dec(x) for x in islice(v, 1, None))
        if tag == "e":
            if len(v) != 3 or type(v[1]) is not int or not 0 <= v[1] < len(table) or table[v[1]].attrs is not None:
                raise InvalidEntry(f"not an enum member: {v!r}")
            return table[v[1]].cls(dec(v[2]))
        if tag == "g":
            module, _, name = str(_one(v)).partition(":")
            if module not in sys.modules or name not in _singletons(module).values():
                raise InvalidEntry(f"unknown singleton {v[1]!r}")
            return getattr(sys.modules[module], name)
        if tag == "b":
            import base64

            return base64.b64decode(_one(v), validate=True)
        if tag == "c":
            if len(v) != 3:
                raise InvalidEntry(f"not a complex number: {v!r}")
            return complex(float(v[1]), float(v[2]))
        if tag == "n":
            return {"NotImplemented": NotImplemented, "Ellipsis": Ellipsis}[_one(v)]
        raise InvalidEntry(f"unknown tag {tag!r}")

    try:
        data = json.loads(text)
        if type(data) is not list or len(data) != 2 or type(data[0]) is not list:
            raise InvalidEntry("not a [classes, value] pair")
        table = [_declared(entry) for entry in data[0]]
        return dec(data[1])
    except InvalidEntry:
        raise
    except (ValueError, TypeError, KeyError, RecursionError) as exc:
        raise InvalidEntry(str(exc)) from exc


def _one(v: list) -> Any:
    if len(v) != 2:
        raise InvalidEntry(f"expected one item after the tag: {v!r}")
    return v[1]


@functools.cache
def _checks(cls: type) -> tuple[Callable[[Any], bool] | None, ...]:
    """Per attribute (declared order), whether a value has its annotated type (None: unchecked).
    A dataclass's field types as annotated; none where they cannot be resolved (then unchecked)."""
    hints: dict[str, Any] = {}
    if dataclasses.is_dataclass(cls):
        import typing

        try:
            hints = typing.get_type_hints(cls)
        except Exception:
            hints = {}
    return tuple(_check(hints.get(a)) for a in _attribute_order(cls) or ())


def _check(hint: Any, depth: int = 1) -> Callable[[Any], bool] | None:
    """Whether a value has the annotated type *hint*: its class, and its items' classes down to
    *depth* level (records inside are checked as they are built). None: anything fits."""
    import types
    import typing

    if hint is None or hint is Any or depth < 0 or isinstance(hint, (typing.TypeVar, str)):
        return None
    if hint is type(None):
        return lambda v: v is None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        found = [_check(a, depth) for a in args]
        options = [o for o in found if o is not None]
        if len(options) < len(found):
            return None
        return lambda v: any(o(v) for o in options)
    if origin is None:
        if hint is float:
            return lambda v: type(v) is int or type(v) is float
        return (lambda v: isinstance(v, hint)) if isinstance(hint, type) else None
    if not isinstance(origin, type):  # `Literal[...]`, `Callable[...]`: not checked
        return None
    if not args:
        return lambda v: isinstance(v, origin)
    if origin is dict:
        key, item = _check(args[0], depth - 1) or _anything, _check(args[1], depth - 1) or _anything
        return lambda v: isinstance(v, dict) and all(key(k) and item(x) for k, x in v.items())
    if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        parts = [_check(a, depth - 1) or _anything for a in args]
        return lambda v: isinstance(v, tuple) and len(v) == len(parts) and all(p(x) for p, x in zip(parts, v))
    if origin in (tuple, list, set, frozenset):
        each = _check(args[0], depth - 1)
        if each is None:
            return lambda v: isinstance(v, origin)
        return lambda v: isinstance(v, origin) and all(each(x) for x in v)
    return lambda v: isinstance(v, origin)


def _anything(value: Any) -> bool:
    return True
