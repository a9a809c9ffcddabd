"""Values a function makes on the host without reading any data: literals, random draws
(`np.random.uniform(-1, 1, size=[64, 100])`, `random.random()`), NumPy's constructors (`np.zeros`,
`np.arange`), builtins that return scalars (`len`, `float`) and arithmetic, indexing and methods
on such values; through the names the function binds, and through a function of the file or of
a project module it imports (`gen_random(...)` whose every `return` is such a value), and the
scalar a command-line option holds (`args.batch_size`, `FLAGS.keep_prob`: an option is never an
array), or a parameter that every call in the file passes one. A GAN's latent
batch or a one-hot label grid built with `np.zeros` is one; a slice of a data set (`X[i:i + 64]`,
`self.data[idx]`), a parameter, an attribute or the result of any other call (`next_batch()`,
a file read) is not: that is data a pipeline could stage."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator

from greenlint.analysis.flow import own_nodes
from greenlint.analysis.project import project_bindings
from greenlint.analysis.trees import dotted
from greenlint.rules.base import FileFacts
from greenlint.rules.callbacks import imported_from_project, read_tree, star_imported_from_project
from greenlint.rules.defaults import default_value
from greenlint.rules.syntax import cell_units, target_binds

#: NumPy functions that read data from files or buffers: what they return is data, whatever their arguments.
NUMPY_READERS = frozenset(
    {"load", "loadtxt", "genfromtxt", "fromfile", "memmap", "fromregex", "frombuffer", "fromstring"}
)
#: NumPy functions whose arguments give a shape, bounds or a fill value (or a template's shape): what they
#: return is made whatever those arguments are.
NUMPY_CONSTRUCTORS = frozenset(
    {"zeros", "ones", "full", "empty", "eye", "identity", "arange", "linspace", "zeros_like", "ones_like", "full_like"}
)
#: Random functions that pick from a population given as their first argument (data, when it is).
PICKS = frozenset({"choice", "choices", "sample", "permutation", "shuffle"})
#: Builtins that make a scalar or a container of what they are given (`len(data)` reads a size, not the data).
SCALAR_BUILTINS = frozenset({"int", "float", "bool", "len", "min", "max", "round", "abs", "range"})
#: Builtins that return what they are given, rearranged (`enumerate(z_sample)`, `list(values)`).
PASSING_BUILTINS = frozenset({"enumerate", "zip", "reversed", "sorted", "list", "tuple"})
#: How deep calls are followed into the functions that make a value.
DEPTH = 3


def made_on_host(facts: FileFacts, expr: ast.expr, scope: ast.AST, cell: int | None = None) -> bool:
    """Whether *expr*, read in *scope* (the function or module it is in; in notebook cell *cell*),
    holds only values made on the host without reading data (the module docstring says which)."""
    return _Maker(facts, cell).made(expr, scope, DEPTH, frozenset())


def scalars_only(facts: FileFacts, fed: ast.expr, scope: ast.AST, cell: int | None = None) -> bool:
    """Whether the feed *fed* (a dict literal, or the one name bound to one in *scope*) holds only
    scalars: literal numbers, command-line options' values, or names one binding of which in *scope*
    is one of those (`lr = args.lr` in one branch, read from a schedule file in the other: a variable
    keeps its type). Feeding them again copies a few bytes."""
    if isinstance(fed, ast.Name):
        bound = list(bindings(scope, fed.id))
        fed = bound[0] if len(bound) == 1 and bound[0] is not None else fed
    if not isinstance(fed, ast.Dict) or not fed.values:
        return False
    maker = _Maker(facts, cell)

    def scalar(value: ast.expr | None, named: bool = True) -> bool:
        if isinstance(value, ast.Constant):
            return isinstance(value.value, (bool, int, float))
        if isinstance(value, (ast.Name, ast.Attribute)) and maker.option_scalar(value):
            return True
        return named and isinstance(value, ast.Name) and any(scalar(b, False) for b in bindings(scope, value.id))

    return all(scalar(value) for value in fed.values)


class ProjectFunctions:
    """The functions a call of a name may run: the file's own, else a project module's it imports
    (each module read once)."""

    def __init__(self, facts: FileFacts):
        self.facts = facts
        self.trees: dict[str, ast.Module | None] = {}
        #: id of a function `named` found in a project module -> that module's file.
        self.paths: dict[int, str] = {}

    def named(self, name: str) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
        """The functions a call of *name* may run: the file's top-level ones of that name, else
        the one a project module it imports defines (by name, or with `from module import *`)."""
        own = [f for _, f in self.facts.functions_named(name) if isinstance(f, ast.FunctionDef)]
        if own:
            yield from own
            return
        for found in self._imported(name, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield found

    def in_module(self, module: str, name: str, path: str | None = None) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
        """The top-level function *name* of the project module that the import of *module* binds
        (`import utils`, then `utils.get_img(p)`), in the file checked or the project module at *path*."""
        tree = self.tree(path) if path is not None else None
        nodes = (
            ast.walk(tree) if tree is not None
            else (n for cell in self.facts.cells for n in self.facts.nodes(cell, ast.Import))
        )
        imports = [n for n in nodes if isinstance(n, ast.Import)]
        for file, member in project_bindings(path or os.path.abspath(self.facts.path), imports).get(module, ()):
            found = self.tree(file) if file is not None and not member else None
            if file is None or found is None:
                continue
            for node in found.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                    self.paths[id(node)] = file
                    yield node

    def method(self, owner: str, name: str) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
        """The method *name* of the class a call of *owner* constructs: the file's top-level class of
        that name, else the one a project module it imports defines."""
        own = [
            node
            for cell, _ in cell_units(self.facts)
            for node in getattr(self.facts.module(cell), "body", ())
            if isinstance(node, ast.ClassDef) and node.name == owner
        ]
        for owner_class in own or self._imported(owner, (ast.ClassDef,)):
            for function in owner_class.body:  # type: ignore[attr-defined]
                if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) and function.name == name:
                    if id(owner_class) in self.paths:
                        self.paths[id(function)] = self.paths[id(owner_class)]
                    yield function

    def _imported(self, name: str, kinds: tuple[type, ...]) -> Iterator[ast.AST]:
        """The top-level definitions of one of *kinds* that the file's import of *name* from a project
        module (by name, or with `from module import *`) binds, each module's file kept in `paths`."""
        imported = imported_from_project(self.facts, name)
        sources = (
            [(p, n) for p, n in imported]
            if imported is not None
            else [(p, name) for p in star_imported_from_project(self.facts)]
        )
        for path, original in sources:
            tree = self.tree(path)
            if tree is None or path is None:
                continue
            for node in tree.body:
                if isinstance(node, kinds) and getattr(node, "name", None) == original:
                    self.paths[id(node)] = path
                    yield node

    def tree(self, path: str | None) -> ast.Module | None:
        """The tree of the project module at *path*, read once."""
        if path is None:
            return None
        if path not in self.trees:
            read = read_tree(path)
            self.trees[path] = read[1] if read is not None else None
        return self.trees[path]


class _Maker:
    def __init__(self, facts: FileFacts, cell: int | None):
        self.facts, self.cell = facts, cell
        self.functions = ProjectFunctions(facts)

    def made(self, expr: ast.AST, scope: ast.AST, depth: int, seen: frozenset[str]) -> bool:
        if isinstance(expr, ast.Constant):
            return True
        if isinstance(expr, ast.Name):
            return self.name(expr.id, scope, depth, seen) or self.option_scalar(expr)
        if isinstance(expr, ast.Attribute):  # `z.T`, `np.pi`, `args.batch_size`; never `self.data`
            return (self.rooted_in_numpy(expr) or self.made(expr.value, scope, depth, seen)
                    or self.option_scalar(expr))
        if isinstance(expr, ast.Subscript):  # a row of a drawn batch (the index does not read data)
            return self.made(expr.value, scope, depth, seen)
        if isinstance(expr, ast.Call):
            return self.call(expr, scope, depth, seen)
        if isinstance(expr, ast.Dict):
            return all(v is not None and self.made(v, scope, depth, seen) for v in expr.values) and all(
                k is not None for k in expr.keys
            )
        if isinstance(expr, (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Tuple, ast.List)):
            return all(self.made(child, scope, depth, seen) for child in _operands(expr))
        return False

    def option_scalar(self, expr: ast.Name | ast.Attribute) -> bool:
        """Whether *expr* holds a scalar when the program runs with its defaults: a command-line
        option's, a parameter's default or what every call in the file passes it (`rules.defaults`)."""
        held = default_value(self.facts, expr, self.cell)
        return held is not None and isinstance(held.value, (bool, int, float, str))

    def call(self, call: ast.Call, scope: ast.AST, depth: int, seen: frozenset[str]) -> bool:
        chain = dotted(call.func)
        arguments = [*call.args, *(k.value for k in call.keywords)]
        if chain and ("random" in chain[:-1] or chain[0] == "random"):  # `np.random.normal(...)`, `random.gauss(...)`
            population = call.args[:1] if chain[-1] in PICKS else []  # `np.random.choice(X, 64)` picks data
            return all(self.made(a, scope, depth, seen) for a in population)
        if chain and chain[0] in ("np", "numpy"):
            if chain[-1] in NUMPY_CONSTRUCTORS:  # its arguments are a shape, a fill value or a template's shape
                return True
            return chain[-1] not in NUMPY_READERS and self.operands_made(call, scope, depth, seen)
        if isinstance(call.func, ast.Name) and call.func.id in SCALAR_BUILTINS:
            return True
        if isinstance(call.func, ast.Name) and call.func.id in PASSING_BUILTINS:
            return all(self.made(a, scope, depth, seen) for a in arguments)
        if isinstance(
            call.func, ast.Attribute
        ):  # a method of a value made here: `z.astype(np.float32)`, `rng.normal()`
            return self.made(call.func.value, scope, depth, seen)
        if isinstance(call.func, ast.Name) and depth > 0:
            functions = list(self.functions.named(call.func.id))
            return bool(functions) and all(self.returns_made(f, depth - 1) for f in functions)
        return False

    def operands_made(self, call: ast.Call, scope: ast.AST, depth: int, seen: frozenset[str]) -> bool:
        """A NumPy function's array operands are made here: its first argument, and any later one
        but a literal shape or count (`np.tile(z, (batch_size, 1))`); keywords are options."""
        first, rest = call.args[:1], call.args[1:]
        operands = [*first, *(a for a in rest if not isinstance(a, (ast.Constant, ast.Tuple, ast.List)))]
        return all(self.made(a, scope, depth, seen) for a in operands)

    def name(self, name: str, scope: ast.AST, depth: int, seen: frozenset[str]) -> bool:
        """A name the scope binds, each binding to a value made on the host (a loop over `range`
        binds ints); a parameter or a name bound elsewhere holds data of unknown origin."""
        if name in seen:
            return True  # `z = z * 2`: the other bindings decide
        values = list(bindings(scope, name))
        return bool(values) and all(
            value is not None and self.made(value, scope, depth, seen | {name}) for value in values
        )

    def returns_made(self, function: ast.FunctionDef | ast.AsyncFunctionDef, depth: int) -> bool:
        results = [n.value for n in own_nodes(function) if isinstance(n, ast.Return)]
        return bool(results) and all(r is not None and self.made(r, function, depth, frozenset()) for r in results)

    @staticmethod
    def rooted_in_numpy(expr: ast.Attribute) -> bool:
        chain = dotted(expr)
        return bool(chain) and chain[0] in ("np", "numpy")


def _operands(expr: ast.expr) -> list[ast.expr]:
    if isinstance(expr, ast.BinOp):
        return [expr.left, expr.right]
    if isinstance(expr, ast.UnaryOp):
        return [expr.operand]
    if isinstance(expr, ast.BoolOp):
        return list(expr.values)
    if isinstance(expr, ast.Compare):
        return [expr.left, *expr.comparators]
    if isinstance(expr, ast.IfExp):
        return [expr.body, expr.orelse]
    assert isinstance(expr, (ast.Tuple, ast.List))
    return list(expr.elts)


def bindings(scope: ast.AST, name: str) -> Iterator[ast.expr | None]:
    """What the scope binds *name* to: each value assigned to it or to a tuple holding it, what
    a loop binding it goes over (`range(...)`); None where that cannot be told (a `with`, an
    import, a parameter)."""
    for node in own_nodes(scope):
        if isinstance(node, ast.Assign):  # a part of a value made here is made here: `a, b = made`
            yield from (node.value for target in node.targets if target_binds(target, name))
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            if node.target.id == name:
                yield node.value if isinstance(node, ast.AnnAssign) else ast.BinOp(node.target, node.op, node.value)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) and target_binds(node.target, name):
            yield node.iter  # the items of what it goes over: `for kdx, z in enumerate(z_sample)`
        elif (
            isinstance(node, (ast.withitem,))
            and node.optional_vars is not None
            and target_binds(node.optional_vars, name)
        ):
            yield None
        elif isinstance(node, (ast.Import, ast.ImportFrom)) and any(
            (a.asname or a.name).split(".")[0] == name for a in node.names
        ):
            yield None
        elif isinstance(node, ast.NamedExpr) and node.target.id == name:
            yield node.value
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            yield None
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        args = scope.args
        every = (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
        if any(a is not None and a.arg == name for a in every):
            yield None  # a parameter: its callers decide
