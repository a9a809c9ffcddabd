"""`tf.estimator` for the catalog, read from tensorflow-estimator's source without importing it.

tensorflow-estimator (last release 2.15) does not import with newer TensorFlow, but code written
for it is common. Its public API modules (`api/_v2/estimator/...`) are lists of
`from <module> import <Name> as <Public>`; each named class or function is found in its
module's syntax tree, with its parameters and, for classes, the public methods it and its
bases (followed through the package's own imports) define.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

PACKAGE = "tensorflow_estimator"
API = ("python", "estimator", "api", "_v2", "estimator")
#: The TF1 API (`tf.compat.v1.estimator`, with `inputs` and `tpu`), catalogued under its own names.
API_V1 = ("python", "estimator", "api", "_v1", "estimator")


def _params(func: ast.FunctionDef, drop_first: bool) -> list[str]:
    a = func.args
    positional = [p.arg for p in (*a.posonlyargs, *a.args)]
    out = positional[1:] if drop_first and positional else positional
    if a.vararg:
        out.append("*" + a.vararg.arg)
    elif a.kwonlyargs:
        out.append("*")
    out += [p.arg for p in a.kwonlyargs]
    if a.kwarg:
        out.append("**" + a.kwarg.arg)
    return out


class _Reader:
    def __init__(self, root: Path):
        self.root = root
        self.trees: dict[str, ast.Module | None] = {}

    def tree(self, module: str) -> ast.Module | None:
        if module not in self.trees:
            parts = module.split(".")[1:]
            path = self.root.joinpath(*parts).with_suffix(".py")
            if not path.is_file():
                path = self.root.joinpath(*parts, "__init__.py")
            try:
                self.trees[module] = ast.parse(path.read_text(encoding="utf-8"))
            except (OSError, SyntaxError, UnicodeDecodeError):
                self.trees[module] = None
        return self.trees[module]

    def imports(self, module: str) -> dict[str, tuple[str, str | None]]:
        """Local name -> (module, attribute or None for a module import) in `module`."""
        out: dict[str, tuple[str, str | None]] = {}
        for node in (self.tree(module) or ast.Module(body=[])).body:
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PACKAGE):
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    is_module = self.tree(target) is not None and not self._defines(node.module, alias.name)
                    out[alias.asname or alias.name] = (target, None) if is_module else (node.module, alias.name)
        return out

    def tensorflow_source(self, module: str, name: str) -> str | None:
        """`tensorflow.python.<module>.<name>` where `module` imports *name* from TensorFlow itself."""
        for node in (self.tree(module) or ast.Module(body=[], type_ignores=[])).body:
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tensorflow."):
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        return f"{node.module}.{alias.name}"
        return None

    def _defines(self, module: str, name: str) -> bool:
        return self.find(module, name) is not None

    def find(self, module: str, name: str) -> ast.AST | None:
        for node in (self.tree(module) or ast.Module(body=[])).body:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and node.name == name:
                return node
        return None

    def methods(self, module: str, cls: ast.ClassDef, seen: frozenset = frozenset()) -> dict[str, list[str]]:
        """Public methods of `cls` and of its bases inside the package (own definitions win)."""
        out: dict[str, list[str]] = {}
        local = self.imports(module)
        for base in cls.bases:
            target = None
            if isinstance(base, ast.Name):
                target = (module, base.id) if self.find(module, base.id) else local.get(base.id)
            elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
                mod = local.get(base.value.id)
                target = (mod[0], base.attr) if mod and mod[1] is None else None
            if target and target[1] and (target not in seen):
                node = self.find(*target)
                if isinstance(node, ast.ClassDef):
                    out.update(self.methods(target[0], node, seen | {target}))
        for node in cls.body:
            if isinstance(node, ast.FunctionDef) and (not node.name.startswith("_") or node.name in ("__init__", "__call__")):
                decorators = {d.id for d in node.decorator_list if isinstance(d, ast.Name)}
                if decorators & {"property", "classmethod"}:
                    continue
                out[node.name] = _params(node, drop_first="staticmethod" not in decorators)
        return out


def estimator_symbols() -> tuple[dict[str, dict], dict[str, str], str | None]:
    """Catalog entries for `tensorflow.estimator.*` and `tensorflow.compat.v1.estimator.*` (marked
    `"v": "estimator"`), the names among them that are TensorFlow's own, re-exported (public name ->
    TensorFlow's module path and name: `tf.estimator.StopAtStepHook` is TF's session hook), and the
    package version."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return {}, {}, None
    root = Path(next(iter(spec.submodule_search_locations)))
    reader = _Reader(root)
    symbols: dict[str, dict] = {}
    reexports: dict[str, str] = {}
    todo = [("tensorflow.estimator", ".".join((PACKAGE, *API))), ("tensorflow.compat.v1.estimator", ".".join((PACKAGE, *API_V1)))]
    while todo:
        public, module = todo.pop()
        symbols[public] = {"k": "module", "v": "estimator"}
        for node in (reader.tree(module) or ast.Module(body=[])).body:
            if not (isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PACKAGE)):
                continue
            for alias in node.names:
                name = f"{public}.{alias.asname or alias.name}"
                found = reader.find(node.module, alias.name)
                if isinstance(found, ast.ClassDef):
                    methods = reader.methods(node.module, found)
                    entry = {"k": "class", "p": methods.pop("__init__", []), "v": "estimator"}
                    if methods:
                        entry["m"] = dict(sorted(methods.items()))
                    symbols[name] = entry
                elif isinstance(found, ast.FunctionDef):
                    symbols[name] = {"k": "function", "p": _params(found, drop_first=False), "v": "estimator"}
                elif reader.tree(f"{node.module}.{alias.name}") is not None and ".api." in node.module:
                    todo.append((name, f"{node.module}.{alias.name}"))
                elif (source := reader.tensorflow_source(node.module, alias.name)) is not None:
                    reexports[name] = source
    version = None
    try:
        from importlib.metadata import version as _version

        version = _version("tensorflow-estimator")
    except Exception:
        pass
    return dict(sorted(symbols.items())), dict(sorted(reexports.items())), version
