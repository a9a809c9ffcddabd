"""Input sizes as FECoM records them: bytes of `pickle.dumps` of args, kwargs and the call's object.

Protocol 5 with a buffer callback hands large buffers (numpy arrays) over out of band, so their
bytes are counted without being copied; the total equals the in-band pickle's length to within
a few header bytes. Anything that cannot be pickled has no size (null), as in FECoM.
"""

from __future__ import annotations

import pickle
import types


def pickled_size(obj) -> int | None:
    buffers: list[pickle.PickleBuffer] = []
    try:
        data = pickle.dumps(obj, protocol=5, buffer_callback=buffers.append)
    except Exception:  # noqa: BLE001 - unpicklable objects (models, generators, locks) have no size
        return None
    return len(data) + sum(b.raw().nbytes for b in buffers)


def call_owner(func):
    """The object a call runs on: a bound method's `__self__`, or a called object (`<class>.__call__`)."""
    owner = getattr(func, "__self__", None)
    if owner is not None:
        return None if isinstance(owner, types.ModuleType) else owner
    if isinstance(func, (types.FunctionType, types.BuiltinFunctionType, type)):
        return None
    return func


def input_sizes(func, args: tuple, kwargs: dict, *, with_object: bool = True) -> dict:
    """FECoM's `input_sizes`: pickled bytes of the args, the kwargs and the call's object."""
    owner = call_owner(func) if with_object else None
    return {
        "args_size": pickled_size(args) if args else None,
        "kwargs_size": pickled_size(kwargs) if kwargs else None,
        "object_size": pickled_size(owner) if owner is not None else None,
    }
