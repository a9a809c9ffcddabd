"""Entry points: analyse a file or a source text into call sites and file errors."""

from __future__ import annotations

import ast
import bisect
import os
import sys
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from greenlint.analysis import exercises, installed, libraries, sources, trees
from greenlint.analysis.arrays import TENSOR
from greenlint.analysis.callsite import CallSite, Span, node_columns
from greenlint.analysis.compilable import may_not_compile
from greenlint.analysis.enclosing import Enclosing, shape
from greenlint.analysis.options import OptionRead
from greenlint.analysis.project import Imports, import_statements, project_index, working_directory
from greenlint.analysis.resolver import Resolver
from greenlint.analysis.sources import Code, FileError
from greenlint.analysis.trees import shift_lines
from greenlint.analysis.work import mark_symbolic
from greenlint.catalog.catalog import Catalog, load_catalog
from greenlint.catalog.names import TF1_PREFIX

#: Deeply nested code (long `a + b + ...` chains) needs more than Python's default 1000 frames.
_RECURSION_LIMIT = 10_000


@dataclass(frozen=True)
class FileAnalysis:
    path: str
    callsites: list[CallSite] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    source_text: str | None = None  # the decoded file (notebooks: their JSON)
    cells: list[str] | None = None  # notebooks: each code cell's source, as written
    parsed: bool = False  # False when the cheap text check skipped parsing
    #: The files of the project's own modules it imports (absolute paths, sorted), as the import
    #: scan found them for a file on disk (its project imports: greenlint.analysis.project).
    imports: tuple[str, ...] = ()
    #: The attributes of a plain file read as the default of an option another module defines.
    options: tuple[OptionRead, ...] = ()
    #: The parsed tree of a plain file (not a notebook), for the rules to reuse: never cached.
    tree: ast.Module | None = field(default=None, compare=False, repr=False)


def analyse_file(
    path: str | Path, *, catalog=None, max_bytes: int = sources.MAX_BYTES, beside: bool = False
) -> FileAnalysis:
    """Analyse one file on disk; never raises for bad input (see `FileAnalysis.errors`). *beside*:
    a module read beside the one checked (GL408), whose analysis the run's own turn at it reuses."""
    path = Path(path)
    data, error = sources.read_bytes(path, max_bytes)
    if error is not None:
        return FileAnalysis(str(path), errors=[error])
    text, error = sources.decode(str(path), data)
    if error is not None:
        return FileAnalysis(str(path), errors=[error])
    return analyse_source(text, str(path), catalog=catalog, max_bytes=max_bytes, beside=beside)


def analyse_source(
    text: str,
    path: str = "<string>",
    cell_offsets: list[int] | None = None,
    *,
    catalog=None,
    max_bytes: int = sources.MAX_BYTES,
    checkpoint: Callable[[], None] | None = None,
    beside: bool = False,
) -> FileAnalysis:
    """Analyse source text. A path ending in `.ipynb` means *text* is notebook JSON.

    *cell_offsets* (0-based line numbers where each code cell starts) says *text* is the code
    cells of a notebook joined together; positions are then reported per cell. *checkpoint* is
    called after parsing and before each statement the resolver walks: raising there abandons the
    analysis (an editor's newer version made it moot).
    """
    path = str(path)
    cells: list[str] | None = None
    if path.endswith(".ipynb") and cell_offsets is None:
        cells, error = sources.notebook_cells(path, text)
        if error is not None:
            return FileAnalysis(path, errors=[error], source_text=text)
    elif cell_offsets is not None:
        lines = sources.split_lines(text)
        bounds = [*cell_offsets, len(lines)]
        cells = ["\n".join(lines[bounds[i] : bounds[i + 1]]) for i in range(len(cell_offsets))]
    if cells is not None:
        units = [sources.cell_code(cell, i) for i, cell in enumerate(cells, 1)]
        code = "\n".join(unit.text for unit in units)
    else:
        units = [Code(text)]
        code = text
    error = sources.check_size(path, code, max_bytes)
    if error is not None:
        return FileAnalysis(path, errors=[error], source_text=text, cells=cells)
    local = project_imports(path, code)
    if not parses(path, code, local):
        return FileAnalysis(path, source_text=text, cells=cells)
    if catalog is None:
        catalog = load_catalog()
    if sys.getrecursionlimit() < _RECURSION_LIMIT:  # raised once, never lowered: threads may be analysing
        sys.setrecursionlimit(_RECURSION_LIMIT)
    trees, errors = _parse(path, units)
    if checkpoint is not None:
        checkpoint()
    imports = None
    depends: tuple = ()
    importers = _importers(path)  # how they call what it defines (constructed.py)
    if local is not None or importers:
        index, absolute = project_index(), os.path.abspath(path)
        imports = Imports(index, absolute, catalog, local or [])
        depends = (working_directory(), index.digest(absolute), *((m, index.digest(m)) for m in (
            *(local or ()), *importers, *index.calling_imports(absolute, importers))))
    if os.path.isfile(path):
        depends += (installed.stamp(path),)  # the libraries its classes are read from (installed, upgraded)
    tree = trees[0] if cells is None else None  # a cell's tree is renumbered into the joined module
    known = _known((os.path.abspath(path), code)) if tree is not None else None
    if tree is not None and known is not None and known[0] is catalog and known[1] == depends:
        return _moved(known[2], path, tree)
    callsites, read = _resolve(path, code, units, trees, catalog, errors, imports, checkpoint)
    found = tuple(local or ())
    result = FileAnalysis(path, callsites, errors, source_text=text, cells=cells, parsed=True, imports=found,
                          options=tuple(read) if tree is not None else (), tree=tree)
    if tree is not None and not errors:
        _remember((os.path.abspath(path), code), (catalog, depends, replace(result, tree=None)), beside)
    return result


def _known(key: tuple[str, str]) -> tuple[object, tuple, FileAnalysis] | None:
    return _analyses[False].get(key) or _analyses[True].get(key)


def _remember(key: tuple[str, str], entry: tuple[object, tuple, FileAnalysis], beside: bool) -> None:
    """Keep *entry*, the analysis of a module's text, dropping the oldest beyond the bound."""
    kept = _analyses[beside]
    with _lock:
        kept.pop(key, None)
        kept[key] = entry
        while len(kept) > (KEPT_IN_RUN if trees.running() else trees.EDITED):
            kept.popitem(last=False)


#: The last analyses of module texts without errors (absolute path and text -> the catalog, the
#: digests of the project modules it depends on, the analysis without its tree), kept apart by
#: whether the module was read beside another: GL408 reads a project module's analysis beside the
#: files that import it, a few files after `check` analysed the module itself or up to a thousand
#: before; an editor analyses an unchanged buffer again. Such a text has passed the compile check.
#: At most KEPT_IN_RUN of each during a run of many files (`trees.shared`), else the editor's
#: `trees.EDITED`.
_analyses: dict[bool, OrderedDict[tuple[str, str], tuple[object, tuple, FileAnalysis]]] = {
    False: OrderedDict(),
    True: OrderedDict(),
}
KEPT_IN_RUN = 256
_lock = threading.Lock()


def _moved(known: FileAnalysis, path: str, tree: ast.Module) -> FileAnalysis:
    """A kept analysis of the file at *path* (the same file, perhaps named by another path)."""
    callsites = [site if site.path == path else replace(site, path=path) for site in known.callsites]
    return replace(known, path=path, callsites=callsites, errors=[], tree=tree)


def _parse(path: str, units: list[Code]) -> tuple[list[ast.Module | None], list[FileError]]:
    """One tree per unit (None where it does not parse, with a FileError saying why)."""
    parsed: list[ast.Module | None] = []
    errors = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. invalid escape sequences: not ours to report
        name = path.replace("\0", "\\0")  # compile() refuses a NUL in a file name (an editor's `a%00.py`), not the code
        for unit in units:
            where = f"{path}:cell {unit.cell}" if unit.cell is not None else path
            try:
                trees.analysing(name)
                if unit.cell is None:  # a cell's tree is renumbered (changed) later: never shared
                    tree = trees.parse_module(unit.text, name)
                else:
                    tree = sources.parse_code(unit, name)
                if unit.cell is not None or _known((os.path.abspath(path), unit.text)) is None:
                    _compiles(tree, unit, name)
                parsed.append(tree)
            except SyntaxError as exc:
                line, column = exc.lineno or 0, exc.offset or 0
                left = exercises.blank(unit.retry or unit.text) if unit.cell is not None else None
                if left is not None:
                    message = f"{where}: blanks left for the student (the first: `{left[1]}`): the cell is skipped"
                    errors.append(sources.file_error(path, sources.EXERCISE, message, left[0], 1, unit.cell))
                else:
                    message = f"{where}:{line}:{column}: syntax error: {exc.msg} ({_GRAMMAR})"
                    errors.append(sources.file_error(path, sources.SYNTAX_ERROR, message, line, column, unit.cell))
                parsed.append(None)
            except (RecursionError, MemoryError, ValueError) as exc:
                reason = "too deeply nested" if not isinstance(exc, ValueError) else str(exc)
                message = f"{where}: {reason}"  # GL001 says "cannot parse: " before it
                errors.append(sources.file_error(path, sources.SYNTAX_ERROR, message, cell=unit.cell))
                parsed.append(None)
    return parsed, _said_once(errors) if len(units) > 1 else errors  # one unit: no cells to say once


def _graph_op(catalog: Catalog, api: str, features: dict) -> bool:
    """Whether a file call *api* (a read, a decode, a summary) is an op of the TF1 graph being built: it
    returns a tensor, under its own name or, in a TF1 graph program, as its `tf.compat.v1` twin
    (`tf.summary.scalar` there is TF1's summary op, run with the graph)."""
    if not features.get("graph_mode"):
        return False
    twin = TF1_PREFIX + api.removeprefix("tensorflow.") if not api.startswith(TF1_PREFIX) else api
    return catalog.returns(api) == TENSOR or twin in catalog and catalog.returns(twin) == TENSOR


def _said_once(errors: list[FileError]) -> list[FileError]:
    """A notebook's cells that do not parse (or that are an exercise's blanks) as one error of
    each code, at the first: each is skipped, the others analysed, and a reader needs to hear
    it once."""
    said = []
    for code in dict.fromkeys(e.code for e in errors):
        same = [e for e in errors if e.code == code]
        cells = [e.cell for e in same if e.cell is not None]
        if len(cells) < 2:
            said += same
            continue
        first, shown = same[0], ", ".join(map(str, cells))
        said.append(replace(first, message=f"{first.message}; {len(cells)} code cells {_SKIPPED[code]} (cells {shown})"))
    return said


#: How the message of several cells says why they are skipped, by code.
_SKIPPED = {"GL001": "do not parse and are skipped", "GL004": "are an exercise's blanks and are skipped"}


#: Which Python's grammar judged the code: syntax newer than it reads as an error here.
_GRAMMAR = f"as parsed by Python {sys.version_info.major}.{sys.version_info.minor}"


def _compiles(tree: ast.Module, unit: Code, path: str) -> None:
    """Raise the SyntaxError that only the compiler finds (`return` outside a function, a
    duplicate argument, `nonlocal` at module level): the tree is compiled, never run, where
    one may occur (`compilable.may_not_compile`). A notebook cell may `await` at its top
    level, as IPython allows."""
    if may_not_compile(tree, unit.text):
        flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT if unit.cell is not None else 0
        compile(tree, path, "exec", flags=flags, dont_inherit=True)


def parses(path: str, code: str, local: list[str] | None) -> bool:
    """The cheap text check: a file is parsed where its text *code* names TensorFlow or Keras,
    imports another module of its project (*local*: `project_imports`), is imported by a module
    beside it that names them (a loader of a TF program), or imports a library built on them."""
    return sources.mentions_tf(code) or local is not None or bool(_tf_importers(path)) or _imports_library(path, code)


def _imports_library(path: str, code: str) -> bool:
    """Whether *code* imports a library built on TF/Keras (libraries.py: installed, or in the table)."""
    roots = {(dotted or plain or "").partition(".")[0] for dots, dotted, _, plain in import_statements(code) if not dots}
    return any(libraries.built_on_keras(root, path) for root in roots if root)


def project_imports(path: str, code: str) -> list[str] | None:
    """The other modules of its project that *code* imports, for a file on disk (an editor's
    buffer may differ from it); None if it imports none (or is not a file)."""
    if not os.path.isfile(path):
        return None
    index = project_index()
    index.refresh(max_age=1.0)  # an imported module edited meanwhile (the editor) is read again
    return index.imports_of(os.path.abspath(path), code) or None


def _importers(path: str) -> list[str]:
    """The modules beside the file at *path* (or above its package) that name TensorFlow or Keras and
    import it, whether it names them or not ([] if none, or if it is no file: `ProjectIndex.callers`)."""
    if not os.path.isfile(path):
        return []
    return project_index().callers(os.path.abspath(path))


def _tf_importers(path: str) -> list[str]:
    """The modules beside the file at *path* that name TensorFlow or Keras and import it ([] if
    none, or if it is no file): the loader module of a TF program, analysed with it."""
    if not os.path.isfile(path):
        return []
    return project_index().tf_importers(os.path.abspath(path))


def _resolve(
    path: str, code: str, units: list[Code], trees: list, catalog, errors: list[FileError], imports=None,
    checkpoint: Callable[[], None] | None = None,
) -> tuple[list[CallSite], list[OptionRead]]:
    """Resolve the parsed units as one module (notebook cells share one namespace, in order): its
    call sites, and the attributes it read as another module's option defaults (`Resolver.read_options`)."""
    starts = []  # first line of each unit in the joined module
    body = []
    offset = 0
    for unit, tree in zip(units, trees):
        starts.append(offset + 1)
        if tree is not None:
            if offset:
                shift_lines(tree, offset)
            body.extend(tree.body)
        if len(units) > 1:
            offset += len(sources.split_lines(unit.text))
    module = ast.Module(body=body, type_ignores=[])
    resolver = Resolver(catalog, code, imports, checkpoint=checkpoint, file=path)
    try:
        found = resolver.run(module)
    except (RecursionError, MemoryError):
        errors.append(sources.file_error(path, sources.SYNTAX_ERROR, f"{path}: code too deeply nested to analyse"))
        return [], []
    lines: dict[int, list[str] | None] = {}
    enclosing = Enclosing(module) if found else None
    callsites = []
    for node, api, features, runs, work in found:
        index = bisect.bisect_right(starts, node.lineno) - 1
        unit, base = units[index], starts[index] - 1
        if index not in lines:
            lines[index] = None if unit.text.isascii() else sources.split_lines(unit.text)
        start, end = node_columns(node, lines[index], base)
        span = Span(node.lineno - base, start + 1, node.end_lineno - base, end + 1, unit.cell)
        kind = catalog.kind(api)
        work = mark_symbolic(api, kind, features, work, kind == "io" and _graph_op(catalog, api, features))
        scope = enclosing.scope(node) if enclosing is not None else ""
        callsites.append(CallSite(path, span, api, features, work, runs, scope, shape(node)))
    callsites.sort(key=_position)
    return callsites, resolver.read_options()


def _position(site: CallSite) -> tuple:
    span = site.span
    return (span.cell or 0, span.line, span.column, -span.end_line, -span.end_column)
