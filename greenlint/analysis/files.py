"""Arrays a program writes to a file and reads back: `np.save(name, x)` ... `np.load(name)`.

A program that caches its data in a file it writes itself (`np.save`, `np.savetxt`) and then reads
back (`np.load`, `np.loadtxt`) trains on what it wrote: the file does not exist before the program
runs, so nothing in the workspace says its size, but the code does. Where both calls name the file
by the same literal string and the array written has a known shape (arrays.shape_of), the array
read back has that shape, provenance "inferred" and a note naming the line that wrote it
(docs/calls-json.md, `samples`). Anything else (a computed name, an array of unknown shape, a read
that selects rows or columns: `skiprows`, `usecols`, `max_rows`, `unpack`, `ndmin`) stays unknown.

Likewise a program that writes its own files into a folder (`tf.io.write_file(os.path.join("images", label,
f"{i}.png"), ...)` in loops of literal counts) and then reads that folder (`image_dataset_from_directory("images")`)
reads the files it wrote: as many as its writes there, where each loop around a write runs a known number of
times and names a file of its own (its variable is in the path), so that no write overwrites another
(`files_under`). A write whose count is not known so, or of a path not written as literal folders, leaves the
folder's size unknown.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from greenlint.analysis.arrays import array, shape_of
from greenlint.analysis.trees import dotted
from greenlint.analysis.values import Const

#: Writers -> (position and keyword of the file name, of the array).
_WRITERS = {"numpy.save": ((0, "file"), (1, "arr")), "numpy.savetxt": ((0, "fname"), (1, "X"))}
#: Readers -> the position and keyword of the file name, and the writer whose files they read.
_READERS = {"numpy.load": ((0, "file"), "numpy.save"), "numpy.loadtxt": ((0, "fname"), "numpy.savetxt")}
#: `np.loadtxt` arguments that select part of the file or reshape what is read: the shape is not the one written.
_SELECTING = frozenset({"skiprows", "usecols", "unpack", "ndmin", "max_rows"})
#: Calls that write a file whose path is their first argument (or this keyword).
FILE_WRITERS = {"tensorflow.io.write_file": "filename", "tensorflow.keras.utils.save_img": "path"}
#: The folder readers (arrays.FROM_DIRECTORY) -> the file endings they read (Keras' `ALLOWLIST_FORMATS`).
READ_ENDINGS = {
    "tensorflow.keras.utils.image_dataset_from_directory": (".bmp", ".gif", ".jpeg", ".jpg", ".png"),
    "tensorflow.keras.utils.text_dataset_from_directory": (".txt",),
    "tensorflow.keras.utils.audio_dataset_from_directory": (".wav",),
}
#: Stands in a path's text for a part known only at run time.
UNKNOWN = "\0"
#: Calls that join path components.
_JOINS = (["os", "path", "join"], ["posixpath", "join"])
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
    """The files a module writes with a literal name and the shapes of the arrays written there, and the
    files it writes into folders (`wrote_into`)."""

    def __init__(self) -> None:
        self._written: dict[tuple[str, str], tuple[tuple, int]] = {}  # (writer, file) -> (shape, line)
        #: a write's line and column -> (its path's parts, `path_parts`; how many files it writes, None unknown)
        self._into: dict[tuple[int, int], tuple[tuple[tuple[str, ...] | None, int, str], int | None]] = {}

    def wrote_into(self, at: tuple[int, int], parts: tuple[tuple[str, ...] | None, int, str], count: int | None) -> None:
        """Note a write at *at* (line, column) of *count* distinct files (None: not known) at a path of *parts*."""
        self._into[at] = (parts, count)

    def files_under(self, folder: Any, reader: str, labelled: bool) -> tuple[int, str] | None:
        """(files, what they are) a folder reader (`READ_ENDINGS`) of a literal *folder* finds among the files written
        into it so far: those of its endings, in a class folder where *labelled* (Keras' `labels="inferred"`
        reads the class folders only); None where none is written there, the folder is not a literal, a
        write there is of a count not known, or a file of its endings is written into a folder not known."""
        if type(folder) is not Const or not isinstance(folder.value, str) or reader not in READ_ENDINGS:
            return None
        wanted = tuple(p for p in folder.value.split("/") if p not in ("", "."))
        total = 0
        lines: list[int] = []
        for (line, _), ((leading, rest, end), count) in sorted(self._into.items()):
            if leading is None and end.lower().endswith(READ_ENDINGS[reader]):
                return None  # written where the code does not say: maybe into this folder
            if leading is None:
                continue
            inside = len(leading) >= len(wanted) and leading[:len(wanted)] == wanted
            under = len(leading) - len(wanted) + rest  # components below the folder, the file's name last
            if not wanted or not inside or not end.lower().endswith(READ_ENDINGS[reader]) or labelled and under < 2:
                continue
            if count is None:
                return None
            total += count
            lines.append(line)
        if not total:
            return None
        said = ", ".join(map(str, lines))
        return total, f"files the program writes into {folder.value} (line{'s' if len(lines) > 1 else ''} {said})"

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


def path_parts(node: ast.AST | None, literal: Callable[[ast.AST], str | None]) -> tuple[tuple[str, ...] | None, int, str] | None:
    """A written path's leading literal folders (None where its first component is known only at run time: it
    may be any folder), how many components follow them (the file's name last) and the literal end of that
    name, from `os.path.join(...)`, a `pathlib` `/` chain, a string or an f-string (*literal*: a component's
    string where it is one, a name bound to one too); None where there is no path."""
    parts: list[ast.AST] = []

    def flatten(expr: ast.AST) -> bool:
        if type(expr) is ast.Call and dotted(expr.func) in _JOINS and not expr.keywords:
            return all(type(a) is not ast.Starred and flatten(a) for a in expr.args)
        if type(expr) is ast.BinOp and type(expr.op) is ast.Div:
            return flatten(expr.left) and flatten(expr.right)
        if type(expr) is ast.Call and dotted(expr.func)[-1:] in (["Path"], ["PurePath"]) and len(expr.args) == 1:
            return flatten(expr.args[0])
        parts.append(expr)
        return True

    if node is None or not flatten(node) or not parts:
        return None
    segments: list[str] = []  # each component, UNKNOWN where a part of it is known only at run time
    for part in parts:
        segments += [p for p in _text(part, literal).split("/") if p not in ("", ".")]
    if not segments:
        return None
    leading = []
    for segment in segments[:-1]:
        if UNKNOWN in segment:
            break
        leading.append(segment)
    end = segments[-1].rpartition(UNKNOWN)[2]
    return (tuple(leading) if leading or UNKNOWN not in segments[0] else None), len(segments) - len(leading), end


def _text(part: ast.AST, literal: Callable[[ast.AST], str | None]) -> str:
    """A path component's text, `UNKNOWN` for what is known only at run time (an f-string's other values)."""
    if type(part) is ast.JoinedStr:
        return "".join(str(v.value) if type(v) is ast.Constant else
                       (literal(v.value) if type(v) is ast.FormattedValue and v.conversion == -1 and v.format_spec is None
                        else None) or UNKNOWN for v in part.values)
    text = literal(part)
    return text if text is not None else UNKNOWN
