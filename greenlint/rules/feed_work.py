"""The host work that makes, on every step, the values a session run is fed (GL503), or the arrays
a `fit()` of an epoch loop trains on (GL414).

Copying a fed array into the runtime costs its bytes at memory bandwidth and a few microseconds
per tensor: well under a millisecond for a batch of a few megabytes, a few per cent of a step at
most. What a `tf.data` pipeline saves is the host work that produces each batch while the device
waits: reading and decoding files, or a Python loop over the batch's items doing work per item
(characters one-hot encoded one by one, texts tokenised). Slicing, indexing or shuffling arrays
already in memory costs next to nothing, and so do NumPy arithmetic and random draws on them. A loop
whose items take only index arithmetic and random draws of a number or of a few items of a list
(a skip-gram batch gathered from a word array at randomly drawn context offsets) gathers data
already in memory too, microseconds per item: whether that matters depends on the step, which is
not priced here, so nothing is claimed of it. Nor do items taken from a queue (`QUEUE.get()` of a
`queue.Queue()` the file makes): the threads or processes that put them made them, beside the step.

`host_work` follows what the run is fed back through the names the step's loop binds on each pass
(its assignments, its own `for` target) and the functions of the file or of a project module it
calls there (their bodies run per step), a method included where what it is called on is a project
class's instance made before the loop (`data = Loader(path)` in the function around it, or
`self.loader = Loader(path)` in a method of its class), and names the first such work it finds. A name bound
before the loop, a parameter, or another module's function that cannot be read (`mnist.train.
next_batch`) is not followed: its work is not seen, so nothing is claimed of it. A binding in one
branch of an `if` whose test is the same as that of an `if` holding the run in its other branch
is not this run's (`if dataset == 'mnist':` slicing in memory, decoding files otherwise), and nor is
what a function does in a branch its tests on its parameters never take with the defaults every call of
it in the project leaves them (`constant_branches.untaken`: `if use_label_info:` of a sampler no call
asks for labels).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from greenlint.analysis import hostwork
from greenlint.analysis.flow import own_nodes
from greenlint.analysis.project import bound_modules
from greenlint.analysis.trees import dotted
from greenlint.rules.base import FileFacts
from greenlint.rules.callbacks import star_imported_from_project
from greenlint.rules.constant_branches import untaken
from greenlint.rules.host_made import ProjectFunctions, bindings
from greenlint.rules.syntax import SCOPES, cell_units, enclosing, exclusive, target_binds

#: Calls that read a file whatever their module (`open`, NumPy's and pandas' readers, pickle).
READERS = frozenset(
    {"open", "imread", "imdecode", "load_img", "read_csv", "read_table", "read_parquet", "loadtxt", "genfromtxt",
     "fromfile", "memmap"}
)
#: Modules whose `load` reads a file.
LOADERS = frozenset({"np", "numpy", "pickle", "joblib", "librosa", "json", "torch"})
#: Calls that cost nothing per item: the index arithmetic a slicing `__getitem__` may make, and containers.
INDEXING = hostwork.INDEXING | {"float", "abs", "round", "enumerate", "zip"}
#: Nodes that repeat their body per item.
PER_ITEM = hostwork.PER_ITEM
#: How `host_work` begins its words for a Python loop that works per item (not a file read).
PER_ITEM_WORK = "a Python loop over its items"
#: Calls that fill a container item by item.
FILLS = frozenset({"append", "extend", "appendleft"})
#: Random draws of `random` and `np.random` and the positional arguments each takes before a size: with
#: no more of them and no `size`, the call draws one number (`random.randint(0, span)`, `np.random.uniform(0, 1)`).
ONE_DRAW = {"randint": 2, "randrange": 3, "random": 0, "uniform": 2, "choice": 1, "gauss": 2, "normal": 2, "rand": 0,
            "randn": 0, "random_sample": 0}
#: The standard library's draws of k items of a list (`random.sample(context_words, num_skips)`): indices or
#: items picked, no work on their content.
PICKS = frozenset({"sample", "choices"})
#: Thread- and process-safe queues: what one hands over another thread or process made.
QUEUES = frozenset({"Queue", "SimpleQueue", "JoinableQueue", "LifoQueue", "PriorityQueue"})
#: A queue's methods taking the next item.
TAKES = frozenset({"get", "get_nowait"})
#: How deep calls are followed into the functions that make a value.
DEPTH = 3


def host_work(
    facts: FileFacts, fed: ast.expr, loop: ast.AST, run: ast.Call, cell: int | None, redraws: bool = False
) -> str | None:
    """The host work that makes the *fed* values of *run* on each pass of *loop*, in words
    (``a file read (`imread`, utils.py line 51)``), or None where none is seen. With *redraws*, a
    `while` redrawing an item until a membership test fails (`while (u, j) in train:`) is a lookup
    per item too, as `train.has_key((u, j))` is: for a whole training set rebuilt per epoch (GL414),
    not for one step's batch, whose few redraws against a short list cost next to nothing."""
    return _Producers(facts, run, cell, redraws).expr(fed, loop, DEPTH, frozenset(), None)


class _Producers:
    def __init__(self, facts: FileFacts, run: ast.Call, cell: int | None, redraws: bool = False):
        self.facts, self.run, self.cell, self.redraws = facts, run, cell, redraws
        self.functions = ProjectFunctions(facts)
        self._methods: set[int] | None = None
        self._queues: frozenset[str] | None = None
        self._untaken: dict[int, frozenset[int]] = {}
        #: a module's file (None: the file checked) -> the modules its imports bind names to
        self._modules: dict[str | None, dict[str, str]] = {}

    def modules(self, scope: ast.AST) -> dict[str, str]:
        """The modules the imports of the module holding *scope* bind its names to (`bound_modules`):
        the file's, with those a `from <project module> import *` brings (its own imports, as far as
        its `__all__` exports them), or a project module's for a function of it that `call` followed."""
        path = self.functions.paths.get(id(scope))
        if path not in self._modules:
            tree = self.functions.tree(path) if path is not None else None
            nodes = (
                ast.walk(tree) if tree is not None
                else (n for cell, _ in cell_units(self.facts) for n in self.facts.nodes(cell, ast.Import, ast.ImportFrom))
            )
            imports = [n for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom))]
            found = bound_modules(path or self.facts.path, imports)
            for star in star_imported_from_project(self.facts) if path is None else ():
                found = {**_star_bound(star, self.functions.tree(star)), **found}
            self._modules[path] = found
        return self._modules[path]

    def expr(self, expr: ast.AST, scope: ast.AST, depth: int, seen: frozenset[str], where: str | None) -> str | None:
        nodes = list(ast.walk(expr))
        for node in nodes:
            found = None
            if isinstance(node, ast.Call):
                found = self.call(node, scope, depth, seen, where)
            elif isinstance(node, ast.Name) and node.id not in seen:
                found = self.name(node.id, scope, depth, seen | {node.id}, where)
            if found is not None:
                return found
        modules = self.modules(scope)
        looped = next(
            (
                n
                for n in nodes
                if isinstance(n, PER_ITEM[3:]) and _works_per_item(n, modules, self.redraws, self.queues())
            ),
            None,
        )
        return _per_item(looped, where) if looped is not None else None

    def name(self, name: str, scope: ast.AST, depth: int, seen: frozenset[str], where: str | None) -> str | None:
        """The work of a name *scope* binds (a loop: on each pass; a function: on each call)."""
        for value in self.bound(scope, name):
            found = self.expr(value, scope, depth, seen, where)
            if found is not None:
                return found
        modules = self.modules(scope)
        never = self.untaken(scope)
        filled = [
            n
            for n in own_nodes(scope)
            if isinstance(n, PER_ITEM[:3])
            and id(n) not in never
            and _fills(n, name, modules, self.redraws, self.queues())
        ]
        inner = [n for n in filled if not any(o is not n and o in filled for o in ast.walk(n))]
        return _per_item(min(inner, key=lambda n: n.lineno), where) if inner else None  # the loop over the items

    def bound(self, scope: ast.AST, name: str) -> Iterator[ast.expr]:
        if isinstance(scope, (ast.For, ast.AsyncFor)) and target_binds(scope.target, name):
            yield scope.iter
        never = self.untaken(scope)
        for node in own_nodes(scope):
            if (
                isinstance(node, ast.Assign)
                and id(node) not in never
                and any(target_binds(t, name) for t in node.targets)
                and not exclusive(self.facts, node, self.run, self.cell)  # the other branch of the run's test
            ):
                yield node.value
        if not isinstance(scope, (ast.For, ast.AsyncFor, ast.While)):
            yield from (
                v
                for v in bindings(scope, name)
                if v is not None and not isinstance(v, ast.Constant) and id(v) not in never
            )

    def untaken(self, scope: ast.AST) -> frozenset[int]:
        """The nodes of a function that its tests on its parameters, at the defaults the project's calls
        leave them, never run (`constant_branches.untaken`); none for a loop's scope."""
        if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return frozenset()
        if id(scope) not in self._untaken:
            self._untaken[id(scope)] = untaken(self.facts, scope, self.functions.paths.get(id(scope)))
        return self._untaken[id(scope)]

    def call(self, call: ast.Call, scope: ast.AST, depth: int, seen: frozenset[str], where: str | None) -> str | None:
        chain = tuple(dotted(call.func) or ())
        if _reads(chain):
            line = f"in {where}, line {call.lineno}" if where else f"line {call.lineno}"
            return f"a file read (`{'.'.join(chain)}`, {line})"
        name = chain[-1] if chain else None
        if name is None or depth <= 0 or name in INDEXING:
            return None
        on_object = isinstance(call.func, ast.Attribute) and _root(call.func) not in ("self", "cls")
        for function in self.functions.named(name):
            if on_object and id(function) not in self.methods():
                continue  # `mnist.train.next_batch()` is no function of the file named `next_batch`
            found = self.returns(function, depth - 1)
            if found is not None:
                return found
        receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
        if isinstance(receiver, ast.Name):  # `utils.get_img(path)` after `import utils`, a project module
            for function in self.functions.in_module(receiver.id, name, self.functions.paths.get(id(scope))):
                found = self.returns(function, depth - 1)
                if found is not None:
                    return found
        for owner in self.constructed(receiver, scope) if receiver is not None else ():
            for function in self.functions.method(owner, name):  # `data.gen(64)` after `data = Loader(paths)`
                found = self.returns(function, depth - 1)
                if found is not None:
                    return found
        return None

    def constructed(self, receiver: ast.expr, scope: ast.AST) -> set[str]:
        """The classes whose call binds the *receiver* a method is called on, made once before the loop
        whose passes call the method: a name bound in *scope*'s function or module (`data = Loader(paths)`),
        or an attribute of `self` that a method of the file's class around *scope* sets
        (`self.data_loader = DataLoader(...)` in `__init__`)."""
        around = scope if isinstance(scope, SCOPES) else enclosing(self.facts, scope, self.cell)
        if isinstance(receiver, ast.Name):
            values = list(bindings(around, receiver.id)) if around is not None else []
        elif isinstance(receiver, ast.Attribute) and dotted(receiver.value) == ["self"]:
            owner = enclosing(self.facts, scope, self.cell, (ast.ClassDef,))
            values = [
                node.value
                for node in (ast.walk(owner) if owner is not None else ())
                if isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Attribute) and dotted(t) == ["self", receiver.attr] for t in node.targets)
            ]
        else:
            values = []
        return {dotted(v.func)[-1] for v in values if isinstance(v, ast.Call) and dotted(v.func)}

    def queues(self) -> frozenset[str]:
        """The paths the file binds to a queue (`QUEUE = queue.Queue()`, `self.queue = mp.Queue(8)`), found
        on the first loop judged: items taken from one were made by the thread or process that put them."""
        if self._queues is None:
            self._queues = frozenset(
                ".".join(path)
                for cell, _ in cell_units(self.facts)
                for node in self.facts.nodes(cell, ast.Assign)
                if isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and (dotted(node.value.func) or [""])[-1] in QUEUES
                for target in node.targets
                if (path := dotted(target))
            )
        return self._queues

    def methods(self) -> set[int]:
        """The file's methods (functions in a class body), found on the first method call followed."""
        if self._methods is None:
            self._methods = {
                id(n)
                for cell, _ in cell_units(self.facts)
                for owner in self.facts.nodes(cell, ast.ClassDef)
                for n in owner.body  # type: ignore[attr-defined]
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            }
        return self._methods

    def returns(self, function: ast.FunctionDef | ast.AsyncFunctionDef, depth: int) -> str | None:
        where = f"`{function.name}`"
        never = self.untaken(function)
        for node in own_nodes(function):
            if not isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom)) or id(node) in never:
                continue
            value = node.value
            if value is not None:
                found = self.expr(value, function, depth, frozenset(), where)
                if found is not None:
                    return found
        return None


def _reads(chain: tuple[str, ...]) -> bool:
    if not chain:
        return False
    path = ".".join(chain)
    if path in hostwork.DECODES or any(d.endswith("." + path) for d in hostwork.DECODES if len(chain) > 1):
        return True
    return chain[-1] in READERS or (chain[-1] == "load" and chain[0] in LOADERS)


def _star_bound(path: str, tree: ast.Module | None) -> dict[str, str]:
    """The module names a `from <module> import *` of the project module at *path* brings: those its
    top-level imports bind (`bound_modules`), but for names with an underscore or left out of a
    literal `__all__` (one not literal exports none of them: not known)."""
    if tree is None:
        return {}
    found = bound_modules(path, [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))])
    listed = [n.value for n in tree.body if isinstance(n, ast.Assign) and any(dotted(t) == ["__all__"] for t in n.targets)]
    if not listed:
        return {name: module for name, module in found.items() if not name.startswith("_")}
    try:
        exported = ast.literal_eval(listed[0]) if len(listed) == 1 else None
    except ValueError:
        exported = None
    names = {n for n in exported if isinstance(n, str)} if isinstance(exported, (list, tuple)) else set()
    return {name: module for name, module in found.items() if name in names}


def _works_per_item(
    node: ast.AST, modules: dict[str, str], redraws: bool = False, queues: frozenset[str] = frozenset()
) -> bool:
    """A loop or comprehension whose body calls something per item beyond index arithmetic (and
    random draws, *modules* naming the modules its names are imported as; and items taken from one of
    the file's *queues*, `QUEUE.get()`, which the thread or process that put them made), or, with
    *redraws*, holds a `while` whose test is a membership test of a container (`host_work`)."""
    parts = node.body if isinstance(node, PER_ITEM[:3]) else [getattr(node, "elt", node)]
    for part in parts if isinstance(parts, list) else [parts]:
        for inner in ast.walk(part):
            if isinstance(inner, ast.Call) and (dotted(inner.func) or ("",))[-1] not in INDEXING | FILLS:
                if not _draws(inner, modules) and not _maps_indexing(inner) and not _taken(inner, queues):
                    return True
            if redraws and isinstance(inner, ast.While) and _looks_up(inner.test):
                return True
    if isinstance(node, ast.DictComp):
        return any(isinstance(n, ast.Call) for n in ast.walk(node.value))
    return False


def _taken(call: ast.Call, queues: frozenset[str]) -> bool:
    """`QUEUE.get()` of a path in *queues*: an item another thread or process made, handed over."""
    chain = dotted(call.func) or []
    return len(chain) > 1 and chain[-1] in TAKES and ".".join(chain[:-1]) in queues


def _maps_indexing(call: ast.Call) -> bool:
    """`map(len, seq)` or `map(lambda x: len(x), seq)`: a map of index arithmetic (a lambda's body is walked
    with the loop's, so what it calls is judged there); not `map(decode, paths)`."""
    if dotted(call.func) != ["map"] or not call.args:
        return False
    function = call.args[0]
    return isinstance(function, ast.Lambda) or isinstance(function, ast.Name) and function.id in INDEXING


def _looks_up(test: ast.expr) -> bool:
    """A membership test of a container that is no literal display (`(u, j) in train`)."""
    displays = (ast.Constant, ast.List, ast.Tuple, ast.Set)
    return any(
        isinstance(n, ast.Compare)
        and any(isinstance(op, (ast.In, ast.NotIn)) for op in n.ops)
        and not all(isinstance(c, displays) for c in n.comparators)
        for n in ast.walk(test)
    )


def _draws(call: ast.Call, modules: dict[str, str]) -> bool:
    """A random draw of one number from the standard library's `random` or NumPy's `numpy.random`
    (no size asked), or of items of a list from `random` (`PICKS`), by the module its first name is
    imported as (*modules*: `npr.randint` after `import numpy.random as npr`; not a project's own
    `random` module)."""
    chain = dotted(call.func) or []
    if not chain or chain[0] not in modules:
        return False
    module, _, name = ".".join([modules[chain[0]], *chain[1:]]).rpartition(".")
    if module == "random" and name in PICKS:
        return True
    most = ONE_DRAW.get(name) if module in ("random", "numpy.random") else None
    return most is not None and len(call.args) <= most and all(k.arg != "size" for k in call.keywords)


def _fills(
    loop: ast.AST, name: str, modules: dict[str, str], redraws: bool = False, queues: frozenset[str] = frozenset()
) -> bool:
    """The loop stores into *name* item by item (`batch[i] = ...`, `batch.append(...)`) and works per item.
    In a `while` loop a store counts only at an index the loop steps (`i += 1`): one at a mask it
    recomputes (`items[clash] = np.random.randint(n, size=clash.sum())`) redraws in bulk, not per item."""
    stepped = {
        n.target.id for n in ast.walk(loop) if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)
    } if isinstance(loop, ast.While) else None
    for node in ast.walk(loop):
        stored = (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Store)
            and _root(node) == name
            and (stepped is None or any(isinstance(n, ast.Name) and n.id in stepped for n in ast.walk(node.slice)))
        )
        appended = (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in FILLS
            and _root(node.func.value) == name
        )
        if stored or appended:
            return _works_per_item(loop, modules, redraws, queues)
    return False


def _root(expr: ast.expr) -> str | None:
    while isinstance(expr, (ast.Subscript, ast.Attribute)):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _per_item(node: ast.AST, where: str | None) -> str:
    line = f"in {where}, line {node.lineno}" if where else f"line {node.lineno}"  # type: ignore[attr-defined]
    return f"{PER_ITEM_WORK} ({line})"
