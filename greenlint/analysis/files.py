"""Arrays a program writes to a file and reads back: `np.save(name, x)` ... `np.load(name)`.

A program that caches its data in a file it writes itself (`np.save`, `np.savetxt`) and then reads
back (`np.load`, `np.loadtxt`) trains on what it wrote: the file does not exist before the program
runs, so nothing in the workspace says its size, but the code does. Where both calls name the file
by the same literal string and the array written has a known shape (arrays.shape_of), the array
read back has that shape, provenance "inferred" and a note naming the line that wrote it
(docs/calls-json.md, `samples`). Anything else (a computed name, an array of unknown shape, a read
that selects rows or columns: `skiprows`, `usecols`, `max_rows`, `unpack`, `ndmin`) stays unknown.
"""

from __future__ import annotations

from typing import Any

from greenlint.analysis.arrays import array, shape_of
from greenlint.analysis.values import Const

#: Writers -> (position and keyword of the file name, of the array).
_WRITERS = {"numpy.save": ((0, "file"), (1, "arr")), "numpy.savetxt": ((0, "fname"), (1, "X"))}
#: Readers -> the position and keyword of the file name, and the writer whose files they read.
_READERS = {"numpy.load": ((0, "file"), "numpy.save"), "numpy.loadtxt": ((0, "fname"), "numpy.savetxt")}
#: `np.loadtxt` arguments that select part of the file or reshape what is read: the shape is not the one written.
_SELECTING = frozenset({"skiprows", "usecols", "unpack", "ndmin", "max_rows"})
#: Positional arguments of `np.loadtxt` up to `converters`: the ones after it select (`skiprows`, ...).
_LOADTXT_PLAIN = 5


def _arg(args: list, keywords: list, at: tuple[int, str]) -> Any:
    positional = [value for starred, value in args if not starred]
    if len(positional) != len(args):
        return None
    named = {name: value for name, value in keywords if name is not None}
    return positional[at[0]] if len(positional) > at[0] else named.get(at[1])


def _name(writer: str, value: Any) -> str | None:
    """The file a literal name stands for (`np.save` adds `.npy` to a name without it)."""
    if type(value) is not Const or not isinstance(value.value, str) or not value.value:
        return None
    name = value.value
    return name + ".npy" if writer == "numpy.save" and not name.endswith(".npy") else name


def _text_shape(shape: tuple) -> tuple | None:
    """The shape `np.loadtxt` gives back for an array `np.savetxt` wrote: one row per element of a
    vector or per row of a matrix; a single column comes back as a vector."""
    if len(shape) == 1:
        return shape
    if len(shape) == 2:
        return shape if shape[1] != 1 else shape[:1]
    return None  # savetxt writes only 1-D and 2-D arrays


class WrittenFiles:
    """The files a module writes with a literal name and the shapes of the arrays written there."""

    def __init__(self) -> None:
        self._written: dict[tuple[str, str], tuple[tuple, int]] = {}  # (writer, file) -> (shape, line)

    def call(self, path: str, args: list, keywords: list, line: int) -> Any:
        """Note a write (`np.save`, `np.savetxt`: None returned); the array a read gives back where
        the same file was written earlier with a known shape; None for anything else."""
        if path in _WRITERS:
            at_name, at_array = _WRITERS[path]
            name, shape = _name(path, _arg(args, keywords, at_name)), shape_of(_arg(args, keywords, at_array))
            if name is not None:
                if shape is None or any(not isinstance(d, int) for d in shape):
                    self._written.pop((path, name), None)  # overwritten with an array of unknown shape
                else:
                    self._written[(path, name)] = (tuple(shape), line)
            return None
        if path not in _READERS:
            return None
        at_name, writer = _READERS[path]
        if path == "numpy.loadtxt" and (len(args) > _LOADTXT_PLAIN or any(name in _SELECTING for name, _ in keywords)):
            return None
        name = _name(writer, _arg(args, keywords, at_name))
        found = self._written.get((writer, name)) if name is not None else None
        if found is None:
            return None
        shape, wrote = found
        read = _text_shape(shape) if writer == "numpy.savetxt" else shape
        if read is None:
            return None
        how = f"{writer.replace('numpy.', 'np.')} at line {wrote}"
        return array(read, "inferred", f"read from {name}, written by {how}: {' × '.join(f'{d:,}' for d in shape)}")
