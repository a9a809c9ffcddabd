"""Imports between the analysed project's own modules, followed statically (never imported).

A cheap pre-pass per module: its imports are found by a text scan (`direct_imports`) and each
is looked up like Python's `sys.path` would (`search_roots`): the file's own directory (a
script's `sys.path[0]`; not for a module inside a package), the directory above its top
package, the project root (nearest ancestor with pyproject.toml, setup.py, setup.cfg or
.git) with its `src/`, and last the working directory with its `src/` when the module lies
under it (ruff's default `src = [".", "src"]`: a tree checked from its own root, such as a
project copied into another repository without its setup.py, finds its top-level packages). A project module's *summary* is what the resolver knows of its
module-level names once it has walked it: TF objects and classes, literals, functions (what
they return, its parameters unknown: other modules may pass anything; a generator function whose
batches are then unknown also keeps that walk, a `Template`, for each caller to walk its body
again with its own arguments), classes (their TF base,
what their methods return, what their attributes hold), and the TF modules it star-imports (a
backend shim's `from keras import *` re-exports Keras). Values are copied out of a summary, never
walked again; only imports the text scan found are followed, so the cache key covers them all.
A module depends on the modules whose names it reads, not on the parent packages Python runs
first (`from a.b import c` reads a.b and its submodule c): a package `__init__` importing all its
modules would otherwise put every module of the package in one cycle.

Modules that import each other (a strongly connected component of the import graph) see each
other as unknown: a summary depends only on its module and on modules outside its component,
so it is the same whichever file is analysed first, and is memoised by a digest over those
files' contents (`ProjectIndex.digest`, also the per-file cache's dependency key). Summaries
live in this process only (a worker forked after they were made inherits them): they are graphs
of the resolver's values, shared and cyclic, and making them again from their modules cost the
same CPU as reading them back from the lint cache did (3.6-4.0 s either way, re-checking
tf-models-official's `official/nlp/modeling` after an edit of one module; docs/benchmarks.md,
"Linter", compares cold and warm runs with the commit that still cached them).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import os
import re
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from greenlint.analysis import assigned, by_name, constructed, installed, path_edits, served, trees, untyped, wrapped
from greenlint.analysis.import_table import bindings
from greenlint.analysis.records import Record
from greenlint.analysis.values import (
    MISSING,
    SEQUENCE,
    Choice,
    ClassInfo,
    Composed,
    Const,
    ExtClass,
    ExtFunc,
    ExtInst,
    ExtModule,
    FuncInfo,
    Inst,
    Kw,
    Options,
    Parsed,
    Ref,
    Seq,
    Template,
    UserClass,
    UserFunc,
    UserInst,
    Walk,
    fresh,
    runs_of,
)
from greenlint.paths import project_root

#: The summary entry listing the TF modules a module star-imports (never a Python name).
STAR = "*"
#: A line starting `from .a.b import (x, y)` or `import a.b as c, d`. Only these imports are
#: followed (`Imports`), so the scan and the resolver agree.
_IMPORT_LINE = re.compile(
    r"[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n;]*)"
    r"|import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*))"
)
_SPLIT = re.compile(r"\W+")


@functools.lru_cache(maxsize=65536)
def _is_package(directory: str) -> bool:
    """Whether *directory* holds an `__init__.py`: asked for each folder above each module, file after
    file, and answered once between refreshes (`ProjectIndex.refresh`), as the search roots are."""
    return os.path.isfile(os.path.join(directory, "__init__.py"))


def _outside_packages(directory: str) -> str:
    """The nearest folder at or above *directory* that is no package: for a package's folder, the one
    holding its top package (where the scripts importing it run from)."""
    top = directory
    while _is_package(top) and os.path.dirname(top) != top:
        top = os.path.dirname(top)
    return top


_MAIN_GUARD = re.compile(r"""__name__\s*==\s*['"]__main__['"]""")


@functools.lru_cache(maxsize=4096)
def _holds_python(directory: str) -> bool:
    """Whether *directory* holds a Python file of its own."""
    try:
        return any(entry.name.endswith(".py") and entry.is_file() for entry in os.scandir(directory))
    except OSError:
        return False


def _holds_script(directory: str) -> bool:
    """Whether a module of *directory* runs as the program: a script (`if __name__ == "__main__":`), a
    web server's (served.py) or a notebook (its cells run top to bottom), started from that folder; in
    a package folder also a module importing another of the folder as a top-level one (`from models.cnn
    import mini_XCEPTION` in `src/train.py`, `src/models/` a package): found only with the folder first
    on `sys.path`, where Python puts a script's own."""
    try:
        names = sorted(entry.name for entry in os.scandir(directory) if entry.name.endswith((".py", ".ipynb")))
    except OSError:
        return False
    inside = _inside(directory) if _is_package(directory) else frozenset()
    return any(name.endswith(".ipynb") or _runs_as_program(os.path.join(directory, name), inside) for name in names)


def _inside(directory: str) -> frozenset[str]:
    """The names a top-level import finds in *directory* first on `sys.path`: its modules and folders, less
    `__init__` and those of the standard library (which a package's folder never shadows: `find_module`)."""
    try:
        names = {entry.name.removesuffix(".py") for entry in os.scandir(directory)
                 if entry.name.endswith(".py") or entry.is_dir() and not entry.name.startswith(".")}
    except OSError:
        return frozenset()
    return frozenset(n for n in names if n.isidentifier() and n != "__init__" and n not in sys.stdlib_module_names)


def _subfolders(folder: str) -> list[str]:
    """The folders in *folder*, sorted, less links, hidden ones and installed environments (a `pyvenv.cfg`)."""
    try:
        entries = sorted(entry.path for entry in os.scandir(folder)
                         if entry.is_dir(follow_symlinks=False) and not entry.name.startswith("."))
    except OSError:
        return []
    return [entry for entry in entries if not os.path.isfile(os.path.join(entry, "pyvenv.cfg"))]


def _runs_as_program(path: str, inside: frozenset[str] = frozenset()) -> bool:
    """Whether the module at *path* runs as the program (`_holds_script`); *inside*: the names of its
    package folder an import of it finds only with that folder first on `sys.path` (`_inside`)."""
    from greenlint.analysis import sources

    data, error = sources.read_bytes(Path(path), sources.MAX_BYTES)
    if error is not None or data is None:
        return False
    if not inside and not (b"__main__" in data or any(n.encode() in data for n in served.SERVERS)):
        return False  # the cheap test first: most library modules name neither
    text = module_code(path, data) or ""
    if _MAIN_GUARD.search(text) or served.imports_server(text):
        return True
    return any(name in inside for statement in import_statements(text) for name in _first_names(statement))


def _first_names(statement: tuple) -> list[str]:
    """The top-level names an absolute import statement (`_IMPORT_LINE` groups) looks up first; none for
    a relative one."""
    dots, dotted, _, plain = statement
    if plain is not None:
        return [item.split()[0].partition(".")[0] for item in plain.split(",") if item.split()]
    return [] if dots else [dotted.partition(".")[0]]


def working_directory() -> str | None:
    """The process's working directory, None when it no longer exists."""
    try:
        return os.getcwd()
    except OSError:
        return None


def import_roots(directory: str) -> tuple[str, ...]:
    """`search_roots` of *directory* with this process's working directory: where an absolute
    import of a module there is looked up, by the scan, the resolver and the rules alike (a lookup
    without the working directory missed modules the scan had found, and found them only where a
    project marker above the tree added the same folder: a stray `/tmp/pyproject.toml` changed
    tf-models-official's call sites)."""
    return search_roots(directory, working_directory())


@functools.lru_cache(maxsize=4096)
def search_roots(directory: str, cwd: str | None = None) -> tuple[str, ...]:
    """Where an absolute import in a module of *directory* is looked up, first match wins; *cwd*
    (the working directory) comes last, and only for a module under it."""
    roots = []
    if not _is_package(directory):
        roots.append(directory)
    top = _outside_packages(directory)
    roots.append(top)
    project = project_root(directory)
    if project is not None:
        # the directories between: where a script is run from to import its code as a namespace package
        # (`import baselines.common.tf_util` in baselines/deepq/build_graph.py, baselines/ without __init__.py)
        above = top
        while above != project and os.path.dirname(above) != above and not _is_package(above):
            above = os.path.dirname(above)
            if above != project:
                roots.append(above)
        roots += [project, os.path.join(project, "src")]
    elif _holds_python(above := os.path.dirname(top)) and not _is_package(above):
        # no project marker (a repository downloaded without its .git): the folder just above, holding the
        # scripts run from there that import this folder's modules (`import core.common` in core/)
        roots.append(above)
    if cwd is not None and os.path.commonpath((cwd, os.path.abspath(directory))) == cwd:
        roots += [cwd, os.path.join(cwd, "src")]
    if _is_package(directory) and _holds_script(directory):
        # last: a script of a package folder run from there (`python web/server.py`, its folder first on
        # sys.path) finds a sibling no other root holds; a folder with no script (a library's) is never
        # first on sys.path, and its `numpy.py` never answers `import numpy`
        roots.append(directory)
    return tuple(dict.fromkeys(r for r in roots if os.path.isdir(r)))


@functools.lru_cache(maxsize=65536)
def find_module(roots: tuple[str, ...], dotted: str) -> ExtModule | None:
    """The project module *dotted* names under the first root holding it; None if none does. A package
    folder, a root only as the last resort of its own modules (`search_roots`), never shadows the
    standard library (`import random` beside a `random.py` of the package)."""
    parts = [p for p in dotted.split(".") if p]
    stdlib = bool(parts) and parts[0] in sys.stdlib_module_names
    for root in roots:
        if stdlib and _is_package(root):
            continue
        found = _module_at(os.path.join(root, *parts)) if parts else _module_at(root)
        if found is not None:
            return found
    return None


def _module_at(base: str) -> ExtModule | None:
    if os.path.isdir(base):
        init = os.path.join(base, "__init__.py")
        if os.path.isfile(init):
            return ExtModule(init, base)
        # a namespace package: modules, or packages, directly in it
        if any(name.endswith(".py") or _is_package(os.path.join(base, name)) for name in os.listdir(base)):
            return ExtModule(None, base)
    if os.path.isfile(base + ".py"):
        return ExtModule(base + ".py", None)
    return None


def bound_modules(path: str, statements: Iterable[ast.Import | ast.ImportFrom]) -> dict[str, str]:
    """The dotted paths the import *statements* of the module at *path* bind its names to, outside
    the project (`import_table.bindings`: `import numpy.random as npr`: `npr` -> `numpy.random`;
    `import numpy.random`: `numpy` -> `numpy`; `from random import randint`: `randint` ->
    `random.randint`). A name whose module the project holds (a `random.py` beside a script: Python
    finds it first, as `Imports` does), a relative import's, or one bound to two different paths is
    left out."""
    roots = import_roots(os.path.dirname(os.path.abspath(path)))
    found: dict[str, str | None] = {}
    for name, dotted in bindings(statements):
        if dotted is not None and find_module(roots, dotted.partition(".")[0]):
            dotted = None
        found[name] = dotted if found.get(name, dotted) == dotted else None
    return {name: dotted for name, dotted in found.items() if dotted is not None}


def project_bindings(path: str, statements: Iterable[ast.Import | ast.ImportFrom]) -> dict[str, list[tuple[str | None, str]]]:
    """Name -> what the import *statements* of the module at *path* may bind it to, as Python binds
    it: each (file of the project module, member), the file None where the project holds no such
    module. The member is "" where the name is the module itself (`import a.b` binds `a` to module
    a, `import a.b as c` binds `c` to a.b), its name there otherwise (`from m import n`: n of m; and
    "" of m/n.py too, where package m has that module: Python takes the package's attribute n
    first, its submodule n otherwise); `from m import *` binds "*" to m's member "*"."""
    roots = import_roots(os.path.dirname(path))
    bound: dict[str, list[tuple[str | None, str]]] = {}
    for node in statements:
        if isinstance(node, ast.Import):
            for alias in node.names:
                dotted = alias.name if alias.asname else alias.name.partition(".")[0]
                bound.setdefault(alias.asname or dotted, []).append((_file_of(find_module(roots, dotted)), ""))
            continue
        module = find_module((relative_base(path, node.level),) if node.level else roots, node.module or "")
        for alias in node.names:
            name = "*" if alias.name == "*" else alias.asname or alias.name
            bound.setdefault(name, []).append((_file_of(module), alias.name))
            if alias.name != "*" and module is not None and module.directory is not None \
                    and (file := _file_of(_submodule(module.directory, alias.name))) is not None:
                bound[name].append((file, ""))
    return bound


def relative_base(path: str, level: int) -> str:
    """The directory `from <level dots>` names in the module at *path*."""
    base = os.path.dirname(path)
    for _ in range(level - 1):
        base = os.path.dirname(base)
    return base


def _import_lines(text: str):
    """Matches of `_IMPORT_LINE` at the start of each line naming `import` (fast: no full scan)."""
    seen = -1
    at = text.find("import")
    while at != -1:
        start = text.rfind("\n", 0, at) + 1
        if start != seen:
            seen = start
            match = _IMPORT_LINE.match(text, start)
            if match is not None:
                yield match
        at = text.find("import", at + 6)


def direct_imports(path: str, text: str) -> list[str]:
    """Files of the project modules *text* (the module at *path*) may import, sorted (resolved
    against the files there now, with the folders it puts on `sys.path` itself: only stats, no reading;
    a module it names by a string counts as imported after every such edit)."""
    matches = list(_import_lines(text))
    statements = [match.groups() for match in matches]
    named = _named_statements(path, text)
    lines = _statement_lines(text, matches, named)
    return _files_of(path, _resolve_each(path, [*statements, *named], lines, path_edits.edits(path, text)))


def _statement_lines(text: str, matches: list, named: list) -> list[int]:
    """The line of each import statement (`_lines`), then of each module imported by a string
    (`_named_statements`): past the file's end, after every `sys.path` edit (it runs later, by a call)."""
    return [*_lines(text, matches), *[text.count("\n") + 2] * len(named)]


def _lines(text: str, matches: list) -> list[int]:
    """The line (1-based) each of the *matches* (`_import_lines`, in order) starts on."""
    lines, line, at = [], 1, 0
    for match in matches:
        line += text.count("\n", at, match.start())
        at = match.start()
        lines.append(line)
    return lines


def _named_statements(path: str, text: str) -> list[tuple]:
    """The modules the module at *path* may import by a string (`by_name.named_paths`), as the groups
    of the statements that import them: `import a.b as _` (the whole path bound), and for a package's
    prefix (`models.`), `from models import x, y` of the modules and packages in its folder now."""
    found: list[tuple] = []
    for name in by_name.named_paths(text):
        if not name.endswith("."):
            found.append(("", None, None, f"{name} as {_BY_NAME}"))
            continue
        package = find_module(import_roots(os.path.dirname(path)), name[:-1])
        if package is not None and package.directory is not None:
            entries = sorted(os.listdir(package.directory))
            stems = [e[:-3] for e in entries if e.endswith(".py") and e[:-3].isidentifier() and e != "__init__.py"]
            stems += [e for e in entries if e.isidentifier() and _is_package(os.path.join(package.directory, e))]
            found.append(("", name[:-1], ", ".join(stems), None))
    return found


#: The name a string-named import binds in `_named_statements` (none the code reads).
_BY_NAME = "_by_name"


def import_statements(text: str) -> list[tuple]:
    """The import statements of *text* as `_IMPORT_LINE` groups: what its content decides."""
    return [match.groups() for match in _import_lines(text)]


def _files_of(path: str, resolved: Iterable[set[str]]) -> list[str]:
    """The files of some statements' `_resolve_each` sets, sorted, without the module's own."""
    found: set[str] = set().union(*resolved)
    found.discard(path)
    return sorted(found)


def _resolve_each(path: str, statements: list[tuple], lines: list[int] | None = None,
                  made: tuple[path_edits.PathEdit, ...] = ()) -> list[set[str]]:
    """For each of the *statements* of the module at *path* (on *lines*), the files it may import; *made*:
    the module's `sys.path` edits, each searched by the statements after it."""
    directory = os.path.dirname(path)
    base = import_roots(directory)
    each: list[set[str]] = []
    for at, (dots, dotted, names, plain) in enumerate(statements):
        roots = path_edits.roots_at(base, made, lines[at]) if made and lines is not None else base
        found: set[str] = set()
        each.append(found)
        # Python runs every parent package of what it imports, but only what a name is bound to is
        # read: `import a.b` binds a (a, then a.b through it), `import a.b as c` and `from a.b
        # import c` only a.b (and its submodule c). The parents are no dependency otherwise (a
        # package's __init__ often imports all its modules: every module would be in one cycle).
        if plain is not None:
            for item in plain.split(","):
                words = item.split()
                parts = words[0].split(".") if words else []
                for i in range(len(parts) if "as" in words else 1, len(parts) + 1):
                    _add(found, _one_module(roots, ".".join(parts[:i]), directory))
            continue
        relative = (relative_base(path, len(dots)),) if dots else None
        module = _add(found, find_module(relative, dotted) if relative else _one_module(roots, dotted, directory))
        if module is not None and module.directory is not None:
            for name in _SPLIT.split(names):
                if name.isidentifier():
                    _add(found, _submodule(module.directory, name))
    return each


def _one_module(roots: tuple[str, ...], dotted: str, directory: str) -> ExtModule | None:
    """The project module an absolute import in a module of *directory* finds in *roots* (`find_module`); None
    where two could be the one imported: *directory*, a package folder its scripts run from (searched last:
    `search_roots`), holds another module of that name, which Python finds first when the script runs there."""
    found = find_module(roots, dotted)
    if found is not None and directory in roots and directory != roots[0] and _is_package(directory):
        own = find_module((directory,), dotted)
        if own is not None and own != found:
            return None
    return found


@functools.lru_cache(maxsize=65536)
def _submodule(directory: str, name: str) -> ExtModule | None:
    """`from package import name`: the package's module *name*, if it has one (a project's
    modules import the same ones: stats once, until `refresh` clears it with `find_module`)."""
    return _module_at(os.path.join(directory, name))


def _add(found: set[str], module: ExtModule | None) -> ExtModule | None:
    if module is not None and module.file is not None:
        found.add(module.file)
    return module


def _file_of(module: ExtModule | None) -> str | None:
    return None if module is None else module.file


def file_stamp(path: str) -> tuple[int, ...] | None:
    """What tells a file changed without reading it: size, mtime and also the inode's change
    time, which every write sets and `touch`/`os.utime` cannot set back (an edit keeping size and
    mtime is still seen), and the inode (a file replaced by another)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


#: Words of TF1 graph programs: their inputs made as placeholders, their graphs run by a Session.
_GRAPH_WORDS = ("placeholder(", "Session(")


class _Read(NamedTuple):
    """What the index keeps of a file's text, read once per content (`ProjectIndex._statements`)."""

    sha: str  #: the content's hash
    statements: list[tuple]  #: its import statements (`_IMPORT_LINE` groups)
    top: list[bool]  #: whether each is not indented
    names_tf: bool  #: whether it names TensorFlow or Keras (`sources.mentions_tf`)
    serves: bool  #: whether it imports a web framework (`served.imports_server`)
    not_keras_only: bool  #: unreadable, or it imports a library with estimators of its own (`untyped.imports_estimator`)
    builds_graphs: bool  #: it makes a TF1 graph's inputs or runs one (`_GRAPH_WORDS`: a placeholder, a Session)
    classes: bool  #: it may define a class at its top level (`readers`)
    lines: list[int]  #: the line each statement starts on
    edits: tuple[path_edits.PathEdit, ...]  #: the folders it puts on `sys.path` itself (path_edits.py)


def _sha(text: str) -> str:
    """The content hash of a module's code, as its scan keeps it."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def module_code(path: str, data: bytes | None = None) -> str | None:
    """The Python code of the module at *path* (a notebook's code cells joined, magics blanked);
    None where it cannot be read. *data*: its bytes, where the caller read them (not read again)."""
    from greenlint.analysis import sources

    if data is None:
        data, error = sources.read_bytes(Path(path), sources.MAX_BYTES)
        if error is not None or data is None:
            return None
    text, error = sources.decode(path, data)
    if error is None and path.endswith(".ipynb"):  # the code cells, not the JSON around them
        cells, error = sources.notebook_cells(path, text)
        text = "\n".join(sources.cell_code(cell).text for cell in cells or ())
    return None if error is not None else text


class ProjectIndex:
    """The import graph of the project modules reached so far, and their summaries (memoised
    while the files keep their size and mtime)."""

    def __init__(self):
        #: path -> (stamp, imports, sha, top imports, the search roots its imports were resolved in)
        self._scans: dict[str, tuple[Any, list[str], str, list[str], tuple[str, ...]]] = {}
        self._version = 0  # bumped when a scanned file changes: components and digests are recomputed
        self._components: dict[str, frozenset[str]] = {}
        self._digests: dict[frozenset[str], str] = {}
        self._memo_version = 0
        self._summaries: dict[str, tuple[str, dict[str, Any]]] = {}
        self._refreshed = time.monotonic()
        self._in_progress: set[str] = set()
        self._stamped: set[str] = set()  # paths stamped since `refresh` was last called
        #: path -> what its text told, of the files read in this process
        self._read_before: dict[str, _Read] = {}
        self._near: dict[str, frozenset[str]] = {}  # path -> its cycle of imports run with the module (`near`)
        #: folder -> {module: the modules there naming TF or Keras, or serving requests, that import it} (`importers`)
        self._importers: dict[str, dict[str, list[str]]] = {}
        #: folder -> {module: every module there that imports it} (`users`), listed with `_importers`
        self._users: dict[str, dict[str, list[str]]] = {}
        self._script_folders: dict[str, list[str]] = {}  # folder -> its subfolders of scripts (`callers`)
        self._holds_scripts: dict[str, bool] = {}  # folder -> `_holds_script`, its modules read once (`callers`)
        self._readers: dict[str, tuple[str, ...]] = {}  # path -> its `readers`
        self._held = False  # `held`: refresh does nothing
        self._held_stamps: dict[str, tuple[int, ...] | None] = {}  # `stamp`'s, while held
        #: path -> (its content hash, the attributes its code may set: `assigned.attributes_set`), where asked
        self._sets: dict[str, tuple[str, frozenset[str] | None]] = {}

    def _statements(self, path: str, data: bytes | None = None) -> tuple[list[tuple], str, list[bool]]:
        """The file's import statements, content hash and whether each is not indented (run when
        the module is imported, not later by a function). The file is always read and hashed
        (an edit can keep size and mtime); its statements are scanned again only when its content
        changed since this process last read it. They are not kept in the lint cache: scanning a
        module's text takes less than reading an entry back. *data*: its bytes where the caller read them."""
        text = module_code(path, data)
        sha = _sha(text or "")
        known = self._read_before.get(path)
        if known is not None and known.sha == sha:
            return known.statements, sha, known.top
        from greenlint.analysis import sources

        matches = list(_import_lines(text)) if text is not None else []
        named = _named_statements(path, text) if text is not None else []  # run by a call, later: never at the top
        statements = [*(match.groups() for match in matches), *named]
        top = [*(match.group(0)[:1] not in " \t" for match in matches), *(False for _ in named)]
        self._read_before[path] = _Read(
            sha, statements, top, text is not None and sources.mentions_tf(text),
            text is not None and served.imports_server(text), text is None or untyped.imports_estimator(text),
            text is not None and any(word in text for word in _GRAPH_WORDS),
            text is not None and (text.startswith("class ") or "\nclass " in text),
            _statement_lines(text, matches, named) if text is not None else [],
            path_edits.edits(path, text) if text is not None else ())
        return statements, sha, top

    def _scan(self, path: str, data: bytes | None = None) -> tuple[list[str], str]:
        """Its imports and content hash, the file stamped once between calls of `refresh` (one
        analysis, one run's start: its digests walk the import graph again and again). Its imports
        are resolved again when the file or its search roots changed (a project marker added
        above it: `refresh` clears the memo of the roots)."""
        known = self._scans.get(path)
        if known is not None and path in self._stamped:
            return known[1], known[2]
        stamp = file_stamp(path)
        roots = import_roots(os.path.dirname(path))
        self._stamped.add(path)
        if known is not None and (known[0], known[4]) == (stamp, roots):
            return known[1], known[2]
        if stamp is None:
            imports, sha, top = [], "missing", []
        else:
            statements, sha, tops = self._statements(path, data)
            read = self._read_before[path]
            each = _resolve_each(path, statements, read.lines, read.edits)  # each statement once: most are not indented
            imports = _files_of(path, each)
            top = _files_of(path, (files for files, is_top in zip(each, tops) if is_top))
        if known is not None:  # a changed file: components, digests may all change
            self._version += 1
        self._scans[path] = (stamp, imports, sha, top, roots)
        return imports, sha

    def refresh(self, max_age: float = 0.0) -> None:
        """Notice files changed since they were scanned, unless that was checked less than
        *max_age* seconds ago (a long-lived process, the LSP, calls it before each analysis), or
        a run over many files holds the modules as its start stamped them (`held`)."""
        if self._held:
            return
        self._stamped.clear()  # stamped again when next asked for
        self._importers.clear()  # the folders listed again
        self._users.clear()
        self._script_folders.clear()
        self._holds_scripts.clear()
        self._readers.clear()
        now = time.monotonic()
        if now - self._refreshed < max_age:
            return
        self._refreshed = now
        search_roots.cache_clear()
        _is_package.cache_clear()
        project_root.cache_clear()
        _holds_python.cache_clear()
        installed.clear()
        find_module.cache_clear()
        _submodule.cache_clear()
        for path in list(self._scans):
            self._scan(path)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """One run over many files (`check` of a project, its workers forked within): each module
        stamped once, as the run's start refreshed them, and `refresh` a no-op until it ends. An
        analysis asks for a refresh to see an edit made since the last one (the editor's); in a
        long run, stamping every module scanned so far again each second cost more than
        analysing many of the files."""
        self._held = True
        try:
            yield
        finally:
            self._held = False
            self._held_stamps.clear()

    def stamp(self, path: str) -> tuple[int, ...] | None:
        """`file_stamp(path)`, taken once per path while a run holds the modules (`held`): the
        rules ask for the stamps of the modules each file imports, file after file."""
        if not self._held:
            return file_stamp(path)
        if path not in self._held_stamps:
            self._held_stamps[path] = file_stamp(path)
        return self._held_stamps[path]

    def imports(self, path: str) -> list[str]:
        return self._scan(path)[0]

    def imports_of(self, path: str, text: str) -> list[str]:
        """`direct_imports(path, text)`, taken from the module's scan where one read this very text (the
        analysis of a module and the scan of its folder each asked, and read its statements twice)."""
        if path in self._scans:
            imports, sha = self._scan(path)
            if sha == _sha(text):
                return imports
        return direct_imports(path, text)

    def statements(self, path: str) -> list[tuple]:
        """The import statements of the module at *path* (`_IMPORT_LINE` groups) as its scan read
        them: the file not read again."""
        self._scan(path)
        known = self._read_before.get(path)
        return known.statements if known is not None else []

    def tf_importers(self, path: str) -> list[str]:
        """The modules that may call *path* (`callers`: beside it, a script's `sys.path[0]`, and for a
        module of a package, in the folders its scripts run from) that name TensorFlow or Keras,
        sorted: a loader module of a TF program (`rl/memory.py`, which `examples/dqn_atari.py`
        imports) is analysed with it though it names neither itself. [] where *path* names them
        (analysed for itself) or is no file."""
        self._scan(path)
        if path not in self._read_before or self._read_before[path].names_tf:
            return []
        return [module for module in self.callers(path) if self._read_before[module].names_tf]

    def text_flags(self, path: str) -> _Read | None:
        """What the scan of the module at *path* read in its text (`_Read`); None for no file."""
        sha = self._scan(path)[1]
        known = self._read_before.get(path)
        return known if known is not None and known.sha == sha else None

    def importers(self, path: str) -> list[str]:
        """The modules beside *path* that name TensorFlow or Keras, or serve web requests (served.py),
        and import it, sorted, whether *path* names them or not: the scripts a module's functions are
        called from."""
        self._scan(path)
        return self._folder_importers(os.path.dirname(path)).get(path, [])

    def users(self, path: str) -> list[str]:
        """The modules beside *path* that import it, sorted, whether they name TensorFlow or Keras or
        not: a driver script or notebook that hands a model it builds to a class *path* defines."""
        self._scan(path)
        folder = os.path.dirname(path)
        self._folder_importers(folder)
        return self._users.get(folder, {}).get(path, [])

    def callers(self, path: str) -> list[str]:
        """The modules that may call what the module at *path* defines, sorted: those that import it (each
        resolved as Python would run it: `imports`) in the folders a program importing it may run from, its
        folder first on `sys.path` (`program_folders`), and in the project's folders of scripts those that
        put its folder, or one above it, on `sys.path` themselves (path_edits.py: `sys.path.append("..")`), and
        so in the project holding that root (`tools/` beside a `lib/` with its own setup.py, in one repository).
        A module of a folder that no script marks as a program's (`tools/util.py` with no main guard) is no
        caller, unless beside it or its top package."""
        found = self.users(path)
        folder = os.path.dirname(path)
        extra = []
        for place in self.program_folders(folder):
            self._folder_importers(place)
            extra += self._users.get(place, {}).get(path, [])
        root = project_root(folder)
        outer = project_root(os.path.dirname(root)) if root is not None else None
        tops = [top for top in (root, outer) if top is not None]
        for place in [place for top in tops for place in (top, *self.script_folders(top))]:
            self._folder_importers(place)
            extra += [importer for importer in self._users.get(place, {}).get(path, []) if self._puts_above(importer, folder)]
        return sorted({*found, *extra}) if extra else found

    def _puts_above(self, importer: str, folder: str) -> bool:
        """Whether the module at *importer* puts *folder*, or a folder above it, on `sys.path` itself."""
        read = self.text_flags(importer)
        return read is not None and any(os.path.commonpath((edit.folder, folder)) == edit.folder for edit in read.edits)

    def program_folders(self, folder: str) -> list[str]:
        """The folders besides *folder* a program importing its modules may run from: each folder above it,
        up to the project's root (or its top package's where it has none), that holds a script
        (`_holds_script`: `src/train.py` importing `models.cnn` of `src/models/`, a notebook importing
        `models.ssd` of a namespace folder), and for a module of a package the folder holding its top package
        (`train.py` beside the package `model/`) and the folders of scripts below that (`script_folders`:
        `samples/coco/coco.py` importing `mrcnn.model`; a script there finds a module that is no package's
        only from another folder first on `sys.path`)."""
        above = _outside_packages(folder)
        root = project_root(folder)
        last = root if root is not None and os.path.commonpath((root, above)) == root else above
        chain = []
        inner = folder
        while inner != last and os.path.dirname(inner) != inner:
            inner = os.path.dirname(inner)
            if inner == above or self._holds_script(inner):
                chain.append(inner)
        return [*chain, *(self.script_folders(above) if above != folder else ())]

    def calling_imports(self, path: str, readers: list[str]) -> list[str]:
        """The readers of the project modules the module at *path* imports, sorted, less *path* and its own
        *readers*: their calls of what it imports decide where it lists its own (`Imports.counted_there`)."""
        return sorted({caller for module in self.imports(path) for caller in self.readers(module)} - {path, *readers})

    def readers(self, path: str) -> list[str]:
        """The modules beside the module at *path* whose code decides its analysis, sorted in two parts:
        its callers, then the callers of those of them that define a class, less those and *path*
        (the scripts calling a method a subclass inherits from a class of *path*: `Imports.inherited`);
        a new list, found once between refreshes (every module's cache key asks for its imports' too)."""
        self._scan(path)
        self._fresh()
        found = self._readers.get(path)
        if found is None:
            callers = self.callers(path)
            heirs: set[str] = set()
            for caller in callers:
                read = self._read_before.get(caller)
                if read is not None and read.classes:
                    heirs.update(self.callers(caller))
            found = self._readers[path] = (*callers, *sorted(heirs - {path, *callers}))
        return list(found)

    def script_folders(self, folder: str) -> list[str]:
        """The folders below *folder*, through folders that are no package, that hold a script run as the
        program or a notebook (`_holds_script`), or that are no package and hold a module naming TensorFlow
        or Keras (`examples/dqn_atari.py`, a TF program's script with no `__main__` guard): `scripts/`,
        `tools/`, `examples/` beside a package, `samples/coco/` below `samples/`; listed once between
        refreshes. Hidden folders and installed environments (a `pyvenv.cfg`) are not the project's."""
        self._fresh()
        found = self._script_folders.get(folder)
        if found is None:
            found = self._script_folders[folder] = []
            for entry in _subfolders(folder):
                if _is_package(entry):  # a library's, not walked; its own folder of scripts is one (`bin/`)
                    found += [entry] if self._holds_script(entry) else []
                    continue
                if self._holds_script(entry) or self._names_tf(entry):
                    found.append(entry)
                found += self.script_folders(entry)
        return found

    def _holds_script(self, folder: str) -> bool:
        """`_holds_script` of *folder*, its modules read once between refreshes (every module's `callers`
        asks of each folder above it)."""
        self._fresh()
        found = self._holds_scripts.get(folder)
        if found is None:
            found = self._holds_scripts[folder] = _holds_script(folder)
        return found

    def _names_tf(self, folder: str) -> bool:
        """Whether a module of *folder* that names TensorFlow or Keras imports a module of the project
        (`_folder_importers`)."""
        return any(self._folder_importers(folder).values())

    def analysis_inputs(self, path: str, content: bytes | None = None) -> str:
        """What besides its own content decides the analysis of the module at *path*, as one string (a
        lint cache key's part): the digest of the project modules it imports, those of the modules
        beside it that import it (rules read them too: greenlint.rules.importers, greenlint.rules.given_model),
        and the stamp of the libraries installed where it runs (their Keras classes are read from them:
        analysis.libraries); for a module of a package, those of the folder above it too (`callers`); and
        those of the modules calling what it imports (`calling_imports`).
        *content*: the module's bytes, where the caller read them (the scan does not read them again)."""
        modules = self.digest(path) if self._scan(path, content)[0] else ""
        importers = self.readers(path)
        if importers:
            modules += "imported by " + "\0".join(f"{i}\0{self.digest(i)}" for i in importers)
        beside = self.calling_imports(path, importers)
        if beside:
            modules += "calling its imports " + "\0".join(f"{i}\0{self.digest(i)}" for i in beside)
        return modules + installed.stamp(path)

    def _folder_importers(self, folder: str) -> dict[str, list[str]]:
        """Each module of *folder* with the modules there naming TF or Keras, or serving web requests, that
        import it, sorted:
        the folder listed and its modules scanned once between refreshes (its other files ask too)."""
        self._fresh()
        found = self._importers.get(folder)
        if found is not None:
            return found
        found = self._importers[folder] = {}
        users = self._users[folder] = {}
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            return found
        for name in names:
            other = os.path.join(folder, name)
            if name.endswith((".py", ".ipynb")):
                imported = self.imports(other)
                for module in imported:
                    users.setdefault(module, []).append(other)
                read = self._read_before.get(other)
                if read is not None and (read.names_tf or read.serves or self._tf_by_star(other, imported)):
                    for module in imported:
                        found.setdefault(module, []).append(other)
        return found

    def _tf_by_star(self, path: str, imported: list[str]) -> bool:
        """Whether the module at *path*, naming neither TensorFlow nor Keras, has them through a star
        import (`from utils import *` of a module importing `tensorflow as tf`; `tf.Session()` then):
        it imports some name with `*` and a project module that names them."""
        if not any(names.strip() == "*" for _, _, names, _ in self._read_before[path].statements if names):
            return False
        for module in imported:
            self._scan(module)
            known = self._read_before.get(module)
            if known is not None and known.names_tf:
                return True
        return False

    def top_imports(self, path: str) -> list[str]:
        """The project modules *path* imports in statements not indented: when it is imported."""
        self._scan(path)
        return self._scans[path][3]

    def _fresh(self) -> None:
        if self._memo_version != self._version:
            self._components.clear()
            self._near.clear()
            self._digests.clear()
            self._importers.clear()
            self._users.clear()
            self._script_folders.clear()
            self._holds_scripts.clear()
            self._readers.clear()
            self._memo_version = self._version

    def component(self, path: str) -> frozenset[str]:
        """The modules that import *path* and that *path* imports, directly or not (itself included)."""
        self.imports(path)
        self._fresh()
        if path not in self._components:
            self._tarjan(path, self.imports, self._components)
        return self._components[path]

    def near(self, path: str) -> frozenset[str]:
        """The modules in an import cycle with *path* through statements not indented (itself
        included): those that run while it is imported. A function's own `from .b import f` is
        no such edge (research code imports so to break a cycle)."""
        self.top_imports(path)
        self._fresh()
        if path not in self._near:
            self._tarjan(path, self.top_imports, self._near)
        return self._near[path]

    def _tarjan(self, start: str, edges, components: dict[str, frozenset[str]]) -> None:
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on_stack: set[str] = set()
        work = [(start, iter(edges(start)))]
        index[start] = low[start] = 0
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child in components:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges(child))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                group = frozenset(members)
                for member in members:
                    components[member] = group

    def attributes_set(self, paths: Iterable[str]) -> frozenset[str] | None:
        """The attributes the code of the modules at *paths* and of the project modules they import,
        at any depth, may set (`assigned.attributes_set`; what their digests cover); None where one may
        set any. Each module's text read where asked, once per content."""
        found: set[str] = set()
        seen: set[str] = set()
        todo = list(paths)
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            imports, sha = self._scan(path)
            todo.extend(imports)
            known = self._sets.get(path)
            if known is None or known[0] != sha:
                text = module_code(path)
                known = self._sets[path] = (sha, assigned.attributes_set(text) if text is not None else None)
            if known[1] is None:
                return None
            found |= known[1]
        return frozenset(found)

    def digest(self, path: str) -> str:
        """A digest of everything a module's resolution depends on: the contents of its component
        and, recursively, the digests of the modules the component imports."""
        group = self.component(path)
        if group in self._digests:
            return self._digests[group]
        h = hashlib.sha256()
        outside: set[str] = set()
        for member in sorted(group):
            imports, sha = self._scan(member)
            h.update(f"{member}\0{sha}\0".encode("utf-8", "surrogatepass"))
            outside.update(i for i in imports if i not in group)
        for dep in sorted(outside):
            h.update(f"{dep}\0{self.digest(dep)}\0".encode("utf-8", "surrogatepass"))
        self._fresh()
        self._digests[group] = value = h.hexdigest()
        return value

    def summary(self, path: str, catalog) -> dict[str, Any]:
        """Module-level name -> frozen value of the project module at *path* ({} if unreadable)."""
        digest = self.digest(path)
        known = self._summaries.get(path)
        if known is not None and known[0] == digest:
            return known[1]
        if path in self._in_progress:  # cannot happen across components; never loop if it does
            return {}
        self._in_progress.add(path)
        try:
            exports = self._summarise(path, catalog)
        finally:
            self._in_progress.discard(path)
        self._summaries[path] = (digest, exports)
        return exports

    def _summarise(self, path: str, catalog) -> dict[str, Any]:
        import warnings

        from greenlint.analysis import trees
        from greenlint.analysis.resolver import Resolver

        text = module_code(path)
        if text is None:
            return {}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = trees.parse_module(text, path, edited=False)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return {}
        resolver = Resolver(catalog, text, imports=Imports(self, path, catalog), exporting=True)
        try:
            resolver.run(tree)
        except (RecursionError, MemoryError):
            return {}
        functions = tuple(resolver.functions)
        memo: dict[int, Any] = {_BESIDE: _called_beside(resolver, path, functions)}
        exports = {name: freeze(value, memo, functions) for name, value in resolver.scope.names.items()}
        if resolver.scope.star_imports:  # `from keras import *` in a backend shim: re-exported
            exports[STAR] = tuple(dict.fromkeys(resolver.scope.star_imports))
        return exports


class Imports:
    """The project modules one module (at *path*) can import, for its resolver; *scanned* are
    those its text imports (default: as the file on disk has them)."""

    def __init__(self, index: ProjectIndex, path: str, catalog, scanned: list[str] | None = None):
        self.index = index
        self.path = path
        self.catalog = catalog
        read = index.text_flags(path)
        self.roots = path_edits.roots_at(import_roots(os.path.dirname(path)), read.edits if read is not None else ())
        self.cycle = index.component(path)
        self.near = index.near(path)  # of the cycle, the modules that run while this one is imported
        # what the cache key covers (`ProjectIndex.digest`): nothing else is followed
        self.scanned = set(index.imports(path) if scanned is None else scanned)
        self.beside: constructed.Beside | None = None  # the scripts that may call it (`scripts_beside`)
        self.flags: dict[str, Const | None] | None = None  # the absl flags defined around it (`flag_default`)
        #: id of a project class -> (it, the instance of it the scripts beside make: `held`)
        self.instances: dict[int, tuple[ExtClass, ExtInst]] = {}
        self.counted: dict[tuple[str, str], bool] = {}  # (a module's path, a name of it) -> `counted_there`

    def in_keras_program(self) -> bool:
        """Whether this module, naming neither TensorFlow nor Keras, is imported by scripts beside it that
        do (`ProjectIndex.tf_importers`: an evaluation helper given the model), and neither it nor they
        import a library with estimators of its own (`untyped.imports_estimator`): the `.fit(` and
        `.predict(` it calls on what it is given are then Keras's."""
        importers = self.index.tf_importers(self.path)
        flags = [self.index.text_flags(module) for module in (self.path, *importers)]
        return bool(importers) and all(read is not None and not read.not_keras_only for read in flags)

    def in_graph_program(self) -> bool:
        """Whether this module is a helper of TF1 graph programs: it makes no graph input and runs no graph
        itself, and every module beside it that imports it and names TensorFlow does (`_GRAPH_WORDS`):
        the ops its functions apply to what they are given add nodes to those graphs (a style-transfer
        network's `net(image)` built inside another module's `with tf.Graph().as_default():`)."""
        own = self.index.text_flags(self.path)
        if own is None or own.builds_graphs:
            return False
        importers = [m for m in self.index.importers(self.path) if (read := self.index.text_flags(m)) and read.names_tf]
        return bool(importers) and all(self.index.text_flags(m).builds_graphs for m in importers)  # type: ignore[union-attr]

    def _known(self, module: ExtModule | None) -> ExtModule | None:
        if module is None or module.file in (None, self.path) or module.file in self.scanned:
            return module
        return None

    def module(self, dotted: str, level: int = 0) -> ExtModule | None:
        """`import dotted` / `from <dots>dotted import ...`: the module, if the project has it."""
        if level:
            return self._known(find_module((relative_base(self.path, level),), dotted))
        return self._known(_one_module(self.roots, dotted, os.path.dirname(self.path)))

    def member(self, module: ExtModule, name: str) -> Any:
        """`module.name`: a name the module binds, else a TF name it star-imports, else its
        submodule; unknown otherwise. A package in an import cycle with this module (`from . import
        sub` in its own `__init__`) gives its submodules only."""
        exports = self.exports(module)
        if exports is not None and name in exports:
            return fresh(exports[name])
        if exports is None:
            found = self.reexported(module, name)
            if found is not None:
                return found
        stars = self.star_imports(module)
        if stars:
            from greenlint.analysis.resolver import star_member

            found = star_member(self.catalog, stars, name)
            if found is not None:
                return found
        if module.directory is not None:
            return self._known(_module_at(os.path.join(module.directory, name)))
        return None

    def reexported(self, module: ExtModule, name: str) -> Any:
        """*name* in a module of this one's import cycle (a package whose `__init__` imports the module
        that imports it back) where that module imports it from one outside the cycle (`from
        baselines.deepq.build_graph import build_train` in `baselines/deepq/__init__.py`): the other
        module's value, whose digest this module's covers; None otherwise."""
        if module.file is None:
            return None
        for dots, dotted, names, plain in self.index.statements(module.file):
            if plain is not None or name not in _SPLIT.split(names) or f" as {name}" in names:
                continue
            roots = (relative_base(module.file, len(dots)),) if dots else import_roots(os.path.dirname(module.file))
            source = find_module(roots, dotted)
            if source is None or source.file is None or source.file in self.cycle:
                continue
            exports = self.index.summary(source.file, self.catalog)
            if name in exports:
                return fresh(exports[name])
        return None

    def star_imports(self, module: ExtModule) -> tuple[str, ...]:
        """The TF modules *module* star-imports (`from keras import *`), canonical."""
        return (self.exports(module) or {}).get(STAR, ())

    def exports(self, module: ExtModule) -> dict[str, Any] | None:
        """The module's summary; None for a module in an import cycle with this one through
        statements not indented (`near`). One this module imports inside a function only (`from
        .all_models import model_from_name` in a function, the cycle broken so) is summarised:
        its summary never follows such an import back (the resolver's `deferred`). A package's
        `__init__` sees the submodules of its cycle (`from pylib.argument import *` where argument
        imports pylib back): Python runs a package's `__init__` before any of its submodules, so each
        such submodule runs to its end inside the `__init__`'s import, seeing the package unfinished
        (its own summary sees it as unknown: the order is one way, no summary waits on another)."""
        if module.file is None:
            return {}
        if module.file in self.near and not self._inside_package(module.file):
            return None
        return self.index.summary(module.file, self.catalog)

    def _inside_package(self, path: str) -> bool:
        """Whether this module is a package's `__init__` and *path* a module inside that package."""
        if os.path.basename(self.path) != "__init__.py" or path == self.path:
            return False
        return path.startswith(os.path.dirname(self.path) + os.sep)

    def served(self) -> dict[str, str]:
        """This module's functions that a route handler of a web server beside it calls, by name: what
        runs them once per request (served.py)."""
        found: dict[str, str] = {}
        for importer in self.index.importers(self.path):
            read = self.index.text_flags(importer)
            if read is None or not read.serves:  # the few that do are read again
                continue
            text = module_code(importer)
            if text is None or not served.imports_server(text):
                continue
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError):
                continue
            name = os.path.basename(importer)
            for func, handler in served.called(tree, *self._bound_in(importer, tree)).items():
                found.setdefault(func, f"the route handler `{handler}` of {name}")
        return found

    def _bound_in(self, importer: str, tree: ast.Module) -> tuple[set[str], dict[str, str]]:
        """The names the imports of *tree* (the module at *importer*) bind to this module (`import
        processor as proc`, `from . import processor`), and those they bind to its names, with
        their names here (`from processor import process as run`), each import looked up as the
        resolver looks it up (`find_module`)."""
        roots = import_roots(os.path.dirname(importer))
        modules: set[str] = set()
        functions: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if (alias.asname or "." not in alias.name) and _file_of(find_module(roots, alias.name)) == self.path:
                        modules.add(alias.asname or alias.name)
            elif isinstance(node, ast.ImportFrom):
                bases = (relative_base(importer, node.level),) if node.level else roots
                source = find_module(bases, node.module or "")
                if source is None:
                    continue
                for alias in node.names:
                    if source.file == self.path:
                        functions[alias.asname or alias.name] = alias.name
                    elif source.directory is not None and _file_of(_submodule(source.directory, alias.name)) == self.path:
                        modules.add(alias.asname or alias.name)
        return modules, functions

    def scripts_beside(self) -> constructed.Beside:
        """The scripts beside this module that may call it (`ProjectIndex.callers`, `constructed.Beside`;
        their texts read once per module analysed)."""
        if self.beside is None:
            texts = {importer: module_code(importer) for importer in self.index.callers(self.path)}
            init = os.path.join(os.path.dirname(self.path), "__init__.py")
            self.beside = constructed.Beside(texts, self.path, functools.partial(module_code, self.path),
                                             functools.partial(module_code, init))
        return self.beside

    def calls_beside(self, name: str) -> constructed.Called | None:
        """How the scripts beside this module call its *name* (`constructed.Beside.calls`). Where one
        hands an instance on, the texts of the other project modules it imports are read too: its
        digest in the cache key covers them."""
        return self.scripts_beside().calls(name, self.imported_texts, self.inherited)

    def imported_texts(self, script: str) -> dict[str, str | None]:
        """The texts of the project modules the script at *script* imports, this one aside, by path."""
        return {module: module_code(module) for module in self.index.imports(script) if module != self.path}

    def inherited(self, path: str, name: str) -> constructed.Tally | None:
        """How the scripts beside the module at *path*, a caller of this one defining a subclass of its
        class, call *name* (`Sub.method`, a method the subclass inherits: `constructed.Beside.tally`);
        one level of subclass (the cache key covers those scripts: `ProjectIndex.readers`)."""
        other = Imports(self.index, path, self.catalog)
        return other.scripts_beside().tally(name, other.imported_texts)

    def counted_there(self, path: str, name: str) -> bool:
        """Whether the module at *path* counts this module's calls of its *name* as its runs, as its walk
        takes the scripts' calls (`Resolver.passed_beside`, with `ExtFunc.beside` its module's side): this module
        is one of its callers and a script calling it, and every such call's runs are known (none in a loop
        of unknown length: script_runs.py). Read once per name; the cache key covers those scripts
        (`ProjectIndex.analysis_inputs`)."""
        if (path, name) not in self.counted:
            called = Imports(self.index, path, self.catalog).calls_beside(name) if self.path in self.index.callers(path) else None
            self.counted[(path, name)] = called is not None and called.runs is not None \
                and os.path.basename(self.path) in called.scripts
        return self.counted[(path, name)]

    def held(self, cls: ExtClass) -> ExtInst:
        """An instance of a project class with no TF base that a script beside makes (`Resolver.made_beside`:
        `config = Config()` handed to this module), one per class: its class attributes of immutable literals
        (`nepochs = 15`) where no code that could hold the instance sets them (this module, the scripts beside
        and the modules they import: `self.config.lr *= decay` anywhere leaves `lr` unknown); nothing else of its."""
        if id(cls) not in self.instances:
            set_ = self.index.attributes_set([self.path, *self.index.readers(self.path)])
            kept = {} if set_ is None else {name: value for name, value in cls.attrs.items() if name not in set_
                                            and type(value) is Const and isinstance(value.value, (int, float, str, bool))}
            spent = {name: None for name in cls.runs}  # (what they return unknown: only where they spend work)
            self.instances[id(cls)] = (cls, ExtInst(ExtClass(cls.name, methods=spent, attrs=kept, runs=dict(cls.runs))))
        return self.instances[id(cls)][1]

    def imported_beside(self, dotted: str) -> Any:
        """`module.name` of a project module as the scripts beside import it (`from models import
        build_model`: `constructed.Made`), from its summary; None where the project has no such module,
        or it is in an import cycle with this one. The cache key covers it: a script's digest covers
        the modules it imports."""
        module, _, name = dotted.rpartition(".")
        found = find_module(self.roots, module) if module else None
        if found is None or found.file is None or found.file == self.path or found.file in self.cycle:
            return None
        return self.index.summary(found.file, self.catalog).get(name)

    def flag_default(self, flag: str) -> Const | None:
        """The default of absl flag *flag* as the project modules this one imports and the scripts
        beside that import it define it (`constructed.flag_defaults`; the cache key covers them all)."""
        if self.flags is None:
            around = [*self.scanned, *self.index.importers(self.path)]
            self.flags = constructed.flag_defaults({module: module_code(module) for module in around if module != self.path})
        return self.flags.get(flag)


def freeze(value: Any, memo: dict[int, Any], functions: tuple = ()) -> Any:
    """A resolver value made independent of the walk that produced it (for other modules);
    *functions*: the functions that walk defined (a generator function's `Template` keeps them)."""
    kind = type(value)
    if value is None or value is MISSING:
        return None
    if kind in (Const, Ref, Inst, ExtModule, ExtFunc, ExtClass, ExtInst, Parsed, Options):
        return value
    if kind is Seq:
        return Seq(tuple(freeze(item, memo, functions) for item in value.items))
    if kind is Choice:
        return Choice(tuple(freeze(item, memo, functions) for item in value.items))
    if kind is Composed:
        return Composed(None if value.items is None else tuple(freeze(item, memo, functions) for item in value.items))
    if kind is Kw:
        return Kw({name: freeze(item, memo, functions) for name, item in value.items.items()}, value.attrs)
    if kind is Record:
        return Record(value.fields, None if value.values is None else tuple(freeze(v, memo, functions) for v in value.values))
    if kind is UserFunc:
        info = value.info
        if info.state is not Walk.DONE:
            return ExtFunc(None, info.runs)
        returns = freeze(info.returns, memo, functions)
        if returns is None:  # callables that differ but all spend their work in one TF call (wrappers.py)
            runs = {runs_of(item) for item in info.returned}
            if len(runs) == 1 and None not in runs:
                returns = ExtFunc(None, runs.pop())
        # batches or a built model's FLOPs not known with its parameters unknown, or host work each call's
        # arguments may leave out: each call's arguments may tell them (the caller's walk decides,
        # `Resolver.instantiated`, `Resolver.host_for`)
        built = (type(returns) is Inst and returns.how == "constructor" or type(returns) is Composed) and info.has_parameters
        built = built or info.has_parameters and (info.host is not None or info.host_once is not None)
        # loaded with the resolver that made *value*; a warm run only digests modules and never needs it
        from greenlint.analysis.arrays import unsized_dataset, unsized_generator
        from greenlint.analysis.builders import returns_closure

        built = built or _builds_graph(info)  # a helper building graph ops (`conv2d(x, 64)`)
        built = built or info.has_parameters and returns_closure(info.node)  # each call's closure its own (`conv_block(64)`)

        # a pipeline its parameters batch or size (`make_dataset(images, batch_size)`, given or made there)
        built = built or info.has_parameters and unsized_dataset(returns, unknown=info.pipes)

        template = Template(info, functions) if info.kind == "function" and (unsized_generator(returns) or built) else None
        code = (info.node, _module_functions(functions, memo))
        return ExtFunc(returns, info.runs, info.host, info.host_once, template, code, info.host_sited,
                       beside=memo.get(_BESIDE, {}).get(id(info)))
    if kind is UserClass:
        return _freeze_class(value.info, memo, functions)
    if kind is UserInst:
        return ExtInst(_freeze_class(value.info, memo, functions))
    return None


#: The `freeze` memo's key of the module's functions by name (`_module_functions`): no object's id is 0.
_FUNCTIONS = 0
#: The `freeze` memo's key of the functions whose calls by the scripts beside the module counts (`_called_beside`):
#: no object's id is 1 either.
_BESIDE = 1


def _called_beside(resolver: Any, path: str, functions: tuple) -> dict[int, tuple[str, str]]:
    """The module's functions and methods whose runs its walk takes from the scripts beside it that call
    them (`Resolver.counted_beside`), by id: the module's path and the name those scripts call them by
    (`ExtFunc.beside`)."""
    found = {}
    for info in functions:
        name = resolver.counted_beside(info) if info.runs is not None else None  # (only such a call is a wrapper's)
        if name is not None:
            found[id(info)] = (path, name)
    return found


def _module_functions(functions: tuple, memo: dict[int, Any]) -> dict[str, ast.AST]:
    """The module-level functions' nodes by name, among the functions a module's walk defined (once per module)."""
    if _FUNCTIONS not in memo:
        memo[_FUNCTIONS] = {f.node.name: f.node for f in functions if f.parent is None and f.cls is None and f.kind == "function"}
    return memo[_FUNCTIONS]


def _freeze_class(info: ClassInfo, memo: dict[int, Any], functions: tuple = ()) -> ExtClass:
    if id(info) in memo:
        return memo[id(info)]
    from greenlint.analysis import hostwork  # as arrays above: a warm run never freezes a class
    from greenlint.analysis.arrays import unsized_generator
    from greenlint.analysis.resolver import Resolver, draws_rows
    from greenlint.analysis.work import is_model

    ext = memo[id(info)] = ExtClass(info.name, Resolver.tf_base(info))
    bodies: dict[str, ast.AST] = {}  # the methods whose self-calls are found once their runs are known
    for klass in reversed(info.mro()):  # nearer classes override farther ones
        for base in klass.ext_bases:
            ext.methods.update(base.methods)
            ext.attrs.update(base.attrs)
            ext.runs.update(base.runs)
            ext.late.difference_update(base.runs)
            ext.late.update(base.late)
            ext.self_calls.update(base.self_calls)
            for name in base.self_calls:
                bodies.pop(name, None)
            ext.hosts.update(base.hosts)
            if "__getitem__" in base.methods:
                ext.sliced = base.sliced
            if "__init__" in base.methods:
                ext.workers = base.workers
            ext.assigned |= base.assigned
            ext.heir_calls.update(base.heir_calls)
        ext.assigned |= frozenset(klass.assigners)
        ext.heir_calls.update(_heir_calls(info, klass))
        for name, method in klass.methods.items():
            ext.heir_calls.pop(name, None)
            if name == "__getitem__":
                ext.sliced = hostwork.slices_only(method.node, lambda attr: info.find_attr(attr)[1])
            elif name == "__init__":
                ext.workers = hostwork.given_workers(method.node)
            ext.self_calls[name] = ()  # its place in the order `_late_bound` reads them
            bodies[name] = method.node
            ext.late.discard(name)
            if method.runs is not None:
                ext.runs[name] = method.runs
                # (not a base's: its scripts call the base's; nor a late-bound one's: a subclass may spend it)
                if klass is info and not method.runs_by_self and id(method) in memo.get(_BESIDE, {}):
                    ext.beside[name] = memo[_BESIDE][id(method)]
                if method.runs_by_self:
                    ext.late.add(name)
            if method.host is not None or method.host_once is not None:
                ext.hosts[name] = (method.host, method.host_once)
            returns = freeze(method.returns, memo, functions) if method.state is Walk.DONE else None
            if method.state is Walk.DONE and (_builds_graph(method) or name in _BATCHING and ext.tf_base == SEQUENCE
                                              or wrapped.keeps(method)):
                ext.templates[name] = Template(method, functions)
            if method.state is Walk.DONE and method.kind == "method" and method.has_parameters \
                    and (unsized_generator(returns) or method.host is not None) and draws_rows(method):
                ext.batches[name] = Template(method, functions)  # `loader.load_batch(batch_size)`: its rows per call
            if method.kind == "property":
                ext.attrs[name] = returns
                ext.methods.pop(name, None)
            else:
                ext.methods[name] = returns
                ext.attrs.pop(name, None)
        for name, attr in klass.attrs.items():
            ext.attrs[name] = freeze(attr, memo, functions)
            ext.methods.pop(name, None)
    wrapped.keep_constructor(ext, info, functions, ext.tf_base is not None and is_model(Inst(ext.tf_base, "subclass")),
                             any(_builds_graph(template.info) for template in ext.templates.values()))
    for name, node in bodies.items():  # a method that spends work itself is never late bound: its calls are not read
        if name not in ext.runs or name in ext.late:
            ext.self_calls[name] = _self_calls(node)
    _late_bound(ext)
    return ext


#: The methods of a `keras.utils.Sequence` that tell its batches for one construction (`Resolver.sequence_batches`).
_BATCHING = ("__init__", "__getitem__")


def _builds_graph(info: FuncInfo) -> bool:
    """A function or method of parameters returning a tensor: a helper building graph ops (`conv2d(x,
    64)`, a `__call__` applying them), each call on a symbolic tensor adding its own ops."""
    from greenlint.analysis.arrays import holds_tensor  # as in `freeze`: a warm run never needs it

    return info.has_parameters and any(holds_tensor(item) for item in info.returned)


def _heir_calls(info: ClassInfo, klass: ClassInfo) -> dict[str, tuple[tuple[str, Any], ...]]:
    """The `self.m(...)` calls of *klass*, a class of *info*'s, that a subclass's `m` answers
    (`ExtClass.heir_calls`): those of its methods that *info* does not override and no code of the module calls."""
    found: dict[str, tuple[tuple[str, Any], ...]] = {}
    for attr, calls in klass.heir_calls.items():
        kept = tuple((method, runs) for method, runs in calls.values()
                     if info.find_method(method) is klass.methods.get(method) and klass.methods[method].calls_seen == 0)
        if kept and info.find_method(attr) is None:
            found[attr] = kept
    return found


def _self_calls(node: ast.AST) -> tuple[str, ...]:
    """The methods a method's body calls on `self` (`self.forward(x)`), in the order they are written."""
    found = sorted(
        (call.lineno, call.col_offset, call.func.attr)
        for call in trees.walk(node)
        if type(call) is ast.Call and type(call.func) is ast.Attribute
        and type(call.func.value) is ast.Name and call.func.value.id == "self"
    )
    return tuple(dict.fromkeys(name for _, _, name in found))


def _late_bound(ext: ExtClass) -> None:
    """Methods that spend no work in a TF call themselves but call `self.m(...)` where this class's
    `m` does (a base's `fit` whose loop calls `self.forward`, which only the subclass defines): they
    spend it there, as late binding makes them (wrappers.py); so do those whose work their module found
    in a later `self` call (`ExtClass.late`: a base's `train` calling `self.run_epoch(...)`, which only the
    subclass defines, then `self.save_session()`): the first of their `self` calls that spends work here
    decides. Each round only moves a method to the first such call's; bounded, as a cycle of `self`
    calls may pass one figure round."""
    for _ in range(len(ext.self_calls) + 1):
        grown = False
        for name, called in ext.self_calls.items():
            if name in ext.runs and name not in ext.late:
                continue
            spent = next((ext.runs[other] for other in called if other != name and other in ext.runs), None)
            if spent is not None and ext.runs.get(name) != spent:
                ext.runs[name] = spent
                grown = True
        if not grown:
            return


_INDEX: ProjectIndex | None = None


def project_index() -> ProjectIndex:
    """This process's index (summaries are shared by every file it analyses)."""
    global _INDEX
    if _INDEX is None:
        _INDEX = ProjectIndex()
    return _INDEX
