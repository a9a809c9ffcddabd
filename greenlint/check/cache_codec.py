"""The lint cache's data-only format: JSON that can describe greenlint's own records and nothing else.

A cache directory may be chosen by the repository being checked (`cache-dir`), so an entry is
untrusted input: reading one must never run code. Unlike pickle, decoding here only builds
JSON values, tuples, sets, bytes and instances of greenlint's plain record classes: dataclasses,
`__slots__` classes and enums defined in a `greenlint.` module that is already imported. Such an
instance is made with `object.__new__` and given exactly its declared attributes (no `__init__`,
no import, no lookup outside those classes); anything else makes the entry invalid, which
callers treat as a cache miss.

Objects are numbered as they are written, so shared and cyclic references (the analysis'
summaries of project classes) come back as they were; module-level singletons of those classes
(`greenlint.analysis.values.OPAQUE`) come back as themselves.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import sys
from typing import Any

PREFIX = "greenlint."
_PLAIN = frozenset({bool, int, float, str})
_UNSET = object()


class InvalidEntry(ValueError):
    """The JSON does not describe values this format can hold."""


def _name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


@functools.cache
def _attributes(cls: type) -> frozenset[str] | None:
    """The attributes a record class declares, or None if *cls* is not one."""
    names = _attribute_order(cls)
    return None if names is None else frozenset(names)


@functools.cache
def _attribute_order(cls: type) -> tuple[str, ...] | None:
    if not cls.__module__.startswith(PREFIX) or cls.__new__ is not object.__new__:
        return None
    if dataclasses.is_dataclass(cls):
        return tuple(f.name for f in dataclasses.fields(cls))
    slots = [s for klass in cls.__mro__ for s in klass.__dict__.get("__slots__", ())]
    return tuple(slots) if slots and "__dict__" not in slots else None


@functools.cache
def _singletons(module: str) -> dict[int, str]:
    """id -> global name of the module-level instances of record classes in *module*."""
    namespace = vars(sys.modules[module])
    return {id(v): k for k, v in namespace.items() if not isinstance(v, type) and _attributes(type(v)) is not None}


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
    ids: dict[int, int] = {}
    keep: list[Any] = []  # written objects stay alive, so their ids stay theirs

    def enc(v: Any) -> Any:
        kind = type(v)
        if kind in _PLAIN or v is None:  # exact types: a `str` enum is an enum, not a string
            return v
        if kind is dict:
            out = {}
            for k, x in v.items():
                if type(k) is not str or k[:1] == "@":
                    return {"@d": [[enc(k), enc(x)] for k, x in v.items()]}
                out[k] = x if type(x) in _PLAIN or x is None else enc(x)
            return out
        if kind is list:
            return [x if type(x) in _PLAIN or x is None else enc(x) for x in v]
        if kind is tuple:
            return {"@t": [x if type(x) in _PLAIN or x is None else enc(x) for x in v]}
        if kind in (set, frozenset):
            return {"@s" if kind is set else "@f": [enc(x) for x in v]}
        if kind is bytes:
            import base64

            return {"@b": base64.b64encode(v).decode("ascii")}
        if kind is complex:
            return {"@c": [v.real, v.imag]}
        if v is NotImplemented or v is Ellipsis:
            return {"@n": repr(v)}
        if isinstance(v, enum.Enum) and kind.__module__.startswith(PREFIX):
            return {"@e": _name(kind), "v": enc(v.value)}
        attrs = _attribute_order(kind)
        if attrs is None:
            raise TypeError(f"the lint cache cannot hold a {kind.__module__}.{kind.__qualname__}")
        if id(v) in ids:
            return {"@r": ids[id(v)]}
        glob = _singletons(kind.__module__).get(id(v))
        if glob is not None:
            return {"@g": f"{kind.__module__}:{glob}"}
        ids[id(v)] = len(ids)
        keep.append(v)
        fields = {}
        for a in attrs:
            x = getattr(v, a, _UNSET)
            if x is not _UNSET:
                fields[a] = x if type(x) in _PLAIN or x is None else enc(x)
        return {"@o": _name(kind), "a": fields}

    return json.dumps(enc(value), separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> Any:
    """The value `dumps` wrote; InvalidEntry (a ValueError) for anything else."""
    objects: list[Any] = []

    def dec(v: Any) -> Any:
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if type(v) is list:
            return [dec(x) for x in v]
        if type(v) is not dict:
            raise InvalidEntry(f"unexpected JSON value {v!r}")
        if len(v) == 1:
            (tag, body), = v.items()
            if tag == "@t":
                return tuple(dec(x) for x in _list(body))
            if tag == "@d":
                return {dec(k): dec(x) for k, x in (_pair(p) for p in _list(body))}
            if tag == "@s":
                return {dec(x) for x in _list(body)}
            if tag == "@f":
                return frozenset(dec(x) for x in _list(body))
            if tag == "@b":
                import base64

                return base64.b64decode(body, validate=True)
            if tag == "@c":
                re, im = _pair(body)
                return complex(float(re), float(im))
            if tag == "@n":
                return {"NotImplemented": NotImplemented, "Ellipsis": Ellipsis}[body]
            if tag == "@r":
                if type(body) is not int or not 0 <= body < len(objects):
                    raise InvalidEntry(f"dangling reference {body!r}")
                return objects[body]
            if tag == "@g":
                module, _, name = str(body).partition(":")
                if module not in sys.modules or name not in _singletons(module).values():
                    raise InvalidEntry(f"unknown singleton {body!r}")
                return getattr(sys.modules[module], name)
        elif v.keys() == {"@e", "v"}:
            cls = _class(v["@e"])
            if not issubclass(cls, enum.Enum):
                raise InvalidEntry(f"{v['@e']} is not an enum")
            return cls(dec(v["v"]))
        elif v.keys() == {"@o", "a"}:
            cls = _class(v["@o"])
            declared = _attributes(cls)
            if declared is None or type(v["a"]) is not dict or not v["a"].keys() <= declared:
                raise InvalidEntry(f"{v['@o']} with attributes {sorted(v['a'])!r}")
            if dataclasses.is_dataclass(cls) and v["a"].keys() != declared:
                raise InvalidEntry(f"{v['@o']} without {sorted(declared - v['a'].keys())!r}")
            obj = object.__new__(cls)
            objects.append(obj)
            for attr, x in v["a"].items():
                value = dec(x)
                if not _fits(value, _field_types(cls).get(attr)):
                    raise InvalidEntry(f"{v['@o']}.{attr} = {type(value).__name__}")
                object.__setattr__(obj, attr, value)
            return obj
        if any(k.startswith("@") for k in v):
            raise InvalidEntry(f"unknown tag in {sorted(v)!r}")
        return {k: dec(x) for k, x in v.items()}

    try:
        return dec(json.loads(text))
    except InvalidEntry:
        raise
    except (ValueError, TypeError, KeyError, RecursionError) as exc:
        raise InvalidEntry(str(exc)) from exc


@functools.cache
def _field_types(cls: type) -> dict[str, Any]:
    """A dataclass's field types as annotated; {} where they cannot be resolved (then unchecked)."""
    if not dataclasses.is_dataclass(cls):
        return {}
    import typing

    try:
        return typing.get_type_hints(cls)
    except Exception:
        return {}


def _fits(value: Any, hint: Any, depth: int = 1) -> bool:
    """Whether *value* has the annotated type *hint*: its class, and its items' classes down to
    *depth* level (records inside are checked as they are built). Unknown hints fit anything."""
    import types
    import typing

    if hint is None or hint is Any or depth < 0 or isinstance(hint, (typing.TypeVar, str)):
        return True
    if hint is type(None):
        return value is None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, a, depth) for a in args)
    if origin is None:
        if hint is float:
            return type(value) in (int, float)
        return not isinstance(hint, type) or isinstance(value, hint)
    if not isinstance(origin, type) or not isinstance(value, origin):
        return isinstance(origin, type) is False
    if not args:
        return True
    if origin is dict:
        return all(_fits(k, args[0], depth - 1) and _fits(x, args[1], depth - 1) for k, x in value.items())
    if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        return len(value) == len(args) and all(_fits(x, a, depth - 1) for x, a in zip(value, args))
    if origin in (tuple, list, set, frozenset):
        return all(_fits(x, args[0], depth - 1) for x in value)
    return True


def _list(v: Any) -> list:
    if type(v) is not list:
        raise InvalidEntry(f"expected a list, got {v!r}")
    return v


def _pair(v: Any) -> tuple[Any, Any]:
    if type(v) is not list or len(v) != 2:
        raise InvalidEntry(f"expected a pair, got {v!r}")
    return v[0], v[1]
