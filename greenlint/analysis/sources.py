"""Read user files safely: decoding, binary and size checks, notebook code cells.

Bad input never raises: it becomes a `FileError` naming the file and the problem. Its `code`
matches the check pipeline's diagnostics (GL001: the code does not parse; GL002: the file
cannot be analysed; GL004: a notebook cell left blank for the student) and its `kind` says exactly why:

============  ==================================================
syntax-error  the code does not parse (GL001; also code too deeply nested)
exercise      a notebook cell is an exercise's blanks, left for the student (GL004, off by
              default: greenlint.analysis.exercises)
not-utf8      the file is not UTF-8 (and declares no other encoding)
bad-encoding  the file's PEP 263 coding cookie names an unknown encoding, or the bytes
              are not valid in the encoding it names, or it is UTF-16/32 text (a BOM)
binary        the file holds NUL bytes
bad-notebook  the notebook is not valid notebook JSON
too-large     the file is larger than the size limit
unreadable    the file cannot be read (missing, permission, a directory)
special-file  a FIFO, socket or device: never opened for reading, so never waited on
============  ==================================================
"""

from __future__ import annotations

import ast
import codecs
import io
import json
import os
import re
import stat
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from greenlint.analysis import untyped

SYNTAX_ERROR = "syntax-error"
EXERCISE = "exercise"
NOT_UTF8 = "not-utf8"
BAD_ENCODING = "bad-encoding"
BINARY = "binary"
BAD_NOTEBOOK = "bad-notebook"
TOO_LARGE = "too-large"
UNREADABLE = "unreadable"
SPECIAL_FILE = "special-file"

#: Default size limit for one file's code (bytes); notebooks may be this many times larger on
#: disk, since outputs (images) are not code. The syntax tree alone of a 4 MB module takes over
#: 500 MB, and a whole check of 1 MiB of dense TF code peaked at 212 MB; at this limit a check
#: stays under 200 MB (bench/bench_warm.py). The largest hand-written or generated module of
#: TensorFlow, Keras and tf-models is 660 KiB.
MAX_BYTES = 768 * 1024
NOTEBOOK_RAW_FACTOR = 16

#: Cell magics whose body is still Python.
_PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug"})
#: A line IPython rewrites: `%magic`, `!shell`, `! shell`, `x = %magic`, `x = !shell`, `obj?`, `?obj`, `??obj`.
_MAGIC_LINE = re.compile(r"\s*(?:%{1,2}\w|!(?!=)|\?{1,2}\s*[\w.]|[\w.,\s()\[\]]+=\s*(?:%\w|!)|[\w.]+\?{1,2}\s*$)")
#: Split lines exactly like Python's tokenizer (\f, \v and friends are not line breaks).
_LINES = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class FileError:
    """A file (or notebook cell) that could not be analysed; 1-based position, 0 if none."""

    path: str
    line: int
    column: int
    code: str  # GL001 (does not parse), GL002 (cannot be analysed) or GL004 (an exercise's blanks)
    message: str
    cell: int | None = None
    kind: str = SYNTAX_ERROR

    @property
    def reason(self) -> str:
        """The message without the path it starts with and the `; skipped` a checked file's ends
        with: what a caller reading a file of its own (a configuration, a profile) words itself."""
        return self.message.removeprefix(f"{self.path}: ").removesuffix("; skipped")


def file_error(path: str, kind: str, message: str, line: int = 0, column: int = 0, cell: int | None = None) -> FileError:
    code = {SYNTAX_ERROR: "GL001", EXERCISE: "GL004"}.get(kind, "GL002")
    return FileError(path, line, column, code, message, cell, kind)


@dataclass(frozen=True)
class Code:
    """One unit of Python to parse: a whole file, or one notebook code cell."""

    text: str
    cell: int | None = None  # 1-based code-cell index for notebooks
    retry: str | None = None  # another reading to try if *text* does not parse


def split_lines(text: str) -> list[str]:
    """The lines of *text* without their endings (`"a\\n"` -> `["a", ""]`), split only where
    Python's tokenizer and the LSP split them (`\\n`, `\\r\\n`, `\\r`): never at a form feed,
    U+2028 or the other separators `str.splitlines` also splits at, which would shift every later
    line; `lines_with_endings` keeps the endings."""
    return _LINES.split(text)


def text_lines(text: str) -> list[str]:
    """The lines of *text* as Python numbers them: `split_lines` without the empty piece after a
    last line break (`"a\\n"` -> `["a"]`, as `str.splitlines` gives)."""
    lines = split_lines(text)
    return lines[:-1] if lines[-1] == "" else lines


def lines_with_endings(text: str) -> list[str]:
    """The lines of *text* with their endings, split as `split_lines` splits them."""
    out, start = [], 0
    for m in _LINES.finditer(text):
        out.append(text[start : m.end()])
        start = m.end()
    if start < len(text) or not out:
        out.append(text[start:])
    return out


def joined(source: str | tuple[str, ...]) -> str:
    """A file's text from its source as a result keeps it: the text itself, or a notebook's code
    cells joined by newlines."""
    return source if isinstance(source, str) else "\n".join(source)


def mentions_tf(text: str) -> bool:
    """The cheap pre-check: code that names neither tensorflow nor keras, nor calls a method only
    Keras has (`.predict_on_batch(` on a model handed in: untyped.KERAS_ONLY), has no TF calls."""
    return "tensorflow" in text or "keras" in text or untyped.names_keras_method(text)


def read_bytes(path: Path, max_bytes: int) -> tuple[bytes | None, FileError | None]:
    """The raw bytes of *path*, or a FileError (unreadable, special file, too large).

    Only regular files are read: a FIFO, socket or device is refused by its `stat` before any
    open (opening a FIFO waits for a writer), and the file is opened non-blocking and checked
    again on its descriptor, in case it was swapped in between.
    """
    limit = max_bytes * NOTEBOOK_RAW_FACTOR if path.suffix == ".ipynb" else max_bytes
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            return None, _directory(path)
        if not stat.S_ISREG(mode):
            return None, _special(path)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode):
                return None, _special(path)
            if st.st_size > limit:
                return None, _too_large(path, st.st_size, limit)
            data = fh.read(limit + 1)  # a file growing meanwhile is still cut at the limit
        if len(data) > limit:
            return None, _too_large(path, len(data), limit)
        return data, None
    except OSError as exc:
        return None, file_error(str(path), UNREADABLE, f"{path}: cannot read file: {exc.strerror or exc}")


def _directory(path: Path) -> FileError:
    """A folder given where a file was expected: one that cannot be listed is named as such."""
    try:
        with os.scandir(path):
            pass
    except OSError as exc:
        return file_error(str(path), UNREADABLE, f"{path}: cannot read directory: {exc.strerror or exc}; skipped")
    return file_error(str(path), UNREADABLE, f"{path}: cannot read file: is a directory")


def _special(path: Path) -> FileError:
    return file_error(str(path), SPECIAL_FILE, f"{path}: not a regular file (a FIFO, socket or device); skipped")


def _too_large(path: Path, size: int, limit: int) -> FileError:
    return file_error(str(path), TOO_LARGE, f"{path}: file is {size} bytes, over the {_limit(limit)} limit; skipped")


def _limit(limit: int) -> str:
    for unit, size in (("MiB", 1024 * 1024), ("KiB", 1024)):
        if limit % size == 0:
            return f"{limit // size} {unit} ({limit}-byte)"
    return f"{limit}-byte"


#: Byte-order marks of the wide encodings (UTF-32 first: its little-endian mark starts with UTF-16's).
_WIDE_BOMS = (("UTF-32", codecs.BOM_UTF32_LE), ("UTF-32", codecs.BOM_UTF32_BE), ("UTF-16", codecs.BOM_UTF16_LE),
              ("UTF-16", codecs.BOM_UTF16_BE))


def decode(path: str, data: bytes) -> tuple[str | None, FileError | None]:
    """The text of a source file, or a FileError for binary or undecodable content.

    Python files are decoded as Python reads them: UTF-8 (a BOM is dropped) unless a PEP 263
    coding cookie on the first two lines names another encoding. Notebooks are JSON: UTF-8.
    """
    if b"\0" in data:
        wide = next((name for name, bom in _WIDE_BOMS if data.startswith(bom)), None)
        if wide:  # Windows PowerShell's `>` writes UTF-16: text, not binary, yet no source Python reads
            return None, file_error(path, BAD_ENCODING, f"{path}: {wide} text (its byte-order mark); Python reads"
                                    " source, and Jupyter notebooks, as UTF-8 only: save it as UTF-8; skipped")
        return None, file_error(path, BINARY, f"{path}: binary file (contains NUL bytes); skipped")
    encoding, error = source_encoding(path, data)
    if error is not None:
        return None, error
    try:
        return data.decode(encoding), None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        shown = "UTF-8" if encoding.startswith("utf-8") else encoding
        message = f"{path}:{line}: not valid {shown} (byte {exc.start}: {exc.reason}); skipped"
        return None, file_error(path, NOT_UTF8 if shown == "UTF-8" else BAD_ENCODING, message, line)
    except (UnicodeError, ValueError) as exc:  # a codec failing its own way (punycode, idna)
        message = f"{path}: not valid {encoding} ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__}); skipped"
        return None, file_error(path, BAD_ENCODING, message, 1)


def source_encoding(path: str, data: bytes) -> tuple[str, FileError | None]:
    """The text encoding Python reads *data* in (`utf-8-sig`: UTF-8 with or without a BOM),
    or a FileError for a coding cookie it refuses."""
    encoding = "utf-8-sig"
    if not path.endswith(".ipynb") and b"coding" in data[:1024]:
        try:
            encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
        except SyntaxError as exc:  # an unknown encoding, or a cookie contradicting a BOM
            why = "a UTF-8 byte-order mark but a coding cookie naming another encoding"
            message = f"{path}: {why if data.startswith(codecs.BOM_UTF8) else exc.msg}; skipped"
            return encoding, file_error(path, BAD_ENCODING, message, exc.lineno or 1)
        if not codecs.lookup(encoding)._is_text_encoding:  # rot13, base64, zlib: Python refuses them too
            message = f"{path}: the coding cookie names {encoding!r}, which is not a text encoding; skipped"
            return encoding, file_error(path, BAD_ENCODING, message, 1)
    return encoding, None


def check_size(path: str, text: str, max_bytes: int) -> FileError | None:
    size = len(text.encode("utf-8")) if not text.isascii() else len(text)
    if size > max_bytes:
        return file_error(path, TOO_LARGE, f"{path}: {size} bytes of code, over the {_limit(max_bytes)} limit; skipped")
    return None


def cells_of(nb: dict) -> tuple[Any, str]:
    """A parsed notebook's cells (nbformat 4, or 3's worksheets joined) and the key of their source
    (`source`, nbformat 3's `input`); the cells as found, unchecked."""
    sheets = nb.get("worksheets")
    if "cells" not in nb and isinstance(sheets, list):  # nbformat 3
        return [c for ws in sheets if isinstance(ws, dict) for c in ws.get("cells", [])], "input"
    return nb.get("cells"), "source"


def notebook_cells(path: str, text: str) -> tuple[list[str], FileError | None]:
    """The sources of a notebook's code cells (nbformat 3 or 4), in order; none for a notebook
    whose metadata names another language than Python."""

    def bad(why: str) -> tuple[list[str], FileError]:
        return [], file_error(path, BAD_NOTEBOOK, f"{path}: malformed notebook: {why}")

    try:
        nb = json.loads(text)
    except ValueError as exc:
        return bad(f"invalid JSON ({exc})")
    except RecursionError:
        return bad("JSON nested too deeply")
    if not isinstance(nb, dict):
        return bad("top level is not a JSON object")
    sheets = nb.get("worksheets")
    if "cells" not in nb and isinstance(sheets, list):
        if not all(isinstance(ws, dict) and isinstance(ws.get("cells", []), list) for ws in sheets):
            return bad("a worksheet that is not an object with a 'cells' list")
    cells, source_key = cells_of(nb)
    if not isinstance(cells, list):
        return bad("no 'cells' list")
    if _language(nb) not in ("python", None):
        return [], None  # an R or Julia notebook: nothing for a Python linter
    sources = []
    for i, cell in enumerate(cells, 1):
        if not isinstance(cell, dict):
            return bad(f"cell {i} is not an object")
        kind = cell.get("cell_type")
        if not isinstance(kind, str):  # skipped, a cell of code would pass every rule unread
            return bad(f"cell {i} has no 'cell_type' string (code, markdown or raw)")
        if kind != "code":
            continue
        source = cell.get(source_key, "")
        if isinstance(source, list) and all(isinstance(s, str) for s in source):
            source = "".join(source)
        if not isinstance(source, str):
            return bad(f"cell {i} has a source that is neither a string nor a list of strings")
        if not _encodable(source):
            return bad(f"cell {i} holds a lone surrogate (\\ud800-\\udfff), which is not text")
        sources.append(source)
    return sources, None


def _encodable(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _language(nb: dict) -> str | None:
    metadata = nb.get("metadata")
    if not isinstance(metadata, dict):
        return None
    for key, field in (("language_info", "name"), ("kernelspec", "language")):
        entry = metadata.get(key)
        if isinstance(entry, dict) and isinstance(entry.get(field), str):
            return entry[field].lower()
    return None


def cell_code(cell: str, index: int | None = None) -> Code:
    """A notebook code cell as Python: its IPython lines blanked (`blank_magics`), with the
    reading that keeps a block whose only statement was a magic (`pass` in its place) to retry.
    Every reader of a cell's syntax (the analysis, the rules' trees, `diff`) reads it through
    this and `parse_code`, so a magic hides nothing from any of them."""
    blanked = blank_magics(cell)
    return Code(blanked, index, blank_magics(cell, "pass") if blanked != cell else None)


def parse_code(unit: Code, filename: str = "<unknown>") -> ast.Module:
    """The tree of *unit*: its text, else its retry reading; raises the text's SyntaxError when
    neither parses."""
    try:
        return ast.parse(unit.text, filename=filename)
    except SyntaxError:
        if unit.retry is None:
            raise
        return ast.parse(unit.retry, filename=filename)


def blank_magics(source: str, placeholder: str = "") -> str:
    """IPython-only lines blanked out (not removed), so positions stay true to the cell.

    A magic line becomes *placeholder* at its indentation: "" by default, "pass" to keep a
    block whose only statement was a magic (`for ...:` then `    %time f()`) parseable.

    A cell magic (`%%bash`, `%%writefile`, ...) blanks its whole cell, except magics whose
    body is Python (`%%time`, `%%timeit`, `%%capture`), where only the magic line goes.
    """
    if not any(ch in source for ch in "%!?"):
        return source
    lines = split_lines(source)
    first = lines[0].lstrip()
    if first.startswith("%%"):
        name = first[2:].split(maxsplit=1)[0] if first[2:].strip() else ""
        keep_body = name in _PYTHON_CELL_MAGICS
        body = _blank_lines(lines[1:], placeholder) if keep_body else [""] * (len(lines) - 1)
        return "\n".join(["", *body])
    return "\n".join(_blank_lines(lines, placeholder))


def _blank_lines(lines: list[str], placeholder: str) -> list[str]:
    out = []
    continued = False
    for line in lines:
        if continued:
            out.append("")
        elif _MAGIC_LINE.match(line):
            out.append(line[: len(line) - len(line.lstrip())] + placeholder if placeholder else "")
        else:
            out.append(line)
            continue
        continued = line.endswith("\\")
    return out
