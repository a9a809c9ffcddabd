"""Classes of libraries built on TF/Keras, read from their installed source (never imported).

`from transformers import TFBertModel`, `keras_hub.models.BertBackbone`: a name of a library that is
neither the project's nor TF/Keras's is looked up where Python would find it (installed.py: the analysed
project's virtualenv, then the environment greenlint runs in). Its modules are parsed with `ast` (at most `sources.MAX_BYTES` a file, never a
file whose real path leaves the site directory) and the name followed through their imports (star
imports and `__all__` included, also under `if TYPE_CHECKING:`) to a class, whose bases are followed
in turn until a catalogued TF/Keras class: the class then derives from one of `BASES` (its nearest
catalogued class is the answer) or is not known to. Answers are memoised per run and kept in the
user cache per distribution and version (`libraries/<name>-<version>.json`, from its `*.dist-info`)
with the digest of the catalog they were derived with: another version, or another catalog, is read again. A library that is not installed is
answered from the generated table (`greenlint.catalog.libraries`). A source that cannot be read,
decoded or parsed, or a link out of the environment, is one warning on stderr and an unknown answer.
"""

from __future__ import annotations

import ast
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from greenlint.analysis import installed, sources, trees
from greenlint.atomic import atomic_write_text
from greenlint.catalog.libraries import load_libraries
from greenlint.paths import cache_dir

TF_ROOTS = frozenset({"tensorflow", "keras", "tf_keras"})
#: The TF/Keras classes a library class is recognised by (a catalogued class deriving from one).
BASES = ("tensorflow.keras.Model", "tensorflow.keras.Layer", "tensorflow.keras.layers.Layer",
         "tensorflow.keras.callbacks.Callback", "tensorflow.data.Dataset", "tensorflow.Module")
CACHE_FORMAT = 1
#: How many (module, name) pairs one lookup visits at most (star imports included): more is unknown.
_MAX_VISITS = 4096


def base(path: str, module_file: str | None, catalog) -> str | None:
    """The nearest catalogued TF/Keras class the library class at dotted *path* derives from, where
    that class is or derives from one of `BASES`; None when unknown (not a class of such a library)."""
    root = path.partition(".")[0]
    if root in TF_ROOTS:
        return None
    library = installed.find(installed.of_file(module_file), root)
    if library is None:
        return load_libraries()["classes"].get(path)
    return _reader(library, catalog).base(path)


def built_on_keras(root: str, module_file: str | None) -> bool:
    """Whether the library imported as *root* is built on TF/Keras: installed and requiring it, or
    in the generated table."""
    if root in TF_ROOTS:
        return False
    library = installed.find(installed.of_file(module_file), root)
    return library.keras if library is not None else root in load_libraries()["roots"]


_READERS: dict[tuple[installed.Library, int], Reader] = {}


def _reader(library: installed.Library, catalog) -> Reader:
    key = (library, id(catalog))
    found = _READERS.get(key)
    if found is None:
        found = _READERS[key] = Reader(library.site, catalog, _DiskCache(library, catalog.digest))
    return found


def save() -> None:
    """Write each library's answers found since its user cache file was read (`_DiskCache.save`):
    once when a run's lookups are done (the lint cache's `flush_all`), not once per answer."""
    for reader in _READERS.values():
        if reader.cache is not None:
            reader.cache.save()


def clear() -> None:
    """Forget this run's memos (a test changing an environment, a long-lived server), their new
    answers written first."""
    save()
    _READERS.clear()
    installed.clear()
    installed.warn.cache_clear()


class _DiskCache:
    """The answers kept for one distribution version in the user cache, under the catalog they were
    derived with (another catalog may know other TF/Keras classes: they are read again)."""

    def __init__(self, library: installed.Library, catalog: str):
        name = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{library.name}-{library.version}")
        self.file = cache_dir() / "libraries" / f"{name}.json" if library.version else None
        self.answers: dict[str, str | None] = {}
        if self.file is not None:
            try:
                payload = json.loads(self.file.read_text(encoding="utf-8"))
                kept = (payload.get("format"), payload.get("version"), payload.get("catalog"))
                if kept == (CACHE_FORMAT, library.version, catalog):
                    self.answers = {k: v for k, v in payload["classes"].items() if v is None or type(v) is str}
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                pass
        self.library = library
        self.unsaved = False  # answers kept since the file was read or written
        self.catalog = catalog

    def keep(self, path: str, answer: str | None) -> None:
        self.answers[path] = answer
        self.unsaved = self.file is not None

    def save(self) -> None:
        """The whole file written again, where answers were kept since (rewriting it per answer
        made a run's writes grow with the square of its answers)."""
        if not self.unsaved or self.file is None:
            return
        self.unsaved = False
        payload = {"format": CACHE_FORMAT, "name": self.library.name, "version": self.library.version,
                   "catalog": self.catalog, "classes": self.answers}
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self.file, json.dumps(payload, sort_keys=True))
        except OSError:
            pass  # an unwritable cache: answered again next run


@dataclass
class _Module:
    """One module's top-level bindings, as its statements make them (also in `if`/`try` blocks)."""

    classes: dict[str, list[str]]  # class name -> its bases, dotted
    names: dict[str, list[tuple]]  # each binding: ("module", dotted) | ("from", module, name) | ("expr", dotted)
    star: list[str]  # modules it star-imports
    exported: frozenset[str] | None  # a literal `__all__`


class Reader:
    """Follows names and bases through the modules of one site directory (memoised)."""

    def __init__(self, site: str, catalog, cache: _DiskCache | None = None):
        self.site = site
        self.catalog = catalog
        self.cache = cache
        self.modules: dict[str, _Module | None] = {}

    def base(self, path: str) -> str | None:
        if self.cache is not None and path in self.cache.answers:
            return self.cache.answers[path]
        value = self.value(path, set())
        found = self.class_base(value, set()) if value is not None and value[0] == "class" else None
        if self.cache is not None:
            self.cache.keep(path, found)
        return found

    def value(self, dotted: str, seen: set) -> tuple | None:
        """What *dotted* names: ("tf", path), ("module", dotted), ("class", module, name), or None."""
        head, *rest = dotted.split(".")
        value = self.module_value(head)
        for part in rest:
            value = self.attribute(value, part, seen) if value is not None else None
        return value

    def module_value(self, dotted: str) -> tuple | None:
        if dotted.partition(".")[0] in TF_ROOTS:
            return ("tf", dotted)
        return ("module", dotted) if installed.source_of(self.site, dotted) is not None else None

    def attribute(self, value: tuple, name: str, seen: set) -> tuple | None:
        if value[0] == "tf":
            return ("tf", f"{value[1]}.{name}")
        return self.member(value[1], name, seen) if value[0] == "module" else None

    def member(self, module: str, name: str, seen: set) -> tuple | None:
        """What module *module* binds *name* to (a submodule where it binds nothing)."""
        key = (module, name)
        if key in seen or len(seen) > _MAX_VISITS:
            return None
        seen.add(key)
        index = self.index(module)
        if index is None:
            return None
        if name in index.classes:
            return ("class", module, name)
        for binding in index.names.get(name, ()):  # each way the module may bind it, first to last
            found = self.bound(module, binding, seen)
            if found is not None:
                return found
        sub = self.module_value(f"{module}.{name}")
        if sub is not None:
            return sub
        for star in index.star:
            if star.partition(".")[0] in TF_ROOTS:  # `from tensorflow.keras import *`: the names it has
                found = ("tf", f"{star}.{name}") if self.catalog.canonical(f"{star}.{name}") else None
            else:
                found = self.member(star, name, seen) if self.exports(star, name) else None
            if found is not None:
                return found
        return None

    def bound(self, module: str, binding: tuple, seen: set) -> tuple | None:
        kind = binding[0]
        if kind == "module":
            return self.module_value(binding[1])
        if kind == "from":
            if binding[1].partition(".")[0] in TF_ROOTS:
                return ("tf", f"{binding[1]}.{binding[2]}")
            return self.member(binding[1], binding[2], seen) or self.module_value(f"{binding[1]}.{binding[2]}")
        return self.expr(module, binding[1], seen)

    def expr(self, module: str, dotted: str, seen: set) -> tuple | None:
        head, *rest = dotted.split(".")
        value = self.member(module, head, seen)
        for part in rest:
            value = self.attribute(value, part, seen) if value is not None else None
        return value

    def exports(self, module: str, name: str) -> bool:
        index = self.index(module)
        return index is not None and (index.exported is None or name in index.exported)

    def class_base(self, value: tuple, seen: set) -> str | None:
        """The nearest catalogued base of a ("class", module, name) among `BASES`' subclasses."""
        _, module, name = value
        if (module, name) in seen or len(seen) > _MAX_VISITS:
            return None
        seen.add((module, name))
        index = self.index(module)
        for dotted in index.classes[name] if index is not None else ():
            found = self.expr(module, dotted, set())
            if found is None:
                continue
            if found[0] == "tf":
                canonical = self.catalog.canonical(found[1])
                if canonical is not None and any(canonical == b or self.catalog.is_subclass(canonical, b) for b in BASES):
                    return canonical
            elif found[0] == "class":
                inherited = self.class_base(found, seen)
                if inherited is not None:
                    return inherited
        return None

    def index(self, module: str) -> _Module | None:
        if module in self.modules:
            return self.modules[module]
        file = installed.source_of(self.site, module)
        if file is None or not file.endswith(".py"):  # a namespace package binds no name of its own
            found = None if file is None else _Module({}, {}, [], None)
        else:
            found = _index(file, module)
        self.modules[module] = found
        return found


def _index(file: str, module: str) -> _Module | None:
    data, error = sources.read_bytes(Path(file), sources.MAX_BYTES)
    text = None
    if data is not None:
        text, error = sources.decode(file, data)
    if error is not None or text is None:
        installed.warn(file, f"library source not read ({error.message if error else 'unreadable'})")
        return None
    try:
        tree = ast.parse(text, filename=file)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        installed.warn(file, f"library source not parsed ({type(exc).__name__}: {exc})")
        return None
    package = os.path.basename(file) == "__init__.py"
    here = module if package else module.rpartition(".")[0]
    found = _Module({}, {}, [], None)
    _bind(tree.body, here, found)
    return found


def _bind(body: list[ast.stmt], package: str, found: _Module) -> None:
    """Record *body*'s bindings in *found*, each name's in order (a `try:` import before its fallback)."""
    for node in body:
        if isinstance(node, ast.ClassDef):
            found.classes.setdefault(node.name, [d for d in map(_dotted, node.bases) if d])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    found.names.setdefault(alias.asname, []).append(("module", alias.name))
                else:
                    root = alias.name.partition(".")[0]
                    found.names.setdefault(root, []).append(("module", root))
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(package, node.level, node.module)
            if module is None:
                continue
            for alias in node.names:
                if alias.name == "*":
                    found.star.append(module)
                else:
                    found.names.setdefault(alias.asname or alias.name, []).append(("from", module, alias.name))
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            target = node.targets[0].id
            if target == "__all__":
                names = _literal_names(node.value)
                found.exported = names if found.exported is None and names is not None else found.exported
            elif dotted := _dotted(node.value):
                found.names.setdefault(target, []).append(("expr", dotted))
        elif isinstance(node, ast.If):
            _bind(node.body + node.orelse, package, found)
        elif isinstance(node, ast.Try):
            _bind(node.body + [s for h in node.handlers for s in h.body] + node.orelse + node.finalbody, package, found)
        elif isinstance(node, ast.With):
            _bind(node.body, package, found)


def _dotted(node: ast.expr) -> str:
    """`a.b.c` for a name or attribute chain, "" otherwise."""
    return ".".join(trees.dotted(node))


def _absolute(package: str, level: int, module: str | None) -> str | None:
    if not level:
        return module
    parts = package.split(".") if package else []
    if level - 1 > len(parts) - 1:
        return None
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, module] if module else base) or None


def _literal_names(node: ast.expr) -> frozenset[str] | None:
    if not isinstance(node, (ast.List, ast.Tuple)):
        return None
    names = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return frozenset(names) if len(names) == len(node.elts) else None
