"""One pass over a module's syntax tree naming every TF/Keras call canonically.

The walk evaluates each expression to an abstract value (`greenlint.analysis.values`): a TF
module/class/function reference, an instance of a TF class, a user class or function, a literal,
or unknown. Calls on TF values are recorded with their canonical API and static features.

What a name holds flows through assignments, attributes set in any method of a class (every
`self.X = ...` of the class counts), function parameters (bound from every call seen in the
module, a class's constructor from its instantiations; where callers pass models of different
classes, their nearest common base), return values, `types.MethodType(f, model)` and
`functools.partial(f, model)` (f's first parameters, its runs unknown), dict displays of
constructors and dicts filled with them key by key (`{"unet": build_unet}[name]()`,
`model_from_name["unet"] = unet.build`: what they return where they agree, whatever the key; a
Keras model where each constructor whose return is known builds one), a
parameter defaulting to None that the function re-binds under `if x is None:` (the value it
binds), lists filled by `append` (their length), and different functions bound on alternative
paths (`if noise: act = build_noisy_act() else: act = build_act()`: one of them, each called where
it is; values.union), keyword dicts and `*args`/`**kwargs` spread into calls, callables composed by
`functools.reduce`, each call of a builder its own model (builders.py), and each call of a function
returning a closure its own closure, whose free names are that call's (`closure_of`). A method of a Keras/TF
name called on what cannot be typed is still listed (untyped.py); so is a SciPy optimizer's call, or
the builtin `map`'s, as the TF call of the function it is given (drivers.py).

Order follows Python: a module or class body runs top to bottom (flow-sensitive bindings,
merged where branches join); a function body is walked once, either when a call needs its
return value (a module-local factory) or after its enclosing scope (then its free names see the
final bindings, except the globals the module rebinds: those its calls saw where they were made,
merged as parameters are, rebinding.py). Nothing is imported or executed.

The tree is the standard library's `ast`: it gives exact positions for free and parses ~10x
faster than libcst, whose metadata providers would cost 70-118x (docs/design.md); the resolver only
reads the tree, so libcst's lossless form buys nothing here.
"""

from __future__ import annotations

import ast
import copy
import math
import operator
import os
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from greenlint.analysis import (
    agents,
    arrays,
    builders,
    by_name,
    constructed,
    decorated,
    differentiated,
    downloads,
    drivers,
    entry_runners,
    environments,
    flow,
    global_step,
    graphrun,
    handed,
    handwritten,
    hostwork,
    hydra_config,
    kerasext,
    libraries,
    mapped,
    ops,
    options,
    progress,
    queues,
    rebinding,
    records,
    served,
    slim,
    slim_training,
    slots,
    step_traces,
    subcommands,
    symjoin,
    symops,
    tfgan,
    traced,
    trainable,
    trees,
    tutorial_mnist,
    unroll,
    untyped,
    wrapped,
    wrappers,
)
from greenlint.analysis import features as feat
from greenlint.analysis import layers as layers_mod
from greenlint.analysis import runs as runs_mod
from greenlint.analysis import work as work_mod
from greenlint.analysis.callsite import Runs, Work, estimator_method
from greenlint.analysis.files import FILE_WRITERS, READ_ENDINGS, WrittenFiles, path_parts
from greenlint.analysis.references import (
    CodeReferences,
    definitions,
    keyword_mentions,
    looks_up_strings,
    super_mentions,
    text_references,
    word_lines,
)
from greenlint.analysis.scopes import Scope, merge_names
from greenlint.analysis.values import (
    FOREIGN,
    MISSING,
    OPAQUE,
    SAVED,
    SEQUENCE,
    TRACKED,
    Bound,
    Choice,
    ClassInfo,
    Composed,
    Const,
    ExtClass,
    ExtFunc,
    ExtInst,
    ExtModule,
    Foreign,
    FuncInfo,
    Inst,
    Kw,
    Member,
    Options,
    Parsed,
    Ref,
    Seq,
    Spent,
    Super,
    UserClass,
    UserFunc,
    UserInst,
    Walk,
    fresh,
    items_of,
    merge,
    merged_bindings,
    options_of,
    runs_of,
    union,
)
from greenlint.catalog.kinds import GRAPH_RUNS, NO_WORK_KINDS, TF1_GRAPH, TRACED_CALL

TF_ROOTS = libraries.TF_ROOTS
#: The catalog's Keras layer base, and the method Keras' merge base (`_Merge`: Add, Multiply, ... and
#: `class RandomWeightedAverage(_Merge)`) runs on a call, in place of `call`.
KERAS_LAYER = "tensorflow.keras.Layer"
MERGE_FUNCTION = "_merge_function"
#: Libraries followed only for the work they imply (array shapes, data-set sizes); no call
#: of theirs is reported.
DATA_ROOTS = arrays.DATA_ROOTS
TF_FUNCTION = "tensorflow.function"
#: What a layer called on a Keras symbolic tensor gives, where no API says (an operator, a foreign layer).
KERAS_TENSOR = arrays.KERAS_TENSOR
#: `tf.distribute` strategies: their `run(fn, args=...)` calls fn on each replica.
DISTRIBUTE = "tensorflow.distribute."
DATASET = feat.DATASET
#: TF1's session class (`made_beside`): what its graph runs through.
_SESSION = untyped.SESSION_RUN.rpartition(".")[0]
#: What `tf.saved_model.load` returns (a restored trackable object) and the prefix of the calls on it.
SAVED_MODEL_LOAD = "tensorflow.saved_model.load"
#: APIs that trace a function argument into a graph, as tf.function does.
TRACING = frozenset(
    {
        TF_FUNCTION,
        "tensorflow.data.Dataset.map",
        "tensorflow.data.Dataset.filter",
        "tensorflow.data.Dataset.flat_map",
        "tensorflow.data.Dataset.interleave",
    }
)
#: The distinct constructions of one Keras model class of the project whose layers are built apart
#: (`Resolver.constructed_layers`); later ones read the class's layers as its walks merged them.
CONSTRUCTIONS = 8
#: Methods Keras traces into a graph (tf.function) for a Layer or Model subclass.
KERAS_STEPS = frozenset({"call", "train_step", "test_step", "predict_step"})
#: The builtin `range` and Python 2's `xrange`, as a loop's iterable.
RANGES = frozenset({"range", "xrange"})
#: Modules that re-export the builtin range under Python 2 and 3 (`from six.moves import xrange`).
RANGE_MODULES = frozenset({"six.moves", "builtins", "past.builtins", "future.builtins"})


class WalkContext:
    """What the code being walked sits in: enclosing loops, a Keras step, its function (and the
    return values and yields seen in it)."""

    __slots__ = (
        "loops", "trips", "counted", "exits", "resumes", "guards", "divisors", "varying", "keras_step", "returns", "generator", "func",
        "yields", "tapes", "step_line", "unless", "host", "host_guards", "host_once", "drawn", "lists", "branches",
        "ended", "rebound", "kept", "dependencies", "gradients", "unreached", "picked",
    )

    def __init__(self, func: FuncInfo | None = None):
        self.loops: list[int | None] = []  # literal trip count of each enclosing loop, None if unknown
        self.trips: list[int | None] = []  # the same, 1 for a loop its body always leaves (`...; break`)
        self.counted: list[str] = []  # the command-line option whose default each of those counts, else ""
        self.lists: dict[str, int] = {}  # a name bound to a literal list here -> how many loops enclosed it then
        self.exits = 0  # enclosing loops that a `break`, `return` or `raise` may leave early
        self.resumes = 0  # enclosing loops that resume a count at a start not known here (`resumed_range`)
        self.guards = 0  # enclosing `if`/`except`/`case` bodies inside a loop
        self.branches = 0  # enclosing `if`/`except`/`case` bodies, in a loop or not
        self.divisors: list[runs_mod.Period] = []  # of each enclosing `if ... % k == 0`
        self.varying: list[frozenset | None] = []  # per enclosing loop: names its iterations change (None: 1 trip)
        self.keras_step = func.keras_step if func else False
        self.returns: list[Any] = []
        self.generator = False
        self.yields: list[Any] = []  # the values its `yield`s give (a generator function's batches)
        self.tapes: list[dict] = []  # the meta of each enclosing `with tf.GradientTape() as tape:`
        self.step_line: int | None = None  # the line of the last training step seen in this function
        self.unless: frozenset[str] = frozenset()  # parameters enclosing `if p is None:` bodies require None
        self.host: str | None = None  # its per-item host work: a decode in one of its loops (hostwork.py)
        self.host_guards = 0  # the `if` bodies inside a loop that enclose that decode (`note_host`)
        self.host_once: str | None = None  # a decode outside its loops (per item where a caller loops over it)
        self.drawn: list = []  # `arrays.Data` of the image iterators its loops draw a batch from per yield
        self.func = func
        self.ended = False  # a branch taken for a known test returns or raises: the rest is not run
        self.rebound: list[ast.For | ast.While] = []  # the enclosing loops (`fixed` asks which names they bind)
        self.kept = 0  # enclosing lookups of a dict kept between passes, filled on a miss (`hostwork.kept_by_key`)
        self.dependencies: list[dict] = []  # per enclosing `with tf.control_dependencies(ops):`, `graphrun.grouped(ops)`
        self.gradients: list = []  # the graphs (Syms) of the losses its `tf.gradients(loss, params)` differentiate
        self.unreached = 0  # enclosing branches a test the code fixes never takes (`s_if`)
        self.picked = False  # a call of one of several functions or classes (a `Choice`): each runs at most so often


class SymbolTable:
    """Catalog lookups the resolver repeats, memoised per catalog."""

    def __init__(self, catalog):
        self.cat = catalog
        self._symbols: dict[str, tuple | None] = {}
        self._methods: dict[tuple[str, str], str | None] = {}
        self._returns: dict[str, str | None] = {}
        self._params: dict[str, list[str]] = {}

    def symbol(self, path: str) -> tuple[str, str, str | None] | None:
        """(canonical api, kind, return class) of a dotted TF path; None if not a TF symbol.

        Kind is module/class/function/method, or "unknown" for an unlisted public name in a
        listed module (a TF call the catalog does not know yet)."""
        try:
            return self._symbols[path]
        except KeyError:
            pass
        found = None
        canonical = self.cat.canonical(path)
        if canonical is not None:
            sym = self.cat.symbol(canonical)
            if sym is not None:
                returns = sym.name if sym.kind == "class" else sym.returns
                found = (sym.name, sym.kind, returns)
            else:
                parent, _, leaf = canonical.rpartition(".")
                owner = self.cat.symbol(parent) if parent else None
                if owner is not None and owner.kind == "module" and not leaf.startswith("_"):
                    found = (canonical, "unknown", None)
        self._symbols[path] = found
        return found

    def method(self, cls: str, name: str) -> str | None:
        key = (cls, name)
        try:
            return self._methods[key]
        except KeyError:
            found = self._methods[key] = self.cat.resolve_method(cls, name)
            return found

    def returns(self, api: str) -> str | None:
        try:
            return self._returns[api]
        except KeyError:
            found = self._returns[api] = self.cat.returns(api)
            return found

    def common_base(self, classes: list[str]) -> str | None:
        """The first class of the first one's MRO (itself, then its catalogued bases) that all are."""
        chains = []
        for cls in classes:
            sym = self.cat.symbol(cls)
            if sym is None or sym.kind != "class":
                return None
            chains.append((sym.name, *sym.bases))
        return next((c for c in chains[0] if all(c in chain for chain in chains[1:])), None)

    def params(self, api: str) -> list[str]:
        try:
            return self._params[api]
        except KeyError:
            found = self._params[api] = self.cat.params(api)
            return found


_TABLES: dict[int, SymbolTable] = {}


def symbol_table(catalog) -> SymbolTable:
    table = _TABLES.get(id(catalog))
    if table is None or table.cat is not catalog:
        table = _TABLES[id(catalog)] = SymbolTable(catalog)
    return table


#: Names a star import of a standalone Keras 2 module brings beside the module's members: its modules import
#: the backend as `K` and define no `__all__` (`from keras.layers import *`, then `K.image_data_format()`).
_STAR_EXTRAS = {("tensorflow.keras.layers", "K"): "tensorflow.keras.backend"}


def star_member(catalog, stars, name: str) -> Ref | None:
    """*name* as the first of the star-imported TF modules *stars* that has it (`from keras import *`)."""
    table = symbol_table(catalog)
    for star in stars:
        if (star, name) in _STAR_EXTRAS:
            return Ref(_STAR_EXTRAS[star, name])
        sym = table.symbol(f"{star}.{name}")
        if sym is not None and sym[1] != "unknown":
            return Ref(sym[0])
    return None


@dataclass(slots=True)
class Found:
    """One call site as the walk found it: the node, its canonical API, its features, the function
    it lies in (None: module level), how often it runs per run of that function, its work, and the
    merge layer a functional helper such as `concatenate([a, b])` builds and calls (`merge_layer`)."""

    node: ast.Call
    api: str
    features: dict
    func: FuncInfo | None
    local: Any
    work: Work
    merge: Inst | None = None
    mapped: tuple = ()  # the functions Dataset.map runs on the pipeline a model method is fed (mapped.py)


class Resolver:
    """Walks one module; `calls` collects the call sites it finds."""

    def __init__(self, catalog, source: str = "", imports=None, exporting: bool = False, checkpoint=None,
                 file: str | None = None):
        self.table = symbol_table(catalog)
        self.file = file or (imports.path if imports is not None else None)  # where its libraries are installed
        self.checkpoint = checkpoint  # called before each statement: raising there abandons the walk
        self.imports = imports  # `project.Imports` of this module: other project modules, if followed
        self.exporting = exporting  # walked for other modules: parameters stay unknown
        self.source = source  # the module's text, to count references to a function
        self.words: dict[str, tuple[int, int, int, int]] = {}  # identifier -> `text_references` in the text
        self.mentioned: dict[tuple[Callable[[str, str], int], str], int] = {}  # (count, identifier) -> `mentions`
        self.strings_looked_up: bool | None = None  # `looks_up_strings` of the text, found when first asked
        self.references: CodeReferences | None = None  # the same in the tree's code (`run`)
        self.local_references: dict[int, CodeReferences] = {}  # id of a function -> the same in its code alone
        self.discard: ast.expr | None = None  # the value of the expression statement being walked
        self.discarded = False  # the call being resolved is that value
        self.calls: list[Found] = []
        self.scope = Scope("module", None)
        self.tree: ast.Module | None = None  # the module walked (`run`)
        self.option_defaults: dict[str, ast.expr | None] | None = None  # its command-line options' (`options.defaults`)
        self.forwarded: frozenset[str] = frozenset()  # of those, the ones its own wrapper of argparse defines
        self.options_set: dict[tuple[str, str], bool] | None = None  # the options it sets itself (`options.set_by_program`)
        self.reassigned: dict[str, bool] = {}  # those assigned on a parsed command line's holder (`options.reassigned`)
        self.reassigned_read: ast.Module | None = None  # the tree `reassigned` was read from
        self.hand_updates: dict[int, tuple] = {}  # a function's id -> (it, `handwritten.updates_built` of it)
        self.may_build_updates: bool | None = None  # `handwritten.may_build_updates` of the text, on first need
        self.defaults_given: dict[int, dict] = {}  # a `set_defaults` call's id -> its keywords' values (`command_function`)
        self.command_setters: dict[str, list[ast.Call]] = {}  # attr -> the calls setting it per sub-command
        self.iter_option = ""  # the option whose default the last loop iterable walked counts (`loop_trips`)
        self.iter_resumed = False  # the last loop iterable walked resumes a count (`resumed_range`)
        self.ctx = WalkContext()
        self.pending: deque[FuncInfo] = deque()
        self.flows: dict[ast.AST, Any] = {}  # loop -> names its iterations change; def -> its parameters' flow
        self.map_draws: dict[int, ast.Call] = {}  # a loop drawing from a mapped pipeline -> the call paying its draws
        self.loop_bound: dict[ast.AST, frozenset] = {}  # loop -> the names its body binds
        self.chained: dict[ast.Call, ast.Call] = {}  # a call -> the call made on its result
        self.functions: list[FuncInfo] = []  # every def walked or pending, in definition order
        self.tf_imported = False  # the module imports TensorFlow or Keras: untyped `.fit(` is Keras's
        self.tape_steps: dict[int, int] = {}  # id of a GradientTape's meta -> the line of its training step
        self.frozen_steps: list[tuple[Work, dict, FuncInfo, dict]] = []  # (work, model meta, function, states): `settle_frozen_steps`
        self.fed_rows: dict[ast.Dict, int] = {}  # a dict display -> the rows of the first array among its values
        self.arg_scopes: list[dict] = [{}]  # per enclosing `with slim.arg_scope(...)`, in the calls walked too: slim.py
        self.fed_host: dict[ast.Dict, Inst] = {}  # a dict display -> the first host batch among its values
        self.host_later: list[tuple[Any, FuncInfo, FuncInfo | None]] = []  # (site or None, callee, caller): `settle_host_sites`
        self.handed_memo: dict[int, tuple] = {}  # id(node) -> hostwork.handed_methods; -1: `module_functions`
        self.decoded: str | None = None  # the first decode noted in the loop body or comprehension being walked
        self.files = WrittenFiles()  # files written with a literal name: `np.load` of one gives back its array
        self.step_models: dict[ast.Call, int] = {}  # a model call with a `step` -> id of the model it runs
        self.inherited_steps: set[ast.Call] = set()  # training steps taped through their function's callers
        self.trained: dict[int, dict[str, Inst]] = {}  # id(function node or class) -> its differentiated models
        self.traced_calls: list[tuple[Found, FuncInfo]] = []  # calls of a tf.function and the function
        self.own_calls: list[tuple[ast.Call, FuncInfo, int, dict]] = []  # (node, callee, its caller entry, loop features)
        self.drives: list[tuple] = []  # calls of a library driver given functions (driver_call)
        self.instance = 0  # the walk for values only being made (`shadowed`), 0 outside one
        self.instances = 0  # such walks made so far
        self.unrolling: set[int] = set()  # ids of the functions being walked again for a call's values
        self.steps: dict[tuple[int, int, int], ast.Call] = {}  # (id of a call of composed functions, depth, step) -> its node
        self.composing: list[int] = []  # a composition's call being made: where its sites start, the ids of its nodes
        self.handed: set[int] = set()  # ids of the builders whose walk's model a call was given (`another`)
        #: id of a Keras model's `__init__` -> (what a construction passed, the layers it built): `constructed_layers`
        self.constructions: dict[int, list[tuple[dict[str, Any], list]]] = {}
        #: (id of a model's meta, its layers' count, a shape) -> (that meta, the model built on it): `stacked_on`
        self.stacks: dict[tuple[int, int, tuple], tuple[dict, Inst]] = {}
        #: `config.x`, `FLAGS.x` read as the default of an option another module defines (`option_read`):
        #: that default, None where one walk read it as none
        self.options_read: dict[ast.Attribute, Const | None] = {}
        #: the attributes a walk read of anything but an options object handed in: tracked only in a
        #: module that scripts beside import (`run`), as a per-call walk may bind a parameter otherwise
        self.read_otherwise: set[ast.Attribute] | None = None
        self.model_calls: list[step_traces.ModelCall] = []  # calls of a model's step functions and compile (`order_traces`)
        self.rebound: frozenset[str] = frozenset()  # names the module binds more than once (rebinding.py)
        self.defined: dict[str, list] = {}  # the module's functions by name (rebinding.functions)
        self.free: dict[ast.AST, frozenset[str]] = {}  # a function's node -> the names it reads and never binds
        self.reads: dict[ast.AST, frozenset[str]] = {}  # a function's node -> the rebound names a call of it reads

    @contextmanager
    def inside(self, scope: Scope, ctx: WalkContext | None = None) -> Iterator[Scope]:
        """Walk in *scope* (and *ctx*: another function's body), then back where the walk was."""
        outer_scope, outer_ctx = self.scope, self.ctx
        self.scope = scope
        if ctx is not None:
            self.ctx = ctx
        try:
            yield scope
        finally:
            self.scope, self.ctx = outer_scope, outer_ctx

    def run(self, tree: ast.Module) -> list[tuple[ast.Call, str, dict, Runs, dict]]:
        """(call node, api, features, runs, work) of every call site found."""
        self.references = CodeReferences(tree)
        self.tree = tree
        self.rebound = rebinding.rebound(tree.body)
        self.defined = rebinding.functions(tree.body) if self.rebound else {}
        if not self.exporting and self.imports is not None and self.imports.index.callers(self.imports.path):
            self.read_otherwise = set()
            self.tf_imported = self.imports.in_keras_program()
        self.block(tree.body)
        # entry points first (main(), run(self)): their calls bind the parameters of the rest
        self.pending = deque(sorted(self.pending, key=_required_parameters))
        self.walk_pending()
        if not self.exporting:
            self.rewalk_blind()
        self.settle_host_sites()
        self.driven()
        # decided last: `tf.function(f)` or `ds.map(f)` may come after f's body was walked
        graphs = {id(c.func) for c in self.calls if c.api in TF1_GRAPH}
        graphs.update(_graph_class_methods(c.func for c in self.calls if c.api in TF1_GRAPH))
        if self.graph_helper():  # a helper of TF1 graph programs: its ops build their graphs
            graphs.add(id(None))
        elif graphs:  # a `loss(logits, labels)` helper called only where a graph is built adds to that graph
            graphs = self.called_from(graphs | {id(f) for f in self.functions if _builds_graph(f, graphs)})
        for c in self.calls:
            c.features["in_tf_function"] = _traced(c.func)
            if _traced(c.func, "keras_step"):  # a loss given to compile() after its body was walked
                c.features["in_keras_step"] = True
            if _builds_graph(c.func, graphs):
                c.features["graph_mode"] = True
        if self.exporting:
            return []
        self.order_traces()
        self.settle_frozen_steps()
        self.count_traced_work()
        self.count_mapped_work()
        traced_ids = self.traced_functions()
        self.untaped_eager_steps(traced_ids)
        counter = runs_mod.FunctionRuns(self.all_calls_seen, self.links, traced_ids, self.served_functions(),
                                        self.unseen_hooks())
        calls = self.calls + self.uncounted_wrappers(counter)
        found = [(c.node, c.api, c.features, counter.site(c.func, c.local), c.work) for c in calls]
        # a host-work site that a loop repeats, through the calls of its function, is per-item work of that
        # loop's function, whose own call is the site (`host_site`)
        return [f for f in found if f[2].get("receiver") != hostwork.HOST or f[3].loop == 1]

    def served_functions(self) -> dict[int, str]:
        """The functions a web server runs once per request (served.py), by id: this module's route
        handlers, and its module-level functions a handler of a server beside it calls -> what runs them."""
        if self.tree is None:
            return {}
        handlers = {id(node) for node in served.handlers(self.tree)}
        beside = self.imports.served() if self.imports is not None else {}
        found = {}
        for info in self.functions:
            if id(info.node) in handlers:
                found[id(info)] = f"the route handler `{info.node.name}`"
            elif info.parent is None and info.cls is None and getattr(info.node, "name", None) in beside:
                found[id(info)] = beside[info.node.name]
        return found

    def unseen_hooks(self) -> dict[int, str]:
        """The hooks of the file's Keras callback classes that no `fit` seen is given, by id -> who calls them
        (handed.unseen_hook): their class given to a fit of another module, or one greenlint cannot follow."""
        found = {}
        for info in self.functions:
            cls = info.cls
            if info.kind != "method" or cls is None or getattr(info.node, "name", None) not in handed.HOOKS \
                    or any(place is not None and place.via for _, place, _ in info.callers):
                continue
            base = self.tf_base(cls)
            sym = self.table.cat.symbol(base) if base else None
            if sym is not None and (sym.name == handed.CALLBACK or handed.CALLBACK in sym.bases):
                found[id(info)] = handed.unseen_hook(info.node.name, cls.name)
        return found

    def count_traced_work(self) -> None:
        """Each call of a tf.function carries the work of the model calls its body (and the
        functions nested in it) runs; those calls become `symbolic`, counted at the calls."""
        kept = {id(c) for c in self.calls}
        calls_of: dict[int, tuple[FuncInfo, list[Found]]] = {}
        for found, info in self.traced_calls:
            if id(found) in kept:
                calls_of.setdefault(id(info), (info, []))[1].append(found)
        for info, calls in calls_of.values():
            inside, reached = self.body_functions(info), self.body_functions(info, shared=True)
            body = [c for c in self.calls if c.func is not None and id(c.func) in reached
                    and "step" in c.work and "symbolic" not in c.work]

            def here(caller: FuncInfo | None, reached: set[int] = reached) -> bool:
                return caller is not None and id(caller) in reached

            # a helper's model call is a training step here only through a tape this function opens
            steps = [traced.BodyStep(c.node.lineno, c.work if self.step_taped(c, here) else _untaped(c.work),
                                     self.step_models.get(c.node, id(c.node)), c.local.runs.count) for c in body]
            work = traced.call_work(steps)
            if not work:
                continue
            for call in calls:
                call.work.update(work)
            name = getattr(info.node, "name", "lambda")
            symbolic = traced.counted_at(name, [call.node.lineno for call in calls])
            for c in body:
                if id(c.func) in inside:  # a helper also called eagerly keeps its eager runs' figure
                    c.work["symbolic"] = symbolic

    def settle_frozen_steps(self) -> None:
        """A custom training step trains what it was walked training where that is still so once the
        module is walked, and a tf.function traces it (trainable.py); elsewhere its whole backward pass
        is priced (what its optimizer updates kept where known), and for every training call where the
        module may run functions eagerly (`tf.config.run_functions_eagerly`, not given a literal False:
        fit's step too runs eagerly)."""
        for work, meta, func, states in self.frozen_steps:
            if trainable.taped(meta, id(func), self.first_run(func)) != states:
                work.pop("trainable_params", None)
                work.pop("backward_flops_per_sample", None)
            elif not _traced(func):  # (what its optimizer updates is known)
                work.pop("backward_flops_per_sample", None)
        if any(c.api in RUN_EAGERLY and c.features.get("run_eagerly") is not False for c in self.calls):
            for c in self.calls:
                c.work.pop("backward_flops_per_sample", None)

    def count_mapped_work(self) -> None:
        """A model method fed a pipeline whose `map` runs TF work gets the calls of those functions per
        element and per batch (mapped.py): their work is spent where the pipeline is iterated."""
        for c in self.calls:
            if c.mapped:
                c.work.update(mapped.map_work(c.mapped, self.runs_tf_work))

    def graph_helper(self) -> bool:
        """This module only builds graphs that other modules beside it run (`Imports.in_graph_program`),
        asked only of a module making no graph input itself."""
        return not self.exporting and self.imports is not None and bool(self.calls) \
            and not any(c.api in TF1_GRAPH for c in self.calls) and self.imports.in_graph_program()

    def runs_tf_work(self, info: FuncInfo) -> bool:
        """Whether a call of *info* runs a TF call that does tensor work (its body or a function it calls)."""
        reached = self.body_functions(info, shared=True)
        return any(c.func is not None and id(c.func) in reached and self.table.cat.kind(c.api) not in NO_WORK_KINDS
                   for c in self.calls)

    def untaped_eager_steps(self, traced_ids: set[int]) -> None:
        """A model call in a helper taped only where a tf.function traces it (`compute_loss` called in a
        `@tf.function` training step and eagerly to evaluate): its traced calls are counted in the
        tf.function's step (`count_traced_work`), and its own runs, the eager ones, open no tape: an
        inference step, not a training one."""
        def eager(caller: FuncInfo | None) -> bool:
            return caller is None or id(caller) not in traced_ids

        for c in self.calls:
            if "symbolic" not in c.work and not self.step_taped(c, eager):
                c.work["step"] = work_mod.q("inference", work_mod.INFERRED, work_mod.UNTAPED_EAGER)

    def step_taped(self, call: Found, within: Callable[[FuncInfo | None], bool]) -> bool:
        """Whether *call*, a training step by its function's tape (a call of that function made under
        a tape), is one through a call *within* accepts: False only for such a step none of whose
        tapes is reached through an accepted call (a model call under a tape of its own body is one)."""
        step = call.work.get("step")
        if call.node not in self.inherited_steps or step is None or step.value != "training":
            return True
        return self.taped_through(call.func, within)

    def taped_through(self, info: FuncInfo | None, within: Callable[[FuncInfo | None], bool],
                      active: frozenset = frozenset()) -> bool:
        """Whether a call of *info* that *within* accepts is made under a tape: with a tape open at the
        call, or from a function itself taped so."""
        if info is None or id(info) in active:
            return False
        return any(within(caller) and (direct or self.taped_through(caller, within, active | {id(info)}))
                   for caller, direct in info.tape_callers)

    def body_functions(self, info: FuncInfo, shared: bool = False) -> set[int]:
        """Ids of the functions whose calls a call of *info* runs: *info*, those nested in it and
        those called only from these (a `compute_loss(model, x)` helper of a training step);
        *shared*: also those some of whose calls are elsewhere (the same helper, called eagerly to
        evaluate)."""
        inside = {id(info)} | {id(f) for f in self.functions if _nested_in(f, info)}  # a lambda is not among them
        return self.called_from(inside, shared)

    def called_from(self, inside: set[int], shared: bool = False) -> set[int]:
        """*inside* (ids of functions), grown by the functions called only from those in it (`body_functions`);
        *shared*: also those some of whose calls are elsewhere."""
        grown = True
        while grown:
            grown = False
            for f in self.functions:
                if id(f) in inside or not f.callers:
                    continue
                within = [caller is not None and id(caller) in inside for caller, _, _ in f.callers]
                if any(within) if shared else \
                        len(f.callers) == f.calls_seen and self.all_calls_seen(f) and all(within):
                    inside.add(id(f))
                    grown = True
        return inside

    def traced_functions(self) -> set[int]:
        """Ids of the functions whose Python runs only while a graph is traced: those a tf.function
        or a Keras training step runs (decorated, nested in one, or called only from these)."""
        found: set[int] = set()
        for info in self.functions:
            if id(info) not in found and (_traced(info) or _traced(info, "keras_step")):
                found |= self.body_functions(info)
        return found

    def walk_pending(self) -> None:
        while self.pending:
            info = self.pending.popleft()
            if info.state is Walk.PENDING and self.awaits_calls(info) and (
                    not info.deferred or info.deferred == 1 and info.kind == "function" and self.naming(info.node.name, info)):
                # put off once: its other callers may still be walked; twice where a function not walked yet calls
                # it, itself put off behind it (`test_net` calling `im_detect`, named in a docstring of the module)
                info.deferred += 1
                self.pending.append(info)
                continue
            self.walk_function(info)

    def awaits_calls(self, info: FuncInfo) -> bool:
        """Whether code names the function in places not yet walked (a call in another function
        pending after it: `w = Wrapper(model)` in `learn(env, network)`, which needs more arguments
        and so comes later in the queue); for a method, where its class's constructor does (what
        `self` holds is what the constructor was given: `__call__` reads `self._act`)."""
        if info.kind in ("method", "property") and info.cls is not None and info.node.name != "__init__":
            init = info.cls.find_method("__init__")
            if init is not None and init.state is Walk.PENDING and self.awaits_calls(init):
                return True
        if info.calls_seen:
            return not self.all_calls_seen(info)
        # the text's count: a name only a docstring mentions puts the walk off once, nothing more
        return not self.exporting and not isinstance(info.node, ast.Lambda) and self.other_references(info, 0, False) > 0

    def rewalk_blind(self) -> None:
        """Walk again the functions walked at their first call, before their other calls were
        seen (their parameters then unknown), now that every call is seen: `h = compile_and_fit(
        model, ...)` called 7 times at module level. Their first walk's calls are dropped (its
        return value, already used, is kept)."""
        for info in [f for f in self.functions if f.blind]:
            info.blind = False
            if info.state is not Walk.DONE or not self.all_calls_seen(info) or not info.passed:
                continue
            gone = {id(f) for f in self.functions if _nested_in(f, info)}
            self.calls = [c for c in self.calls if c.func is None or id(c.func) not in gone]
            self.drives = [d for d in self.drives if d[4] is None or id(d[4]) not in gone]
            for other in self.functions:
                kept = [c for c in other.callers if c[0] is None or id(c[0]) not in gone]
                if len(kept) != len(other.callers):
                    other.callers = kept
                    other.calls_seen = len(kept)
                    other.passed = merged_bindings([bound for _, _, bound in kept]) if kept else None
            returns = info.returns
            info.state = Walk.PENDING
            self.walk_function(info)
            info.returns = returns
            self.walk_pending()

    # -- statements ------------------------------------------------------------------------
    def block(self, body: list[ast.stmt]) -> None:
        handlers, checkpoint = _STMT, self.checkpoint
        for i, node in enumerate(body):
            if checkpoint is not None:
                checkpoint()
            handler = handlers.get(type(node))
            if handler is not None:
                handler(self, node)
                if self.ctx.ended:
                    if not self.instance and i + 1 < len(body):
                        self.untaken(body[i + 1:])
                    return

    def public_api(self) -> bool:
        """Whether the code walked is a public function or method of a package's module (a library's API:
        callers outside the project may give its parameters other values than the project's calls)."""
        func = self.ctx.func
        name = getattr(func.node, "name", "_") if func is not None else "_"
        if self.file is None or name.startswith("_") and name != "__init__" or func is not None and func.cls is not None \
                and func.cls.name.startswith("_"):
            return False
        return os.path.isfile(os.path.join(os.path.dirname(os.path.abspath(self.file)), "__init__.py"))

    def untaken(self, body: list[ast.stmt], unreached: bool = False) -> None:
        """Code a known test keeps from running (`s_if`, `tf_has`; what follows a taken branch that
        returns or raises): its call sites are the program's all the same (walked as under a
        branch), its bindings and returns dropped; *unreached*: the test's value is the code's own (a
        literal, a constant, what every call gives a parameter; not an option's default, which a
        command line changes, nor a parameter of a library's API, `public_api`), so its sites say they
        never run as the program stands (`unreached`)."""
        ctx = self.ctx
        names, returns, ended = dict(self.scope.names), len(ctx.returns), ctx.ended
        ctx.ended = False
        ctx.unreached += unreached
        try:
            self.guarded(self.block, body)
        finally:
            ctx.unreached -= unreached
        del ctx.returns[returns:]
        self.scope.names, ctx.ended = names, ended

    def s_expr(self, node: ast.Expr) -> None:
        self.discard = node.value  # a call whose value is thrown away
        self.expr(node.value)

    def s_assign(self, node: ast.Assign) -> None:
        value = self.expr(node.value)
        func = self.ctx.func
        if func is not None and type(func.node) in (ast.FunctionDef, ast.AsyncFunctionDef) \
                and id(node) in self.updates_built(func.node):  # `self.train_op = tf.group(*updates)`
            value = handwritten.as_updates(value, (0,), node.lineno, False, self.ctx.gradients, self.built_in)
        for target in node.targets:
            self.assign(target, value)

    def s_annassign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            value = self.expr(node.value)
            if value is None:  # `model: keras.Model = load()`: the declared type
                value = self.annotated(node.annotation)
            self.assign(node.target, value)
        elif type(node.target) is not ast.Name:
            self.assign_side_effects(node.target)
        elif self.scope.kind == "class":  # a declared field (dataclasses, attrs): `model: keras.Model`
            self.bind(node.target.id, self.annotated(node.annotation))

    def s_augassign(self, node: ast.AugAssign) -> None:
        right = self.expr(node.value)
        target = node.target
        if type(target) is ast.Name:
            scope = self.scope.target(target.id)
            left = self.name(target.id)
            scope.names[target.id] = self.operated(node, node.op, left, right)
        elif type(target) is ast.Attribute:
            owner = self.expr(target.value)
            # `a.lr *= 0.1`; `self.n_batches += k`: the attribute's other value, merged with its first (`assign`)
            if type(owner) in (UserInst, UserClass):
                self.set_attribute(owner, target.attr, self.operated(node, node.op, self.attribute(owner, target.attr), right))
            elif self.reassigned and type(owner) is Parsed:
                self.assign(target, self.operated(node, node.op, self.expr(target), right))
        else:
            self.assign_side_effects(target)

    def s_for(self, node: ast.For) -> None:
        count, trips, upper, value = self.loop_trips(node.iter)
        self.pieces_looped(value)
        counted, resumed = self.iter_option, self.iter_resumed
        before = dict(self.scope.names)
        items = unroll.literal_items(value, unroll.enumerated(node.iter, self.scope.lookup("enumerate")[0])) \
            if len(self.unrolling) < unroll.MAX_DEPTH else None
        held = before if items is None else {  # `self.model` of `self.model.add(...)`: read for a literal loop alone
            **before, **{name: self.expr(attr) for name, attr in unroll.added_attributes(node).items()}}
        if items is not None and not unroll.unrollable(node, held, work_mod.is_model, items):
            items = None
        models = unroll.models_added_to(node, held, work_mod.is_model) if items is not None else []
        target = node.target
        self.ctx.drawn.extend(self.drawn_per_yield(node, value))
        batch = arrays.drawn(value, node.lineno)
        if type(target) is ast.Name:  # (`for model in [GAN, WGAN]`: one of the classes or functions, `Choice`)
            picked = union(list(value.items)) if type(value) is Seq and all(
                type(item) in (UserClass, ExtClass, UserFunc, ExtFunc) for item in value.items) else None
            self.assign(target, mapped.drawn_from(arrays.element(value), value, node) or batch or picked)
        else:
            parts = len(target.elts) if isinstance(target, (ast.Tuple, ast.List)) else 0
            parted = Seq((batch,) * parts) if batch is not None else None  # each part comes of the decoding
            split = arrays.batch_parts(value, parts) if parts > 1 else None
            if split is not None:  # the first part carries the pipeline's maps (one batch's calls of them)
                split = Seq((mapped.drawn_from(split.items[0], value, node), *split.items[1:]))
            self.assign(target, (split or parted) if parts > 1 else None)
        self.layers_set(node)
        self.loop_body(node, count, trips, upper, counted, resumed)
        if items is None:
            for model, _ in unroll.models_added_to(node, held, work_mod.is_model):
                model.meta["n_layers"] = None  # its trips not walked one by one: the layers they add unknown
            # `h = conv(h)` each trip: the tensor after it is one of the graphs, their floor (symjoin.py)
            self.scope.names = merge_names([before, self.scope.names], None, symjoin.looped)
        else:  # a graph built trip by trip: the names after the loop are its last trip's (unroll.py)
            for model, meta in models:
                model.meta.clear()
                model.meta.update(meta)
            self.unroll(node, items, before, count, trips, upper)
        self.block(node.orelse)

    def layers_set(self, node: ast.For) -> None:
        """`for layer in model.layers[:-4]: layer.trainable = False`: those layers' state (trainable.py),
        None where the loop sets it under a condition, to a value not a literal, or on layers not listed."""
        found = trainable.loop_sets(node)
        if found is None:
            return
        holder, bounds, state = found
        model = self.expr(holder)
        if not work_mod.is_model(model):
            return
        listed = trainable.listed_layers(model, bounds)
        for meta in listed if listed is not None else [model.meta]:
            trainable.set_trainable(meta, state if listed is not None and not self.ctx.branches else None,
                                    id(self.ctx.func), node.lineno)

    def unroll(self, node: ast.For, items: list, before: dict, count: int | None, trips: int | None,
               upper: bool) -> None:
        """Walk a loop's body once per item of its literal iterable, for the values only (`shadowed`),
        from the bindings *before* it: each trip adds its layers to the graph."""
        self.scope.names = dict(before)
        self.unrolling.add(id(node))
        try:
            for item in items:
                with self.shadowed():  # a walk each: each trip's layer calls are keyed apart
                    self.assign(node.target, item)
                    self.loop_body(node, count, trips, upper)
        finally:
            self.unrolling.discard(id(node))

    def s_while(self, node: ast.While) -> None:
        trips, upper, counted = self.while_trips(node)
        resumed = False
        if trips is None and (session := global_step.session_of(node.test)) is not None and not _skips(node.body):
            trips, resumed, counted = self.stepped_trips(node, session)
            upper = trips is not None
        elif trips is None and not _skips(node.body) and (found := self.counter_trips(node)) is not None:
            trips, counted = found
            upper = resumed = True
        self.expr(node.test)
        before = dict(self.scope.names)
        self.loop_body(node, None if upper else trips, trips, upper, counted, resumed)
        self.scope.names = merge_names([before, self.scope.names], None, symjoin.looped)
        self.block(node.orelse)

    def while_trips(self, node: ast.While) -> tuple[int | None, bool, str]:
        """A counted `while step < n:` whose body adds a positive literal to `step` once per trip, at
        its top level, and binds it nowhere else: (its trips, at most those where the test has other
        conditions `and`-ed to it, the command-line option *n* defaults to); (None, False, "") else."""
        test, upper = node.test, False
        if type(test) is ast.BoolOp and type(test.op) is ast.And:
            test, upper = next((v for v in test.values if type(v) is ast.Compare), test), True
        if type(test) is not ast.Compare or len(test.ops) != 1 or type(test.left) is not ast.Name \
                or type(test.ops[0]) not in (ast.Lt, ast.LtE, ast.NotEq) or _calls_beyond_sizes(test.comparators[0]):
            return None, False, ""
        name = test.left.id
        steps = [stmt.value.value for stmt in node.body if type(stmt) is ast.AugAssign and type(stmt.op) is ast.Add
                 and type(stmt.target) is ast.Name and stmt.target.id == name and type(stmt.value) is ast.Constant
                 and type(stmt.value.value) is int and stmt.value.value > 0]
        stores = sum(type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Store for n in trees.walk(node))
        if len(steps) != 1 or stores != 1 or _skips(node.body):
            return None, False, ""
        start, bound = self.scope.lookup(name)[1], self.expr(test.comparators[0])
        if type(start) is not Const or type(bound) is not Const or type(start.value) is not int \
                or type(bound.value) is not int:
            return None, False, ""
        span, step = bound.value - start.value, steps[0]
        if type(test.ops[0]) is ast.NotEq and (span < 0 or span % step):
            return None, False, ""  # never equal: it runs until something else stops it
        trips = max(0, span // step + 1 if type(test.ops[0]) is ast.LtE else -(-span // step))
        return trips, upper, bound.option or ""

    def stepped_trips(self, node: ast.While, session: str) -> tuple[int | None, bool, str]:
        """`while not sess.should_stop():` over a monitored session stopped at a global step (global_step.py):
        at most its hook's steps where a run at the body's top level moves the step, whether the loop
        resumes at a checkpoint's step, and the options whose defaults count them; None where not known."""
        runs = global_step.session_runs(node.body, session)
        steps = [global_step.stepping(graphrun.fetched(self.fetched_now(call))) for call, _ in runs]
        return global_step.loop_trips(self.scope.lookup(session)[1], steps, [top for _, top in runs])

    def counter_trips(self, node: ast.While) -> tuple[int, str] | None:
        """`while step < n:` whose body binds `step`, once, at its top level, from a session run of a global
        step starting at 0 that a run at its top level moves (global_step.py): at most n + 1 trips (a
        checkpoint's step may be where it starts), and the option *n* defaults to; None otherwise."""
        test = node.test
        if type(test) is ast.BoolOp and type(test.op) is ast.And:
            test = next((v for v in test.values if type(v) is ast.Compare), test)
        if type(test) is not ast.Compare or len(test.ops) != 1 or type(test.left) is not ast.Name \
                or type(test.ops[0]) not in (ast.Lt, ast.LtE) or _calls_beyond_sizes(test.comparators[0]):
            return None
        name = test.left.id
        read = global_step.read_into(node.body, name)
        stores = sum(type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Store for n in trees.walk(node))
        if read is None or stores != 1:
            return None
        call, at, session = read
        fetches = self.fetched_now(call)
        step = fetches if at is None else fetches.items[at] if type(fetches) is Seq else None
        if not global_step.starts_at_zero(step):
            return None
        runs = global_step.session_runs(node.body, session)
        if not any(top and global_step.stepping(graphrun.fetched(self.fetched_now(call)), step) for call, top in runs):
            return None
        bound = self.expr(test.comparators[0])
        trips = global_step.counter_trips(bound, type(test.ops[0]) is ast.LtE)
        return None if trips is None else (trips, bound.option or "")

    def fetched_now(self, call: ast.Call) -> Any:
        """The fetches of a session run not yet walked, read without walking it: names, attributes of
        instances of user classes, and lists, tuples and dicts of them (None for anything else)."""
        fetches = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "fetches"), None)
        return self.read_now(fetches)

    def read_now(self, node: ast.expr | None) -> Any:
        """The value of *node* as `fetched_now` reads it, walking nothing."""
        if type(node) is ast.Name:
            return self.scope.lookup(node.id)[1]
        if type(node) is ast.Attribute and type(owner := self.read_now(node.value)) is UserInst:
            return self.attribute(owner, node.attr)
        if isinstance(node, (ast.List, ast.Tuple)):
            return Seq(tuple(self.read_now(item) for item in node.elts))
        if isinstance(node, ast.Dict):
            return Seq(tuple(self.read_now(item) for item in node.values))
        return None

    def loop_body(self, node: ast.For | ast.While, count: int | None, trips: int | None, upper: bool,
                  counted: str = "", resumed: bool = False) -> None:
        """*count*: the literal trip count (features); *trips*: what `runs` counts (a data set's
        known length too), at most that many when *upper*; *counted*: the command-line option whose
        default they are, else ""; *resumed*: at most that many because the loop resumes a count."""
        ctx = self.ctx
        exits = _leaves_early(node.body) or upper and not resumed
        always = any(type(stmt) in _EXITS for stmt in node.body)  # never multiply past a `break`
        ctx.loops.append(count)
        ctx.trips.append(min(trips, 1) if always and trips is not None else 1 if always else trips)
        ctx.counted.append(counted if ctx.trips[-1] != 1 else "")
        ctx.varying.append(self.loop_varying(node) if ctx.trips[-1] != 1 else None)
        ctx.rebound.append(node)
        ctx.exits += exits
        ctx.resumes += resumed
        outer, self.decoded = self.decoded, None  # the decodes of this body (`fill_list`), not of the code around it
        self.block(node.body)
        self.decoded = outer
        if not self.instance:
            ctx.ended = False  # (a loop may run no trip: what follows it runs)
        ctx.rebound.pop()
        ctx.exits -= exits
        ctx.resumes -= resumed
        ctx.varying.pop()
        ctx.counted.pop()
        ctx.trips.pop()
        ctx.loops.pop()

    def loop_varying(self, node: ast.For | ast.While) -> frozenset:
        """The names a `for` loop's iterations differ in (flow.varying); a `while` loop: the
        names its body binds afresh, and those assigned from them."""
        found = self.flows.get(node)
        if found is None:
            target = node.target if type(node) is not ast.While else None
            found = self.flows[node] = flow.varying(target, node.body)
        return found

    def loop_binds(self, node: ast.For | ast.While | ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset:
        """The names a loop's (or function's) body binds (flow.assignments): a test reading one may
        change between trips."""
        found = self.loop_bound.get(node)
        if found is None:
            found = self.loop_bound[node] = frozenset().union(*(bound for bound, _, _ in flow.assignments(node.body)))
        return found

    def chosen_by(self, option: str, branches: list[ast.stmt]) -> None:
        """The literals held by the names either branch of an `if` on the default of the command-line
        option *option* binds (*branches*: their statements): that option's, as the other value
        would hold with another option, so a figure priced from one names it."""
        names = self.scope.names
        for bound, _, _ in flow.assignments(branches):
            for name in bound:
                value = names.get(name)
                if type(value) is Const and value is not OPAQUE and not value.option:
                    names[name] = Const(value.value, option)

    def fixed(self, test: ast.expr, counted: bool = True) -> bool:
        """Whether a test's known value holds each time it runs: not a step counter's (`step % k == 0`,
        `divisor`; unless not *counted*: in a walk for one call's values, its parameters that call's),
        reading no instance state (`self.t`, which the object's methods may change between calls) and no
        name an enclosing loop binds (`first = False` on the first trip)."""
        read = flow.names(test)
        return (not counted or runs_mod.period(test) is None) and "self" not in read \
            and not any(read & self.loop_binds(loop) for loop in self.ctx.rebound)

    def s_if(self, node: ast.If) -> None:
        """A test of a known constant (`if USE_BN:` of `USE_BN = False`, a parameter every caller
        gives the same literal, `if args.small:` of an option's default) takes one branch: its
        bindings hold and, where it ends in a `return` or `raise`, nothing after it runs for that
        value (a function, `if map_fn:` given one, is true). The other branch and what follows such a
        return stay the program's code: their call sites are listed (walked as under a branch), their
        bindings dropped; a walk for one call's values only (`instantiated`) drops its sites anyway and
        walks the taken branch alone. An option's default (`Const.option`) is taken as any constant:
        the figures follow the default run, as elsewhere, and the literals of the names either branch
        binds are that option's (`chosen_by`), so a figure priced from one names it in its basis. A test
        whose value may change between trips or calls (`fixed`) merges both branches, as a test not known."""
        test = self.expr(node.test)
        if type(test) in (UserFunc, ExtFunc):  # `if map_fn:` given a function: a function is true
            test = Const(True)
        # a walk for one call's values (`instance`): its parameters are that call's, a test of them
        # (`if (kernel - stride) % 2 == 0:`, a period's form but no counter) holds for the call
        if type(test) is Const and test is not OPAQUE and self.fixed(node.test, counted=not self.instance):
            taken, other = (node.body, node.orelse) if test.value else (node.orelse, node.body)
            if not self.instance and other:
                self.untaken(other, unreached=not test.option and not self.public_api())
            self.block(taken)
            if test.option:
                self.chosen_by(test.option, [*node.body, *node.orelse])
            self.ctx.ended = self.ctx.ended or bool(taken) and isinstance(taken[-1], (ast.Return, ast.Raise))
            return
        has = self.tf_has(node.test)
        if has is not None:  # `if "concat_v2" in dir(tf):` the bindings of the branch the catalog's TF takes
            self.untaken(node.orelse if has else node.body)
            self.block(node.body if has else node.orelse)
            return
        kept = hostwork.kept_by_key(node, self.ctx.func.node if self.ctx.func is not None else self.tree, bool(self.ctx.loops))
        self.ctx.kept += kept
        try:
            self.branched(node)
        finally:
            self.ctx.kept -= kept

    def branched(self, node: ast.If) -> None:
        """`s_if` of a test whose value is not known: both branches walked as guarded."""
        before = dict(self.scope.names)
        tested = _none_tested(node.test)  # most tests are not `x is None`: no defaults to look at
        unless = frozenset(tested & _none_defaults(self.ctx.func)) if tested else frozenset()
        results = self.guarded(self.branches, [node.body, node.orelse], self.divisor(node.test), unless)
        for name in unless:
            # `def predict(model=None): if model is None: model = load()`: what the model is when
            # the caller gives one is not known here; the value the function gives it is
            if self.scope.names.get(name) is None and before.get(name) is None:
                self.scope.names[name] = results[0].get(name)

    def guarded(self, walk, *args) -> Any:
        """Walk code that runs only on some iterations of an enclosing loop (if one encloses it)."""
        ctx = self.ctx
        inside = 1 if ctx.loops else 0
        ctx.guards += inside
        ctx.branches += 1
        result = walk(*args)
        ctx.branches -= 1
        ctx.guards -= inside
        return result

    def divisor(self, test: ast.expr) -> runs_mod.Period | None:
        """The `Period` of a test `<expr> % k == 0` (`runs.period`): the innermost enclosing loop
        whose variable *expr* names, else the innermost loop (a step counter); None for other
        tests. k a name or attribute: the value it holds, where known, else the default of the
        command-line option it reads (`args.display_step`, `FLAGS.display_step`)."""
        found = runs_mod.period(test)
        if found is None:
            return None
        held, read, extra = found
        option = ""
        if isinstance(held, int):
            k = held
        else:  # `epoch % save_interval == 0`: the value the name holds, where known
            value = self.expr(held)
            option = value.option if type(value) is Const else ""
            if type(value) is not Const and type(held) is ast.Attribute:
                option = held.attr
                value = self.option_default(option)
            if type(value) is not Const or type(value.value) is not int or value.value < 2:
                return None
            k = value.value
        varying = self.ctx.varying
        for depth in range(len(varying), 0, -1):
            if varying[depth - 1] and varying[depth - 1] & read:
                return runs_mod.Period(depth, k, extra, option)
        return runs_mod.Period(len(varying), k, extra, option)

    def defines_option(self, attr: str) -> bool:
        """Whether the module defines a command-line option read as *attr* (`option_default`'s)."""
        self.option_default(attr)
        return attr in (self.option_defaults or {})

    def forwards_option(self, func: ast.expr) -> bool:
        """Whether *func*, a module-level name or a member of a module it names (`py.arg`), is a function
        of the program that passes its arguments on to argparse's `add_argument` (`options.forwards_option`)."""
        names = self.scope.module().names
        if type(func) is ast.Name:
            value = names.get(func.id)
        elif type(func) is ast.Attribute and type(func.value) is ast.Name and type(names.get(func.value.id)) is ExtModule \
                and self.imports is not None:
            value = self.imports.member(names[func.value.id], func.attr)
        else:
            return False
        node = value.info.node if type(value) is UserFunc else value.code[0] if type(value) is ExtFunc and value.code else None
        return options.forwards_option(node)

    def option_default(self, attr: str) -> Const | None:
        """The literal default of the one command-line option of the module read as *attr*
        (`options.defaults`; a default given as a module constant, the constant's value)."""
        if self.option_defaults is None:
            calls = [n for n in trees.walk(self.tree) if type(n) is ast.Call] if self.tree else []
            forwarders = frozenset(options.last_name(c.func) for c in calls if options.option_like(c) and self.forwards_option(c.func))
            self.option_defaults = options.defaults(calls, forwarders)
            self.forwarded = frozenset(options.defaults((c for c in calls if options.last_name(c.func) in forwarders), forwarders))
        found = self.option_defaults.get(attr)
        if type(found) is ast.Constant:
            return Const(found.value)
        if type(found) is ast.Name:
            value = self.scope.module().names.get(found.id)
            return value if type(value) is Const else None
        return None

    def branches(self, bodies: list[list[ast.stmt]], divisor: runs_mod.Period | None = None,
                 unless: frozenset[str] = frozenset()) -> list[dict]:
        """Walk alternative bodies from the same bindings, then merge what each left (returned:
        the bindings each left); the first runs on 1 in k trips of the loop at a depth when
        *divisor* is given, and only while the parameters *unless* are None."""
        before = dict(self.scope.names)
        results = []
        ctx = self.ctx
        ended = []
        for i, body in enumerate(bodies):
            self.scope.names = dict(before)
            ctx.ended = False
            if divisor and i == 0:
                ctx.divisors.append(divisor)
            outer, ctx.unless = ctx.unless, ctx.unless | unless if i == 0 else ctx.unless
            self.block(body)
            ctx.unless = outer
            if divisor and i == 0:
                ctx.divisors.pop()
            results.append(self.scope.names)
            ended.append(ctx.ended)
        ctx.ended = all(ended)  # (every path returns or raises: nothing after them runs)
        # bound to instances of different classes: keep what they share
        self.scope.names = merge_names(results, self.joined, symjoin.either_path)  # `if y_dim: h = ... else: h = ...`
        return results

    def joined(self, values: list) -> Inst | Choice | None:
        """Instances of different TF classes joined at an `if`/`else` (a StringLookup on one path,
        an IntegerLookup on the other): an instance of their nearest common catalogued base class
        (here `keras.Layer`), so calls that base defines still resolve; different functions: one
        of them (`values.union`); else None."""
        batch = next((v for v in values if arrays.kept(v) is not None), None)
        if batch is not None:
            return batch  # decoded on the spot on one of the paths (`else: batch = [imread(f) for f in files]`)
        if not all(type(v) is Inst for v in values):
            return union(values)
        base = self.table.common_base([v.cls for v in values])
        return Inst(base, "join") if base else None

    def registry_model(self, items: tuple, results: list) -> Inst | None:
        """A table of constructors some of whose functions' returns are not known here (one whose
        module's summary cuts an import cycle: `pspnet_50` importing its builder inside itself): a
        Keras model of the others' common base when each constructor whose return is known builds
        one, so that `model_from_name[name](...)` still types the model; else None."""
        known = [result for result in results if result is not None]
        unknown = [item for item, result in zip(items, results) if result is None]
        if not known or not unknown or not all(type(item) in (UserFunc, ExtFunc) for item in unknown):
            return None
        model = self.joined(known) if len(known) > 1 else known[0]
        return model if type(model) is Inst and work_mod.is_model(model) else None

    def s_try(self, node: ast.Try) -> None:
        raises = bool(node.handlers) and any(self.lacks(statement) for statement in node.body)
        self.block(node.body)
        after_body = dict(self.scope.names)
        self.block(node.orelse)
        results = [] if raises else [self.scope.names]
        for handler in node.handlers:
            self.scope.names = dict(after_body)
            if handler.type is not None:
                self.expr(handler.type)
            if handler.name:
                self.scope.target(handler.name).names[handler.name] = None
            self.guarded(self.block, handler.body)
            if handler.name:
                self.scope.names.pop(handler.name, None)
            if raises or not self.never_raised(handler, node.body):
                results.append(self.scope.names)
        self.scope.names = merge_names(results)
        self.block(node.finalbody)

    def tf_has(self, test: ast.expr) -> bool | None:
        """Whether the catalog's TF has the attribute a test asks about (`"concat_v2" in dir(tf)`,
        `hasattr(tf, "concat_v2")`: TensorFlow 0.x's names); None for any other test."""
        if type(test) is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) in (ast.In, ast.NotIn) \
                and type(test.left) is ast.Constant and type(test.comparators[0]) is ast.Call \
                and trees.dotted(test.comparators[0].func) == ["dir"] and len(test.comparators[0].args) == 1:
            module, attr, negated = test.comparators[0].args[0], test.left.value, type(test.ops[0]) is ast.NotIn
        elif type(test) is ast.Call and trees.dotted(test.func) == ["hasattr"] and len(test.args) == 2 \
                and type(test.args[1]) is ast.Constant:
            module, attr, negated = test.args[0], test.args[1].value, False
        else:
            return None
        lacks = self.tf_lacks([*trees.dotted(module), attr]) if isinstance(attr, str) and trees.dotted(module) else None
        return None if lacks is None else lacks == negated

    def never_raised(self, handler: ast.ExceptHandler, body: list[ast.stmt]) -> bool:
        """An `except AttributeError:` that is TensorFlow 0.x's fallback (`tf.nn.deconv2d` where the
        body calls `tf.nn.conv2d_transpose`): its body reads a TF attribute the catalog's TF does not
        have and the `try`'s body none, so on that TF it never runs and the body's bindings hold (its
        sites are recorded all the same)."""
        if not (isinstance(handler.type, ast.Name) and handler.type.id == "AttributeError"):
            return False
        return self.missing_attribute(handler.body) and not self.missing_attribute(body)

    def missing_attribute(self, statements: list[ast.stmt]) -> bool:
        """*statements* read an attribute of a TF module the catalog's TF does not have."""
        return any(
            self.tf_lacks(trees.dotted(node)) is True
            for statement in statements
            for node in ast.walk(statement)
            if type(node) is ast.Attribute and type(node.ctx) is ast.Load
        )

    def lacks(self, statement: ast.stmt) -> bool:
        """An assignment of an attribute of a TF module that the catalog's TF does not have
        (`image_summary = tf.image_summary`, TensorFlow 0.x's name): it raises there, so in a
        `try` the handlers' bindings are the ones that hold (`tf.summary.image`)."""
        return isinstance(statement, ast.Assign) and self.tf_lacks(trees.dotted(statement.value)) is True

    def tf_lacks(self, names: list[str]) -> bool | None:
        """Whether the catalog's TF lacks the dotted name *names* (`["tf", "nn", "deconv2d"]`); None where
        it names no attribute of a TF module."""
        owner = self.name(names[0]) if len(names) > 1 else None
        if type(owner) is not Ref or owner.path.partition(".")[0] not in TF_ROOTS:
            return None
        sym = self.table.symbol(".".join((owner.path, *names[1:])))
        return sym is None or sym[1] == "unknown"

    def s_with(self, node: ast.With) -> None:
        tapes = dependencies = scopes = 0
        for item in node.items:
            value = self.expr(item.context_expr)
            if type(value) is Inst and value.cls == slim.ARG_SCOPE:  # the slim layers' defaults in its body
                self.arg_scopes.append(value.meta["scope"])
                scopes += 1
            if type(value) is Inst and value.cls == work_mod.GRADIENT_TAPE:  # a training step's forward pass
                self.ctx.tapes.append(value.meta)
                tapes += 1
            if type(value) is Inst and value.cls == graphrun.CONTROL_DEPENDENCIES:
                self.ctx.dependencies.append(value.meta)
                dependencies += 1
            if item.optional_vars is not None:
                self.assign(item.optional_vars, self.entered(value))
        self.block(node.body)
        del self.ctx.tapes[len(self.ctx.tapes) - tapes :]
        del self.ctx.dependencies[len(self.ctx.dependencies) - dependencies :]
        del self.arg_scopes[len(self.arg_scopes) - scopes :]

    def s_match(self, node) -> None:
        self.expr(node.subject)
        before = dict(self.scope.names)
        results = [before]
        for case in node.cases:
            self.scope.names = dict(before)
            self.bind_pattern_names(case.pattern)
            if case.guard is not None:
                self.expr(case.guard)
            self.guarded(self.block, case.body)
            results.append(self.scope.names)
        self.scope.names = merge_names(results)

    def bind_pattern_names(self, pattern) -> None:
        for sub in ast.walk(pattern):
            for attr in ("name", "rest"):
                name = getattr(sub, attr, None)
                if isinstance(name, str):
                    self.scope.target(name).names[name] = None

    def s_return(self, node: ast.Return) -> None:
        value = self.expr(node.value) if node.value is not None else Const(None)
        if type(value) is UserFunc and isinstance(value.info.node, ast.Lambda) and value.info.state is Walk.PENDING \
                and value.info.parent is self.ctx.func and self.ctx.func is not None:
            # `return lambda *a: f(*a)[0]` in one branch: its body sees that branch's names (`f`), not
            # the names merged over every branch that the end of the function would show it
            self.walk_function(value.info)
        func = self.ctx.func
        if func is not None and type(func.node) in (ast.FunctionDef, ast.AsyncFunctionDef):
            positions = self.updates_built(func.node).get(id(node))
            if positions:  # `return tf.group(*updates)` of variables written from their gradients
                value = handwritten.as_updates(
                    value, positions, node.lineno, type(node.value) is ast.Tuple, self.ctx.gradients, self.built_in
                )
        self.ctx.returns.append(value)

    def updates_built(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[int, tuple[int, ...]]:
        """`handwritten.updates_built(func)`, read once per function."""
        found = self.hand_updates.get(id(func))
        if found is None or found[0] is not func:
            if self.may_build_updates is None:
                self.may_build_updates = handwritten.may_build_updates(self.source)
            found = self.hand_updates[id(func)] = (func, handwritten.updates_built(func) if self.may_build_updates else {})
        return found[1]

    def s_raise(self, node: ast.Raise) -> None:
        if node.exc is not None:
            self.expr(node.exc)
        if node.cause is not None:
            self.expr(node.cause)

    def s_assert(self, node: ast.Assert) -> None:
        self.expr(node.test)
        if node.msg is not None:
            self.expr(node.msg)

    def s_delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            if type(target) is ast.Name:
                self.scope.target(target.id).names.pop(target.id, None)
            else:
                self.assign_side_effects(target)

    def s_global(self, node: ast.Global) -> None:
        self.scope.globals.update(node.names)

    def s_nonlocal(self, node: ast.Nonlocal) -> None:
        self.scope.nonlocals.update(node.names)

    def s_import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.tf_imported = self.tf_imported or alias.name.partition(".")[0] in _KERAS_ROOTS
            if alias.asname:
                self.bind(alias.asname, self.deferred(node, self.module_ref(alias.name)))
            else:
                root = alias.name.partition(".")[0]
                self.bind(root, self.deferred(node, self.module_ref(root)))

    def s_importfrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        root = "" if node.level else module.partition(".")[0]
        tf = root in TF_ROOTS
        self.tf_imported = self.tf_imported or root in _KERAS_ROOTS
        local = None if tf or self.imports is None else self.deferred(node, self.imports.module(module, node.level))
        for alias in node.names:
            if alias.name == "*":
                if tf:
                    self.scope.module().star_imports.append(self.canonical_path(module))
                elif local is not None:
                    for name in self.imports.exports(local) or {}:
                        if not name.startswith("_") and name.isidentifier():
                            self.bind(name, self.imports.member(local, name))
                    self.scope.module().star_imports.extend(self.imports.star_imports(local))
                continue
            if module in RANGE_MODULES and alias.name in RANGES:  # `from six.moves import xrange`: the builtin
                continue
            addons = root == kerasext.ADDONS and local is None and kerasext.addons_ref(f"{module}.{alias.name}")
            gan = root == tfgan.ROOT and local is None
            if tf or root in _FOLLOWED_ROOTS or addons or gan or agents.agent_path(f"{module}.{alias.name}") \
                    or local is None and root and self.library(root):
                value = self.module_ref(f"{module}.{alias.name}")
            else:
                value = self.imports.member(local, alias.name) if local is not None else None
            self.bind(alias.asname or alias.name, value)

    def deferred(self, node: ast.Import | ast.ImportFrom, module: Any) -> Any:
        """*module*, unless this walk makes a summary (`exporting`) and the statement is indented
        (in a function: it runs later) and imports a module of this one's import cycle: unknown
        then, so that summaries never wait on each other (project.py `Imports.exports`)."""
        if self.exporting and node.col_offset and type(module) is ExtModule and self.imports is not None \
                and module.file in self.imports.cycle:
            return None
        return module

    def module_ref(self, path: str) -> Ref | ExtModule | Foreign | None:
        """What `import path` gives: a TF module, a project module, or unknown."""
        root = path.partition(".")[0]
        if root in DATA_ROOTS or root in kerasext.ROOTS or root in hostwork.ROOTS or hostwork.holds(path):
            return Ref(path)
        if root in environments.ROOTS:  # `gym.make(...)`: an environment of known spaces
            return Ref(path)
        if agents.agent_path(path):  # keras-rl's `DQNAgent`: it steps the models it is given
            return Ref(path)
        if drivers.imported(path):  # `scipy.optimize.fmin_l_bfgs_b`: it calls the functions it is given
            return Ref(path)
        if root in progress.ROOTS:  # `tqdm(range(n))`: a bar iterates what it wraps (nothing else of theirs)
            return Ref(path) if progress.holds(path) else None
        if root in untyped.FOREIGN_ROOTS:
            return FOREIGN
        if root == kerasext.ADDONS and kerasext.addons_ref(path):  # `tfa.callbacks.TimeStopping`, unless the
            local = self.imports.module(path) if self.imports is not None else None  # project is Addons itself
            return local if local is not None else Ref(path)
        if root == slim_training.PACKAGE:  # `import tf_slim as slim`: its training and evaluation loops
            return Ref(path)
        if root == tfgan.ROOT:  # TF-GAN's training (tfgan.py), unless the project's own module (its examples)
            local = self.imports.module(path) if self.imports is not None else None
            return local if local is not None else Ref(path)
        if root in _BINDER_MODULES or root in builders.BAG_MODULES:  # `types.MethodType`, `functools.partial`,
            # `functools.reduce`, `easydict.EasyDict`, `types.SimpleNamespace` (nothing else of theirs)
            return Ref(path) if path == root or path in _BINDERS or path == builders.REDUCE \
                or path in builders.ATTRIBUTE_BAGS else None
        if root == "absl":  # `from absl import flags`: its `flags.FLAGS`, `app.run(main)` (nothing else of theirs)
            return Ref(path) if path in options.ABSL_PATHS or path in (entry_runners.ABSL_APP, entry_runners.ABSL_RUN) else None
        if root == downloads.PATH_MODULE:  # `pathlib.Path(get_file(...))` (nothing else of theirs)
            return Ref(path) if path == root or path in downloads.SAME_PATH else None
        if root == records.ROOT:  # `collections.namedtuple` (nothing else of theirs)
            return Ref(path) if path in (root, records.NAMEDTUPLE) else None
        if root == "importlib":  # `importlib.import_module(name)` of a known name (by_name.py; nothing else of theirs)
            return Ref(path) if path in by_name.IMPORTLIB_PATHS else None
        if root == "math":  # `math.ceil(x)` on a literal (`_MATH`; nothing else of theirs)
            return Ref(path) if path == root or path in _MATH else None
        if root not in TF_ROOTS:
            local = self.imports.module(path) if self.imports is not None else None
            return Ref(path) if local is None and self.library(root) else local
        return Ref(self.canonical_path(path))

    def module_named(self, name: str, node: ast.Call, args: list, keywords: list) -> ExtModule | None:
        """The project module a call of *name* (`importlib.import_module`, `__import__`) imports by a
        string the walk knows (by_name.py), marked with the command-line option whose default the string
        is; unknown otherwise, and, as `deferred` does, where this walk makes a summary and the module is
        of this one's import cycle."""
        path = by_name.imported_path(name, node, args, keywords, self.expr)
        if path is None or self.imports is None:
            return None
        module = self.imports.module(path.value)
        if module is None or self.exporting and module.file in self.imports.cycle:
            return None
        return ExtModule(module.file, module.directory, path.option) if path.option else module

    def library(self, root: str) -> bool:
        """Whether *root* is a library built on TF/Keras whose classes are read (libraries.py)."""
        return libraries.built_on_keras(root, self.file)

    def library_base(self, path: str) -> str | None:
        """The Keras base of the library class at *path* (libraries.py), None where unknown."""
        return libraries.base(path, self.file, self.table.cat)

    def canonical_path(self, path: str) -> str:
        """The catalog's name for an imported path, so `keras` and `tensorflow.keras` agree."""
        sym = self.table.symbol(path)
        return sym[0] if sym is not None and sym[1] != "unknown" else path

    # -- definitions -----------------------------------------------------------------------
    def s_functiondef(self, node: ast.FunctionDef) -> None:
        kind = "method" if self.scope.kind == "class" else "function"
        tf_function = False
        rebind = True
        inserted: tuple[str, ...] = ()
        for decorator in node.decorator_list:
            self.expr(decorator)
            target = decorator.func if type(decorator) is ast.Call else decorator
            if type(target) is ast.Name and not self.scope.lookup(target.id)[0]:
                if target.id in ("staticmethod", "classmethod", "property"):
                    kind = target.id
            elif type(target) is ast.Attribute and target.attr in ("setter", "deleter"):
                rebind = False
            value = self.expr(target) if type(target) in (ast.Name, ast.Attribute) else None
            if type(value) is Ref and (self.table.symbol(value.path) or ("",))[0] == TF_FUNCTION:
                tf_function = True
            elif type(value) is UserFunc and target is decorator and type(value.info.node) is ast.FunctionDef:
                inserted = inserted or decorated.inserted(value.info.node, node)
        args = node.args
        defaults = [self.expr(default) for default in args.defaults]
        kw_defaults = [self.expr(default) if default is not None else MISSING for default in args.kw_defaults]
        cls = self.scope.cls
        keras_step = self.ctx.keras_step or (
            cls is not None and node.name in KERAS_STEPS and (self.tf_base(cls) or "").startswith("tensorflow.keras.")
        )
        info = FuncInfo(
            node,
            self.scope,
            cls=cls,
            kind=kind,
            tf_function=tf_function,
            graph_function=tf_function,
            keras_step=keras_step,
            parent=self.ctx.func,
            defaults=defaults,
            kw_defaults=kw_defaults,
            inserted=inserted,
            sets_outer_names=any(type(stmt) in (ast.Global, ast.Nonlocal) for stmt in node.body),
        )
        self.functions.append(info)
        if rebind:
            self.bind(node.name, UserFunc(info))
            if cls is not None:
                cls.methods[node.name] = info
        self.pending.append(info)

    def s_classdef(self, node: ast.ClassDef) -> None:
        for decorator in node.decorator_list:
            self.expr(decorator)
        info = ClassInfo(node.name)
        for base in node.bases:
            value = self.expr(base)
            if type(value) is UserClass:
                info.user_bases.append(value.info)
                if info.tf_base is None and (base_of := self.tf_base(value.info)):
                    info.tf_base, info.forward = base_of, value.info.forward
            elif type(value) is ExtClass:
                info.ext_bases.append(value)
                info.tf_base = info.tf_base or value.tf_base
            elif type(value) is Ref and info.tf_base is None:
                sym = self.table.symbol(value.path)
                if sym is not None and sym[1] == "class":
                    info.tf_base = sym[0]
                elif sym is None and _keras_merge_base(value.path):  # Keras runs its `_merge_function` on a call
                    info.tf_base, info.forward = KERAS_LAYER, MERGE_FUNCTION
                elif sym is None and value.path.partition(".")[0] not in TF_ROOTS:  # a library's class
                    info.tf_base = self.library_base(value.path)
        for keyword in node.keywords:
            self.expr(keyword.value)
        with self.inside(Scope("class", self.scope, cls=info)) as body:
            self.block(node.body)
        for name, value in body.names.items():
            if type(value) is not UserFunc:
                info.attrs[name] = value
        for method in info.methods.values():
            for attr in _self_targets(method.node):
                info.assigners.setdefault(attr, []).append(method)
        self.bind(node.name, UserClass(info))

    @staticmethod
    def tf_base(info: ClassInfo) -> str | None:
        for klass in info.mro():
            if klass.tf_base:
                return klass.tf_base
        return None

    def walk_function(self, info: FuncInfo) -> None:
        """Walk a function body once, in its own scope, recording calls and its return value (not
        inside a walk for values only, `shadowed`, whose records are dropped: it waits for the ordinary walk)."""
        if info.state is not Walk.PENDING or self.instance:
            return
        self.gather_calls(info)
        info.state = Walk.WALKING
        node = info.node
        args = node.args
        params = [*args.posonlyargs, *args.args]
        passed = info.passed if info.passed is not None and self.all_calls_seen(info) else {}
        if not passed and not info.calls_seen:
            passed = self.passed_beside(info)
        config = (
            None
            if self.exporting or not params or not node.decorator_list
            else hydra_config.options(node.decorator_list, self.tree, self.file)
        )
        if config is not None:  # `@hydra.main(...)`: Hydra hands the first parameter its configuration
            passed = {**passed, params[0].arg: config}
        own = [*params, *args.kwonlyargs][1 if info.kind in ("method", "property", "classmethod") else 0 :]
        if not passed and info.calls_seen and (any(arg.annotation is None for arg in own) or self.read_rebound(info)):
            info.blind = True  # walked before all its calls were seen: see rewalk_blind
        scope = Scope("function", self.pinned(info, passed))
        self.seed_reassigned(scope)
        self.bind_parameters(info, scope, passed)
        ctx = WalkContext(info)
        with self.inside(scope, ctx):
            self.block(node.body)
        returns, generator = ctx.returns, ctx.generator
        info.returned = returns
        info.host, info.host_once = (None, None) if hostwork.memoised(node) else (ctx.host, ctx.host_once)
        value: Any
        if generator:
            value = _generated(ctx)
        elif returns:
            value = _returned(returns)
        else:
            value = Const(None)
        if (value is None or value is MISSING) and node.returns is not None:
            with self.inside(info.scope):
                value = self.annotated(node.returns) or value  # `def build() -> keras.Model:`
        info.returns = value
        info.state = Walk.DONE

    def passed_beside(self, info: FuncInfo) -> dict[str, Any]:
        """What the scripts beside this module pass a module-level function, or a module-level class's
        constructor or method, that this module never names (`constructed.Beside.calls`: `DCGAN(sess,
        batch_size=FLAGS.batch_size)`, `dcgan.train(FLAGS)` in main.py): each parameter the one value every such call gives it,
        its default where a call passes none; {} where no script calls it or one names it otherwise. Where
        the runs of those calls per run of the program are known (none in a loop: script_runs.py), they
        are its calls here, each once, as `note_call` notes a call of this module (its runs then counted)."""
        name = None if self.exporting else self.named_beside(info)
        if name is None:
            return {}
        method = "." in name  # (`DCGAN.train`; not its constructor `DCGAN`)
        called = self.imports.calls_beside(name)
        if not called and method:
            return self.heir_called(info)
        if not called or method and self.method_named(info):  # (the walk only where a script calls it)
            return {}
        made = self.made_beside
        bound = [self.bind_arguments(info, [(False, made(v)) for v in args], [(k, made(v)) for k, v in keywords.items()])
                 for args, keywords in called.arguments]
        passed = {name: value for name, value in bound[0].items() if all(b.get(name) == value for b in bound[1:])}
        if called.runs is not None:  # its calls there, none in a loop: its runs per run of the program
            runs = runs_mod.Local(1, runs_mod.UPPER if called.upper else runs_mod.EXACT)
            place = runs_mod.Place(runs, beside=", ".join(called.scripts))
            info.callers += [(None, place, passed)] * called.runs
            info.calls_seen += called.runs
            info.implicit_calls += called.runs  # (named nowhere here)
        return passed

    def named_beside(self, info: FuncInfo) -> str | None:
        """The name the scripts beside call *info* by (`constructed.Beside.calls`): a module-level function
        this module never names besides its definition (`train`), a module-level class's constructor
        likewise (`DCGAN`) or its method (`DCGAN.train`); None for anything else."""
        if self.imports is None or isinstance(info.node, ast.Lambda):
            return None
        cls = info.cls if info.kind == "method" else None
        init = cls is not None and info.node.name == "__init__"
        scope = info.scope.parent if cls is not None else info.scope
        if not (cls is not None or info.kind == "function") or scope is None or scope.kind != "module" \
                or (cls is None or init) and self.other_references(info, 0) > 0:
            return None
        return info.node.name if cls is None else cls.name if init else f"{cls.name}.{info.node.name}"

    def counted_beside(self, info: FuncInfo) -> str | None:
        """`named_beside`, where the scripts' calls of it are all a walk of this module counts of it
        (`passed_beside`: a method its module names too is not one): read for other modules
        (`ExtFunc.beside`), whose calls of it are then left to its sites where it counts them."""
        name = self.named_beside(info)
        if name is None or "." in name and self.method_named(info):
            return None
        return name

    def note_heir_call(self, node: ast.Call, cls: ClassInfo, attr: str) -> None:
        """A method's `self.m(...)` where no class of its own holds `m` (a base's `train` calling
        `self.run_epoch(...)`, which its subclasses define): kept with its runs per run of the method, for the
        subclasses of other modules (`ClassInfo.heir_calls`, `heir_called`)."""
        func = self.ctx.func
        if func is None or func.cls is not cls or func.kind != "method" or cls.find_method(attr) is not None \
                or cls.find_attr(attr)[0] or cls.ext_member(attr)[0]:
            return
        cls.heir_calls.setdefault(attr, {})[node] = (func.node.name, self.place(node, []).runs)

    def heir_called(self, info: FuncInfo) -> dict[str, Any]:
        """The calls of a method only a base class of another module calls on `self` (`ExtClass.heir_calls`:
        `BaseModel.train` calling `self.run_epoch(...)`, `run_epoch` defined in `NERModel(BaseModel)` here),
        as `passed_beside` notes the scripts' calls: each base method calling it runs as often as the scripts
        beside call it on this class (`model.train(...)` on a `NERModel`), times that call's runs in it; none
        where this class overrides such a method, or a script calls one where its runs are not known (its
        arguments are never known: {})."""
        cls, name = info.cls, info.node.name
        if cls is None or self.imports is None:
            return {}
        through = [(method, runs) for klass in cls.mro() for base in klass.ext_bases
                   for method, runs in base.heir_calls.get(name, ())]
        if not through or self.method_named(info):
            return {}
        places = []
        for method, runs in through:
            called = None if cls.find_method(method) is not None else self.imports.calls_beside(f"{cls.name}.{method}")
            if called is None or called.runs is None:
                return {}
            bound = runs_mod.UPPER if called.upper else runs_mod.EXACT
            beside = f"{', '.join(called.scripts)} through {method}"
            places += [runs_mod.Place(runs_mod.combine(runs, runs_mod.Local(1, bound)), beside=beside)] * called.runs
        info.callers += [(None, place, {}) for place in places]
        info.calls_seen += len(places)
        info.implicit_calls += len(places)
        return {}

    def made_beside(self, value: Any) -> Any:
        """An argument a script beside passes (`passed_beside`), a call's result (`constructed.Made`)
        made an instance where it is a Keras model, a TF1 session or a `tf.data` dataset: the API its
        callee resolves to, or what a function of the project it imports returns (`build_model(...)`),
        then each chained method's; of unknown size. Likewise a `tfds.builder(...)`, its name not known
        here (its `as_dataset()` with no arguments known: a dataset, `arrays.tfds_as_dataset`, where a
        method follows). A plain project class's construction (`Config()`) is the instance `Imports.held`
        makes of it. One of several calls (`constructed.MadeOneOf`): one of what each makes, where each is
        known (a `Choice`). Unknown for anything else."""
        if type(value) is constructed.MadeOneOf:
            made = [self.made_beside(item) for item in value.made]
            if any(item is None for item in made):
                return None
            items = tuple({id(item): item for item in made}.values())
            return items[0] if len(items) == 1 else Choice(items)
        if type(value) is not constructed.Made:
            return value
        methods = value.methods
        sym = self.table.symbol(value.path)
        cls = sym[2] if sym is not None else None
        if value.path == arrays.TFDS_BUILD:  # `tfds.builder(name)`, its name not known here
            if not methods:
                return Inst(arrays.TFDS_BUILDER, "factory")
            cls, methods = (DATASET, methods[1:]) if methods[0] == "as_dataset" and methods[1:] else (None, ())
        elif sym is None and self.imports is not None:
            function = self.imports.imported_beside(value.path)
            if type(function) is ExtClass and function.tf_base is None and not value.methods:
                return self.imports.held(function)  # `config = Config()`: its class attributes
            returned = function.returns if type(function) is ExtFunc else None
            cls = returned.cls if type(returned) is Inst else None
        for method in methods:
            api = self.table.method(cls, method) if cls is not None else None
            cls = self.table.returns(api) if api is not None else None
        if cls is None:
            return None
        found = self.table.cat.symbol(cls)
        kinds = (found.name, *found.bases) if found is not None else ()
        if work_mod.is_model(Inst(cls, "factory")) or _SESSION in kinds or DATASET in kinds:
            return Inst(cls, "constructor" if sym is not None and sym[1] == "class" and not value.methods else "factory")
        return None

    def method_named(self, info: FuncInfo) -> bool:
        """Whether this module names a method besides its definition (`constructed.names_method`),
        walked only where its text names it so."""
        if self.tree is None or self.other_references(info, 0, precise=False) <= 0:
            return False
        return constructed.names_method(self.tree, info.node.name)

    def gather_calls(self, info: FuncInfo) -> None:
        """Before a constructor is walked while code names its class in functions not walked yet,
        walk those first, so that the instantiations they make are seen and bind its parameters:
        `w = ActWrapper(act)` and `w(obs)` in `learn`, `ActWrapper(act)` again in its `load_act`,
        which comes later in the queue; `__call__` reads `self._act`, which `__init__` sets from its
        parameter. An instantiation's value is the instance whatever the constructor does, so they
        lose nothing by its walk coming later (a function's callers would: its return value).
        Such a function, itself named where not walked yet, is walked again once its calls are
        seen (`rewalk_blind`)."""
        if self.exporting or self.references is None or info.node.name != "__init__" or info.cls is None \
                or len(info.node.args.args) + len(info.node.args.kwonlyargs) < 2 or not self.awaits_calls(info):
            return  # (a constructor of `self` alone binds nothing)
        callers = self.naming(info.cls.name, info)
        if not callers:
            return
        info.state = Walk.WALKING
        try:
            for caller in callers:
                if caller.state is Walk.PENDING:
                    self.walk_function(caller)
                    caller.blind = caller.blind or self.awaits_calls(caller)
        finally:
            info.state = Walk.PENDING

    def naming(self, name: str, info: FuncInfo) -> list[FuncInfo]:
        """The functions not walked yet, *info* aside, whose lines call *name* (`Name(`), each line
        the innermost's (a nested function is walked apart from the one it is in)."""
        pending = [f for f in self.functions if f.state is Walk.PENDING and f is not info
                   and not isinstance(f.node, ast.Lambda)]
        if not pending:
            return []
        found: dict[int, FuncInfo] = {}
        for line in word_lines(self.source, name, called=True):
            inner = None
            for f in pending:
                if f.node.lineno <= line <= (f.node.end_lineno or f.node.lineno) and (
                        inner is None or f.node.lineno > inner.node.lineno):
                    inner = f
            if inner is not None:
                found[id(inner)] = inner
        return list(found.values())

    def bind_parameters(self, info: FuncInfo, scope: Scope, passed: dict) -> None:
        """A function's parameters in its *scope*: annotated types, else the values *passed*."""
        args = info.node.args
        params = [*args.posonlyargs, *args.args]
        first = params[0].arg if params else None
        with self.inside(info.scope):  # annotations are evaluated where the function is defined
            for arg in (*params, *args.kwonlyargs):
                value = self.annotated(arg.annotation)
                scope.names[arg.arg] = value if value is not None else passed.get(arg.arg)
        for arg in (args.vararg, args.kwarg):
            if arg is not None:
                scope.names[arg.arg] = passed.get(arg.arg)
        if info.cls is not None and first is not None:
            if info.kind in ("method", "property"):
                scope.names[first] = UserInst(info.cls)
            elif info.kind == "classmethod":
                scope.names[first] = UserClass(info.cls)

    @contextmanager
    def shadowed(self, foreign: tuple[FuncInfo, ...] = ()) -> Iterator[None]:
        """Walk code again for the values it makes only (unroll.py): what that walk records (call
        sites, calls of functions, functions defined, tf.function calls) is dropped afterwards, and its
        layer calls count their FLOPs apart from the other walks' (`self.instance`). The functions of
        another module's walk it may call (*foreign*, a `Template`'s) get their records back whole:
        other files share them."""
        calls, traced_calls, functions = len(self.calls), len(self.traced_calls), len(self.functions)
        seen = [(f, list(f.callers), f.calls_seen, f.passed) for f in self.functions]
        kept = [(f, {**vars(f), "callers": list(f.callers), "returned": list(f.returned),
                     "passed": dict(f.passed) if f.passed is not None else None}) for f in foreign]
        pending = list(self.pending)
        outer = self.instance
        self.instances += 1
        self.instance = self.instances
        try:
            yield
        finally:
            del self.calls[calls:], self.traced_calls[traced_calls:], self.functions[functions:]
            for f, callers, count, passed in seen:
                f.callers, f.calls_seen, f.passed = callers, count, passed
            for f, record in kept:
                vars(f).update(record)
            self.pending = deque(pending)
            self.instance = outer

    def instantiated(
        self, info: FuncInfo, args: list, keywords: list, value: Any, foreign: tuple[FuncInfo, ...] = (),
        defined: Scope | None = None,
    ) -> Any:
        """What a helper returns for this call's arguments (its ordinary walk's *value* being what it
        returns for all its calls merged) when one of them is a Keras symbolic tensor (`x = conv_block(x,
        64)`), or when it is a generator function whose batches' size that walk did not find
        (`generator(batch_size=16)`, in this module or another: *foreign*, a `Template`'s functions),
        or a function returning such a generator's call (`return data_generator(lines, batch_size)`),
        or when it is a formula (`_formula`) given literal numbers, whose merged return is not one
        (`conv_out_size_same(s_h, 2)`, a layer's side, called with several sizes),
        or when it is given an array or tensor of known shape and its merged return has none (the same
        `preprocess(images)` applied to the training and the test arrays; a TF1 queue's element of known
        static shape, queues.py), or when it builds a layer or
        composes callables from its arguments (`DarknetConv2D(64, (3, 3), strides=(2, 2))`, builders.py),
        or returns a closure (`closure_of`):
        its body walked again with them (`shadowed`; a closure's free names read from *defined*, the scope
        of the call that returned it), so that each call adds its own layers to the graph,
        yields its own batches, returns its own shape or builds its own layer; None where that does not
        apply (unroll.py)."""
        if self.exporting or info.kind not in ("function", "method", "staticmethod") or id(info) in self.unrolling \
                or len(self.unrolling) >= unroll.MAX_DEPTH or isinstance(info.node, ast.Lambda):
            return None
        if info.has_parameters and builders.returns_closure(info.node):
            return self.closure_of(info, args, keywords, value, foreign)
        unsized = arrays.unsized_generator(value)
        unpriced = work_mod.unpriced(value) and info.has_parameters
        given = [v for starred, v in args if not starred] + [v for name, v in keywords if name]
        symbolic = any(arrays.is_sym(v) or type(v) is Seq and any(map(arrays.is_sym, v.items)) for v in given)
        built = info.has_parameters and (type(value) is Composed or work_mod.is_layer(value) and value.how == "constructor")
        # a function making a pipeline its arguments size or batch (`make_dataset("mnist", 64)`, here or in another module)
        piped = not (unsized or unpriced or symbolic or built) and info.has_parameters \
            and arrays.unsized_dataset(value, unknown=info.pipes)
        unshaped = not (unsized or unpriced or symbolic or built or piped) and arrays.shape_of(value) is None \
            and any(arrays.shape_of(v) is not None for v in given)
        counted = not piped and (value is None or value is OPAQUE) and _formula(info.node) and bool(given) \
            and all(type(v) is Const and _is_number(v.value) for v in given)
        rowless = not (unsized or unpriced or symbolic or unshaped or built or piped or counted) \
            and arrays.rowless(value) and _sized(info, given)
        picked = (value is None or value is OPAQUE) and not (unsized or unpriced or symbolic or unshaped or built
                                                             or piped or counted or rowless) \
            and any(type(v) is Const and v is not OPAQUE for v in given) \
            and (_dispatches(info.node) or by_name.loads_by_name(info.node))
        static = not (unsized or unpriced or symbolic or unshaped or built or piped or counted or rowless or picked) \
            and queues.static_given(value, given)
        if not (unsized or unpriced or symbolic or unshaped or built or piped or counted or rowless or picked or static):
            return None
        ctx = self.walk_with(info, args, keywords, foreign, defined)
        if ctx.generator:
            made = _generated(ctx)
            return made if unsized and "data" in made.meta else None
        if not ctx.returns:
            return None
        value = _returned(ctx.returns)
        if unsized:  # a function returning a generator's call (`return data_generator(lines, batch_size)`)
            return value if type(value) is Inst and value.cls == arrays.PY_GENERATOR and arrays.drawn_data(value) else None
        if built and not (unsized or unpriced or symbolic):
            return value if type(value) is Composed or work_mod.is_layer(value) else None
        if unpriced and work_mod.unpriced(value, partly=False) \
                or unshaped and arrays.shape_of(value) is None and not queues.static(value):  # (given `(321, 321)`)
            return None
        if counted and not (unsized or unpriced or symbolic or unshaped or built):
            return value if type(value) is Const and value is not OPAQUE else None
        if rowless:  # `load_data(batch_size)`: the rows its body draws for this call's size
            return None if arrays.rowless(value) else value
        if picked:  # `get_norm_layer("batch_norm")`: what the branch this literal takes returns
            return None if value is OPAQUE else value
        if static:  # `transform(image)` of a queue's element: the static shape it returns for this one
            return value if queues.static(value) else None
        if piped:  # its pipeline for these arguments
            return value if type(value) is not Inst or not arrays.unsized_dataset(value) else None
        return value

    def closure_of(self, info: FuncInfo, args: list, keywords: list, value: Any,
                   foreign: tuple[FuncInfo, ...]) -> UserFunc | None:
        """The closure one call of *info* returns (`conv_block(3, [64, 64, 256], strides=(1, 1))`), its free
        names read from that call's walk (its arguments bound), so that applying it (`conv_block(...)(x)`, or
        `f = conv_block(...)` then `f(x)`) adds layers of those sizes: the function of the ordinary walk
        (*value*, where its calls are counted) with that walk's scope; another module's (an `ExtFunc` kept
        as a `Template`) with the walk's function as its template; None where the walk returns no one
        closure of *info* (`return f if deep else g`, the test unknown) or *value* is another module's
        closure kept as its summary alone."""
        ctx = self.walk_with(info, args, keywords, foreign)
        made = _returned(ctx.returns) if ctx.returns else None
        if type(made) is not UserFunc or made.info.parent is not info:
            return None
        closure = made.info
        if type(value) is UserFunc and value.info.node is closure.node:
            return UserFunc(value.info, closure.scope)
        template = value.template if type(value) is ExtFunc else None
        if value is not None and value is not MISSING and (template is None or template.info.node is not closure.node):
            return None  # (another module's closure only ever its summary: `ExtFunc.runs`, where it spends its work)
        closure.state = Walk.DONE  # walked again for each call's tensors only (`instantiated`), never on its own
        if template is None:  # (a walk for values only, *info* not walked yet: its records are dropped anyway)
            return UserFunc(closure)
        own = copy.copy(value)
        own.template = replace(template, info=closure)
        return own

    def mapped_static(self, data: arrays.Data, func: Any) -> arrays.Data | None:
        """The pipeline *data* after `map(func)` of a project function (not a lambda) or a method of an
        instance (`loader.load`, its class in another module: wrapped.py) that, walked again on one element
        (a tensor of no known shape: a file name, a record), returns a tensor of known static shape (decoded
        to stated channels, then resized or cropped to literal sides: queues.py): each element one tensor of
        that shape; None otherwise."""
        element = [(False, Inst("tensorflow.Tensor", "factory", {}))]
        if self.exporting:
            return None
        if type(func) is ExtFunc and func.bound is not None:
            value = wrapped.built(self, func.bound, element, [])
        elif type(func) is UserFunc and not isinstance(func.info.node, ast.Lambda) \
                and id(func.info) not in self.unrolling and len(self.unrolling) < unroll.MAX_DEPTH:
            with self.shadowed():
                ctx = self.walk_with(func.info, element, [], ())
            value = _returned(ctx.returns) if ctx.returns else None
        else:
            return None
        if type(value) is not Inst or not queues.static(value, whole=True):
            return None
        return replace(data, shape=value.meta[queues.STATIC_SHAPE], whole=True, parts=None)

    def another(self, info: FuncInfo, value: Any) -> Any:
        """A model a builder makes (`g_AB = build_generator()`, `g_BA = build_generator()`): the first
        call gets its walk's, each later call a fresh instance of it, so that two models built by one
        function are two in a graph holding both (their parameters counted twice); None otherwise (a
        function returning a model kept elsewhere, `return self._model`: the same one each call)."""
        if self.exporting or not work_mod.is_model(value) or value.how != "constructor" \
                or not builders.builds_afresh(info.node):
            return None
        if id(info) not in self.handed:
            self.handed.add(id(info))
            return None
        return fresh(value)

    def result_of(
        self, info: FuncInfo, args: list | None = None, keywords: list | None = None, node: ast.Call | None = None,
        repeat: runs_mod.Local | None = None,
    ) -> Any:
        """What calling a user function returns; a call with *args* also records its arguments (made
        *repeat* times per run of its place: a search's trials).

        A function not walked yet is walked now, unless the call's value is thrown away inside
        another function (`train_step(x)`): then the walk waits, so that more of its calls are
        seen. A recursive call (the body is being walked) adds nothing: the function's other
        returns decide."""
        if args is not None:
            self.note_call(info, args, keywords or [], node, repeat=repeat)
        if info.state is Walk.PENDING:
            if args is not None and self.discarded and self.ctx.func is not None and not info.sets_outer_names:
                return None
            self.walk_function(info)
        return info.returns if info.state is Walk.DONE else MISSING

    def generator_host(self, generator: Any) -> str | None:
        """The per-item host work of the generator function given to `Dataset.from_generator()` (of
        the file or a project module; walked now if it was not), where its loops show some."""
        if type(generator) is ExtFunc:  # a project module's: its walk there found the work
            made, host = generator.returns, generator.host
        elif type(generator) is UserFunc:
            made = self.result_of(generator.info)
            host = made.meta.get("host") if type(made) is Inst else None
        else:
            return None
        return host if type(made) is Inst and made.cls == arrays.PY_GENERATOR else None

    def bound_later(self, node: ast.Call, args: list, keywords: list) -> Bound | None:
        """`types.MethodType(train, model)`, `functools.partial(train, model, epochs=5)`: the
        arguments given are what *train*'s first parameters hold whenever it is called through
        the result, as at a call (counted among its calls, running an unknown number of times).
        Stored into attributes the module only calls (`model.train = types.MethodType(train, model)`,
        then `model.train(...)`: `called_through`), it runs where they are called: the attribute
        holds it bound (`Bound`), and the binding itself runs nothing."""
        if not args or args[0][0] or type(args[0][1]) is not UserFunc:
            return None
        info = args[0][1].info
        if info.kind != "function":
            return None
        through = self.called_through(node)
        self.note_call(info, args[1:], keywords, node, later=True, through=through)
        return Bound(args[0][1], tuple(args[1:]), tuple(keywords)) if through else None

    def called_through(self, stored: ast.Call) -> bool:
        """Whether *stored* (a binding) is stored into attributes of objects that the module
        reads nowhere but to call them, at least once (references.py `AttributeUses`)."""
        references = self.references
        attrs = references.stored_into(stored) if references is not None and not self.exporting else []
        uses = [references.attribute_uses(attr) for attr in dict.fromkeys(attrs)] if references is not None else []
        return bool(uses) and not any(use.reads for use in uses) and sum(use.calls for use in uses) > 0

    def entry_run(self, node: ast.Call, args: list, keywords: list) -> None:
        """`app.run(main)` (entry_runners.py): one call of *main* with the command line, here; TF1's `app.run()`
        with no function, one of the module's own `main` (named nowhere else, an implicit call)."""
        main = entry_runners.given_main(args, keywords)
        implicit = main is None
        if implicit:
            main = self.global_value(entry_runners.DEFAULT_MAIN)
        if type(main) is not UserFunc or main.info.kind != "function":
            return None
        info = main.info
        info.implicit_calls += implicit
        self.result_of(info, entry_runners.argv(len(_positional(info))), [], node)
        return None

    def note_call(
        self, info: FuncInfo, args: list, keywords: list, node: ast.Call | None = None, later: bool = False,
        repeat: runs_mod.Local | None = None, via: str = "", through: bool = False,
    ) -> None:
        """Merge one call's arguments into what the function's parameters are known to be;
        *later*: the first arguments of calls made elsewhere (`bound_later`), the rest unknown and
        the runs of those calls too; *through*: a binding called through attributes, where those calls
        are seen (they give its arguments and runs: only its reference is counted); *repeat*: how often the call is made per run of its place;
        *via*: the API making it, in words (`hand`)."""
        if through:  # its calls pass the arguments bound here too
            info.calls_seen += 1
            return
        bound = self.bind_arguments(info, args, keywords) if later else self.bind_call(info, args, keywords)
        if later:
            given = feat.argument_values(_positional(info), args, keywords)
            args_node = info.node.args
            for arg in (*args_node.posonlyargs, *args_node.args, *args_node.kwonlyargs):
                bound[arg.arg] = given.get(arg.arg)
        place = None if self.exporting else self.place(node, _positional(info))
        if later and place is not None:
            place = place._replace(runs=runs_mod.NEVER_KNOWN, later=True)
        if repeat is not None and place is not None:
            place = place._replace(runs=runs_mod.combine(repeat, place.runs), via=via)
        if self.ctx.picked and place is not None and place.runs.count is not None:
            # one of several candidates runs (a `Choice`): each at most so often; a site at the call itself, exactly
            place = place._replace(runs=place.runs._replace(bound=runs_mod.UPPER))
        info.callers.append((self.ctx.func, place, bound))
        if info.passed is None:
            info.passed = bound
        else:
            for name in set(info.passed) | set(bound):
                old, new = info.passed.get(name), bound.get(name)
                value = merge(old, new)
                # a Sequential from one caller, a Model from another: their common base (keras.Model)
                info.passed[name] = self.joined([old, new]) if value is None else value
        info.calls_seen += 1

    def all_calls_seen(self, info: FuncInfo) -> bool:
        """Whether every place the function (for `__init__`: its class) is named in code, besides
        its definition, is a call already seen: then its parameters are what those calls passed,
        not a guess (references.py: a docstring or a comment naming it is no place)."""
        if self.exporting or not info.calls_seen:  # other modules may call it
            return False
        named = info.calls_seen - info.implicit_calls  # TF1's `app.run()` calls main without naming it
        lambda_ = isinstance(info.node, ast.Lambda)
        references = self.references
        attrs = [] if references is None else references.stored_into(info.node) if lambda_ else \
            references.stored_into(info.node.name) + references.bound_into(info.node.name)
        if references is None or not attrs:  # (a lambda passed or called in place has no name to count)
            return not lambda_ and self.other_references(info, named) == named
        # stored into an object's attribute (`m.train = lambda lr: ...`): its calls are those through that
        # attribute, where the module reads it nowhere else, besides any of its name
        uses = [references.attribute_uses(attr) for attr in dict.fromkeys(attrs)]
        through = sum(use.calls for use in uses)
        if any(use.reads for use in uses) or through > named:
            return False
        if lambda_:
            return through == named
        # its name's other references: direct calls seen and the stores of the name itself (a binding's
        # name is read by the binding, a call seen)
        direct = named - through + len(attrs) - len(references.bound_into(info.node.name))
        return self.other_references(info, direct) == direct

    def other_references(self, info: FuncInfo, expected: int, precise: bool = True) -> int:
        """How often code names the function besides its definition: `obj.train(...)`, `model.train
        = ...` never name a function `train`; `tf.train.AdamOptimizer` never names a method
        `train`; `ActWrapper.load_act(path)` never makes an `ActWrapper`. Counted in the text first,
        and read from the tree only where the text's count (never lower) is not already *expected*
        and the count must be *precise* (a binding depends on it, not just the walk's order)."""
        cls = info.cls if info.node.name == "__init__" else None
        init = cls is not None
        name = cls.name if cls is not None else info.node.name
        found = self.words.get(name)
        if found is None:
            found = self.words[name] = text_references(self.source, name)
        total, after_dot, before_dot, quoted = found
        if self.strings_looked_up is None:
            self.strings_looked_up = looks_up_strings(self.source)
        strings_data = not self.strings_looked_up  # `args.command == "train"` names no function
        if strings_data:
            total -= quoted
        others = 0  # the definitions of methods of other classes so named (`def train` in each of several)
        if info.kind == "function":
            total -= after_dot
        elif not init:
            others = max(self.mentions(definitions, name) - 1, 0)
            total -= before_dot + others
        if total - 1 <= expected or not precise or self.references is None:
            return total - 1
        references = self.references
        enclosing = _enclosing_def(info)
        if enclosing is not None:  # a def nested in a function is named only inside that function
            if id(enclosing) not in self.local_references:
                self.local_references[id(enclosing)] = CodeReferences(enclosing.node)
            references = self.local_references[id(enclosing)]
        # the tree takes off prose (docstrings), keywords (`run(main=main)`) and, for a class, `Cls.attr`:
        # walked only where that may reach *expected*
        supers = self.mentions(super_mentions, name) if init else 0  # `super(Cls, self).__init__()` makes none
        most = total - 1 - supers - references.in_prose(name) - (before_dot if init else 0)
        # a method's name read in a function binding it is that function's (`def train(self, train, dev)`),
        # as an attribute of a name the module imports a module's (`tf.train`): neither is the method
        local = params = 0
        if enclosing is None and not init and info.kind != "function":
            local, params = references.not_a_method(name), references.parameters(name)
        if (
            enclosing is None
            and most - local - params > expected
            and most - self.mentions(keyword_mentions, name) > expected
        ):
            return total - 1
        named = references.of(name)
        total = named.total - named.strings if strings_data else named.total
        if info.kind == "function":
            total -= named.after_dot
        elif not init:
            total -= sum(named.attributes.values()) + local + others
        elif cls is not None:
            for attr, count in named.attributes.items():
                if _makes_none(cls, attr):
                    total -= count
        return total - 1

    def mentions(self, count: Callable[[str, str], int], name: str) -> int:
        """*count* (`super_mentions`, `keyword_mentions`) of *name* in the module's text, once per name:
        `other_references` asks again for each walk that may bind a function's parameters."""
        key = (count, name)
        found = self.mentioned.get(key)
        if found is None:
            found = self.mentioned[key] = count(self.source, name)
        return found

    def bind_call(self, info: FuncInfo, args: list, keywords: list) -> dict[str, Any]:
        """One call's parameter values (`bind_arguments`) and the values of the rebound globals the
        function reads (`read_rebound`) where the call is made (rebinding.py)."""
        bound = self.bind_arguments(info, args, keywords)
        for name in self.read_rebound(info):
            value = self.global_value(name)
            if value is not MISSING:
                bound[name] = value
        return bound

    def read_rebound(self, info: FuncInfo) -> frozenset[str]:
        """The globals of this module that it binds more than once and that a call of *info* (a function
        of this module) reads: in its body, or in the body of a function of this module it names
        (rebinding.reads)."""
        if not self.rebound or type(info.node) is ast.Lambda or info.scope.module() is not self.scope.module():
            return frozenset()
        return rebinding.reads(info.node, self.rebound, self.defined, self.free, self.reads)

    def global_value(self, name: str) -> Any:
        """What the module global *name* holds for the code being walked: the value its function's calls
        gave it (`pinned`), else the module's binding so far; MISSING where unbound."""
        scope = self.scope
        while scope.parent is not None:
            if scope.kind == "pinned" and name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return scope.names.get(name, MISSING)

    def pinned(self, info: FuncInfo, bound: dict, defined: Scope | None = None) -> Scope:
        """The scope *info*'s body reads its free names from: the one it was defined in (or *defined*),
        under a layer holding the rebound globals it reads as its calls gave them (*bound*, `bind_call`)."""
        outer = info.scope if defined is None else defined
        held = {name: bound[name] for name in self.read_rebound(info) if name in bound}
        if not held:
            return outer
        layer = Scope("pinned", outer)
        layer.names = held
        return layer

    @staticmethod
    def bind_arguments(info: FuncInfo, args: list, keywords: list) -> dict[str, Any]:
        """Parameter name -> value for one call (self/cls excluded for methods); unknown, not its default,
        for a parameter a `*seq` or `**d` the call could not spread may fill (`builders.unspread_parameters`)."""
        node = info.node.args
        params = _positional(info)
        bound = {}
        defaults = info.defaults
        for name, value in zip(params[len(params) - len(defaults) :], defaults):
            bound[name] = value
        for name, value in zip([arg.arg for arg in node.kwonlyargs], info.kw_defaults):
            if value is not MISSING:
                bound[name] = value
        given = feat.argument_values(params, args, keywords)
        bound.update(given)
        bound.update(dict.fromkeys(builders.unspread_parameters(node, params, args, keywords, given)))
        method = info.kind in ("method", "property", "classmethod")
        bound.update(builders.extra_arguments(node, method, args, keywords))  # its `*args`, `**kwargs`
        return bound

    def annotated(self, annotation: ast.expr | None) -> Any:
        """An instance of the class a parameter is annotated with (`model: keras.Model`)."""
        if annotation is None:
            return None
        kind = type(annotation)
        if kind is ast.Constant and isinstance(annotation.value, str):
            try:
                annotation = ast.parse(annotation.value, mode="eval").body
            except (SyntaxError, ValueError):
                return None
            kind = type(annotation)
        if kind is ast.BinOp and type(annotation.op) is ast.BitOr:  # Model | None
            if _is_none(annotation.right):
                return self.annotated(annotation.left)
            return self.annotated(annotation.right) if _is_none(annotation.left) else None
        if kind is ast.Subscript and type(annotation.value) in (ast.Name, ast.Attribute):
            wrapper = annotation.value.id if type(annotation.value) is ast.Name else annotation.value.attr
            return self.annotated(annotation.slice) if wrapper == "Optional" else None
        if kind not in (ast.Name, ast.Attribute):
            return None
        value = self.expr(annotation)
        if type(value) is Ref:
            sym = self.table.symbol(value.path)
            if sym is not None and sym[1] == "class":
                return Inst(sym[0], "annotation")
        elif type(value) is UserClass:
            return UserInst(value.info)
        return None

    # -- bindings --------------------------------------------------------------------------
    def bind(self, name: str, value: Any) -> None:
        self.scope.target(name).names[name] = value

    def assign(self, target: ast.expr, value: Any) -> None:
        kind = type(target)
        if isinstance(target, ast.Name):
            self.scope.target(target.id).names[target.id] = value
            if type(value) is Const and type(value.value) is list:  # `images = []` in a `while True:`
                self.ctx.lists[target.id] = len(self.ctx.trips)
            else:
                self.ctx.lists.pop(target.id, None)
        elif kind is ast.Attribute:
            owner = self.expr(target.value)
            if type(owner) in (UserInst, UserClass):
                self.set_attribute(owner, target.attr, value)
            elif isinstance(target, ast.Attribute) and type(owner) is Parsed and options.holder_key(target) in self.reassigned:  # `a.x = 1`
                self.scope.names[options.holder_key(target)] = value if type(value) is Const else None  # from here on
            elif type(owner) is Kw and owner.attrs and isinstance(target, ast.Attribute):  # `cfg.TRAIN.EPOCHS = 20`
                builders.set_key(owner, target.attr, value, self.ctx.branches > 0)
            elif isinstance(target, ast.Attribute) and target.attr == "shape" and isinstance(target.value, ast.Name) \
                    and arrays.shape_of(owner) is not None:
                # numpy's in-place reshape (`images.shape = images.shape + (1,)`): that array from here on
                self.assign(target.value, arrays.array_method("reshape", owner, [value]))
            elif isinstance(target, ast.Attribute) and target.attr in work_mod.GRAPH_ATTRIBUTES and work_mod.is_model(owner):
                work_mod.rewired(owner, target.attr, value)  # `vgg.outputs = [vgg.layers[9].output]`: another network from here on
            elif isinstance(target, ast.Attribute) and target.attr == "trainable" and (work_mod.is_model(owner) or work_mod.is_layer(owner)):
                trainable.set_trainable(owner.meta, trainable.assigned(value, self.ctx.branches > 0), id(self.ctx.func),
                                        target.lineno)
        elif kind in (ast.Tuple, ast.List):
            items = _unpack(value, len(target.elts))
            for i, element in enumerate(target.elts):
                self.assign(element, items[i] if items is not None else None)
        elif kind is ast.Starred:
            self.assign(target.value, None)
        else:
            self.assign_side_effects(target)
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                key = target.slice
                literal = key.value if type(key) is ast.Constant and type(key.value) is str else None
                self.registered(target.value.id, value, literal is not None)
                held = self.name(target.value.id)
                filled = arrays.filled_in(held, self.decoded, target.lineno, id(self.ctx), len(self.ctx.loops) > 1) \
                    if self.decoded is not None and self.ctx.loops else None
                if filled is not None:  # `batch[j] = imread(p)` in a loop: a batch decoded item by item
                    self.scope.target(target.value.id).names[target.value.id] = filled
                elif type(held) is Kw and literal is not None:
                    builders.set_key(held, literal, value, self.ctx.branches > 0)  # `kwargs["padding"] = "same"`
                elif type(held) is Kw:
                    builders.unknown_keys(held)  # `kwargs[name] = v`: any key may have changed

    def given_away(self, nodes: list) -> None:
        """Keyword dicts named among *nodes*, the arguments of a call not walked, which may change
        them: from here on their names hold one whose keys are not known (builders.unknown_keys);
        the value this call was given stays as it was."""
        for node in nodes:
            if type(node) is not ast.Name or type(self.name(node.id)) is not Kw:
                continue
            scope: Scope | None = self.scope
            while scope is not None and node.id not in scope.names:
                scope = scope.parent
            if scope is not None:
                scope.names[node.id] = opened = Kw({})
                builders.unknown_keys(opened)

    def registered(self, name: str, value: Any, literal: bool) -> None:
        """`model_from_name["unet"] = unet.build` into a table of constructors (a dict display of
        functions, `{}` included): one more function it may give; anything else stored into `{}` at
        a *literal* string key makes it a keyword dict (`common = {}; common["batch_size"] = 4`),
        into anything else a plain dict."""
        scope: Scope | None = self.scope
        while scope is not None and name not in scope.names:  # the dict is changed where it is bound
            scope = scope.parent
        if scope is None or type(scope.names[name]) is not Choice:
            return
        table = scope.names[name]
        if type(value) in (UserFunc, ExtFunc):
            items = table.items if value in table.items else (*table.items, value)
            scope.names[name] = Choice(items)
        elif literal and not table.items:
            scope.names[name] = Kw({})
        else:
            scope.names[name] = OPAQUE

    @staticmethod
    def set_attribute(owner: UserInst | UserClass, attr: str, value: Any) -> None:
        """`owner.attr = value` (or `+=`) on a project class's instance or the class: merged with what the
        attribute held before."""
        attrs = owner.info.attrs
        old = attrs.get(attr, MISSING)
        joined = symjoin.either_path([old, value])  # two symbolic tensors (`self.h0 = ...` on each call)
        if joined is None:  # `m.train = lambda lr: ...` on one path, `m.train = _train` on the other
            joined = union([old, value])
        attrs[attr] = joined if joined is not None else merge(old, value)

    def assign_side_effects(self, target: ast.expr) -> None:
        """Walk the parts of a target that are evaluated (subscripts, attribute owners)."""
        if type(target) is ast.Subscript:
            self.expr(target.value)
            self.expr(target.slice)
        elif type(target) is ast.Attribute:
            self.expr(target.value)

    def name(self, name: str) -> Any:
        found, value = self.scope.lookup(name)
        if found:
            return None if value is MISSING else value
        return star_member(self.table.cat, self.scope.module().star_imports, name)

    # -- expressions -----------------------------------------------------------------------
    def expr(self, node: ast.expr) -> Any:
        handler = _EXPR.get(type(node))
        if handler is not None:
            return handler(self, node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expr(child)
        return None

    def e_name(self, node: ast.Name) -> Any:
        return self.name(node.id)

    def e_constant(self, node: ast.Constant) -> Any:
        return Const(node.value)

    def e_attribute(self, node: ast.Attribute) -> Any:
        owner = self.expr(node.value)
        if type(owner) is Options:
            found = self.passed_option(node, owner)
            return found if type(found) is Options else self.option_read(node, found)  # type: ignore[arg-type]
        if type(owner) is Parsed or type(owner) is Ref and owner.path.endswith(options.FLAGS):
            value = self.option_value(node, owner)
            if value is None and type(owner) is Parsed:
                return self.command_function(node.attr)
            if value is not None:
                return value
        if self.read_otherwise is not None:
            self.read_otherwise.add(node)
        if type(owner) is Kw and owner.attrs and node.attr not in builders.KW_METHODS:
            return builders.kw_item(owner, node.attr)  # `cfg.TRAIN.EPOCHS` of an EasyDict
        return self.attribute(owner, node.attr)

    def command_function(self, attr: str) -> UserFunc | ExtFunc | Choice | None:
        """`args.func` of a command line each of whose sub-commands sets it (subcommands.py): one of the
        functions the `set_defaults` calls gave (a `Choice`: a call runs each at most once; with no
        sub-command named, none), where each was walked and gave a project function; None otherwise."""
        if self.tree is None:
            return None
        if attr not in self.command_setters:
            self.command_setters[attr] = subcommands.setters(self.tree, attr)
        for call in self.command_setters[attr]:  # a function making a sub-parser, not walked yet: walked now
            if id(call) not in self.defaults_given:
                holding = [f for f in self.functions if f.state is Walk.PENDING and type(f.node) is not ast.Lambda
                           and f.node.lineno <= call.lineno <= (f.node.end_lineno or f.node.lineno)]
                if holding:
                    self.walk_function(max(holding, key=lambda f: f.node.lineno))
        given = [self.defaults_given.get(id(call), {}).get(attr) for call in self.command_setters[attr]]
        if not given or any(type(value) not in (UserFunc, ExtFunc) for value in given):
            return None
        if all(value == given[0] for value in given):  # one sub-command: it runs unless none is named
            return Choice((given[0],))
        return union(given)

    def option_read(self, node: ast.Attribute, value: Const | None) -> Const | None:
        """*value*, the default of an option of another module (or of the program's own wrapper of
        argparse) read as *node*, noted for the rules (`read_options`) unless another walk read it otherwise."""
        if self.options_read.get(node, value) != value:
            value = None
        self.options_read[node] = value
        return value

    def read_options(self) -> list[options.OptionRead]:
        """The attributes every walk read as the default of an option another module defines
        (`options.OptionRead`), after `run`."""
        otherwise = self.read_otherwise or set()
        return [options.OptionRead(n.lineno, n.col_offset, n.end_lineno or n.lineno, n.end_col_offset or 0, v.option, v.value)
                for n, v in self.options_read.items() if v is not None and n not in otherwise]

    def option_value(self, node: ast.Attribute, owner: Parsed | Ref) -> Const | None:
        """`args.batch_size` of a parsed command line, `FLAGS.batch_size` of absl / tf.app flags: the
        default of the option (`option_default`), which the user can change (its `Const.option` says so),
        where the program does not set it itself (`options.set_by_program`: an assignment to it, unless
        only under `if args.x is None:` and the default is not None; a parser's `set_defaults`; a literal
        argument list naming it), or, for a default of None, the default of the option it then takes
        (`options.fallback`: `if FLAGS.output_width is None: FLAGS.output_width = FLAGS.output_height`);
        None otherwise. A flag this module does not define takes the default the modules around it give
        it (`Imports.flag_default`: absl's flags are one for the process), noted for the rules (`option_read`)."""
        attr = node.attr
        if type(owner) is Parsed and attr in owner.given:
            return None
        if type(owner) is Parsed and self.reassigned:  # `a.scale_size` after `a.scale_size = CROP_SIZE`
            found, value = self.scope.lookup(options.holder_key(node))
            if found:
                return value if type(value) is Const and value is not OPAQUE else None
        if type(owner) is Ref and not self.defines_option(attr):
            return self.flag_elsewhere(node)
        default = self.option_default(attr)
        if default is None:
            return None
        read = options.read_as(self.program_sets(), self.tree, ast.unparse(node.value), attr, default.value is None)
        if read is None:
            return None
        if read != attr:
            default = self.option_default(read)
            if default is None or default.value is None:
                return None
        if read in self.forwarded:  # defined through the program's own wrapper: the rules read it so too
            return self.option_read(node, Const(default.value, read))
        return Const(default.value, read)

    def flag_elsewhere(self, node: ast.Attribute) -> Const | None:
        """`FLAGS.x` of a flag this module does not define: the default the modules around it give it
        (`Imports.flag_default`: absl's flags are one for the process), where this module does not set
        it; noted for the rules (`option_read`)."""
        if self.imports is None or self.exporting:  # (a summary's value must not hang on its importers)
            return None
        found = self.imports.flag_default(node.attr)
        if found is None or found.value is None or options.set_here(self.program_sets(), ast.unparse(node.value), node.attr, False):
            return None
        return self.option_read(node, Const(found.value, node.attr))

    def passed_option(self, node: ast.Attribute, owner: Options) -> Const | Options | None:
        """`config.ckpt_freq` of the options object a script beside hands this module (or Hydra its
        function: a group of options, `cfg.train`, is one in turn): the default of that option,
        where this module does not set it on that name itself either."""
        found = owner.defaults.get(node.attr)
        if type(found) is Const and options.set_here(self.program_sets(), ast.unparse(node.value), node.attr, found.value is None):
            return None
        return found

    def reassign_options(self, parsed: Parsed, tree: ast.Module) -> None:
        """At a command line's parse, the options the program then assigns (`options.reassigned`, among
        those this module defines) bound in this scope to the defaults the parse gives them."""
        if self.reassigned_read is not tree:  # (read once: a helper parsing it may be walked again)
            found = options.reassigned(tree, self.default_run(parsed))
            self.reassigned = {key: inside for key, inside in found.items() if self.defines_option(key.rpartition(".")[2])}
            self.reassigned_read = tree
        for key in self.reassigned:
            attr = key.rpartition(".")[2]
            default = None if attr in parsed.given else self.option_default(attr)
            self.scope.names[key] = Const(default.value, attr) if default is not None and default.value is not None else None

    def default_run(self, parsed: Parsed) -> dict[str, object]:
        """The value each option holds on the default run where the program sets none of them itself: its
        literal default, unless the parse's literal argument list names it; those the program sets are
        left out (`options.set_by_program`)."""
        self.option_default("")
        assigned = {attr for _, attr in self.program_sets()}
        found = {attr: self.option_default(attr) for attr in self.option_defaults or {}
                 if attr not in parsed.given and attr not in assigned}
        return {attr: default.value for attr, default in found.items() if default is not None}

    def seed_reassigned(self, scope: Scope) -> None:
        """Bind in a function's *scope*, as it opens, each option the program assigns on a parsed command
        line's holder (`options.reassigned`, whose holder the parse binds to its defaults) to what it holds
        there: the module's last value where no function assigns it (functions run after the module's
        code), else unknown. Assignments then rebind it flow-sensitively (`assign`), and a path that
        assigns it joins the others' value at the branches' end."""
        for key, in_function in self.reassigned.items():
            if key not in scope.names:
                scope.names[key] = None if in_function else scope.lookup(key)[1]

    def program_sets(self) -> dict[tuple[str, str], bool]:
        """The options this module sets itself (`options.set_by_program`), read once."""
        if self.options_set is None:
            self.options_set = options.set_by_program(self.tree) if self.tree is not None else {}
        return self.options_set

    def attribute(self, owner: Any, attr: str) -> Any:
        kind = type(owner)
        if kind is Foreign:
            return owner
        if kind is records.Record:
            return records.field(owner, attr)
        if kind is Ref:
            if owner.path in _BINDER_MODULES or drivers.imported(owner.path) or owner.path == records.ROOT:
                return self.module_ref(f"{owner.path}.{attr}")
            return Ref(f"{owner.path}.{attr}")
        if kind is Inst:
            if owner.cls in environments.CLASSES:
                return environments.attribute(owner, attr)
            if owner.cls == agents.AGENT:
                return agents.attribute(owner, attr)
            if owner.cls == drivers.STUDY:  # `study.optimize`: a search (nothing else of it is valued)
                return Inst(drivers.STUDY_OPTIMIZE, "attribute") if attr == "optimize" else None
            if attr == "shape" and arrays.is_sym(owner):  # `x.shape[-1]` of a symbolic tensor
                return symops.shape_value(owner.meta["sym"])
            shape = arrays.shape_of(owner) if attr == "shape" else None
            if shape and all(type(d) is int for d in shape):
                return Const(tuple(shape))  # `x.shape[0]` of an array of known shape
            if attr == "shape" and arrays.most_rows(owner) is not None:
                return arrays.rows_count(owner, "shape")  # `x[:64].shape[0]`: at most 64
            tensor = work_mod.model_tensor(owner, attr)  # `backbone.output`: a symbolic tensor
            if tensor is not None:
                return Inst(self.table.returns("tensorflow.keras.Input") or "tensorflow.Tensor", "attribute",
                            {"sym": tensor})
            return Member(owner, attr)
        if kind is UserInst:
            return self.instance_attribute(owner.info, attr, owner.passed)
        if kind is UserClass:
            found, value = owner.info.find_attr(attr)
            if found:
                return None if value is MISSING else value
            method = owner.info.find_method(attr)
            if method is not None:
                return UserFunc(method)
            found, value = owner.info.ext_member(attr)
            if found:
                return value
            base = self.tf_base(owner.info)
            return Ref(f"{base}.{attr}") if base else None
        if kind is ExtModule:
            found = self.imports.member(owner, attr) if self.imports is not None else None
            # `config.num_epochs` of the module `--config` picks: that option's default too
            if owner.option and type(found) is Const and found is not OPAQUE and not found.option:
                return Const(found.value, owner.option)
            return found
        if kind is ExtInst or kind is ExtClass:
            ext = owner.cls if kind is ExtInst else owner
            if attr in ext.attrs:
                return fresh(ext.attrs[attr])
            if attr in ext.methods:
                bound = (owner, attr) if kind is ExtInst and owner.passed is not None and attr in ext.templates else None
                host, once = ext.hosts.get(attr, (None, None))
                template = ext.batches.get(attr) if kind is ExtInst else None  # its rows for each call's arguments
                return ExtFunc(ext.methods[attr], ext.runs.get(attr), host, once, template, bound=bound,
                               beside=ext.beside.get(attr))
            if ext.tf_base is None:
                return None
            if kind is ExtClass:
                return Ref(f"{ext.tf_base}.{attr}")
            init = ext.templates.get("__init__")  # a Keras model of another module: as its construction built it
            passed = owner.passed if init is not None and init.info.cls is not None else None
            return Member(self.subclass_instance(init.info.cls, ext.tf_base, attr, passed, init.functions)
                          if passed is not None else Inst(ext.tf_base, "subclass"), attr)
        if kind is Choice and owner.items:  # `gan.train` of one of several instances: each one's, or the one they share
            found = [self.attribute(item, attr) for item in owner.items]
            return found[0] if all(value == found[0] for value in found[1:]) else union(found)
        if kind is Super:
            for klass in owner.info.mro()[1:]:
                method = klass.methods.get(attr)
                if method is not None:
                    return UserFunc(method)
            base = self.tf_base(owner.info)
            if base and attr == "call" and work_mod.is_layer(Inst(base, "subclass")):
                attr = "__call__"  # `super().call(x)` in a Keras layer's `call`: the base layer's forward pass
            return Member(Inst(base, "subclass"), attr) if base and attr != "__init__" else None
        return None

    def instance_attribute(self, info: ClassInfo, attr: str, passed: dict[str, Any] | None = None) -> Any:
        """*attr* of an instance of the project's class *info*; *passed*: what its construction passed its
        `__init__`, where kept (`UserInst.passed`: a Keras model of the project sized by its arguments)."""
        self.walk_assigners(info, attr)  # every `self.<attr> = ...` counts, wherever it is
        found, value = info.find_attr(attr)
        if found:
            return None if value is MISSING else value
        method = info.find_method(attr)
        if method is not None:
            return self.result_of(method) if method.kind == "property" else UserFunc(method)
        found, value = info.ext_member(attr)
        if found:
            return value
        base = self.tf_base(info)
        return Member(self.subclass_instance(info, base, attr, passed), attr) if base else None

    def subclass_instance(self, info: ClassInfo, base: str, attr: str, passed: dict[str, Any] | None = None,
                          foreign: tuple[FuncInfo, ...] = ()) -> Inst:
        """The TF base of a user subclass as the receiver of *attr*; for a Model's fit/predict/...,
        carrying its layers (as the construction that passed *passed* builds them: `constructed_layers`;
        *foreign*: the functions of another module's walk, for a class of that module)."""
        if attr in work_mod.MODEL_METHODS and base.rpartition(".")[2] in work_mod.MODEL_CLASSES:
            return Inst(base, "subclass", {"sub_layers": self.constructed_layers(info, passed, foreign)})
        return Inst(base, "subclass")

    def constructed_layers(self, info: ClassInfo, passed: dict[str, Any] | None, foreign: tuple[FuncInfo, ...] = ()
                           ) -> list:
        """A subclassed model's layers (`work.sub_layers`) as the construction that passed *passed* builds
        them: `__init__` walked again with those (values only, `constructed`) where its walk merged other
        constructions' (`Generator(filters=64)`, `Generator(filters=16)`: each its own sizes) or is another
        module's (*foreign*: that walk's functions), once per distinct construction (`CONSTRUCTIONS` at most
        a class); the class's layers as they stand otherwise."""
        init = info.find_method("__init__")
        if passed is None or init is None or init.state is not Walk.DONE or self.exporting \
                or not foreign and init.passed == passed and not init.blind or id(init) in self.unrolling \
                or len(self.unrolling) >= unroll.MAX_DEPTH:
            return work_mod.sub_layers(info)
        built = self.constructions.setdefault(id(init), [])
        for seen, layers in built:
            if seen == passed:
                return layers
        if len(built) >= CONSTRUCTIONS:
            return work_mod.sub_layers(info)
        with self.constructed(init, passed, foreign):
            layers = work_mod.sub_layers(info)
        built.append((passed, layers))
        return layers

    def walk_assigners(self, info: ClassInfo, attr: str) -> None:
        """Walk the not-yet-walked methods that assign `self.<attr>`; one whose calls are not seen yet
        (`agent.epsilon` read in the loop that calls `agent.replay(32)`, which decays it) is walked
        again once they are (`rewalk_blind`), with the parameters they bind."""
        for klass in info.mro():
            for method in klass.assigners.get(attr, ()):
                if method.state is Walk.PENDING:
                    early = not method.calls_seen and self.awaits_calls(method)
                    self.walk_function(method)
                    method.blind = method.blind or early

    def e_call(self, node: ast.Call) -> Any:
        discarded = node is self.discard
        func = node.func
        if type(func) is ast.Name and func.id == "super" and not self.scope.lookup("super")[0]:
            for arg in node.args:
                self.expr(arg)
            return self.super_of()
        inner = func.value if type(func) is ast.Attribute else func
        if type(inner) is ast.Call:  # `tf.function(f).get_concrete_function(spec)`: uses inner's result
            self.chained[inner] = node
        if type(func) is ast.Attribute:
            receiver = self.expr(func.value)
            callee = self.attribute(receiver, func.attr)
            if callee is None and type(receiver) is Parsed:  # `args.func(args)`: a sub-command's function
                callee = self.command_function(func.attr)
            if callee is None and type(receiver) is UserInst and type(func.value) is ast.Name and func.value.id == "self":
                self.note_heir_call(node, receiver.info, func.attr)
            # `dataset.batch(batch_size)`: of a pipeline, or of a value not known (a caller may give one)
            if func.attr in ("batch", "padded_batch") and (receiver is None or type(receiver) is Inst
                                                           and receiver.cls == DATASET):
                self.piped_through(True)
        else:
            receiver = MISSING
            callee = self.expr(func)
        filler = (
            (func.value.id, func.attr)
            if type(func) is ast.Attribute and type(func.value) is ast.Name and func.attr in _LIST_FILLERS
            else None
        )
        args = []
        spreads = False  # a `*seq` or `**kw` to spread out (most calls have none)
        for arg in node.args:
            if type(arg) is ast.Starred:
                spreads = True
                args.append((True, self.expr(arg.value)))
            else:
                args.append((False, self.expr(arg)))
        keywords = []
        for kw in node.keywords:
            spreads = spreads or kw.arg is None
            keywords.append((kw.arg, self.expr(kw.value)))
        if spreads:
            args, keywords = builders.spread(args, keywords)
        if type(callee) not in (UserFunc, UserClass) and not _reads_only(func, callee):
            self.given_away([*node.args, *(kw.value for kw in node.keywords if kw.arg is not None)])
        if type(receiver) is Kw and type(func) is ast.Attribute:
            found = builders.kw_method(receiver, func.attr, args, self.ctx.branches > 0)
            if found is not MISSING:
                return found
        if type(func) is ast.Attribute and func.attr == "as_list" and type(receiver) is Const and type(receiver.value) is tuple:
            return Const(list(receiver.value))  # `x.get_shape().as_list()`
        if type(func) is ast.Attribute and func.attr == subcommands.SET_DEFAULTS and callee is None:
            defaults = dict(keywords)  # `parser.set_defaults(func=train)`: what a sub-command sets (`command_function`)
            seen = self.defaults_given.setdefault(id(node), defaults)
            if seen != defaults:  # walked again to different values: none known
                self.defaults_given[id(node)] = {}
        if type(func) is ast.Attribute and func.attr in options.PARSERS and callee is None:
            given = options.given(options.argument(node, "args", 0))  # `parser.parse_args()`: the command line
            parsed = Parsed(given) if given is not None else None
            if parsed is not None and self.tree is not None and self.program_sets():
                self.reassign_options(parsed, self.tree)
            return Seq((parsed, None)) if func.attr == "parse_known_args" else parsed
        if filler is not None and self.graph_list(*filler, args):
            pass  # `outputs.append(head)` of a graph's tensors: the list of them
        elif filler is not None:  # a decode earlier in the loop's body (one in a loop: per item, per pass), or in the value
            self.fill_list(*filler, self.decoded if len(self.ctx.loops) > 1 else None, node.lineno,
                           args[0][1] if len(args) == 1 and not args[0][0] else None)
        elif type(func) is ast.Attribute and func.attr in _LIST_FILLERS and type(func.value) is ast.Attribute:
            self.fill_attribute(func.value, func.attr)
        self.discarded = discarded
        if callee is None and type(func) is ast.Attribute and func.attr == "split" and type(receiver) is Const:
            found = _split_literal(receiver, args, keywords)
            if found is not None:
                return found  # `"321,321".split(",")`: an option's default cut into its literal pieces
        if callee is None and type(func) is ast.Attribute and func.attr in hostwork.STR_SPLITS and (
            receiver is None or type(receiver) is Const and type(receiver.value) is str
        ):  # `text.split()` of a text
            return self.pieces(func.attr, node.lineno)
        if receiver is None and callee is None and type(func) is ast.Attribute and func.attr == "reshape" \
                and not spreads and not keywords:  # `loaded[16:].reshape((60000, 28, 28, 1))` of bytes read
            sides = [value for _, value in args]
            return arrays.reshaped(sides) or arrays.first_rows(sides)  # (`state.reshape([1, n])`: one row)
        if receiver is None and callee is None and isinstance(func, ast.Attribute) and (
            self.tf_imported or func.attr in untyped.KERAS_ONLY
        ):
            api = untyped.untyped_api(func, node, self.table.params)
            if api is not None:
                return self.untyped_call(node, api, args, keywords)
        if not self.exporting and type(func) in (ast.Name, ast.Attribute) and self.untyped_callee(callee) \
                and (self.ctx.tapes or self.ctx.func is not None and self.ctx.func.taped):
            callee = self.differentiated_model(func) or callee
        return self.call(node, callee, args, keywords)

    def untyped_call(self, node: ast.Call, api: str, args: list, keywords: list) -> None:
        """A TF/Keras method called on a receiver the walk cannot type (untyped.py): a call site
        all the same, with the work its arguments show; its value is unknown."""
        features, named = self.record(node, api, args, keywords, None)
        features["receiver"] = features["receiver_kind"] = "untyped"
        if not self.exporting:
            self.calls[-1].work = work_mod.untyped_work(api, named, features)
            work_mod.add_options(self.calls[-1].work, named)
            self.graph_run(node, api, named, None, self.calls[-1].work, features)
        return None

    def untyped_callee(self, callee: Any) -> bool:
        """Whether calling *callee* is no call the walk knows: an unknown value, or a TF object's
        attribute the catalog lists no method for (`checkpoint.model`, a `tf.train.Checkpoint`'s)."""
        return callee is None or type(callee) is Member and self.table.method(callee.owner.cls, callee.name) is None

    def differentiated_model(self, func: ast.expr) -> Inst | None:
        """The model a value the walk cannot type is where the code differentiates its trainable
        variables (differentiated.py): the function being walked does, or, for an attribute of
        `self`, a method of its class. One value per expression and function (or class), so that a
        model called twice in a step is trained once."""
        here = self.ctx.func
        text = ast.unparse(func)
        if here is not None and here.cls is not None and text.startswith("self."):
            owner: Any = here.cls
            bodies = [method.node for klass in here.cls.mro() for method in klass.methods.values()]
        else:
            owner = here.node if here is not None else self.tree
            bodies = [owner] if owner is not None else []
        return self.trained_models(owner, bodies).get(text)

    def trained_models(self, owner: Any, bodies: list[ast.AST]) -> dict[str, Inst]:
        """The callables whose trainable variables *bodies* differentiate, each as a model (memoised
        by *owner*, the function's node or the class whose methods they are)."""
        models = self.trained.get(id(owner))
        if models is None:
            models = self.trained[id(owner)] = {
                text: Inst(untyped.MODEL, "differentiated") for body in bodies for text in differentiated.trained(body)
            }
        return models

    def list_binding(self, name: str) -> tuple[Scope, Any, int]:
        """The scope binding the list *name*, its value there, and how many loops deep this walk
        was when it was bound (loops entered since then repeat what is appended; 0 in another scope)."""
        scope = self.scope.target(name)
        return scope, scope.names.get(name), self.ctx.lists.get(name, 0) if scope is self.scope else 0

    def graph_list(self, name: str, method: str, args: list) -> bool:
        """`outputs.append(head)` of a symbolic tensor (or `extend([a, b])` of a display of them) to a list
        this scope binds, empty or of symbolic tensors only, on every path since it was bound (no branch,
        and each loop around the call since then walked trip by trip: unroll.py): the list of those
        tensors (a model's outputs, a U-Net's skips); False, the list left to `fill_list`, otherwise."""
        given = args[0][1] if len(args) == 1 and not args[0][0] else None
        added = (given,) if method == "append" and arrays.is_sym(given) else given.items \
            if method == "extend" and type(given) is Seq and given.items and all(map(arrays.is_sym, given.items)) else None
        if added is None:
            return False
        scope, value, depth = self.list_binding(name)
        items = () if type(value) is Const and value.value == [] else value.items if type(value) is Seq else None
        if items is None or not all(arrays.is_sym(item) for item in items) or self.ctx.branches:
            return False
        if not all(id(loop) in self.unrolling for loop in self.ctx.rebound[depth:]):
            return False
        scope.names[name] = Seq((*items, *added))
        return True

    def fill_list(self, name: str, method: str, decoded: str | None = None, line: int = 0, item: Any = None) -> None:
        """`xs.append(v)` on a list this scope binds (a literal list, or one filled so far): its
        length grows by how often the call runs here (arrays.appended); `extend`/`insert`/`+=`
        leave it unknown. A list display of other values (a `Seq`) gets one unknown item more per
        `append` or `insert` (wherever the walk takes it: its items are then what it holds at least),
        and an `extend` leaves it unknown. Where a loop appends what a decode read (*decoded*, at *line*), the list
        is a batch decoded item by item on the spot (arrays.kept reads it so). A list every *item* appended to
        which is a tensor holds tensors (`arrays.HOLDS_TENSORS`)."""
        scope, value, depth = self.list_binding(name)
        if not (type(value) is Const and type(value.value) is list or type(value) is Inst and value.cls == arrays.LIST):
            if type(value) is Seq:  # a list display of values (`[EarlyStopping()]`): what it held, and more
                scope.names[name] = filled_display(value, method)
            return
        if method != "append":
            scope.names[name] = None
            return
        # the loops entered since the list was bound: `images = []` then `for _ in range(batch_size)`
        # in a generator's `while True:` fills a batch of batch_size, whatever the outer loop does
        ctx = self.ctx
        divisors = tuple(p._replace(depth=p.depth - depth) for p in ctx.divisors if p.depth > depth) if depth else tuple(ctx.divisors)
        runs = runs_mod.local(ctx.trips[depth:], ctx.exits > 0 or ctx.guards > 0, divisors, ctx.counted[depth:],
                              ctx.resumes > 0)
        filled = arrays.appended(value, runs.count, runs.bound == runs_mod.UPPER or runs.share > 1)
        if filled is not None and arrays.holds_tensor(item) \
                and (type(value) is Const or type(value) is Inst and value.meta.get(arrays.HOLDS_TENSORS)):
            filled.meta[arrays.HOLDS_TENSORS] = True
        if decoded is not None:
            meta = filled.meta if filled is not None else {}
            filled = Inst(arrays.LIST, "append", {**meta, "host": decoded, "line": line, "walk": id(self.ctx)})
        scope.names[name] = filled

    def wrote_file(self, node: ast.Call, api: str) -> None:
        """Note a file write (`files.FILE_WRITERS`) at module level: its path's parts (`files.path_parts`) and
        how many distinct files it writes, the product of its loops' trip counts where each is known, no
        branch or early exit skips the write, and each loop's variable is in the path (else the same file
        is written again); not known otherwise."""
        keyword = next((k.value for k in node.keywords if k.arg == FILE_WRITERS[api]), None)
        target = node.args[0] if node.args and type(node.args[0]) is not ast.Starred else keyword
        parts = path_parts(target, self.literal_text)
        if target is None or parts is None:
            return
        ctx = self.ctx
        used = {n.id for n in ast.walk(target) if type(n) is ast.Name}
        loops = [(t, v) for t, v in zip(ctx.trips, ctx.varying) if t != 1]
        known = ctx.func is None and not ctx.exits and not ctx.guards and all(
            t is not None and v is not None and used & v for t, v in loops)
        count = math.prod(t for t, _ in loops if t is not None) if known else None
        self.files.wrote_into((node.lineno, node.col_offset), parts, count)

    def literal_text(self, expr: ast.AST) -> str | None:
        """The string *expr* is where it is a literal one or a name bound to one, else None."""
        value = expr.value if type(expr) is ast.Constant else self.name(expr.id) if type(expr) is ast.Name else None
        if type(value) is Const:
            value = value.value
        return value if isinstance(value, str) else None

    def fill_attribute(self, target: ast.Attribute, method: str) -> None:
        """`self.image_info.append(info)` in a method: a list attribute of a project class filled
        by a method that may run any number of times (`add_image` per image of a dataset) has a
        length not known here, whatever literal a constructor gave it (`self.image_info = []`); a
        list display of other values (a `Seq`) gets an unknown item more, as `fill_list` gives it."""
        if type(target.value) is not ast.Name:
            return
        owner = self.name(target.value.id)
        if type(owner) not in (UserInst, UserClass):
            return
        found, value = owner.info.find_attr(target.attr)
        if found and type(value) is Seq:
            owner.info.attrs[target.attr] = filled_display(value, method)
        elif found and (type(value) is Const and type(value.value) is list or type(value) is Inst and value.cls == arrays.LIST):
            owner.info.attrs[target.attr] = None

    def super_of(self) -> Any:
        func = self.ctx.func
        return Super(func.cls) if func is not None and func.cls is not None else None

    def call(self, node: ast.Call, callee: Any, args: list, keywords: list) -> Any:
        kind = type(callee)
        self.opened_used(callee, args, keywords)
        if kind is Ref:
            return self.call_symbol(node, callee.path, args, keywords)
        if kind is records.Record:
            return records.construct(callee, args, keywords) if callee.values is None else None
        if kind is Member:
            owner = callee.owner
            if owner.cls == arrays.HOST_BATCH:
                return arrays.kept(owner, method=callee.name)
            if owner.cls in (arrays.ARRAY, arrays.GENERATOR):
                return arrays.numpy_method(callee.name, owner, args, keywords)
            if owner.cls == arrays.TFDS_BUILDER:
                return arrays.tfds_as_dataset(owner, args, keywords) if callee.name == "as_dataset" else None
            if owner.cls == SAVED_MODEL_LOAD:
                return self.saved_model_call(node, callee.name, args, keywords)
            if owner.cls == downloads.PATH:
                return downloads.path_method(callee.name, owner, args)
            api = self.table.method(owner.cls, callee.name)
            if api is None and owner.cls == DATASET and callee.name in queues.ITERATOR_MAKERS:
                return queues.iterator(owner)  # TF1's `ds.make_one_shot_iterator()`
            if api is None:
                return None
            if hostwork.encodes(api):  # `tokenizer.texts_to_sequences(texts)`
                self.note_host(hostwork.describe(callee.name, node.lineno, self.module_path), once=not self.ctx.loops)
            features, named = self.record(node, api, args, keywords, owner)
            if callee.name == "get_shape" and arrays.is_sym(owner):
                return symops.shape_value(owner.meta["sym"])
            if callee.name == "set_shape" and owner.cls in _TENSORS:  # its static shape (a queue batches it)
                queues.set_shape(owner, named.get("shape"))
            if callee.name == "get_next" and owner.cls == queues.ITERATOR:  # a batch of its pipeline's elements
                return queues.next_element(owner, self.table.returns(api) or "tensorflow.Tensor")
            self.mark_traced(api, args)
            if api in handed.TRACED_ONCE and _written(named.get(handed.TRACED_ONCE[api]), node):
                self.hand(node, named[handed.TRACED_ONCE[api]], handed.traced(api, node.lineno))
            cut = work_mod.layer_cut(owner, named.get("index"), named.get("name")) if callee.name == "get_layer" else None
            if cut is not None:  # `encoder = Model(m.input, m.get_layer("code").output)`: what feeds that layer
                return Inst(self.table.returns(api) or work_mod.CUT_LAYER, "method", {"cut": cut})
            if callee.name == "run" and api.startswith(DISTRIBUTE):
                self.replica_call(node, named)
            if callee.name == "add" and owner.cls == work_mod.SEQUENTIAL:
                if owner.meta.get("layers") is not None:  # (a list not known: its count stays unknown)
                    added, count = work_mod.stack_layers([named.get("layer")]), owner.meta.get("n_layers", 0)
                    owner.meta["n_layers"] = None if added is None or count is None else count + added
                    owner.meta["layers"] = [*owner.meta["layers"], named.get("layer")]
                    self.stacked(owner.meta, [named.get("layer")])
            if callee.name in work_mod.PREDICTS and work_mod.is_model(owner):  # `features = base.predict(images)`
                return work_mod.output_array(owner, named.get("x"), node.lineno, callee.name, named.get("steps"))
            returns = self.table.returns(api)
            flow: dict[str, Any] = {}
            if owner.cls == feat.IMAGE_DATA_GENERATOR and callee.name in feat.FLOWS:
                augments = hostwork.augments(owner.meta.get("init"), owner.meta.get("init_complete", False))
                if callee.name in hostwork.FILE_FLOWS or augments:
                    flow["host"] = hostwork.describe(f"ImageDataGenerator.{callee.name}", node.lineno, self.module_path)
                    self.note_host(flow["host"])
                elif augments is False:
                    flow["plain"] = True  # arrays in memory, sliced (and rescaled at most): no per-item work
            if returns is None and owner.cls == feat.IMAGE_DATA_GENERATOR and callee.name in feat.FLOWS:
                # a Sequence (`input_kind` of the fit it feeds); drawn from directly, a batch prepared on the spot
                flow["flow"] = callee.name
                data = arrays.flow_data(callee.name, named)
                if data is not None:
                    flow["data"] = data
                return Inst(feat.FLOW_ITERATOR, "method", flow)
            if callee.name in queues.DEQUEUES_MANY and owner.cls in queues.QUEUES:  # a batch of its elements
                found = queues.dequeued(owner, named.get("n"), returns or "tensorflow.Tensor")
                if found is not None:
                    return found
            if callee.name == "compute_gradients" and arrays.is_sym(named.get("loss")):
                return Inst(graphrun.GRADIENTS, "method", {"loss": named["loss"].meta["sym"]})  # what applying them trains
            if returns is None:
                return None
            meta = dict(owner.meta) if returns == owner.cls or (returns == DATASET and "data" in owner.meta) else None
            if meta is not None and returns == DATASET:
                if callee.name in ("batch", "padded_batch") and isinstance(features.get("batch_size"), int):
                    meta["batch_size"] = features["batch_size"]
                elif callee.name == "unbatch":
                    meta.pop("batch_size", None)
                for name, step in mapped.steps_of(callee.name, named):  # `apply(map_and_batch(f, n))`: a map, a batch
                    if name == "batch" and name != callee.name and type(step["batch_size"]) is Const \
                            and type(step["batch_size"].value) is int:
                        meta["batch_size"] = step["batch_size"].value
                    mapped.dataset_step(meta, name, step, node.lineno)
                    if name == "cache":  # the generator runs on the first pass only
                        meta.pop(arrays.GENERATOR_HOST, None)
                    if "data" in meta:
                        data = arrays.dataset_step(name, meta["data"], step)
                        if data is not None and name == "map":  # `map(parse)` of a function returning (x, y)
                            data = self.mapped_static(data, step.get("map_func")) \
                                or mapped.mapped_element(data, step.get("map_func"))
                        if data is None:
                            del meta["data"]
                        else:
                            meta["data"] = data
            if callee.name in graphrun.UPDATE_METHODS and returns == graphrun.OPERATION:
                meta = graphrun.update_meta(owner, callee.name, named, node.lineno, self.built_in)  # what a TF1 step fetches
                if arrays.is_sym(named.get("loss")):  # the graph the loss is computed by
                    meta["sym"] = named["loss"].meta["sym"]
                elif type(given := named.get("grads_and_vars")) is Inst and given.cls == graphrun.GRADIENTS:
                    meta["sym"] = given.meta["loss"]
            return Inst(returns, "method", meta)
        if kind is Inst:
            if callee.cls == SAVED_MODEL_LOAD:
                return self.saved_model_call(node, "__call__", args, keywords)
            if callee.cls == agents.FIT:
                return self.agent_fit(node, callee.meta["agent"], args, keywords)
            if callee.cls == drivers.STUDY_OPTIMIZE:
                return self.search_call(node, drivers.STUDY_OPTIMIZE, args, keywords)
            if callee.cls == graphrun.BACKEND_FUNCTION:  # `f_outputs([x])`: one run of K.function's graph
                self.record(node, graphrun.FUNCTION_CALL, args, keywords, None)
                fed = _items(args[0][1]) if args and not args[0][0] else None
                rows = arrays.rows_of(fed[0]) if fed else None
                self.calls[-1].work.update(graphrun.function_work(callee.meta["line"], rows, callee.meta["net"]))
                return None
            api = self.table.method(callee.cls, "__call__")
            if api is None:
                return None
            _, named = self.record(node, api, args, keywords, callee)
            returns = self.table.returns(api)
            inputs = work_mod.layer_call_inputs(callee, args[0][1] if args and not args[0][0] else None, named)
            return Inst(returns, "method", self.layer_output(callee, inputs, node, self.instance)) if returns else None
        if kind is UserFunc:
            if callee.info.graph_function and not _traced(self.ctx.func):
                if not self.exporting:
                    self.record(node, TRACED_CALL, args, keywords, None)
                    self.traced_calls.append((self.calls[-1], callee.info))
                if self.trained_models(callee.info.node, [callee.info.node]):  # a training step: where a wrapper spends its work
                    where = os.path.basename(self.imports.path) if self.imports is not None else "its module"
                    self.spent_through(Spent(TRACED_CALL, f"{callee.info.node.name} at {where} line {node.lineno}", ()))
            outer = self.ctx.func
            if not self.ctx.tapes and not (outer is not None and outer.taped):
                if not self.exporting and callee.info is not outer:
                    self.own_calls.append((node, callee.info, len(callee.info.callers), self.loop_features()))
                value = self.result_of(callee.info, args, keywords, node)
                self.piped_through(callee.info.pipes)
                on_self = isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                    and node.func.value.id == "self"
                self.spent_through(callee.info.runs, by_self=on_self)
                host = self.host_through(callee.info, self.host_for(callee.info, args, keywords))
                code = (callee.info.node, self.module_functions())
                host = self.own_host_work(node, callee.info.host_sited, host, code, args, keywords, value, callee.info)
                own = self.instantiated(callee.info, args, keywords, value, defined=callee.scope)
                own = own if own is not None else self.another(callee.info, value)
                return self.prepared(own if own is not None else value, host, node.lineno)
            # `loss = compute_loss(model, x)` under a tape, or `model.encode(x)` in it: a training step
            callee.info.taped = True
            callee.info.tape_callers.append((outer, bool(self.ctx.tapes)))
            value = self.result_of(callee.info, args, keywords, node)
            self.piped_through(callee.info.pipes)
            if callee.info.step_line is not None:  # the tape's gradient is counted in that step
                if self.ctx.tapes:
                    self.ctx.step_line = self.tape_steps.setdefault(id(self.ctx.tapes[-1]), callee.info.step_line)
                elif outer is not None:
                    outer.step_line = outer.step_line or callee.info.step_line
            return value
        if kind is UserClass:
            init = callee.info.find_method("__init__")
            if init is not None:  # each instantiation is a call of it, walked or not
                self.result_of(init, args, keywords, node)
                if init.has_parameters and (self.tf_base(callee.info) or callee.info.find_method("__call__")):
                    # a layer (or a callable block of layers) of the project: each its own sizes
                    return UserInst(callee.info, self.bind_call(init, args, keywords))
            return UserInst(callee.info)
        if kind is Foreign:
            self.applied(node, args)
            return _unknown_on_sym(node, args, self.instance) or callee
        if kind is Composed:
            return self.composed_call(node, callee, args, keywords)
        if kind is Bound:  # `model.train(...)` of `model.train = types.MethodType(train, model)`
            return self.call(node, callee.func, [*callee.args, *args], [*callee.keywords, *keywords])
        if kind is Choice:  # one of them runs (each at most as often as this call): what they return where they agree
            first = len(self.calls)
            picked, self.ctx.picked = self.ctx.picked, True
            try:
                results = [self.call(node, item, args, keywords) for item in callee.items]
            finally:
                self.ctx.picked = picked
            self.calls[first:] = _once_per_api(self.calls[first:], {id(node)})  # one call here, whichever runs
            value = MISSING
            for result in results:
                value = merge(value, result)
            if value is None:  # (`{"adam": adam, "sgd": sgd}[name](params, grads)`: each one's update, a train op)
                return symjoin.either_path(results) or self.joined(results) or self.registry_model(callee.items, results)
            return None if value is MISSING else value
        if kind is ExtFunc:
            self.wrapper_call(node, callee.runs, callee.bound, args, keywords, callee.beside)
            if callee.runs is None and callee.code is not None:
                self.given_function_call(node, callee.code, args, keywords, callee.returns)
            template = callee.template
            self.piped_through(template is not None and template.info.pipes)
            done = template is not None and template.info.state is Walk.DONE
            called = self.host_for(template.info, args, keywords, template.functions) if template and done else None
            host = self.host_through(callee, called)
            value = fresh(callee.returns)
            host = self.own_host_work(node, callee.sited, host, callee.code, args, keywords, value)
            graph = wrapped.built(self, callee.bound, args, keywords) if callee.bound is not None and not self.exporting else None
            if graph is not None:
                return graph  # `reader.dequeue(n)`: the tensors for this construction and these arguments
            if template is None or template.info.state is not Walk.DONE:
                return self.prepared(value, host, node.lineno)
            own = self.instantiated(template.info, args, keywords, value, template.functions)
            if own is None or not arrays.unsized_generator(value):
                return value if own is None else self.prepared(own, host, node.lineno)  # (a model built for these arguments)
            # its batches for these arguments; the rest (host work, named in its own file) as its module found it
            data = own.meta["data"]
            note = f"{data.batch_note}, for the arguments this call passes"  # (a notebook's lines are the cells')
            return Inst(value.cls, value.how, {**value.meta, "data": replace(data, batch_note=note)})
        if kind is ExtClass:
            init = callee.templates.get("__init__")
            return ExtInst(callee, self.bind_arguments(init.info, args, keywords) if init is not None else None)
        if kind is ExtInst:
            base = callee.cls.tf_base
            if "__call__" in callee.cls.methods:
                runs = callee.cls.runs.get("__call__")
                if runs is None and base and work_mod.is_model(Inst(base, "subclass")):
                    # a Keras model overriding `__call__` itself: calling it still runs the model forward
                    self.call(node, Member(Inst(base, "subclass"), "__call__"), args, keywords)
                self.wrapper_call(node, runs)
                value = fresh(callee.cls.methods["__call__"])
                template = callee.cls.templates.get("__call__")
                own = self.instantiated(template.info, args, keywords, value, template.functions) if template else None
                return value if own is None else own  # (the ops it applies to the tensor given)
            if not base:
                return None
            value = self.call(node, Member(Inst(base, "subclass"), "__call__"), args, keywords)
            if arrays.is_sym(value) or work_mod.is_model(Inst(base, "subclass")):
                return value
            # a Keras layer of another module whose `call` is not followed: its output of unknown shape, the
            # model built on it keeping the known layers' work as a floor (as a project layer on an unknown base)
            return _unknown_on_sym(node, args, self.instance) or value
        if kind is UserInst:
            method = callee.info.find_method("__call__")
            if method is not None:
                value = self.result_of(method, args, keywords, node)
                if method.state is Walk.PENDING:  # put off (`w(x)` thrown away): this site needs its runs
                    self.walk_function(method)
                # its body's sites cannot count the calls of an instance: it is a call site here, as
                # another module's instance is (`act = ActWrapper(act)` ... `act(obs)` once per step)
                self.wrapper_call(node, method.runs)
                own = self.own_call(callee, method, args, keywords, value)  # (a block of layers on a tensor)
                return value if own is None else own
            found, value = callee.info.ext_member("__call__")
            if found:
                return self.call(node, value, args, keywords)
            base = self.tf_base(callee.info)
            if base:
                receiver = self.subclass_instance(callee.info, base, "__call__", callee.passed)
                # a layer's subclass: the base layer's forward pass on the tensors given (its output's graph)
                forward = receiver if work_mod.is_layer(receiver) and not work_mod.is_model(receiver) \
                    else Member(receiver, "__call__")
                value = self.call(node, forward, args, keywords)
                own = self.own_layer_call(callee, receiver, args, keywords, value)
                return value if own is None else own
            return _unknown_on_sym(node, args, self.instance)  # a layer of the project on a base greenlint does not know
        if callee is None and type(node.func) is ast.Name and not self.scope.lookup(node.func.id)[0]:
            if node.func.id == drivers.PER_ELEMENT:  # `map(score, rows)`: score called once per row
                converted = _converted_literals(node, args, self.scope.lookup)
                return converted if converted is not None else self.mapped(node, args)
            if node.func.id == by_name.DUNDER_IMPORT:
                return self.module_named(node.func.id, node, args, keywords)
            if node.func.id == "sum" and len(args) == 1 and not args[0][0]:
                summed = _summed(args[0][1], _node_key(node, self.instance))
                if summed is not None:
                    return summed
            return self.builtin_call(node.func.id, args, keywords, node.lineno)
        if callee is None:
            self.applied(node, args)
        return _unknown_on_sym(node, args, self.instance) if callee is None else None

    def stacked_on(self, model: Inst, given: Any) -> Inst:
        """A Sequential, or a subclassed model's layers in the order its `__init__` creates them
        (`work.sub_layers`), holding layers of the project and declaring no input, as built on what a call
        gives it (`fit(x)`: its data's per-sample shape, `stacked`): a copy of *model* holding that graph,
        else *model*."""
        items = _stack(model.meta)
        if not any(type(item) is UserInst for item in items):
            return model
        shape = work_mod.given_shape(given)
        if shape is None or None in shape:
            return model
        key = (id(model.meta), len(items), shape)  # (once a model, its layers and a shape: each call of them reads it)
        if key in self.stacks and self.stacks[key][0] is model.meta:
            return self.stacks[key][1]
        meta = {**model.meta}
        self.stacked(meta, items, shape)
        built = Inst(model.cls, model.how, meta) if "graph" in meta else model
        self.stacks[key] = (model.meta, built)
        return built

    def stacked(self, meta: dict, added: list | None, shape: tuple | None = None) -> None:
        """A Sequential (*meta*) holding a layer of the project (`Sequential([ConvBlock(64), ...])`): its
        layers applied in turn to a symbolic tensor of its declared input (else *shape*, the data's: `stacked_on`),
        each of the project through its
        `call` (`own_layer_call`, its `__init__` first for what its construction passed), so that the layers
        those build add their work: the model's `graph`, which each `add` (*added*) extends. Nothing where
        none is of the project or its input is not declared; no graph where a layer's output is not known
        (`work.sequential_net` counts its layers then, the unknown among them named)."""
        items, graph = _stack(meta), meta.get("graph")
        if graph is None:
            if self.exporting or not any(type(item) is UserInst for item in items):
                return
            shape = work_mod.declared_input(items) or shape
            if shape is None or None in shape:
                return
            order = work_mod.IN_CREATION_ORDER if meta.get("layers") is None else None
            graph, added = arrays.Sym(shape, shape, sized=order), items
        x = Inst(KERAS_TENSOR, "factory", {"sym": graph})
        for item in added or ():
            if item is items[0] and arrays.is_sym(item) or type(item) is Inst and item.cls.endswith(".InputLayer"):
                continue
            x = self.stacked_layer(item, x, ("stacked", id(meta), len(x.meta["sym"].layers)))
            if not arrays.is_sym(x):
                meta.pop("graph", None)
                return
        meta["graph"] = x.meta["sym"]
        count = work_mod.graph_layers(meta["graph"])
        if count is not None:
            meta["n_layers"] = count

    def stacked_layer(self, item: Any, x: Inst, key: Hashable) -> Any:
        """What a Sequential's *item* gives for the symbolic tensor *x* (`stacked`), keyed *key* in the graph:
        a Keras layer's or model's output, a project layer's through its `call`; None where not known."""
        if type(item) is UserInst:
            base = self.tf_base(item.info)
            if not base:
                return None
            receiver = self.subclass_instance(item.info, base, "__call__", item.passed)
            if not work_mod.is_model(receiver):
                return self.own_layer_call(item, receiver, [(False, x)], [], None)
            item = receiver
        found = work_mod.layer_on_sym(item, x, key) if work_mod.is_layer(item) \
            else work_mod.model_on_sym(item, x, key) if work_mod.is_model(item) else None
        return Inst(KERAS_TENSOR, "factory", {"sym": found}) if found is not None else None

    def own_layer_call(self, layer: UserInst, receiver: Inst, args: list, keywords: list, value: Any) -> Any:
        """A Keras layer of the project (`class TransformerBlock(layers.Layer)`) called on symbolic tensors:
        its `call` walked with them (`instantiated`; on Keras' merge base, its `_merge_function`, which that
        base's `call` runs), so that the layers its `__init__` built and its
        `call` applies (`self.att(x, x)`, `self.ffn(x)`) add their work to the graph; with `__init__`
        walked first for what this instance's construction passed (`Block(16)`, `Block(32)`: each its
        own sizes); None where it is a model (its own layers are `sub_layers`), defines no `call`, is not
        given symbolic tensors or its `call` does not give one."""
        method = layer.info.find_method(layer.info.forward)
        if method is None or work_mod.is_model(receiver):
            return None
        return self.own_call(layer, method, args, keywords, value)

    def own_call(self, layer: UserInst, method: FuncInfo, args: list, keywords: list, value: Any) -> Any:
        """What *method* of a project instance (*layer*) gives for symbolic tensors (`instantiated`),
        `__init__` walked first for what the instance's construction passed, where kept; None where
        that is not a symbolic tensor."""
        init = layer.info.find_method("__init__")
        if layer.passed is None or init is None or init.state is not Walk.DONE or id(init) in self.unrolling \
                or not any(arrays.is_sym(v) for _, v in (*args, *keywords)):
            own = self.instantiated(method, args, keywords, value)
        else:
            with self.constructed(init, layer.passed):
                own = self.instantiated(method, args, keywords, value)
        return own if arrays.is_sym(own) else None

    def folded(self, node: ast.Call, args: list) -> Any:
        """`functools.reduce(fn, funcs[, x])` over callables (builders.composition): the functions
        composed into one, or x passed through them; None for any other fold."""
        if len(args) not in (2, 3) or len(node.args) != len(args) or any(starred for starred, _ in args):
            return None
        found = builders.composition(node.args[0], args[1][1], args[2][1] if len(args) == 3 else MISSING)
        if found is None:
            return None
        kind, items = found
        if kind == "compose":
            return Composed(items)
        return self.composed_call(node, Composed(items), [args[2]], []) if items is not None else None

    def composed_call(self, node: ast.Call, callee: Composed, args: list, keywords: list) -> Any:
        """Calling composed functions (`compose(Conv2D(32, 3), BatchNormalization())(x)`): each called on
        what the one before returned, the first with the call's arguments; each step at a node of its
        own (a copy of the call's), so that the layers it applies count apart in the graph."""
        if callee.items is None:
            return _unknown_on_sym(node, args, self.instance)
        value: Any = None
        depth = len(self.composing)  # (a composition's item may be one itself: its steps at nodes of their own too)
        if not depth:
            self.composing.append(len(self.calls))  # where the outermost call's sites start
        self.composing.append(id(node))
        try:
            for i, item in enumerate(callee.items):
                step = node if i == 0 else self.steps.setdefault((id(node), depth, i), copy.copy(node))
                self.composing.append(id(step))
                value = self.call(step, item, args, keywords) if i == 0 else self.call(step, item, [(False, value)], [])
        finally:
            if not depth:  # the sites of the call and its steps: one per API it applies
                first, *nodes = self.composing
                self.calls[first:] = _once_per_api(self.calls[first:], set(nodes))
                self.composing = []
        return value

    def replica_call(self, node: ast.Call, named: dict) -> None:
        """`strategy.run(step_fn, args=(x,))`: *step_fn* is called here, on each replica, with
        those arguments (a call of it, like any other, for its parameters and its runs); from a
        tf.function, it is traced into that function's graph."""
        fn = named.get("fn")
        if type(fn) is not UserFunc:
            return
        if _traced(self.ctx.func):  # run from a tf.function: fn is traced into its graph
            fn.info.tf_function = True
        given = named.get("args")
        items = given.items if type(given) is Seq else tuple(Const(v) for v in given.value) \
            if type(given) is Const and isinstance(given.value, (tuple, list)) else None
        self.result_of(fn.info, [(False, item) for item in items or ()], [], node)

    def saved_model_call(self, node: ast.Call, name: str, args: list, keywords: list) -> None:
        """A call on what `tf.saved_model.load` returned: its restored functions have no catalog
        entry, so the site is named as the measured data names them,
        `tensorflow.saved_model.load.<name>` (`...signatures.__call__` for a signature); the
        result is unknown."""
        api = f"{SAVED_MODEL_LOAD}.{name}" + (".__call__" if name == "signatures" else "")
        self.record(node, api, args, keywords, None)
        return None

    def call_symbol(self, node: ast.Call, path: str, args: list, keywords: list) -> Any:
        root = path.partition(".")[0]
        if path in _BINDERS:
            return self.bound_later(node, args, keywords)
        if path in builders.ATTRIBUTE_BAGS:
            return builders.bag(args, keywords)
        if path == entry_runners.ABSL_RUN:  # absl's `app.run(main)`
            return self.entry_run(node, args, keywords)
        if path == builders.REDUCE:
            return self.folded(node, args)
        if path in _MATH:
            return _math_call(path, args)
        if path == by_name.IMPORT_MODULE:
            return self.module_named(path, node, args, keywords)
        if path == records.NAMEDTUPLE:
            return records.make_class(args, keywords)
        if path in tutorial_mnist.PATHS:  # TF1's `input_data.read_data_sets(...)`: MNIST's splits
            return tutorial_mnist.read_data_sets(args, keywords)
        if path in drivers.STUDY_MAKERS:  # `optuna.create_study()`: a study, whose `optimize` searches
            return Inst(drivers.STUDY, "factory")
        if path in drivers.SEARCHES:  # `gp_minimize(fitness, space, n_calls=40)`: fitness called per trial
            return self.search_call(node, path, args, keywords)
        if path in drivers.PATHS:
            return self.driver_call(node, path, args, keywords)
        if tfgan.is_path(path):
            return self.gan_call(node, path, args, keywords)
        if path in kerasext.CALLBACKS:  # `tfa.callbacks.TimeStopping(seconds=5)`: its literal arguments
            params, defaults = kerasext.CALLBACKS[path]
            named = feat.argument_values(list(params), args, keywords)
            init = {k: v for k, v in defaults.items() if k not in named}  # a value not a literal: unknown
            return Inst(path, "constructor", {"init": {**init, **feat.literal_features(named)}})
        if root in environments.ROOTS:
            return environments.make(path, args, keywords)
        if agents.agent_path(path):
            return agents.make(path, args, keywords)
        if path in hostwork.LAZY:  # PIL's open: decoded where its pixels are used (`opened_used`)
            return Inst(hostwork.OPENED, "opened", {"host": hostwork.describe(path, node.lineno, self.module_path)})
        if path in hostwork.SPLITS:  # `re.findall(pattern, text)`: the text's pieces, worked on where looped over
            return self.pieces(path.partition(".")[2], node.lineno)
        if root in hostwork.ROOTS or hostwork.decodes(path):  # OpenCV, PIL, ...: nothing valued, decodes noted
            if hostwork.decodes(path):
                self.note_host(hostwork.describe(path, node.lineno, self.module_path), once=not self.ctx.loops)
            return None
        if path in downloads.SAME_PATH and args and downloads.downloaded(args[0][1]) is not None:
            return args[0][1]  # `pathlib.Path(get_file(...))`: the same downloaded path
        if root in DATA_ROOTS:
            found = self.files.call(path, args, keywords, node.lineno) or arrays.data_call(path, args, keywords)
            if found is None and path == "numpy.load":
                found = downloads.np_load(args, keywords)
            if found is None and path in _ROWS_PER_ITEM and node.args and (display_items := _written_items(node.args[0])):
                found = arrays.rows_per_item(len(display_items))  # `np.array([obs])`: one row, obs unknown
            return FOREIGN if found is None and root in untyped.FOREIGN_ROOTS else found  # an estimator
        if root not in TF_ROOTS and (root in kerasext.ROOTS or self.library(root)):
            cls = path.rpartition(".")[0] if path.rpartition(".")[2] in kerasext.CONSTRUCTORS else path
            return kerasext.library_call(cls, self.library_base(cls))
        sym = self.table.symbol(path)
        if sym is None and root in TF_ROOTS and slim.is_arg_scope(path):
            return slim.arg_scope(args, keywords, self.arg_scopes[-1])
        if sym is None and root in TF_ROOTS and (layer := slim.function(path)) is not None:  # `slim.conv2d(x, 64, 3)`
            found = slim.on_sym(layer, args, keywords, self.arg_scopes[-1], _node_key(node, self.instance))
            return Inst("tensorflow.Tensor", "factory", {"sym": found} if found is not None else {})
        if sym is None and (found_driver := slim_training.driver(path)) is not None:  # `slim.learning.train(op, ...)`
            return self.train_driver_call(node, *found_driver, args, keywords)
        if sym is None and slim_training.creates_train_op(path):  # `slim.learning.create_train_op(loss, opt)`
            return self.created_train_op(node, args, keywords)
        if sym is None and path in symops.NORMALISATIONS and args and not args[0][0]:  # TF1's contrib.layers
            found = symops.on_sym(path, {"inputs": args[0][1]}, _node_key(node, self.instance))
            return Inst("tensorflow.Tensor", "factory", {"sym": found} if found is not None else {})
        if sym is None or sym[1] == "module":
            return None
        api, kind, returns = sym
        if hostwork.decodes(api) or hostwork.encodes(api):
            self.note_host(hostwork.describe(api.rpartition(".")[2], node.lineno, self.module_path), once=not self.ctx.loops)
        features, named = self.record(node, api, args, keywords, None)
        if api in layers_mod.DATA_FORMAT_READS and self.instance:
            # `if K.image_data_format() == "channels_last":` in a walk for one call's values (`shadowed`): the
            # format the layer rules read; the ordinary walk leaves it unknown (a `keras.json` setting: neither
            # branch is unreached code)
            return Const(layers_mod.DATA_FORMAT)
        merge = self.calls[-1].merge
        self.mark_traced(api, args)
        if api in handed.UNCOUNTED:  # `tf.map_fn(f, elems)`, `Lambda(f)`: f called where greenlint cannot count
            for func, how in handed.uncounted(api, named, node.lineno):
                if _written(func, node):
                    self.hand(node, func, how)
        if api in entry_runners.TF_RUNNERS:  # TF1's `tf.compat.v1.app.run(main)`
            return self.entry_run(node, args, keywords)
        if api == TF_FUNCTION and args and not args[0][0] and type(args[0][1]) is UserFunc:
            args[0][1].info.graph_function = True  # `step = tf.function(train_step)`: calling it runs the graph
            return args[0][1]
        if api.startswith("tensorflow.keras.datasets.") and api.endswith(".load_data"):
            return arrays.keras_dataset(api)
        if api == downloads.GET_FILE:
            return downloads.fetched(named)
        if api in FILE_WRITERS:
            self.wrote_file(node, api)
        if api == SAVED_MODEL_LOAD:
            return Inst(SAVED_MODEL_LOAD, "factory")
        if api in handwritten.GRADIENTS and arrays.is_sym(named.get("ys")):  # a hand-written update's loss
            self.ctx.gradients.append(named["ys"].meta["sym"])
        if api == graphrun.CONTROL_DEPENDENCIES:  # the ops built under it run these first
            ops = named.get("control_inputs")
            return Inst(api, "factory", graphrun.grouped([ops]) if ops is not None else {})
        if api in queues.ITERATOR_FUNCTIONS:
            return queues.iterator(named.get("dataset"))  # `tf.data.make_one_shot_iterator(ds)`
        if api in queues.BATCHES and (batch := queues.batched(api, named, returns or "tensorflow.Tensor")) is not None:
            return batch  # `tf.train.batch([image, label], 32)`: tensors of its element's shape and that batch
        if api in symops.SHAPE_OPS and type(shaped := named.get("input", named.get("x"))) is Inst and arrays.is_sym(shaped):
            return symops.shape_value(shaped.meta["sym"])  # `tf.shape(x)` of a symbolic tensor, as `x.shape`
        if api in symops.SHAPE_OPS and (known := queues.known_shape(named.get("input", named.get("x")))) is not None:
            return known  # `tf.shape(image)` of an element of known static shape: TF folds it to a constant
        if api == work_mod.MODEL_TO_ESTIMATOR:  # an Estimator that trains and runs that Keras model
            model = named.get("keras_model")
            return Inst(work_mod.ESTIMATOR, "factory", {"estimator_model": model} if work_mod.is_model(model) else {})
        if api == graphrun.BACKEND_FUNCTION:  # its outputs' graph, where they are a model's: its FLOPs
            graph = work_mod.functional_model(named)
            net = work_mod.model_work(Inst(untyped.MODEL, "factory", {"graph": graph})) if graph else {}
            return Inst(graphrun.BACKEND_FUNCTION, "factory", {"line": node.lineno, "net": net})
        if returns is None and api == graphrun.NO_OP:  # (not in the catalog) an op: what it is built under runs first
            returns = graphrun.OPERATION
        if returns is None and kind == "function" and (symops.returns_tensor(api) or queues.image_op(api)):
            returns = "tensorflow.Tensor"  # `tf.nn.leaky_relu(conv)`, `tf.image.convert_image_dtype(image)`: not in the catalog
        if returns is None:
            return None
        if merge is not None:  # `concatenate([a, b], axis=3)` on symbolic tensors: the merged graph
            return Inst(returns, "factory", self.layer_output(merge, named.get("inputs"), node, self.instance) or {})
        meta: dict[str, Any] = {}
        used = options_of(named.values())
        if used:  # `Dense(FLAGS.width)`: its size is an option's default (a model built of it says so)
            meta["options"] = used
        init = {k: v for k, v in features.items() if k not in _CONTEXT_KEYS}
        if init:
            meta["init"] = init
        application = api.startswith("tensorflow.keras.applications.") and kind == "function"
        unread = layers_mod.unread(named, init, any(name is None for name, _ in keywords),
                                   work_mod.APPLICATION_OPTIONS if application else layers_mod.DEFAULTED) \
            if application or kind == "class" and api.startswith(work_mod.LAYERS) else ()
        if unread:  # `Conv2D(8, 3, padding=pad)`: not its default's work (work.apply_layer); `ResNet50(pooling=p)`
            meta["unread"] = unread
        if "trainable" in named and "trainable" not in init:  # `Dense(8, trainable=flag)`: not known (trainable.py)
            meta["trainable"] = None
        if api == feat.IMAGE_DATA_GENERATOR:  # whether `init` is all it was given (hostwork.augments)
            meta["init_complete"] = not node.args and all(k.arg in init for k in node.keywords)
        if api == work_mod.SEQUENTIAL:
            layers = named.get("layers")
            items = _items(layers) if "layers" in named else []
            count = work_mod.stack_layers(items) if items is not None else None
            if count is not None:
                meta["n_layers"] = count
            meta["layers"] = items
            self.stacked(meta, items)
        if application:
            meta["model_name"] = api.rpartition(".")[2]
        if kind == "class" and api.startswith(work_mod.LAYERS):
            meta["site_work"] = self.calls[-1].work  # filled in once a model places the layer
        written = self.files.files_under(named.get("directory"), api, _labelled(named)) if api in READ_ENDINGS else None
        self.work_meta(api, named, features, meta, [v for starred, v in args if not starred], written)
        if api in handed.CALLBACK_MAKERS:  # the functions it was built from, called by the fit given it
            hands = tuple((per, f) for per, f in handed.made_from(api, keywords, named) if _written(f, node))
            if hands:
                meta[handed.HANDS] = hands
        if api == arrays.FROM_GENERATOR and _written(named.get("generator"), node):
            self.hand(node, named["generator"], handed.per_pass(node.lineno))
        if api == arrays.FROM_GENERATOR and not self.exporting:
            host = self.generator_host(named.get("generator"))
            if host is not None:
                meta[arrays.GENERATOR_HOST] = host
        if kind == "class" and type(named.get("model_fn")) is UserFunc and not self.exporting:
            model_work = self.model_fn_work(named["model_fn"].info)
            if model_work:  # `tf.estimator.Estimator(model_fn=f)`: the model f runs (work.estimator_work)
                meta["estimator_work"] = model_work
        if api == "tensorflow.keras.Input" and "sym" in meta:
            self.sized_input(meta)
        meta.update(global_step.session_meta(api, named))  # a monitored session's hooks
        if api == graphrun.GROUP:  # `tf.group(update_ops, train_op)`: a training step's op
            meta.update(graphrun.grouped([v for starred, v in args if not starred]))
        if api == graphrun.SAVER:  # `tf.train.Saver()`: every variable of the graph built so far
            meta.update(graphrun.saver_meta(named, node.lineno))
        if self.ctx.dependencies and kind == "function" and (returns in _TENSORS or returns == graphrun.OPERATION):
            graphrun.dependent(meta, self.ctx.dependencies)
        if kind == "function" and returns in _TENSORS and "sym" not in meta:  # an op on symbolic tensors
            found = symops.on_sym(api, named, _node_key(node, self.instance), any(name is None for name, _ in keywords))
            if found is not None:
                meta["sym"] = found
                parts = symops.split_parts(api, named, found)
                if parts is not None:  # `a, b = tf.split(x, 2, axis=-1)` of a symbolic tensor
                    return Seq(tuple(Inst(returns, "factory", {**meta, "sym": part}) for part in parts))
            elif "shape" not in meta and (static := queues.static_result(api, named)) is not None:  # `tf.image.resize_images(image, [286, 286])`
                meta[queues.STATIC_SHAPE] = static
        if type(meta.get("data")) is tuple:  # `subset="both"`: (training, validation)
            return Seq(tuple(Inst(returns, "factory", {**meta, "data": data}) for data in meta["data"]))
        value = Inst(returns, "constructor" if kind == "class" else "factory", meta)
        if not self.exporting and work_mod.is_model(value):  # the model's site (and its layers') get work
            self.calls[-1].work.update(work_mod.model_work(value))
        return value

    @staticmethod
    def work_meta(api: str, named: dict, features: dict, meta: dict, positional: list,
                  written: tuple[int, str] | None = None) -> None:
        """What a TF constructor's value carries for work inference (arrays.py, work.py); *written*: the files
        the program wrote into the folder a `*_dataset_from_directory` reads (files.WrittenFiles.files_under)."""
        if api == "tensorflow.keras.Input":
            shape = arrays.input_shape(named.get("shape"))  # None dimensions allowed (sequences)
            if shape is not None:
                meta["sym"] = arrays.Sym(shape, shape)
        elif api == symops.PLACEHOLDER:
            found = symops.placeholder(named)
            if found is not None:
                meta["sym"] = found[0]
        elif api == "tensorflow.keras.models.clone_model" and work_mod.is_model(named.get("model")):
            source = named["model"].meta  # the same architecture, fresh weights
            meta.update({k: source[k] for k in ("layers", "graph", "sub_layers", "model_name", "init", "n_layers")
                         if k in source})
        elif api in ("tensorflow.keras.Model", "tensorflow.keras.Functional"):
            graph = work_mod.functional_model(named)
            if graph is not None:
                meta["graph"] = graph
                count = work_mod.graph_layers(graph)
                if count is not None:
                    meta["n_layers"] = count
        elif api in work_mod.CHECKPOINTS:  # the Keras models a checkpoint writes (its `save` writes their weights)
            meta[SAVED] = work_mod.checkpointed(api, named)
            meta[TRACKED] = work_mod.tracked(api, named)
        elif api.startswith(work_mod.LAYERS) and "layer" in named:  # Bidirectional, TimeDistributed
            meta["wrapped"] = named["layer"]
        elif api == mapped.MAP_AND_BATCH:  # the transformation a dataset's `apply` makes
            meta[mapped.MAP_AND_BATCH] = {"map_func": named.get("map_func"), "batch_size": named.get("batch_size")}
        elif arrays.is_dataset_source(api):
            data = arrays.dataset_source(api, named, positional)
            if data is not None:
                meta["data"] = downloads.from_directory(data, named, written) if api in arrays.FROM_DIRECTORY else data
        else:
            shape = ops.result_shape(api, named)
            if shape is not None:
                meta["shape"], meta["shape_prov"] = shape, "inferred"

    def sized_input(self, meta: dict) -> None:
        """`keras.Input(shape=(None, None, 3))` in a function told the image size (`def create_model(input_shape)`,
        `input_shape = (416, 416)`): its free sides of that size, where the function's call states it
        (builders.stated_size); left free otherwise."""
        func = self.ctx.func
        sym = meta["sym"]
        if func is None or isinstance(func.node, ast.Lambda) or sym.shape is None or None not in sym.shape:
            return
        params = _positional(func) + [arg.arg for arg in func.node.args.kwonlyargs]
        found = builders.stated_size(sym.shape, {name: self.name(name) for name in params}, func.node.name)
        if found is not None:
            meta["sym"] = arrays.Sym(found[0], found[0], sized=found[1])

    @staticmethod
    def layer_output(layer: Inst, inputs: Any, node: ast.Call, instance: int = 0) -> dict | None:
        """What calling a layer on a symbolic or shaped tensor gives (its meta), if known; *instance*:
        the walk making the call (`shadowed`: the same line called again adds its own FLOPs)."""
        key = _node_key(node, instance)
        if work_mod.is_model(layer) and (type(inputs) is Seq or arrays.is_sym(inputs)):
            sym = work_mod.model_on_sym(layer, inputs, key)  # `features = backbone(inputs)`
            return {"sym": sym} if sym is not None else None
        if work_mod.is_model(layer) and arrays.shape_of(inputs):  # an eager call on an array or tensor of known shape
            output = work_mod.output_array(layer, inputs, node.lineno)
            return output.meta if output is not None else None
        if not work_mod.is_layer(layer):
            return None
        if type(inputs) is Seq or arrays.is_sym(inputs):
            sym = work_mod.layer_on_sym(layer, inputs, key)
            return {"sym": sym} if sym is not None else None
        shape = arrays.shape_of(inputs)
        if shape and shape[0] is not None:
            found = work_mod.apply_layer(layer, [tuple(shape[1:])])
            if found is not None:
                return {"shape": (shape[0], *found.shape), "shape_prov": "inferred"}
        return None

    @staticmethod
    def mark_traced(api: str, args: list) -> None:
        """`tf.function(f)`, `ds.map(f)`, `ds.map(lambda ...)`: f's body runs as a graph."""
        if api in TRACING and args and type(args[0][1]) is UserFunc:
            args[0][1].info.tf_function = True

    def builtin_call(self, name: str, args: list, keywords: list, line: int) -> Any:
        """Literal arithmetic the features need: len, int, float, min, max, abs, round; `object()`,
        `open(...)`, `str(...)` give foreign values (never a model: no untyped `.fit(` on them);
        `dict(k=v)` a keyword dict (builders.built_dict)."""
        if name in _FOREIGN_BUILTINS:
            return FOREIGN
        if name == "dict":
            return builders.built_dict(args, keywords)
        if name == "getattr" and len(args) == 2 and type(args[0][1]) in (Ref, ExtModule) and type(args[1][1]) is Const \
                and isinstance(args[1][1].value, str) and not any(starred for starred, _ in args):
            return self.attribute(args[0][1], args[1][1].value)  # `getattr(applications, cfg.model.name)`
        if name == "next" and args and not args[0][0]:
            batch = arrays.drawn(args[0][1], line)  # a batch of a generator that decodes files
            if batch is not None:
                return batch
        if name == "zip" and args and not any(starred for starred, _ in args):
            return arrays.zipped([value for _, value in args])
        if name == "len" and len(args) == 1 and not args[0][0] and type(args[0][1]) is Seq \
                and args[0][1].items and all(map(arrays.is_sym, args[0][1].items)):
            return Const(len(args[0][1].items))  # `len(layers)` of the graph's tensors a loop walked trip by trip appended
        if name == "len" and len(args) == 1 and not args[0][0] and type(args[0][1]) is Inst:
            rows = arrays.rows_of(args[0][1])  # `len(x)` of an array whose rows are known (or bounded)
            return Const(rows) if type(rows) is int else arrays.rows_count(args[0][1])
        values = [value.value for starred, value in args if not starred and type(value) is Const]
        if len(values) != len(args) or not values or any(v is NotImplemented for v in values):
            plain = len(args) > 1 and not keywords and not any(starred for starred, _ in args)
            return arrays.least_of([value for _, value in args]) if name == "min" and plain else None
        option = next((value.option for _, value in args if value.option), "")  # `int(n / args.batch_size)`
        try:
            if name == "len" and len(values) == 1 and isinstance(values[0], (str, tuple, list)):
                return Const(len(values[0]))
            if name in ("int", "float", "abs", "round") and len(values) == 1 and _is_number(values[0]):
                return Const({"int": int, "float": float, "abs": abs, "round": round}[name](values[0]), option)
            if name in ("min", "max") and all(_is_number(v) for v in values):
                return Const((min if name == "min" else max)(values), option)
        except (ValueError, OverflowError, TypeError):
            return None
        return None

    def record(self, node: ast.Call, api: str, args: list, keywords: list, owner: Inst | None) -> tuple[dict, dict]:
        """Record a TF call site; its (features, argument values by parameter name)."""
        params = self.table.params(api)
        named = feat.legacy_fit_arguments(api, feat.argument_values(params, args, keywords))
        if api.startswith("tensorflow.keras.") and api.endswith(".compile"):
            _mark_compiled(named)
        if owner is not None and work_mod.is_model(owner):  # what its training calls train from here on (trainable.py)
            trainable.seen(owner.meta, api.rpartition(".")[2], self.ctx.branches > 0, id(self.ctx.func))
            if api.endswith(".compile"):  # `run_eagerly=True`: its training step's tape is not traced (trainable.py)
                owner.meta[trainable.EAGERLY] = named.get("run_eagerly", Const(False)) not in (Const(False), Const(None))
            if api.endswith(".compile"):  # its optimizer's slots, which a save of the whole model writes
                slots.compiled(owner.meta, named.get("optimizer"), self.ctx.branches > 0)
        if api.endswith(".apply_gradients") and type(owner) is Inst and owner.cls.startswith(slots.KERAS_PATH):
            slots.applied(owner.meta, self.applied_model(node))  # the model its slots are kept for
        features = feat.literal_features(named)
        features.update(feat.tensor_features(api, named))
        features.update(self.loop_features())
        self.step_traces(node, api, owner, named, features)
        local = None if self.exporting else self.place(node, params)  # other modules read none
        if self.ctx.keras_step:
            features["in_keras_step"] = True
        if owner is not None:
            for key, value in feat.receiver_features(owner).items():
                features.setdefault(key, value)  # the call's own arguments come first
        if "batch_size" not in features and "batch_size" in params:
            batched = feat.dataset_batch_size([named["x"]] if "x" in named else [])  # not validation_data's
            if batched is not None:  # `model.fit(ds)` with `ds = ....batch(32)`: Keras uses the dataset's
                features["batch_size"] = batched
                features["batch_size_from"] = "dataset"
        callbacks = feat.callback_classes(api, named)
        if callbacks is not None:
            features["callbacks"] = callbacks
        kind = feat.input_kind(api, named)
        given = self.sequence_batches(named) if kind == "sequence" and not self.exporting else named
        if kind is not None:
            features["input_kind"] = kind
            host = feat.input_host_work(named) if kind in ("generator", "sequence") else None
            if host is not None:
                features["input_host_work"] = host
            if kind == "sequence" and feat.input_plain_flow(named):
                features["input_plain_flow"] = True
            if kind == "sequence" and feat.input_sliced(named):
                features["input_sliced"] = True
            generated = feat.input_generator_host(named) if kind == "dataset" else None
            if generated is not None:
                features["input_generator_host"] = generated
            workers = feat.input_workers(named) if kind == "sequence" else None
            if workers is not None:
                features["input_workers"] = workers
        elif api.endswith(".train_on_batch"):
            drawn = feat.drawn_host_work(named, id(self.ctx))
            if drawn is not None:
                features["input_host_work"], line = drawn
                features["input_drawn_above"] = node.lineno - line
        elif estimator_method(api) and type(named.get("input_fn")) is UserFunc and not self.exporting:
            batched = feat.dataset_batch_size([self.result_of(named["input_fn"].info)])
            if batched is not None:  # `input_fn` returns `....batch(64)`: the batch of each step
                features["batch_size"] = batched
                features["batch_size_from"] = "input_fn"
        elif api == TRACED_CALL:  # `train_step(x)` of a tf.function: the batch it is handed, where decoded on the spot
            batch = self.batch_here([v for _, v in (*args, *keywords)])
            if batch is not None:
                features["input_host_work"] = batch.meta["host"]
                features["input_drawn_above"] = node.lineno - batch.meta["line"]
        first = args[0][1] if args and not args[0][0] else None
        merge = work_mod.merge_layer(api, features)
        if type(owner) is Inst and "graph" not in owner.meta and api.rpartition(".")[2] in work_mod.MODEL_METHODS \
                and work_mod.is_model(owner):  # (one of project layers, its input not declared)
            owner = self.stacked_on(owner, given.get("x", given.get("generator", first)))
        work = {} if self.exporting else work_mod.site_work(api, given, features, owner, first, merge)
        if not self.exporting:
            work_mod.add_options(work, named, owner)
            self.training_step(node, api, named, owner, first, work)
            self.graph_run(node, api, named, owner, work, features)
            if api == graphrun.SAVER_SAVE:  # `saver.save(sess, path)`: the weights of the graph sess trained
                work.update(graphrun.save_work(owner, named.get("sess")))
        fed = mapped.fed_maps(named) if api.rpartition(".")[2] in work_mod.MODEL_METHODS else ()
        if not fed and (api == TRACED_CALL or api.rpartition(".")[2] in work_mod.MODEL_METHODS):
            # a batch the enclosing loop drew from a mapped pipeline: its first call handed it pays the draws
            fed = mapped.handed_maps([v for _, v in (*args, *keywords)], {id(n) for n in self.ctx.rebound},
                                     self.map_draws, node)
        self.calls.append(Found(node, api, features, self.ctx.func, local, work, merge, fed))
        if api.rpartition(".")[2] in feat.FITS:
            self.callbacks_called(node, api, named, work)
        func = self.ctx.func
        if func is not None and self.spends_here(func) and features.get("receiver") != wrappers.WRAPPER \
                and wrappers.spends(api, self.table.cat.kind(api)):
            where = os.path.basename(self.imports.path) if self.imports is not None else "its module"
            func.runs_looped, func.runs_by_self = bool(self.ctx.loops), False
            func.runs = Spent(api, f"{api.rpartition('.')[2]} at {where} line {node.lineno}",
                              self.fed_from_parameters(func, node, api),
                              *_run_step(func, node, api, named.get("fetches") if api.endswith("Session.run") else owner))
        return features, named

    def applied_model(self, node: ast.Call) -> Any:
        """The Keras model of `opt.apply_gradients(zip(grads, m.trainable_variables))` (*node*): `m`, a name
        or attribute chain read without a call; None otherwise."""
        given = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "grads_and_vars"), None)
        if not (isinstance(given, ast.Call) and isinstance(given.func, ast.Name) and given.func.id == "zip"
                and len(given.args) == 2 and isinstance(given.args[1], ast.Attribute)
                and given.args[1].attr in differentiated.TRAINABLE):
            return None
        held = given.args[1].value
        if any(isinstance(n, ast.Call) for n in ast.walk(held)):
            return None
        value = self.expr(held)
        return value if type(value) is Inst and work_mod.is_model(value) else None

    def step_traces(self, node: ast.Call, api: str, owner: Inst | None, named: dict, features: dict) -> None:
        """Whether this call of a model traces its step function (step_traces.py), into its *features*:
        `traces_step`, `traced_at`, and `traces_each_run` where each run binds the model's name anew
        (`rebound_at`), with `traces_shared_by`, the trips of the loops inside that rebinding (they reuse
        one build). The call is kept for `order_traces`."""
        if owner is None or not work_mod.is_model(owner) or not api.startswith("tensorflow.keras."):
            return
        method, validates = api.rpartition(".")[2], _validates(named)
        place = (self.module_path, node.lineno)
        found = step_traces.seen(owner.meta, method, place, id(self.ctx.func), self.ctx.branches > 0, validates)
        receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
        inner = self.rebound_at(receiver.id) if found.get("traces_step") and isinstance(receiver, ast.Name) else None
        if inner is not None:
            found["traces_each_run"] = True
            shared = math.prod(count for count in self.ctx.loops[inner:] if count is not None)
            if shared > 1:
                found["traces_shared_by"] = shared
        features.update(found)
        if not self.exporting and (method == "compile" or method in step_traces.STEP_FUNCTIONS):
            self.model_calls.append(step_traces.ModelCall(
                id(owner.meta), step_traces.STEP_FUNCTIONS.get(method), validates, node.lineno, self.ctx.func,
                self.ctx.branches > 0, features))

    def order_traces(self) -> None:
        """Which of a model's calls made in different functions traces its step, where the order they run in
        is known from their functions' calls (`positions`; step_traces.order)."""
        kept = {id(c.features) for c in self.calls}
        memo: dict[int, list | None] = {}
        step_traces.order([c for c in self.model_calls if id(c.features) in kept], lambda f: self.positions(f, memo))

    def positions(self, info: FuncInfo | None, memo: dict, active: frozenset[int] = frozenset()) -> list[tuple] | None:
        """Where each run of *info*'s body starts, in the order the program runs: per chain of calls from
        the module's code, the lines of those calls, outermost first (() for the module's own code); None
        where a call of it is not seen, made later (`functools.partial`), under a branch, or recursive, or
        more than `step_traces.MAX_POSITIONS` chains reach it."""
        if info is None:
            return [()]
        key = id(info)
        if key not in memo:
            memo[key] = self.call_chains(info, memo, active | {key}) \
                if key not in active and info.callers and self.all_calls_seen(info) else None
        return memo[key]

    def call_chains(self, info: FuncInfo, memo: dict, active: frozenset[int]) -> list[tuple] | None:
        """`positions` of *info* from those of its callers, each followed by its call's line."""
        found: list[tuple] = []
        for caller, place, _ in info.callers:
            outer = None if place is None or place.later or place.branched or not place.line \
                else self.positions(caller, memo, active)
            if outer is None or len(found) + len(outer) > step_traces.MAX_POSITIONS:
                return None
            found.extend((*chain, place.line) for chain in outer)
        return found

    def rebound_at(self, name: str) -> int | None:
        """Where *name* is bound anew on each run of the code being walked: the index in the enclosing
        loops (`ctx.rebound`) of the first loop inside the innermost one that binds it, 0 where only
        its function's body does (a local, built again each call); None where neither does."""
        for i in range(len(self.ctx.rebound), 0, -1):
            if name in self.loop_binds(self.ctx.rebound[i - 1]):
                return i
        func = self.ctx.func.node if self.ctx.func is not None else None
        return 0 if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) and name in self.loop_binds(func) else None

    def sequence_batches(self, named: dict) -> dict:
        """*named* with a `keras.utils.Sequence` that a `fit` (or `fit_generator`, ...) is given replaced
        by what Keras draws from it: the batches its `__getitem__` returns (arrays.indexed_batches), where
        they show one; *named* as it is otherwise. One of this file: `__getitem__` walked now if not yet,
        with what its constructions so far set on `self`; one of another module: its `__init__` and
        `__getitem__` walked again for what this construction passes (their `Template`s)."""
        key = "x" if "x" in named else "generator"
        given = named.get(key)
        if type(given) is UserInst:
            getitem = given.info.find_method("__getitem__")
            if getitem is None:
                return named
            self.result_of(getitem)
            returned = self.returned_as_constructed(given.info, getitem)
        elif type(given) is ExtInst and given.passed is not None and "__getitem__" in given.cls.templates:
            init, template = given.cls.templates["__init__"], given.cls.templates["__getitem__"]
            if id(template.info) in self.unrolling or template.info.cls is not init.info.cls:
                return named
            returned = self.constructed_returns(init.info, given.passed, template.info, template.functions)
        else:
            return named
        data = arrays.indexed_batches(returned)
        return named if data is None else {**named, key: Inst(SEQUENCE, "instance", {"data": data})}

    def returned_as_constructed(self, cls: ClassInfo, method: FuncInfo) -> list:
        """What *method* of the class returns with `self` as its constructions so far set it: its walk's
        returns, or, where `__init__` was first walked before its other constructions were seen (its
        parameters then unknown: `train = Rows(a, 8)`, `val = Rows(b, 8)`), `__init__` walked again for
        the values its constructions pass, merged, then *method* (values only, `walk_with`; the
        attributes `__init__` sets are restored after)."""
        init = cls.find_method("__init__")
        if init is None or not init.blind or init.passed is None or id(method) in self.unrolling:
            return method.returned
        return self.constructed_returns(init, init.passed, method, ())

    def constructed_returns(
        self, init: FuncInfo, passed: dict, method: FuncInfo, foreign: tuple[FuncInfo, ...], given: dict | None = None,
        made: list | None = None,
    ) -> list:
        """What *method* returns after `__init__` (*init*) is walked with *passed*, values only; the
        attributes of the class that only `__init__` sets are cleared before and all restored after.
        *foreign*: the functions of another module's walk (a `Template`'s); *given*: the method's
        arguments; *made*: gets the records the method's walk made (`walk_bound`)."""
        with self.constructed(init, passed, foreign):
            return self.walk_bound(method, given or {}, foreign, made).returns

    @contextmanager
    def constructed(self, init: FuncInfo, passed: dict, foreign: tuple[FuncInfo, ...] = ()) -> Iterator[None]:
        """The class's attributes as `__init__` (*init*) sets them when walked with *passed* (values
        only): those only `__init__` sets are cleared before, and all restored after."""
        cls = init.cls
        assert cls is not None
        kept = [(c, dict(c.attrs)) for c in cls.mro()]
        try:
            for c in cls.mro():
                for name in [n for n, by in c.assigners.items() if len(by) == 1 and by[0] is init]:
                    c.attrs.pop(name, None)
            self.walk_bound(init, dict(passed), foreign)
            yield
        finally:
            for c, attrs in kept:
                c.attrs.clear()
                c.attrs.update(attrs)

    def fed_from_parameters(self, func: FuncInfo, node: ast.Call, api: str) -> tuple[tuple[int | None, str], ...]:
        """The parameters (their receiver aside) whose values a TF1 graph run's `feed_dict` reads, each as
        (its position among a call's positional arguments, None for a keyword-only one; its name): a call
        of the function feeds the run what the caller gives them. () where the feed reads none."""
        feed = _feed(node, api)
        if feed is None:
            return ()
        read = flow.names(feed)
        positions = {name: i for i, name in enumerate(_positional(func))}
        return tuple((positions.get(param), param) for param, derived in self.parameter_flow(func).items()
                     if param != flow.RECEIVER and read & derived)

    def loop_features(self) -> dict:
        """`loop_multiplier` (the product of the enclosing loops' known counts), `loop_unbounded`
        (one of them unknown) and `loop_depth` of the call being walked."""
        loops = self.ctx.loops
        multiplier = 1
        unbounded = False
        for count in loops:
            if count is None:
                unbounded = True
            else:
                multiplier *= count
        features: dict = {"loop_multiplier": multiplier}
        if unbounded:
            features["loop_unbounded"] = True
        if loops:
            features["loop_depth"] = len(loops)
        if self.ctx.unreached:
            features["unreached"] = True
        return features

    def mapped(self, node: ast.Call, args: list) -> None:
        """`map(score, rows)`: the builtin calls *score* once per element of *rows* (as many as a
        `for` loop over it makes trips, where its length is known), a driver (drivers.py)."""
        iterables = [value for starred, value in args[1:] if not starred]
        trips, upper = _elements(iterables[0]) if len(iterables) == 1 and len(args) == 2 else (None, False)
        self.driver_call(node, drivers.PER_ELEMENT, args[:1], [], drivers.per_element(drivers.PER_ELEMENT, trips, upper))

    def applied(self, node: ast.Call, args: list) -> None:
        """`df["text"].apply(score)`, `pool.map(score, rows)`: a method of another library's object
        (its receiver, or the name it is read from, foreign: pandas, a pool) that calls the function
        it is given once per element (drivers.PER_ELEMENT_METHODS), as many as the data holds."""
        func = node.func
        if type(func) is not ast.Attribute or func.attr not in drivers.PER_ELEMENT_METHODS:
            return
        root: ast.expr = func.value
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            root = root.value
        if type(root) is ast.Name and type(self.scope.lookup(root.id)[1]) is Foreign:
            self.driver_call(node, func.attr, args[:1], [], drivers.per_element(func.attr, None, False))

    def driver_call(self, node: ast.Call, path: str, args: list, keywords: list,
                    repeat: tuple[runs_mod.Local, str] | None = None) -> Any:
        """`fmin_l_bfgs_b(evaluator.loss, x0, maxfun=20)`: a library driver calling the functions it
        is given (drivers.py) *repeat* times per call (its count and why; else as its arguments state);
        a call site once the walk knows where they spend their work (`driven`)."""
        if not self.exporting and not self.instance:
            given = [value for starred, value in args if not starred] + [value for key, value in keywords if key]
            callables = [v for v in given if type(v) in (UserFunc, UserInst, ExtFunc, ExtInst)]
            if callables:
                calls, why = repeat or drivers.calls(path, node, keywords)
                place = self.place(node, [])
                place = place._replace(runs=runs_mod.combine(calls, place.runs))
                self.drives.append((node, path, callables, why, self.ctx.func, place, self.loop_features()))
        return FOREIGN

    def hand(self, node: ast.Call, value: Any, how: tuple[runs_mod.Local, str], implicit: bool = False) -> None:
        """A function of the file handed to an API that calls it (handed.py), called by the API's call at
        *node* as *how* says (how often per run of that call, and who calls it): one call of it, its
        arguments unknown; *implicit*: the call names it nowhere (a callback's hook)."""
        if type(value) is not UserFunc or self.exporting or self.instance:
            return
        info = value.info
        repeat, via = how
        if repeat.count is not None and self.place(node, []).runs.count is None:
            via = f"{via}; that call sits in a loop of unknown length"
        node_args = info.node.args
        required = len(_positional(info)) - len(node_args.defaults)
        self.note_call(info, [(False, None)] * max(required, 0), [], node, repeat=repeat, via=via)
        info.implicit_calls += implicit
        if type(info.node) is ast.Lambda or implicit and self.defined_only(info.node.name):
            info.handed_only = True

    def defined_only(self, name: str) -> bool:
        """Whether the module's text names *name* only where functions of that name are defined (a hook
        several callback classes define, which Keras alone calls); a docstring or a string naming it is
        a reference too."""
        found = self.words.get(name)
        if found is None:
            found = self.words[name] = text_references(self.source, name)
        nodes = self.references.nodes() if self.references is not None else ()
        defined = sum(1 for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name)
        return found[0] == defined

    def callbacks_called(self, node: ast.Call, api: str, named: dict, work: Work) -> None:
        """The functions the callbacks a `fit` at *node* is given run (handed.py): the hooks their classes of
        the file define, the functions a `LambdaCallback` or a `LearningRateScheduler` was built from; each
        called per fit, epoch or batch of it."""
        given = named.get("callbacks")
        if type(given) is not Seq:
            return
        method = api.rpartition(".")[2]
        for item in given.items:
            if type(item) is UserInst:
                hooks = [(per, UserFunc(found), True) for hook, per in handed.HOOKS.items()
                         if (found := item.info.find_method(hook)) is not None]
            elif type(item) is Inst and isinstance(item.meta, dict):
                hooks = [(per, func, False) for per, func in item.meta.get(handed.HANDS, ())]
            else:
                continue
            for per, func, implicit in hooks:
                self.hand(node, func, handed.repeat(per, method, node.lineno, work), implicit)

    def search_call(self, node: ast.Call, path: str, args: list, keywords: list) -> Any:
        """`gp_minimize(fitness, space, n_calls=40)`, hyperopt's `fmin(objective, space, max_evals=50)`: a
        hyperparameter search calls its objective (a function of the file) once per trial, here: calls of
        it, so that the training it runs counts every trial (drivers.SEARCHES); the trial's parameters
        are not known. Any other objective: a driver's call site (`driver_call`)."""
        objective = args[0][1] if args and not args[0][0] else next(
            (value for key, value in keywords if key in drivers.OBJECTIVES), None)
        if type(objective) is not UserFunc or objective.info.kind != "function" or self.exporting:
            return self.driver_call(node, path, args, keywords)
        repeat, _ = drivers.calls(path, node, keywords)
        info = objective.info
        self.result_of(info, [(False, None)] if _positional(info) else [], [], node, repeat)  # once per trial
        return FOREIGN

    def agent_fit(self, node: ast.Call, agent: Inst, args: list, keywords: list) -> None:
        """`agent.fit(env, nb_steps=...)` of a keras-rl agent (agents.py): a call site of a
        training step of each model the agent was given, run once per environment step at most."""
        steps = agents.fit_steps(args, keywords)
        if steps is None or self.exporting or self.instance:
            return None
        repeat, why = steps
        name = agent.meta["name"]
        rows = agent.meta["batch"]
        batch = arrays.array((rows,), "inferred", agents.batch_note(rows))
        for model in (m for m in agent.meta["models"] if work_mod.is_model(m)):
            features, _ = self.record(node, agents.STEP, [(False, batch)], [], model)
            found = self.calls[-1]
            found.local = found.local._replace(runs=runs_mod.combine(repeat, found.local.runs))
            features["receiver"] = drivers.DRIVER
            features["via"] = agents.via(name)
            found.work["driver"] = work_mod.q(True, work_mod.INFERRED, agents.note(name, why))
        return None

    def model_fn_work(self, info: FuncInfo) -> Work:
        """The work of the Keras model an Estimator's `model_fn` runs on its features: the params and
        FLOPs per sample of the one model call its body makes (walked now), where they are known; {}
        where it calls no model, several, or one of unknown work (a TF1 graph built from the features)."""
        self.result_of(info)
        calls = [f for f in self.calls if f.func is info and f.api.endswith(".__call__")
                 and self.table.cat.kind(f.api) == "model-inference"]
        work = calls[0].work if len(calls) == 1 else {}
        if "flops_per_sample" not in work or work["flops_per_sample"].value is None:
            return {}
        return {k: work[k] for k in ("params", "flops_per_sample", "input_shape") if k in work}

    def gan_call(self, node: ast.Call, path: str, args: list, keywords: list) -> Inst | None:
        """A call of TF-GAN's table (tfgan.py): a model builder calls the functions it is given on its
        data (the generator's output given to the discriminator, a CycleGAN's both ways); a loss or the
        train ops carry the model on; `gan_train` is the call site of a training step of that model."""
        given = tfgan.model_inputs(path, args, keywords)
        if given is not None:
            generator, discriminator, source, real = given
            cyclic = tfgan.cyclic(path)

            def run(fn: Any, data: Any) -> Any:
                return self.call(node, fn, [(False, data)], []) if fn is not None else None

            outputs = []
            for data, other in ((source, real), (real, source)) if cyclic else ((source, real),):
                made = run(generator, data)
                outputs += [made, *([run(generator, made)] if cyclic else []), run(discriminator, other),
                            run(discriminator, made)]  # (a CycleGAN's other generator given it back: the cycle)
            return tfgan.model(outputs, path.rpartition(".")[2])
        if path.rpartition(".")[2] != tfgan.TRAIN:
            return tfgan.carried(path, args, keywords)
        trained = tfgan.trained(args, keywords)
        if self.exporting or self.instance:
            return None
        repeat, why = tfgan.steps(args, keywords)
        features, _ = self.record(node, tfgan.STEP, [], [], None)
        found = self.calls[-1]
        found.local = found.local._replace(runs=runs_mod.combine(repeat, found.local.runs))
        features["receiver"] = drivers.DRIVER
        features["via"] = tfgan.VIA
        graph = Seq(trained.meta["outputs"]) if trained is not None else Seq(())
        builder = trained.meta["builder"] if trained is not None else "GAN model its train ops were built for"
        partial = trained is None or trained.meta["partial"]
        found.work.update(tfgan.step_work(graphrun.forward(graph), partial, tfgan.note(builder, why)))
        return None

    def train_driver_call(self, node: ast.Call, name: str, driver: slim_training.Driver, args: list,
                          keywords: list) -> None:
        """A TF1 loop written as one call (slim_training.py: `slim.learning.train(train_op, logdir,
        number_of_steps=...)`): the call site of a session run of the op it is given (graphrun.run_work),
        a training step for a train driver, run as often as the call states; a train driver whose count
        is None runs until the process is stopped, which the feature `until_stopped` says (why)."""
        if self.exporting or self.instance:
            return None
        given = slim_training.named(driver, args, keywords)
        repeat, why, endless = slim_training.runs(name, driver, given, any(key is None for key, _ in keywords))
        features, _ = self.record(node, slim_training.STEP, [], [], None)
        found = self.calls[-1]
        runs = runs_mod.combine(repeat, found.local.runs)
        found.local = found.local._replace(runs=runs._replace(counted=repeat.counted) if runs.count is not None else runs)
        features["receiver"] = drivers.DRIVER
        features["via"] = f"TF1's {name}"
        if endless is not None and driver.training:
            features["until_stopped"] = endless
        work = graphrun.run_work(given.get(driver.op), None)
        if driver.training and work["step"].value != "training":  # (an op not seen built by an update)
            work["step"] = work_mod.q("training", work_mod.INFERRED, f"{name} runs training steps of its train op")
        work["driver"] = work_mod.q(True, work_mod.INFERRED, slim_training.note(name, driver.training, why))
        found.work.update(work)
        return None

    def created_train_op(self, node: ast.Call, args: list, keywords: list) -> Inst:
        """`create_train_op(total_loss, optimizer)`: the loss, run after the optimizer's update (a
        training step's op, graphrun.update_meta), computed by the loss's graph."""
        loss, optimizer, given = slim_training.train_op_inputs(args, keywords)
        meta = graphrun.update_meta(optimizer, "minimize", given, node.lineno, self.built_in, stepped=True)
        if arrays.is_sym(loss):
            meta["sym"] = loss.meta["sym"]
        return Inst("tensorflow.Tensor", "factory", meta)

    def driven(self) -> None:
        """The drivers' call sites (driver_call), once every function's walk has told where it
        spends its work: listed as the TF call of the first function given that spends its work in one."""
        for node, path, callables, why, func, place, features in self.drives:
            spent = [(value, runs_of(value)) for value in callables]
            value, runs = next(((v, r) for v, r in spent if r is not None), (None, None))
            if runs is None:
                continue
            features = {**features, "receiver": drivers.DRIVER, "via": runs.where}
            work = wrappers.spent_work(runs.api, features, runs.step)
            name = value.info.node.name if type(value) is UserFunc and hasattr(value.info.node, "name") else "the function given"
            work["driver"] = work_mod.q(True, work_mod.INFERRED, drivers.note(path.rpartition(".")[2], name, runs.where, why))
            self.calls.append(Found(node, runs.api, features, func, place, work))

    @property
    def built_in(self) -> str | None:
        """The file name of the module walked where it is not the checked file (`ops.py`, walked for the
        file that imports it), for a note on what it built; None in the checked file's own walk."""
        return os.path.basename(self.imports.path) if self.exporting and self.imports is not None else None

    @property
    def module_path(self) -> str | None:
        """The walked module's file, where the walk follows a project (None for a lone text)."""
        return self.imports.path if self.imports is not None else None

    def note_host(self, what: str, once: bool = False) -> None:
        """The function being walked reads and decodes a file on the host (hostwork.py): in one of
        its loops, or outside them (*once*). The first outside is kept; in the loops, the one the
        fewest `if` bodies guard (the decode most items run, not a branch's), the first of those.
        A decode that fills a dict kept between passes on a miss is no per-item work."""
        ctx = self.ctx
        if ctx.kept:
            return  # filling a dict kept between passes: each file decoded once
        self.decoded = self.decoded or what
        if once:
            ctx.host_once = ctx.host_once or what
        elif ctx.host is None or ctx.guards < ctx.host_guards:
            ctx.host, ctx.host_guards = what, ctx.guards

    def pieces_looped(self, value: Any) -> None:
        """A loop over a text's pieces (*value*, `pieces`: `for token in re.findall(pattern, text)`):
        per-item host work of the function being walked."""
        if type(value) is Inst and value.cls == hostwork.PIECES:
            self.note_host(value.meta["host"])

    def pieces(self, call: str, line: int) -> Inst:
        """The pieces a text is cut into by *call* (hostwork.SPLITS, STR_SPLITS): a loop over them
        works on the text piece by piece in Python, per-item host work (`s_for`)."""
        return Inst(hostwork.PIECES, "pieces", {"host": hostwork.describe(call, line, self.module_path)})

    def batch_here(self, values: list) -> Inst | None:
        """The first of *values* that is a batch decoded item by item in the function being walked
        (or drawn there: arrays.kept, arrays.here), as a host batch."""
        for value in values:
            batch = arrays.kept(value)
            if batch is not None and arrays.here(batch, id(self.ctx)):
                return batch
        return None

    def prepared(self, value: Any, host: str | None, line: int) -> Any:
        """A function's result, as a batch prepared between steps (arrays.prepared) where the
        function decodes per item in its loops and this call (at *line*) is in a loop of the caller."""
        return arrays.prepared(value, host, line) if host is not None and self.ctx.loops else value

    def opened_used(self, callee: Any, args: list, keywords: list) -> None:
        """A call that uses the pixels of an image PIL opened lazily (hostwork.OPENED): a method
        of the image, or a call given it (`np.asarray(image)`): its decode happens here."""
        if type(callee) is Member and type(callee.owner) is Inst and callee.owner.cls == hostwork.OPENED:
            self.note_host(callee.owner.meta["host"], once=not self.ctx.loops)
        for _, value in (*args, *keywords):
            if type(value) is Inst and value.cls == hostwork.OPENED:
                self.note_host(value.meta["host"], once=not self.ctx.loops)

    def host_for(
        self, info: FuncInfo, args: list, keywords: list, foreign: tuple[FuncInfo, ...] | None = None
    ) -> tuple[str | None, str | None] | None:
        """The host work (per item, once) a helper that does some does for this call's arguments,
        where the call gives one of its parameters a literal (`proc_img=False`): its body walked
        again with them (`shadowed`), each `if` on them taking the branch they choose, so that a
        decode under `if proc_img:` is not this call's. None where that does not apply. *foreign*:
        the functions of the other module's walk that defined it (a `Template`'s), whose own
        descriptions of its host work (naming its file) are kept."""
        if (info.host is None and info.host_once is None) or self.exporting or id(info) in self.unrolling \
                or len(self.unrolling) >= unroll.MAX_DEPTH or isinstance(info.node, ast.Lambda) \
                or info.kind not in ("function", "method", "staticmethod"):
            return None
        if not any(type(v) is Const and v is not OPAQUE for _, v in (*args, *keywords)):
            return None
        ctx = self.walk_with(info, args, keywords, foreign or ())
        if foreign is not None:
            return (info.host or ctx.host) if ctx.host else None, (info.host_once or ctx.host_once) if ctx.host_once else None
        return ctx.host, ctx.host_once

    def walk_with(self, info: FuncInfo, args: list, keywords: list, foreign: tuple[FuncInfo, ...],
                  defined: Scope | None = None) -> WalkContext:
        """Walk *info*'s body again with one call's arguments bound (its own scope and context, the
        function marked as being unrolled meanwhile); *foreign*: the functions shadowed for the walk;
        *defined*: the scope its free names are read from, where not its definition's (a closure's)."""
        return self.walk_bound(info, self.bind_call(info, args, keywords), foreign, defined=defined)

    def walk_bound(self, info: FuncInfo, bound: dict, foreign: tuple[FuncInfo, ...], made: list | None = None,
                   defined: Scope | None = None) -> WalkContext:
        """`walk_with`, its parameters given as *bound* (name -> value); *made*: gets the records
        the walk made before they are dropped. The decodes it notes are the function's, not the
        caller's loop body's (`decoded`: the caller notes the function's own description of them,
        naming its file)."""
        scope = Scope("function", self.pinned(info, bound, defined))
        self.seed_reassigned(scope)
        self.bind_parameters(info, scope, bound)
        ctx = WalkContext(info)
        self.unrolling.add(id(info))
        decoded = self.decoded
        try:
            with self.shadowed(foreign), self.inside(scope, ctx):
                first = len(self.calls)
                self.block(info.node.body)
                if made is not None:
                    made.extend(self.calls[first:])
        finally:
            self.unrolling.discard(id(info))
            self.decoded = decoded
        return ctx

    def host_through(self, info: FuncInfo | ExtFunc, found: tuple[str | None, str | None] | None = None) -> str | None:
        """A call of a user function that does host work: the caller's too, per item where the
        callee decodes in a loop or the call is in one of the caller's. *found*: its host work for
        this call's arguments (`host_for`), where known. Returns its per-item host work."""
        host, once = found if found is not None else (info.host, info.host_once)
        if host is not None:
            self.note_host(host, once=False)
        elif once is not None:
            self.note_host(once, once=not self.ctx.loops)
        return host

    def own_host_work(
        self, node: ast.Call, sited: bool, host: str | None, code: tuple | None, args: list, keywords: list, value: Any,
        info: FuncInfo | None = None,
    ) -> str | None:
        """A call of the program's own function (*code*: its node and its module's functions by name;
        *value*: what it returns) that does per-item host work: in its loops (*host*, `host_through`),
        or through the project objects it is given and calls methods of (`given_host`), which the caller
        then does too. Outside the caller's loops it is a call site of its own (`host_site`), unless the
        function holds one itself (*sited*) or returns a generator (drawn where it is iterated).
        Returns the work."""
        if host is None and code is not None:
            host = self.given_host(code, args, keywords)
            if host is not None and self.ctx.loops:
                self.note_host(host)
        if host is None and info is not None and info.state is not Walk.DONE and not self.ctx.loops:
            # its walk put off: a site here if its host work turns out (`settle_host_sites`)
            self.host_later.append((self.host_site(node, None), info, self.ctx.func))
            return None
        drawn_later = type(value) is Inst and value.cls == arrays.PY_GENERATOR
        if host is not None and not self.ctx.loops and not sited and not drawn_later \
                and hostwork.sited(host, code[0] if code else None):
            self.host_site(node, host)
        return host

    def piped_through(self, pipes: bool) -> None:
        """Note that the function walked batches a pipeline (`FuncInfo.pipes`) where *pipes*: a `.batch` of
        its own or its call of a function that batches one."""
        if pipes and self.ctx.func is not None:
            self.ctx.func.pipes = True

    def module_functions(self) -> dict[str, ast.AST]:
        """This module's module-level functions' nodes by name (as far as the walk has defined them)."""
        if len(self.functions) != self.handed_memo.get(-1, ((), -1))[1]:
            nodes = {f.node.name: f.node for f in self.functions if f.parent is None and f.cls is None and f.kind == "function"}
            self.handed_memo[-1] = (nodes, len(self.functions))
        return self.handed_memo[-1][0]

    def given_host(self, code: tuple, args: list, keywords: list) -> str | None:
        """The per-item host work of the project objects a call gives a function that calls their
        methods (hostwork.handed_methods of *code*, its node and its module's functions by name): a
        tokeniser of the project given to the function that tokenises each example with it. None where
        none does."""
        if not any(type(v) is ExtInst and v.cls.hosts or type(v) is UserInst for _, v in (*args, *keywords)):
            return None
        function, nested = code
        handed = hostwork.handed_methods(function, nested, memo=self.handed_memo)
        names, methods = [name for name, _ in handed], dict(handed)
        given = [(names[i], v) for i, (starred, v) in enumerate(args) if not starred and i < len(names)]
        given += [(name, v) for name, v in keywords if name in methods]
        for name, value in given:
            for method in sorted(methods[name]):
                if type(value) is ExtInst:
                    host = value.cls.hosts.get(method, (None, None))[0]
                elif type(value) is UserInst and (found := value.info.find_method(method)) is not None:
                    host = found.host if found.state is Walk.DONE else None  # (never walked early: a tape may call it)
                else:
                    host = None
                if host is not None:
                    return host
        return None

    def given_function_call(self, node: ast.Call, code: tuple, args: list, keywords: list, returns: Any = None) -> None:
        """A call of another module's function given a callable it calls (hostwork.handed_methods of
        *code*: `saliency_function([x, 0])` in its body, or in a function of its module it hands it
        to): what `K.function(...)` returned, one run of that graph per call; a Keras model (or what
        the code differentiates as one, differentiated.py: `evaluate(self.checkpoint.model, ds)`), at
        least one forward pass per call, unless the function *returns* a model or a symbolic tensor (it
        builds a graph calling it: `build_head(backbone)`). A call site of it here (as a wrapper's,
        wrappers.py), counted by this module's loops; the first such argument where several are."""
        if any(starred for starred, _ in args) or any(name is None for name, _ in keywords):
            return
        builds = work_mod.is_model(returns) or arrays.is_sym(returns)
        given = [(i, v, arg) for i, ((_, v), arg) in enumerate(zip(args, node.args))]
        given += [(name, v, kw.value) for (name, v), kw in zip(keywords, node.keywords)]
        callables = [(position, value, None if builds else self.given_model(value, expr)) for position, value, expr in given]
        callables = [(p, v, m) for p, v, m in callables  # (exporting: whether its function spends its work here)
                     if m is not None or not self.exporting and type(v) is Inst and v.cls == graphrun.BACKEND_FUNCTION]
        if not callables:
            return
        function, nested = code
        handed = hostwork.handed_methods(function, nested, memo=self.handed_memo)
        names, methods = [name for name, _ in handed], dict(handed)
        for position, value, model in callables:
            name = names[position] if isinstance(position, int) and position < len(names) else str(position)
            if "__call__" not in methods.get(name, ()):
                continue
            api = graphrun.FUNCTION_CALL if model is None else wrappers.MODEL_CALL
            where = f"`{name}` called in {getattr(function, 'name', 'the function')}"
            if self.exporting:
                self.spent_through(Spent(api, where, ()))
                return
            features, _ = self.record(node, api, [], [], model)
            features["receiver"] = wrappers.WRAPPER
            features["via"] = where
            features["handed"] = position
            found = self.calls[-1]
            if model is None:
                found.work.update(graphrun.function_work(value.meta["line"], None, value.meta["net"]))
            else:  # (the model's size as its value tells it) and its function spends its work here
                found.work.update(wrappers.handed_model_work())
                self.spent_through(Spent(api, where, ()))
            return

    def given_model(self, value: Any, expr: ast.expr) -> Inst | None:
        """The Keras model an argument gives: its value, or an attribute of `self` whose trainable
        variables a method of its class differentiates (the walk cannot type it)."""
        if work_mod.is_model(value):
            return value
        func = self.ctx.func
        if not self.untyped_callee(value) or func is None or func.cls is None or type(expr) is not ast.Attribute:
            return None
        names = trees.dotted(expr)
        return self.differentiated_model(expr) if names and names[0] == "self" else None

    def host_site(self, node: ast.Call, host: str | None) -> Any:
        """A call, outside the caller's loops, of the program's own function that does per-item host
        work (*host*, hostwork.py): a call site named by the function, with that work (`work.host`) and
        its items, not known statically (`work.host_items`); docs/calls-json.md, "Host work". *host*
        None: the site, its work told later (`settle_host_sites`). Returns the site's record."""
        func = node.func
        name = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else None
        if name is None:
            return None
        if self.ctx.func is not None and host is not None:
            self.ctx.func.host_sited = True
        if self.exporting:
            return None
        features, _ = self.record(node, name, [], [], None)
        features["receiver"] = hostwork.HOST
        found = self.calls[-1]
        if host is not None:
            _with_host_work(found, host)
        return found

    def settle_host_sites(self) -> None:
        """The sites `own_host_work` made at calls of functions walked after them: kept, with their
        work, where the function does per-item host work at the call, dropped otherwise."""
        for found, info, caller in self.host_later:
            host = info.host
            keep = host is not None and not info.host_sited and hostwork.sited(host, info.node) \
                and not (type(info.returns) is Inst and info.returns.cls == arrays.PY_GENERATOR)
            if keep and caller is not None:
                caller.host_sited = True
            if found is None:
                continue
            # (a walk again of the caller may have made the site anew: each record of the call)
            same = [c for c in self.calls if c.node is found.node and c.features.get("receiver") == hostwork.HOST]
            for record in same:
                if keep:
                    _with_host_work(record, host)  # type: ignore[arg-type]
            if not keep:
                self.calls = [c for c in self.calls if not any(c is record for record in same)]
        self.host_later = []

    def spent_through(self, runs: Spent | None, by_self: bool = False) -> None:
        """The function being walked calls one that spends its work in a TF call (wrappers.py): so does it;
        *by_self*: that call is `self.m(...)`, which a subclass may bind to another method (`FuncInfo.runs_by_self`)."""
        func = self.ctx.func
        if runs is not None and func is not None and self.spends_here(func):
            func.runs, func.runs_by_self, func.runs_looped = runs, by_self, bool(self.ctx.loops)

    def spends_here(self, func: FuncInfo) -> bool:
        """Whether a TF call spending work made now is where a call of *func* spends its work (`FuncInfo.runs`):
        the first one, or the first made in one of its loops (a training loop's step after `init.run()`)."""
        return func.runs is None or bool(self.ctx.loops) and not func.runs_looped

    def uncounted_wrappers(self, counter: runs_mod.FunctionRuns) -> list[Found]:
        """The calls of this module's functions that spend their work in a TF call (wrappers.py) made
        in a loop of unknown length (`self.step(batch)` in a loop over a generator): the function's
        sites cannot count them, so each is a call site of that API, as another module's call is. A
        call the function's runs count, or one made once where its caller's runs alone are unknown,
        is left to the function's own sites (no work listed twice)."""
        sites: dict[ast.Call, Found] = {}
        for node, info, entry, features in self.own_calls:
            if info.runs is None or node in sites or entry >= len(info.callers):
                continue
            caller, place, bound = info.callers[entry]
            if place is None or place.runs.count is not None or _traced(caller) \
                    or counter.function(info)[0].count is not None:
                continue
            runs = info.runs
            site = Found(node, runs.api, {**features, "in_tf_function": False, "via_here": True}, caller, place, {})
            sites[node] = self.as_wrapper(site, runs, wrappers.step_given(runs, bound))
        return list(sites.values())

    def as_wrapper(self, found: Found, runs: Spent, step: str | None, followed: tuple | None = None) -> Found:
        """*found*, a call that spends its work in the TF call *runs* names, as a site of that API
        (wrappers.py): its work the wrapped call's as *followed* (wrapped.py) tells it, else as a call
        none of whose arguments is known but the *step* it is ("training": a graph run's fetches hold an update)."""
        api, where, fed = runs.api, runs.where, runs.fed
        features = found.features
        features["receiver"] = wrappers.WRAPPER
        features["via"] = where
        if fed:
            features["fed"] = True
            features["fed_by"] = [[position, name] for position, name in fed]
        node = found.node
        name = ast.unparse(node.func) if len(ast.unparse(node.func)) <= 60 else "a project function"
        if followed is None:
            found.work.update(wrappers.spent_work(api, features, step))
        else:
            for key, value in followed[0].items():
                features.setdefault(key, value)
            found.work.update(followed[1])
        found.work["wrapper"] = work_mod.q(True, work_mod.INFERRED, wrappers.note(name, where, followed is not None))
        return found

    def wrapper_call(
        self, node: ast.Call, runs: Spent | None, bound: tuple | None = None,
        args: list | None = None, keywords: list | None = None, beside: tuple[str, str] | None = None,
    ) -> None:
        """A call of another module's function that spends its work in a TF call: a call site of that
        API (wrappers.py), none of whose arguments is known here; for a method of an instance whose
        class keeps it (*bound*, `ExtFunc.bound`), its walk with this call's arguments tells them (wrapped.py).
        None where its work is not told here and the function's module counts this module's calls of it
        (*beside*, `ExtFunc.beside`: `Imports.counted_there`): its own sites list that work once."""
        self.spent_through(runs)
        if runs is None or self.exporting:
            return
        api = runs.api
        self.record(node, api, [], [], None)
        found = self.calls[-1]
        found.features["receiver"] = wrappers.WRAPPER  # (before the walk below, which reads the sites)
        # (a traced call's work is summed after the walk that would follow it: none found there)
        followed = wrapped.follow(self, bound, api, args or [], keywords or []) \
            if bound is not None and not runs.fed and api != TRACED_CALL else None
        if followed is None and beside is not None and self.imports.counted_there(*beside):
            self.calls = [call for call in self.calls if call is not found]
            return
        step = wrappers.step_given(runs, feat.argument_values(list(runs.fetched), args or [], keywords or [])) \
            if runs.fetched else runs.step
        self.as_wrapper(found, runs, step, followed)

    def graph_run(self, node: ast.Call, api: str, named: dict, owner: Any, work: Work, features: dict) -> None:
        """A run of a TF1 graph: a session's `run` of its fetches, an operation's `run` or a tensor's
        `eval` (the receiver): one training step of the graph when they hold an optimizer's update,
        else one run of it (graphrun.py); a training step fed a batch decoded on the spot (a
        `feed_dict` display holding one) carries that work as `train_on_batch` does (`input_host_work`)."""
        if api not in GRAPH_RUNS:
            return
        session = api.rpartition(".")[0].endswith("Session")
        fetches = named.get("fetches") if session else owner
        feed = _feed(node, api)
        work.update(graphrun.run_work(fetches, self.fed_rows.get(feed) if type(feed) is ast.Dict else None))
        if session:
            graphrun.trained(owner, fetches, work)
        batch = self.fed_host.get(feed) if type(feed) is ast.Dict else None
        if batch is not None and "step" in work and work["step"].value == "training":
            features["input_host_work"] = batch.meta["host"]  # a training step fed a batch decoded on the spot
            features["input_drawn_above"] = node.lineno - batch.meta["line"]

    def training_step(self, node: ast.Call, api: str, named: dict, owner: Any, first: Any, work: Work) -> None:
        """`step` on a model's forward call (work_mod.step_kind); the tape's `gradient` and the
        optimizer's `apply_gradients` after a training step: counted in that step (`symbolic`)."""
        ctx = self.ctx
        if api.endswith(".__call__"):
            taped = bool(ctx.tapes) or (ctx.func is not None and ctx.func.taped)
            traced = _traced(ctx.func)
            step = work_mod.step_kind(owner, first, named, taped, traced)
            if step is not None:
                note = work_mod.STEP_NOTES[step]
                if step == "inference" and first is None and named.get("inputs") is None:
                    note = work_mod.TRACED_INFERENCE
                work["step"] = work_mod.q(step, work_mod.INFERRED, note)
                self.step_models[node] = id(owner.meta) if type(owner) is Inst else id(node)
                if step == "training" and not ctx.tapes:  # taped through its function's callers
                    self.inherited_steps.add(node)
                if step == "training":
                    ctx.step_line = node.lineno
                    self.frozen_step(node, owner, first if first is not None else named.get("inputs"), work)
                    if ctx.tapes:
                        self.tape_steps[id(ctx.tapes[-1])] = node.lineno
                    if ctx.func is not None:
                        ctx.func.step_line = node.lineno
        elif api.rpartition(".")[2] in ("gradient", "apply_gradients"):
            line = self.tape_steps.get(id(owner.meta)) if owner is not None and api.startswith(work_mod.GRADIENT_TAPE) \
                else None
            line = line or (ctx.step_line if api.endswith(".apply_gradients") else None)
            if line is not None:
                work["symbolic"] = work_mod.q(True, work_mod.INFERRED, f"counted in the training step at line {line}")

    def frozen_step(self, node: ast.Call, model: Any, x: Any, work: Work) -> None:
        """The backward pass of a custom training step of *model* on *x* whose function differentiates
        the model's trainable weights, where it leaves some layers out (trainable.py `taped`)."""
        func = self.ctx.func
        if func is None or type(model) is not Inst or not trainable.differentiates(func.node, node.func):
            return
        states = trainable.taped(model.meta, id(func), self.first_run(func))
        trained = work_mod.taped_work(model, x, states) if trainable.freezes(states) else {}
        if trained:
            work.update(trained)
            self.frozen_steps.append((work, model.meta, func, states))

    def first_run(self, info: FuncInfo, active: frozenset = frozenset()) -> int | None:
        """The line of the module's first statement that calls *info*, itself or through the
        functions calling it; None where it has a caller the module does not run that way (an API
        calling it, a call of a line not known)."""
        lines = []
        for caller, place, _ in info.callers:
            if caller is not None and id(caller) in active:
                continue
            line = (place.line or None if place is not None else None) if caller is None \
                else self.first_run(caller, active | {id(info)})
            if line is None:
                return None
            lines.append(line)
        return min(lines) if lines and not info.implicit_calls and not info.handed_only else None

    def place(self, node: ast.Call | None, params: list[str]) -> runs_mod.Place:
        """Where a call sits (runs_mod.Place): its runs here, and the inputs each loop that
        repeats it changes. *params*: the callee's positional parameter names."""
        ctx = self.ctx  # its runs per run of the function (or module) being walked
        runs = runs_mod.local(ctx.trips, ctx.exits > 0 or ctx.guards > 0, tuple(ctx.divisors), ctx.counted,
                              ctx.resumes > 0)
        loops = [names for names in ctx.varying if names is not None]
        func = ctx.func
        keep = node is not None and func is not None and func.kind != "lambda"
        call, given = (node, params) if keep else (None, None)  # for `links`, if a caller's loop varies them
        unless, line, branched = ctx.unless, node.lineno if node is not None else 0, ctx.branches > 0
        if node is None or not any(loops):
            return runs_mod.Place(runs, tuple(frozenset() for _ in loops), call, given, unless=unless, line=line,
                                  branched=branched)
        inputs = flow.inputs(node, params, self.chained.get(node))
        reached = tuple(frozenset(label for label, read in inputs.items() if read & names) for names in loops)
        return runs_mod.Place(runs, reached, call, given, unless=unless, line=line, branched=branched)

    def links(self, func: FuncInfo | None, place: runs_mod.Place) -> dict[str, frozenset]:
        """Input of the call at *place* -> the parameters of *func* (its function) it derives from."""
        own = self.parameter_flow(func)
        if not own or place.call is None:
            return {}
        found = {}
        for label, read in flow.inputs(place.call, place.params, self.chained.get(place.call)).items():
            linked = frozenset(p for p, derived in own.items() if read & derived)
            if linked:
                found[label] = linked
        return found

    def parameter_flow(self, func: FuncInfo | None) -> dict[str, frozenset]:
        """Each parameter of a user function (`self` as "receiver") -> the names its body
        derives from it."""
        if func is None or func.kind == "lambda":
            return {}
        found = self.flows.get(func.node)
        if found is None:
            args = func.node.args
            params = [*_positional(func), *(a.arg for a in args.kwonlyargs)]
            body = func.node.body
            pairs = flow.assignments(body)
            found = {p: flow.derived(frozenset((p,)), body, pairs) for p in params}
            if func.kind in ("method", "property") and args.args:  # `self` is the call's receiver
                found[flow.RECEIVER] = flow.derived(frozenset((args.args[0].arg,)), body, pairs)
            self.flows[func.node] = found
        return found

    def entered(self, value: Any) -> Any:
        """The value `with value as x` binds: what `__enter__` returns, as the catalog says
        (the tape for `tf.GradientTape()`; unknown for `tf.name_scope(...)`, which gives a str)."""
        if type(value) is Inst and value.cls in (arrays.KEYED, hostwork.OPENED, slim.ARG_SCOPE):
            return value  # `with np.load(path) as data:`, `with Image.open(path) as image:`, an arg_scope's defaults
        if type(value) is Inst:
            api = self.table.method(value.cls, "__enter__")
            returns = self.table.returns(api) if api else None
            if returns is None:
                return None
            return Inst(returns, "with", value.meta if returns == value.cls else None)
        if type(value) is UserInst:
            method = value.info.find_method("__enter__")
            return self.result_of(method) if method is not None else None
        if type(value) is ExtInst:
            return fresh(value.cls.methods.get("__enter__"))
        return value if type(value) is Foreign else None

    def range_iter(self, args: list[ast.expr]) -> tuple[int | None, Any]:
        """`loop_iter` of `range(*args)`."""
        values = [self.expr(arg) for arg in args]
        bounds = [v.value for v in values if type(v) is Const and type(v.value) is int]
        if len(bounds) == len(values) and 1 <= len(bounds) <= 3 and (len(bounds) < 3 or bounds[2] != 0):
            self.iter_option = next((v.option for v in values if v.option), "")  # `range(args.steps)`
            trips = range(*bounds)  # its items too where few, for a loop that builds a graph (unroll.py)
            return len(trips), Const(tuple(trips)) if len(trips) <= unroll.MAX_TRIPS else None
        return None, None

    def loop_iter(self, node: ast.expr) -> tuple[int | None, Any]:
        """Walk a loop's iterable: (literal trip count or None, the iterable's value: for a `range` of
        bounds known here, its integers where at most `unroll.MAX_TRIPS`)."""
        if type(node) is ast.Call and type(node.func) in (ast.Name, ast.Attribute) and node.args:
            bar = self.expr(node.func)  # a progress bar: the loop runs as often as what it wraps
            if type(bar) is Ref and bar.path in progress.WRAPPERS:
                return self.loop_iter(node.args[0])
            if type(bar) is Ref and bar.path in progress.RANGES:
                return self.range_iter(node.args)
        if type(node) is ast.Call and type(node.func) is ast.Name and not node.keywords:
            name = node.func.id
            if name == "enumerate" and len(node.args) == 1 and not self.scope.lookup(name)[0]:
                return self.loop_iter(node.args[0])
            if name in RANGES and not self.scope.lookup(name)[0]:  # `xrange`: Python 2's, or six's
                return self.range_iter(node.args)
        value = self.expr(node)
        if type(value) is Const and value.value == [] and type(node) is not ast.List:
            return None, None  # an empty list through a name: filled where greenlint does not follow
        if type(value) is Const and isinstance(value.value, (tuple, list, str)):
            return len(value.value), value
        if type(value) is Seq:
            return len(value.items), value
        return None, value

    def e_sequence(self, node: ast.Tuple | ast.List) -> Any:
        items: list = []
        unspread = False  # a `*part` whose items are not known
        for element in node.elts:
            if type(element) is ast.Starred:
                spread = builders.starred_items(self.expr(element.value))
                items.extend(spread or ())
                unspread = unspread or spread is None
            else:
                items.append(self.expr(element))
        if unspread:  # the Keras tensors of a list of graph inputs (`[*model.output, *y_true]`), else unknown
            return Seq(tuple(items)) if items and all(arrays.is_sym(item) for item in items) else OPAQUE
        if all(type(item) is Const and item is not OPAQUE for item in items):
            raw = [item.value for item in items]
            return Const(tuple(raw) if type(node) is ast.Tuple else raw)
        return Seq(tuple(items))

    def e_dict(self, node: ast.Dict) -> Any:
        for key in node.keys:
            if key is not None:
                self.expr(key)
        values = [self.expr(value) for value in node.values]
        rows = next((r for r in map(arrays.rows_of, values) if r is not None), None)
        if rows is not None:
            self.fed_rows[node] = rows  # `feed_dict={x: batch}`: the batch a session's run is fed
        batch = self.batch_here(values)
        if batch is not None:
            self.fed_host[node] = batch  # `feed_dict={x: batch_images}`: decoded on the spot
        if None not in node.keys and all(type(v) in (UserFunc, ExtFunc) for v in values):
            # a table of constructors: `{"unet": build_unet, ...}[name]()`; `{}` may become one (`registered`)
            return Choice(tuple(values))
        return builders.keywords_of(node, values) or OPAQUE

    def e_set(self, node: ast.Set) -> Any:
        for element in node.elts:
            self.expr(element)
        return OPAQUE

    def e_binop(self, node: ast.BinOp) -> Any:
        return self.operated(node, node.op, self.expr(node.left), self.expr(node.right))

    def operated(self, node: ast.BinOp | ast.AugAssign, op: ast.operator, left: Any, right: Any) -> Any:
        """`left op right` at *node* (an expression, or an augmented assignment: `x += positions`)."""
        key = _node_key(node, self.instance)
        sym = work_mod.sym_elementwise(left, right, key) if type(op) is not ast.MatMult else None
        if sym is not None and sym.shape is None and _broadcasts(left, right):
            sym = None  # `(x - mean) / std` of (h, w, c) and (1, 1, c): broadcast as the op's (symops)
        if sym is None and (arrays.is_sym(left) or arrays.is_sym(right)):  # `tf.matmul(x, w) + b`, `x @ w`
            sym = symops.on_sym("tensorflow.matmul" if type(op) is ast.MatMult else "tensorflow.add",
                                {"a": left, "b": right} if type(op) is ast.MatMult else {"x": left, "y": right}, key)
        if sym is not None:  # `inputs + attended` in a functional model, `x + 5` of a TF1 placeholder
            result = Inst(_tensor_class([left, right]), "operator", {"sym": sym})
        else:
            result = queues.static_scaled(self.binop(op, left, right), left, right)
        if self.ctx.dependencies and type(result) is Inst and result.cls in _TENSORS and result is not left and result is not right:
            graphrun.dependent(result.meta, self.ctx.dependencies)  # `total_loss / count_loss` built under the update's control
        return result

    @classmethod
    def binop(cls, op: ast.operator, left: Any, right: Any) -> Any:
        """`left op right`; a number computed from an option's default keeps that option (`Const.option`)."""
        if type(left) is not Const or type(right) is not Const:
            joined = _displays_joined(left, right) if type(op) is ast.Add else None
            return joined if joined is not None else _tensor_result(left, right)
        value = cls.arithmetic(op, left, right)
        option = left.option or right.option
        return Const(value.value, option) if option and value is not OPAQUE else value

    @staticmethod
    def arithmetic(op: ast.operator, left: Const, right: Const) -> Const:
        a, b = left.value, right.value
        if type(a) is type(b) and type(a) in (tuple, list) and type(op) is ast.Add and OPAQUE not in (left, right):
            return Const(a + b)  # `(batch_size,) + self.disc_patch`: a literal shape
        if not (_is_number(a) and _is_number(b)):
            return OPAQUE
        kind = type(op)
        try:
            if kind is ast.Add:
                return Const(a + b)
            if kind is ast.Sub:
                return Const(a - b)
            if kind is ast.Mult:
                return Const(a * b)
            if kind is ast.FloorDiv:
                return Const(a // b)
            if kind is ast.Div:
                return Const(a / b)
            if kind is ast.Mod:
                return Const(a % b)
            if kind is ast.Pow and abs(b) <= 64 and (abs(a) <= 1 or b * math.log2(max(abs(a), 2)) < 60):
                return Const(a**b)
        except (ZeroDivisionError, OverflowError, ValueError):
            return OPAQUE
        return OPAQUE

    def e_unaryop(self, node: ast.UnaryOp) -> Any:
        value = self.expr(node.operand)
        if type(node.op) is not ast.Not and _tensor_result(value, Const(0)) is not None:
            return _tensor_result(value, Const(0))
        if type(node.op) is ast.Not and type(value) is Const and value is not OPAQUE:
            return Const(not value.value, value.option)  # `if not random:`, `if not args.small:`
        if type(value) is Const and _is_number(value.value):
            kind = type(node.op)
            if kind is ast.USub:
                return Const(-value.value, value.option)
            if kind is ast.UAdd:
                return value
        return OPAQUE if type(value) is Const else None

    def e_boolop(self, node: ast.BoolOp) -> Any:
        result = MISSING
        for operand in node.values:
            result = merge(result, self.expr(operand))
        return result

    def e_compare(self, node: ast.Compare) -> Any:
        left = self.expr(node.left)
        right = [self.expr(comparator) for comparator in node.comparators]
        if len(right) == 1 and type(node.ops[0]) in _TENSOR_COMPARISONS:
            result = _tensor_result(left, right[0])
            if result is not None:
                return result
        return _compared(node.ops[0], left, right[0]) if len(right) == 1 else OPAQUE

    def e_ifexp(self, node: ast.IfExp) -> Any:
        """`x if C else y`: with C a known constant, the value of the branch taken, as `s_if` takes
        its branch (a test whose value may change between trips or calls, `fixed`, only in a walk
        for one call's values); an option's default names the option in a literal it picks. Both
        branches' call sites are listed; with C not known, the values merge."""
        test = self.expr(node.test)
        body, orelse = self.expr(node.body), self.expr(node.orelse)
        if type(test) is Const and test is not OPAQUE and (self.instance or self.fixed(node.test)):
            taken = body if test.value else orelse
            if type(taken) is Const and taken is not OPAQUE and test.option and not taken.option:
                return Const(taken.value, test.option)
            if taken is not MISSING:  # (MISSING: a recursive call, which adds nothing)
                return taken
        value = merge(body, orelse)
        return self.joined([body, orelse]) if value is None else value

    def e_subscript(self, node: ast.Subscript) -> Any:
        builtin = by_name.namespace(node.value)
        if builtin is not None and not self.scope.lookup(builtin)[0]:
            return self.named_by_string(builtin, self.expr(node.slice))
        owner = self.expr(node.value)
        part = node.slice
        parts = [self.index_part(p) for p in (part.elts if type(part) is ast.Tuple else [part])]
        index = parts[0] if type(part) not in (ast.Tuple, ast.Slice) else OPAQUE
        if type(owner) is Choice:
            return owner if owner.items else None  # any key: one of the functions (none yet: unknown)
        if type(owner) is Member and owner.owner.cls == SAVED_MODEL_LOAD and owner.name == "signatures":
            return owner  # loaded.signatures["serving_default"]: one of the signatures, called alike
        if type(owner) is Inst and owner.cls == arrays.KEYED:
            return arrays.key(owner, index)
        if type(owner) is Kw and type(index) is Const and type(index.value) is str:
            return builders.kw_item(owner, index.value)  # `config["epochs"]` of a dict of literal keys
        if type(owner) is Member and owner.name == "layers":  # `m.layers[-2]`: its output a cut of m's network
            cut = work_mod.layer_cut(owner.owner, index=index)
            return Inst(work_mod.CUT_LAYER, "attribute", {"cut": cut}) if cut is not None else None
        if type(owner) is Inst and owner.cls == arrays.HOST_BATCH:
            return owner  # `batch[:, :, :, None]`, `batch[0]`: the batch prepared on the spot, or a part of it
        if type(owner) is Inst and owner.cls in _TENSORS:
            return queues.static_part(owner, parts, arrays.subscript(Inst(_TENSORS[owner.cls], "operator", owner.meta), parts))
        if type(owner) is Inst and owner.cls == arrays.SHAPE and type(index) is Const and index.value == 0:
            return arrays.rows_count(owner)
        if type(owner) is Const and type(index) is Const and isinstance(owner.value, (tuple, list)):
            if type(index.value) is int and -len(owner.value) <= index.value < len(owner.value):
                return Const(owner.value[index.value])
        if type(owner) is Const and isinstance(owner.value, (tuple, list)) and type(part) is ast.Slice \
                and parts[0].literal and parts[0].step != 0:  # `x.shape[1:]`: a symbolic tensor's sample shape
            return Const(owner.value[parts[0].lower:parts[0].upper:parts[0].step])
        if type(owner) is Seq and type(index) is Const and type(index.value) is int:
            if -len(owner.items) <= index.value < len(owner.items):
                return owner.items[index.value]
        if owner is None and parts and parts[0] is arrays.NEW_AXIS:  # `image[None]`: only an array takes a None index
            return arrays.new_first_axis("x[None]")
        if owner is not None:
            return None
        return arrays.taken(owner, parts) or arrays.sliced(owner, parts)  # `x[idx]`, `x[:64]` of data of unknown size

    def named_by_string(self, builtin: str, key: Any) -> Any:
        """`globals()[key]`: the module-level name *key* (`locals()[key]`: the name of this scope), as
        the name itself would give it, where *key* is a known string (by_name.py); None otherwise."""
        if type(key) is not Const or key is OPAQUE or type(key.value) is not str:
            return None
        scope = self.scope.module() if builtin == "globals" else self.scope
        if key.value in scope.names:
            value = scope.names[key.value]
            return None if value is MISSING else value
        return star_member(self.table.cat, scope.star_imports, key.value) if scope.kind == "module" else None

    def index_part(self, node: ast.expr) -> Any:
        """One part of an index, walked once: an `arrays.Cut` for a slice (`i:i + k` spans k),
        NEW_AXIS for `None` (or `np.newaxis`, `tf.newaxis`), REST for `...`, else the value."""
        if type(node) is ast.Constant and (node.value is None or node.value is Ellipsis):
            return arrays.NEW_AXIS if node.value is None else arrays.REST
        if type(node) is not ast.Slice:
            value = self.expr(node)
            return arrays.NEW_AXIS if type(value) is Ref and value.path in _NEW_AXIS else value
        bounds = [None if p is None else _known(self.expr(p)) for p in (node.lower, node.upper, node.step)]
        span = None
        if node.lower is not None and node.upper is not None and node.step is None:
            lower, upper = self.linear(node.lower), self.linear(node.upper)
            if lower is not None and upper is not None and any(t for t in lower.keys() | upper.keys()):
                terms = {t: upper.get(t, 0) - lower.get(t, 0) for t in upper.keys() | lower.keys()}
                span = terms.get("", 0) if not any(c for t, c in terms.items() if t) else None
        return arrays.cut(*bounds, span=span)

    def linear(self, node: ast.expr) -> dict[str, int] | None:
        """A slice bound as a sum of integer multiples of its terms ({term: coefficient}, the constant
        under ""), so that `i * k:(i + 1) * k` or `i:i + k` spans k whatever i is (literal bounds are
        `arrays.cut`'s, not a span): literals and names
        bound to an int are constants, any other expression one term (by its text); None where an
        expression multiplies two terms or is not an int. Read, never walked (nothing walked twice)."""
        if type(node) is ast.Constant:
            return {"": node.value} if type(node.value) is int else None
        if type(node) is ast.Name:
            value = self.name(node.id)
            return {"": value.value} if type(value) is Const and type(value.value) is int else {node.id: 1}
        if type(node) is ast.UnaryOp and type(node.op) is ast.USub:
            inner = self.linear(node.operand)
            return None if inner is None else {t: -c for t, c in inner.items()}
        if type(node) is ast.BinOp and type(node.op) in (ast.Add, ast.Sub, ast.Mult):
            left, right = self.linear(node.left), self.linear(node.right)
            if left is None or right is None:
                return None
            if type(node.op) is ast.Mult:
                if set(right) == {""}:
                    left, right = right, left
                if set(left) != {""}:
                    return None  # a product of two terms
                return {t: left[""] * c for t, c in right.items()}
            sign = 1 if type(node.op) is ast.Add else -1
            return {t: left.get(t, 0) + sign * right.get(t, 0) for t in left.keys() | right.keys()}
        return {ast.dump(node): 1}

    def e_joinedstr(self, node: ast.JoinedStr) -> Any:
        for value in node.values:
            if type(value) is ast.FormattedValue:
                self.expr(value.value)
                if value.format_spec is not None:
                    self.expr(value.format_spec)
        return OPAQUE

    def e_namedexpr(self, node: ast.NamedExpr) -> Any:
        value = self.expr(node.value)
        scope = self.scope
        while scope.kind == "comprehension" and scope.parent is not None:
            scope = scope.parent
        scope.target(node.target.id).names[node.target.id] = value
        return value

    def e_lambda(self, node: ast.Lambda) -> Any:
        args = node.args
        for default in (*args.defaults, *(d for d in args.kw_defaults if d is not None)):
            self.expr(default)
        scope = Scope("function", self.scope)
        for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
            if arg is not None:
                scope.names[arg.arg] = None
        info = FuncInfo(node, self.scope, kind="lambda", state=Walk.DONE, parent=self.ctx.func)
        outer_func, self.ctx.func = self.ctx.func, info
        with self.inside(scope):
            info.returns = self.expr(node.body)
        self.ctx.func = outer_func
        return UserFunc(info)

    def e_comprehension(self, node) -> Any:
        generators = node.generators
        first = self.loop_trips(generators[0].iter)
        self.pieces_looped(first[3])
        looped = bool(self.ctx.loops)
        outer, self.decoded = self.decoded, None
        with self.inside(Scope("comprehension", self.scope)):
            item = self.comprehension(node, first)
        decoded, self.decoded = self.decoded, outer
        if decoded is not None and looped and type(node) is ast.ListComp:
            return arrays.decoded(decoded, node.lineno, id(self.ctx))  # `[imread(f) for f in batch_files]` in a loop
        if type(node) is ast.ListComp and len(generators) == 1 and not generators[0].ifs:
            found = arrays.listed(first[1], first[2], item)  # `[np.random.rand(1, 48, 48, 3) for _ in range(220)]`
            if decoded is not None and type(found) is Inst:  # `[imread(p) for p in paths[i:i + 32]]`: decoded item by item
                found.meta.update(host=decoded, line=node.lineno, walk=id(self.ctx))
            return found
        return OPAQUE

    def drawn_per_yield(self, node: ast.For, value: Any) -> list:
        """The batches (`arrays.Data`) the loop *node* draws on each trip from an iterator of known
        batch over *value* (`for x in flow`, `for x, y in zip(images, masks)`), where its body yields
        on its trips (not in a loop of its own, which could yield each sample); [] otherwise."""
        found = arrays.drawn_data(value)
        return [found] if found is not None and _yields_per_trip(node.body) else []

    def loop_trips(self, node: ast.expr) -> tuple[int | None, int | None, bool, Any]:
        """Walk a loop's iterable: (literal trip count, the trips `runs` counts, at most those,
        the iterable's value); a data set or array of known length, a list filled by `append`
        and `ds.take(n)` give trips too."""
        self.iter_option, self.iter_resumed = "", False
        count, value = self.loop_iter(node)
        if count is not None:
            return count, count, False, value
        resumed = self.resumed_range(node)
        if resumed is not None:
            return None, resumed, True, value
        trips, upper = arrays.iterations(value)
        taken = _taken(node) if trips is None else None
        if taken is not None:
            trips, upper = taken, True
        return None, trips, upper, value

    def resumed_range(self, node: ast.expr) -> int | None:
        """The trips at most of `range(start, stop)` resuming a count: *stop* known here, *start* a name
        not known here that the scope also binds to 0 (`start_epoch = 0` where no checkpoint is found,
        `counter // n` where one is): a fresh run makes *stop* trips, a resumed one fewer."""
        if not (type(node) is ast.Call and type(node.func) is ast.Name and node.func.id in RANGES
                and len(node.args) == 2 and not node.keywords and type(node.args[0]) is ast.Name
                and not self.scope.lookup(node.func.id)[0]):
            return None
        start, stop = self.expr(node.args[0]), self.expr(node.args[1])
        if type(stop) is not Const or type(stop.value) is not int or type(start) is Const:
            return None
        scope = self.ctx.func.node if self.ctx.func is not None else self.tree
        name = node.args[0].id
        zero = any(type(n) is ast.Assign and len(n.targets) == 1 and type(n.targets[0]) is ast.Name
                   and n.targets[0].id == name and type(n.value) is ast.Constant and n.value.value == 0
                   for n in trees.walk(scope)) if scope is not None else False
        if zero:
            self.iter_option, self.iter_resumed = stop.option, True
        return max(stop.value, 0) if zero else None

    def comprehension(self, node, first: tuple) -> Any:
        """A comprehension's loops, conditions and element, in its own scope (*first*: the first
        loop's `loop_trips`); the element's value (a dict comprehension's: None)."""
        generators = node.generators
        loops, trips = self.ctx.loops, self.ctx.trips
        depth = len(loops)
        upper = False
        for i, generator in enumerate(generators):
            counted = self.iter_option if i == 0 else ""  # (the first loop's iterable was walked just before)
            count, trip, at_most, value = first if i == 0 else self.loop_trips(generator.iter)
            if i:
                self.pieces_looped(value)
            loops.append(count)
            trips.append(trip)
            self.ctx.counted.append(counted if i == 0 else self.iter_option)
            upper = upper or at_most
            self.ctx.varying.append(flow.targets(generator.target) if trips[-1] != 1 else None)
            self.assign(generator.target, None)
            for condition in generator.ifs:
                self.expr(condition)
        filtered = 1 if upper or any(generator.ifs for generator in generators) else 0
        self.ctx.guards += filtered
        item = None
        if type(node) is ast.DictComp:
            self.expr(node.key)
            self.expr(node.value)
        else:
            item = self.expr(node.elt)
        self.ctx.guards -= filtered
        del loops[depth:], trips[depth:], self.ctx.varying[depth:], self.ctx.counted[depth:]
        return item

    def e_await(self, node: ast.Await) -> Any:
        return self.expr(node.value)

    def e_yield(self, node: ast.Yield | ast.YieldFrom) -> Any:
        self.ctx.generator = True
        if node.value is not None:
            value = self.expr(node.value)
            self.ctx.yields.append(value if type(node) is ast.Yield else None)
        return None

    def e_slice(self, node: ast.Slice) -> Any:
        for part in (node.lower, node.upper, node.step):
            if part is not None:
                self.expr(part)
        return OPAQUE

    def e_starred(self, node: ast.Starred) -> Any:
        self.expr(node.value)
        return None


def _makes_none(cls: ClassInfo, attr: str) -> bool:
    """Whether `Cls.attr` reads something that makes no instance of *cls*: a method other than a
    classmethod (whose `cls(...)` would) or `__init__`/`__new__`, or a class attribute."""
    if attr in ("__init__", "__new__"):
        return False
    method = cls.find_method(attr)
    if method is not None:
        return method.kind != "classmethod"
    return cls.find_attr(attr)[0]


def _required_parameters(info: FuncInfo) -> int:
    """How many arguments a call must pass (self/cls not counted); sorts the walk queue."""
    args = info.node.args
    positional = len(args.posonlyargs) + len(args.args) - len(args.defaults)
    if info.kind in ("method", "property", "classmethod") and positional > 0:
        positional -= 1
    return positional + sum(default is None for default in args.kw_defaults)


def _elements(value: Any) -> tuple[int | None, bool]:
    """(how many, at most) elements an iterable holds: a literal tuple or list's, else as a `for`
    loop over it makes trips (arrays.iterations: a data set, an array of known length)."""
    if type(value) is Const and isinstance(value.value, (tuple, list, str)):
        return len(value.value), False
    if type(value) is Seq:
        return len(value.items), False
    return arrays.iterations(value)


_EXITS = (ast.Break, ast.Return, ast.Raise)
#: Calls that bind a user function's first parameters for later calls (`Resolver.bound_later`).
_BINDERS = frozenset({"types.MethodType", "functools.partial"})
_BINDER_MODULES = frozenset(path.partition(".")[0] for path in _BINDERS)
#: Imports that make a module a Keras one (an untyped `.fit(` there is Keras's).
_KERAS_ROOTS = TF_ROOTS | kerasext.ROOTS
#: Roots of `from X import y` whose names the resolver values itself (no project module).
_FOLLOWED_ROOTS = (DATA_ROOTS | untyped.FOREIGN_ROOTS | _BINDER_MODULES | kerasext.ROOTS | hostwork.ROOTS
                   | environments.ROOTS | progress.ROOTS | {downloads.PATH_MODULE, "absl", records.ROOT} | builders.BAG_MODULES | drivers.SEARCH_ROOTS)
_FOREIGN_BUILTINS = frozenset({"object", "open", "str", "bytes", "repr", "format", "input"})


def _stack(meta: dict) -> list:
    """The layers a model applies one after the other: a Sequential's, else a subclassed model's as its
    `__init__` creates them (`work.sub_layers`)."""
    return meta["layers"] if meta.get("layers") is not None else meta.get("sub_layers") or []


#: `math` functions folded on a literal number, as `builtin_call` folds `int` and `round`: the sizes a
#: program derives (`int(math.ceil(float(size) / float(stride)))`, a layer's output side).
_MATH = {"math.ceil": math.ceil, "math.floor": math.floor, "math.sqrt": math.sqrt}
#: List methods that add items (`append` is counted, the others leave the length unknown).
_LIST_FILLERS = frozenset({"append", "extend", "insert"})


def filled_display(value: Seq, method: str) -> Seq | None:
    """A list display of values (`[EarlyStopping()]`) after an `append` or `insert` of *method*: what it
    held and an unknown item more (the items are what it holds at least); after an `extend`, unknown."""
    return Seq((*value.items, None)) if method in ("append", "insert") else None


def _yields_per_trip(body: list[ast.stmt]) -> bool:
    """Whether *body* (a loop's) yields outside any loop or function of its own."""
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef,
                                 ast.Lambda, ast.ClassDef, ast.comprehension)):
            todo.extend(ast.iter_child_nodes(node))
    return False


def _with_host_work(found: Any, host: str) -> None:
    """A host-work site's (`Resolver.host_site`) work and what it names: *host*, the call doing it per item."""
    found.features["via"] = host
    kind = hostwork.host_kind(host)
    found.work.update({
        "host": work_mod.q(kind, work_mod.INFERRED, f"{hostwork.DOES[kind]} in Python, per item: {host}"),
        "host_items": work_mod.q(None, work_mod.UNKNOWN, hostwork.UNKNOWN_ITEMS[kind]),
    })


def _generated(ctx: WalkContext) -> Inst:
    """What calling the generator function walked in *ctx* gives: its batches (arrays.generator),
    and the per-item host work that makes them, where its body shows some (`host`)."""
    made = arrays.generator(ctx.yields, ctx.drawn)
    if ctx.host is not None:
        made.meta["host"] = ctx.host
    return made


def _enclosing_def(info: FuncInfo) -> FuncInfo | None:
    """The function whose body defines the function *info* (not a method), where its name is that
    function's local (no `global` makes it the module's): only that function's code can name it."""
    parent = info.parent
    if info.kind != "function" or parent is None or info.scope.kind != "function" or info.node.name in info.scope.globals:
        return None
    return parent


def _nested_in(func: FuncInfo, outer: FuncInfo) -> bool:
    while func is not None:
        if func is outer:
            return True
        func = func.parent
    return False


def _once_per_api(found: list[Found], nodes: set[int]) -> list[Found]:
    """The sites recorded while calling each function a `Choice` may be, or each a composition applies:
    at the call itself (the ids of its *nodes*), the first of each API (two wrappers of one session run
    are one run of it here); inside the functions' bodies, all."""
    seen: set[str] = set()
    kept = []
    for site in found:
        if id(site.node) in nodes:
            if site.api in seen:
                continue
            seen.add(site.api)
        kept.append(site)
    return kept


def _reads_only(func: ast.expr, callee: Any) -> bool:
    """A call that never changes a dict it is given: a dict method reading it (`other.update(d)`,
    `table.get(d)`) or one of builders.READ_ONLY_CALLS."""
    if type(func) is ast.Attribute:
        return type(callee) is Ref and callee.path in builders.READ_ONLY_CALLS or func.attr in builders.KW_METHODS
    return type(func) is ast.Name and func.id in builders.READ_ONLY_CALLS


def _written(value: Any, node: ast.Call) -> bool:
    """Whether *value* is a function of the file that a call at *node* may be handed as its only caller
    besides the calls seen: a named one, or a lambda written as one of the call's arguments (one bound to a
    name may be passed elsewhere too)."""
    if type(value) is not UserFunc:
        return False
    lam = value.info.node
    return type(lam) is not ast.Lambda or any(arg is lam for arg in (*node.args, *(k.value for k in node.keywords)))


def _positional(info: FuncInfo) -> list[str]:
    """The positional parameters a call of a user function fills (self/cls and those its decorator's
    wrapper fills left out)."""
    node = info.node.args
    params = [arg.arg for arg in (*node.posonlyargs, *node.args) if arg.arg not in info.inserted]
    return params[1:] if info.kind in ("method", "property", "classmethod") and params else params


def _taken(node: ast.expr) -> int | None:
    """n of a loop over `<something>.take(n)` (or `enumerate` of it) with a literal n >= 0 (at
    most n trips)."""
    if type(node) is ast.Call and type(node.func) is ast.Name and node.func.id == "enumerate" and len(node.args) == 1:
        node = node.args[0]
    if type(node) is not ast.Call or type(node.func) is not ast.Attribute or node.func.attr != "take":
        return None
    given = [*node.args, *(k.value for k in node.keywords if k.arg == "count")]
    if len(given) == 1 and len(node.args) + len(node.keywords) == 1:
        value = given[0]
        if type(value) is ast.Constant and type(value.value) is int and value.value >= 0:
            return value.value
    return None


def _run_step(func: FuncInfo, node: ast.Call, api: str, fetches: Any) -> tuple[str | None, tuple[str, ...] | None]:
    """`Spent.step` and `Spent.fetched` of the graph run *node* of *func*'s body: "training" where its
    *fetches* hold an optimizer's update; else, where they are a positional parameter of *func*, alone
    or an item of a list, tuple or dict display (`self.sess.run([ops, self.summary], feed_dict)`), the
    positional parameters up to it."""
    if api not in GRAPH_RUNS:
        return None, None
    if graphrun.train_op_line(fetches) is not None:
        return "training", None
    if not api.endswith("Session.run"):
        return None, None
    given = next((k.value for k in node.keywords if k.arg == "fetches"), node.args[0] if node.args else None)
    items: list = given.elts if isinstance(given, (ast.List, ast.Tuple)) else given.values \
        if isinstance(given, ast.Dict) else [given]
    params = _positional(func)
    name = next((item.id for item in items if type(item) is ast.Name and item.id in params), None)
    return None, (tuple(params[: params.index(name) + 1]) if name is not None else None)


def _feed(node: ast.Call, api: str) -> ast.expr | None:
    """What a TF1 graph run is fed (None for another call): `feed_dict` by keyword, or by its
    position: run(fetches, feed_dict), partial_run(handle, fetches, feed_dict), eval(feed_dict)."""
    if api not in GRAPH_RUNS:
        return None
    cls, _, method = api.rpartition(".")
    at = (2 if method == "partial_run" else 1) if cls.endswith("Session") else 0
    return next((k.value for k in node.keywords if k.arg == "feed_dict"), node.args[at] if len(node.args) > at else None)


def _calls_beyond_sizes(expr: ast.expr) -> bool:
    """Whether *expr* calls anything but `len`, `int`, `min` or `max` (a bound read twice must not run work)."""
    return any(type(n) is ast.Call and not (type(n.func) is ast.Name and n.func.id in ("len", "int", "min", "max"))
               for n in ast.walk(expr))


def _loop_own(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a loop body that are the loop's own: each nested loop, but not its body (its
    `else` is the enclosing loop's), and no nested function or class's body."""
    stack = list(body)
    while stack:
        stmt = stack.pop()
        yield stmt
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            stack.extend(stmt.orelse)
        elif not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                stack.extend(getattr(stmt, field, ()))


def _skips(body: list[ast.stmt]) -> bool:
    """Whether a loop body has a `continue` of its own (nested loops' and functions' do not count)."""
    return any(type(stmt) is ast.Continue for stmt in _loop_own(body))


def _leaves_early(body: list[ast.stmt]) -> bool:
    """Whether a loop body has a `break` of its own, or a `return`/`raise` (nested loops'
    breaks and nested functions do not count)."""
    return any(type(stmt) in _EXITS or (isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)) and _returns(stmt.body))
               for stmt in _loop_own(body))


def _returns(body: list[ast.stmt]) -> list[ast.stmt]:
    """The `return`/`raise` statements of a nested loop's body (its breaks stay inside it)."""
    found = []
    stack = list(body)
    while stack:
        stmt = stack.pop()
        kind = type(stmt)
        if kind in (ast.Return, ast.Raise):
            found.append(stmt)
        elif kind not in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                stack.extend(getattr(stmt, field, ()))
    return found


def _graph_class_methods(makers: Iterable[FuncInfo | None]) -> set[int]:
    """The ids of the methods of each class (and of its bases in this module) one of whose methods
    makes a TF1 graph call (*makers*): such a class builds one graph across its methods
    (`add_placeholders`, then `add_logits_op` on `self.word_ids`), all of them in graph mode."""
    classes = {id(klass): klass for func in makers if func is not None and func.cls is not None
               for klass in func.cls.mro()}
    return {id(method) for klass in classes.values() for method in klass.methods.values()}


def _builds_graph(func: FuncInfo | None, graphs: set[int]) -> bool:
    """Whether code in *func* builds a TF1 graph: a TF1 graph call (a Session, a placeholder, ...,
    `TF1_GRAPH`) is made at module level (a TF1 script or notebook), or in *func* or a function
    enclosing it (the TF1 path of a library that also runs eagerly), or in a method of its class
    (`_graph_class_methods`)."""
    if id(None) in graphs:
        return True
    while func is not None:
        if id(func) in graphs:
            return True
        func = func.parent
    return False


#: The arguments of a Keras model's `compile` whose functions Keras calls in each training step.
_COMPILED = ("loss", "metrics", "weighted_metrics")


def _validates(named: dict) -> bool | None:
    """Whether a `fit` given these arguments validates (step_traces.py): `validation_data` given and not
    None (a value the walk cannot type is data: where a path binds None, a join keeps the other value
    anyway), or a `validation_split` above zero; None where the split's value is not known."""
    data, split = named.get("validation_data", Const(None)), named.get("validation_split", Const(0))
    if type(data) is not Const or data.value is not None:
        return True
    if type(split) is Const and _is_number(split.value):
        return split.value > 0
    return None


#: The calls that make every tf.function (a Keras fit's step among them) run eagerly.
RUN_EAGERLY = frozenset({"tensorflow.config.run_functions_eagerly", "tensorflow.config.experimental_run_functions_eagerly"})


def _mark_compiled(named: dict) -> None:
    """`model.compile(loss=self.custom_loss, metrics=[iou])`: the project functions given run inside
    the model's train_step, traced by fit (`keras_step`: their calls build the training graph, their
    work counted where the model trains)."""
    for key in _COMPILED:
        value = named.get(key)
        for item in items_of(value):
            if type(item) is UserFunc:
                item.info.keras_step = True


def _untaped(work: Work) -> Work:
    """*work* of a model call as an inference step: a call of its helper that opens no tape."""
    return {**work, "step": work_mod.q("inference", work_mod.INFERRED, work_mod.STEP_NOTES["inference"])}


def _traced(func: FuncInfo | None, flag: str = "tf_function") -> bool:
    """Whether *func* or a function it is nested in has *flag*: traced by a tf.function (or
    `keras_step`: run in a Keras model's train_step)."""
    while func is not None:
        if getattr(func, flag):
            return True
        func = func.parent
    return False


#: The names of `None` in an index.
_NEW_AXIS = frozenset({"numpy.newaxis", "tensorflow.newaxis"})
#: Tensor-like classes and what operators on them return (a Variable's arithmetic gives a Tensor).
_TENSORS = {
    "tensorflow.Tensor": "tensorflow.Tensor",
    "tensorflow.Variable": "tensorflow.Tensor",
    "tensorflow.keras.KerasTensor": "tensorflow.keras.KerasTensor",
    arrays.ARRAY: arrays.ARRAY,
}
_TENSOR_COMPARISONS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
#: Comparisons of literals the walk evaluates (`kwargs.get("strides") == (2, 2)`).
_LITERAL_COMPARISONS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.In: lambda a, b: a in b,
                        ast.NotIn: lambda a, b: a not in b, ast.Lt: operator.lt, ast.LtE: operator.le,
                        ast.Gt: operator.gt, ast.GtE: operator.ge}


def _compared(op: ast.cmpop, left: Any, right: Any) -> Const:
    """A comparison of two literals (`==`, `!=`, `in`, `not in`, an order: `num_thread > 1`): its truth (an
    option's, where one is an option's default: `args.mode == "small"`); a test against None of a value
    known not to be None (`input_size is not None` of a tuple or a literal); OPAQUE for anything else."""
    if type(op) in (ast.Is, ast.IsNot) and type(right) is Const and right.value is None and right is not OPAQUE \
            and (type(left) is Seq or type(left) is Const and left is not OPAQUE and left.value is not None):
        return Const(type(op) is ast.IsNot, left.option if type(left) is Const else "")
    compare = _LITERAL_COMPARISONS.get(type(op))
    if compare is None or type(left) is not Const or type(right) is not Const or left is OPAQUE or right is OPAQUE:
        return OPAQUE
    try:
        return Const(bool(compare(left.value, right.value)), left.option or right.option)
    except TypeError:
        return OPAQUE


def _split_literal(text: Const, args: list, keywords: list) -> Const | None:
    """`text.split(",")` of a literal string with a literal separator (or none): the list of its pieces,
    an option's where the text is one's default; None otherwise."""
    given = [value for _, value in args]
    if text is OPAQUE or type(text.value) is not str or keywords or len(given) > 1 or any(starred for starred, _ in args) \
            or given and (type(given[0]) is not Const or not isinstance(given[0].value, (str, type(None)))):
        return None
    return Const(text.value.split(*(g.value for g in given)), text.option)


#: The builtins whose `map` over literals gives literals (`map(int, "321,321".split(","))`).
_LITERAL_CONVERSIONS = {"int": int, "float": float, "str": str}


def _converted_literals(node: ast.Call, args: list, lookup) -> Const | None:
    """`map(int, pieces)` of a builtin conversion (not a name the program binds) over a literal list or
    tuple: the list of the converted literals (an option's, where the pieces are of its default); None
    otherwise, or where one does not convert (Python would raise)."""
    if len(node.args) != 2 or node.keywords or type(node.args[0]) is not ast.Name or len(args) != 2 or args[1][0]:
        return None
    convert = _LITERAL_CONVERSIONS.get(node.args[0].id)
    items = args[1][1]
    if convert is None or lookup(node.args[0].id)[0] or type(items) is not Const or items is OPAQUE \
            or not isinstance(items.value, (list, tuple)):
        return None
    try:
        return Const([convert(item) for item in items.value], items.option)
    except (TypeError, ValueError):
        return None


def _tensor_result(left: Any, right: Any) -> Inst | None:
    """The tensor an operator returns when one operand is a tensor and the other a tensor of
    the same kind or a literal (whose own operator defers to the tensor's); a tensor of unknown shape
    where the other is not known at all (`x * tf.tanh(x)` of a parameter, in a module's summary: a
    helper building graph ops); None otherwise."""
    kinds = []
    batch = arrays.kept(left) or arrays.kept(right)
    if batch is not None and type(left if batch is right else right) is Const:
        return batch  # `batch / 127.5 - 1.`: the host batch, scaled
    unknown = 0
    for value in (left, right):
        if type(value) is Inst and value.cls in _TENSORS:
            kinds.append(_TENSORS[value.cls])
        elif value is None:
            unknown += 1
        elif type(value) is not Const:
            return None
    if not kinds or len(set(kinds)) > 1:
        return None
    return Inst(kinds[0], "operator") if unknown else arrays.elementwise(kinds[0], left, right)


def _broadcasts(left: Any, right: Any) -> bool:
    """Whether *left* and *right* are symbolic tensors of known, different shapes (which may broadcast)."""
    shapes = [v.meta["sym"].shape if arrays.is_sym(v) else None for v in (left, right)]
    return None not in shapes and shapes[0] != shapes[1]


def _displays_joined(left: Any, right: Any) -> Seq | None:
    """`[self.batch_size] + image_dims` of two list or tuple displays, one with items not known (a Seq):
    their items in order; None otherwise."""
    parts: list = []
    for value in (left, right):
        if type(value) is Seq:
            parts.extend(value.items)
        elif type(value) is Const and value is not OPAQUE and isinstance(value.value, (list, tuple)):
            parts.extend(Const(item) for item in value.value)
        else:
            return None
    return Seq(tuple(parts))


def _known(value: Any) -> Any:
    """An unknown value as OPAQUE, so that `None` can mean "absent" (a slice's bounds)."""
    return OPAQUE if value is None else value


def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


#: NumPy calls whose first axis is as long as the list display they are given (`np.array([obs])`).
_ROWS_PER_ITEM = frozenset({"numpy.array", "numpy.asarray"})


def _written_items(node: ast.expr) -> list[ast.expr]:
    """The items of a list or tuple display written out, none starred (`[obs]`, `(a, b)`); [] otherwise."""
    if not isinstance(node, (ast.List, ast.Tuple)) or any(isinstance(e, ast.Starred) for e in node.elts):
        return []
    return node.elts


#: NumPy calls whose size argument sets how many rows an index they make draws (arrays.numpy_call).
_DRAWING = frozenset({"randint", "integers", "choice", "permutation", "arange"})


def _sized(info: FuncInfo, given: list) -> bool:
    """Whether a call of *info* given these values may draw rows by a size it is given: an int among
    them, and a body that draws rows (`draws_rows`)."""
    return any(type(v) is Const and type(v.value) is int for v in given) and draws_rows(info)


def draws_rows(info: FuncInfo) -> bool:
    """Whether *info*'s body (read once, kept on *info*) makes row numbers (`np.random.randint(0, n,
    batch_size)`) or slices by bounds not literal (`paths[i * batch_size:(i + 1) * batch_size]`)."""
    if info.draws is None:
        info.draws = isinstance(info.node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr in _DRAWING
            or type(node) is ast.Slice and any(b is not None and type(b) is not ast.Constant for b in (node.lower, node.upper))
            for node in ast.walk(info.node))
    return info.draws


def _formula(node: ast.AST) -> bool:
    """A function whose body is one `return` (after its docstring): an expression of its parameters."""
    body = getattr(node, "body", None)
    if not isinstance(body, list):
        return False
    if body and type(body[0]) is ast.Expr and type(body[0].value) is ast.Constant:
        body = body[1:]
    return len(body) == 1 and type(body[0]) is ast.Return


def _dispatches(node: ast.AST) -> bool:
    """A function that returns from a branch its test of a parameter against literals takes
    (`if norm == "batch_norm": return keras.layers.BatchNormalization`, `elif norm in ("ln", "layer"):
    ...`): a factory by name, whose value a call giving that parameter a literal picks."""
    args, body = getattr(node, "args", None), getattr(node, "body", None)
    if args is None or not isinstance(body, list):
        return False
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    tests = [statement for statement in body if type(statement) is ast.If]
    while tests:
        test = tests.pop()
        compared = test.test
        if type(compared) is ast.Compare and type(compared.left) is ast.Name and compared.left.id in params \
                and all(type(c) in (ast.Constant, ast.Tuple, ast.List, ast.Set) for c in compared.comparators) \
                and test.body and type(test.body[-1]) is ast.Return:
            return True
        tests.extend(statement for statement in test.orelse if type(statement) is ast.If)  # `elif`
    return False


def _math_call(path: str, args: list) -> Const | None:
    """`math.ceil(x)` (`_MATH`) of one literal number; None otherwise."""
    if len(args) != 1 or args[0][0] or type(args[0][1]) is not Const or not _is_number(args[0][1].value):
        return None
    try:
        return Const(_MATH[path](args[0][1].value), args[0][1].option)
    except (ValueError, OverflowError):  # (the square root of a negative number)
        return None


def _none_tested(test: ast.expr) -> set[str]:
    """The names a test requires to be None: `x is None`, `x is None and y is not None`."""
    if type(test) is ast.BoolOp and type(test.op) is ast.And:
        return set().union(*map(_none_tested, test.values))
    if type(test) is ast.Compare and type(test.left) is ast.Name and len(test.ops) == 1 \
            and type(test.ops[0]) is ast.Is and _is_none(test.comparators[0]):
        return {test.left.id}
    return set()


def _none_defaults(func: FuncInfo | None) -> set[str]:
    """The parameters of *func* whose default is None."""
    if func is None or isinstance(func.node, ast.Lambda):
        return set()
    args = func.node.args
    positional = [*args.posonlyargs, *args.args]
    pairs = [*zip(positional[len(positional) - len(args.defaults):], args.defaults),
             *zip(args.kwonlyargs, args.kw_defaults)]
    return {arg.arg for arg, default in pairs if default is not None and _is_none(default)}


def _is_none(node: ast.expr) -> bool:
    return type(node) is ast.Constant and node.value is None


def _self_targets(node: ast.FunctionDef) -> set[str]:
    """Names X of the `self.X = ...` targets in a method (self: its first parameter), and of the
    lists it fills (`self.X.append(...)`, `Resolver.fill_attribute`).

    Only statements are visited (assignments cannot hide inside expressions, walrus aside).
    """
    params = [*node.args.posonlyargs, *node.args.args]
    if not params:
        return set()
    name = params[0].arg
    found: set[str] = set()
    stack = list(node.body)
    while stack:
        stmt = stack.pop()
        kind = type(stmt)
        if kind is ast.Assign:
            targets = stmt.targets
        elif kind is ast.AnnAssign or kind is ast.AugAssign:
            targets = [stmt.target]
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Attribute) \
                and stmt.value.func.attr in _LIST_FILLERS:
            targets = [stmt.value.func.value]
        else:
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                stack.extend(getattr(stmt, field, ()))
            continue
        for target in targets:
            parts = target.elts if type(target) in (ast.Tuple, ast.List) else (target,)
            for part in parts:
                if type(part) is ast.Attribute and type(part.value) is ast.Name and part.value.id == name:
                    found.add(part.attr)
    return found


def _keras_merge_base(path: str) -> bool:
    """*path* names Keras' private merge base (`keras.layers.merge._Merge`, `keras.layers.merging.base_merge._Merge`),
    whose `call` runs the subclass's `_merge_function` on the list of inputs."""
    return path.partition(".")[0] in TF_ROOTS and path.rpartition(".")[2] == "_Merge"


def _unknown_on_sym(node: ast.Call, args: list, instance: int) -> Inst | None:
    """A call of something greenlint does not know (a layer of another library, `InstanceNormalization()(x)`,
    or of the project on a base it does not know, `class Mix(SomeLibraryLayer)`) on a Keras
    symbolic tensor: a symbolic tensor of unknown shape, so that the model built on it keeps
    the known layers' work as a lower bound (work.unknown_on_sym), except for a normalisation layer
    built there (`_normalisation_init`), which keeps its input's shape (work.normalisation_on_sym);
    None where its first argument is not symbolic (then the callee's name, which takes unparsing, is
    never written). The layers another callee dispatches are unknown (a helper of another library
    may apply several); *instance*: the walk making the call, as in `layer_output`."""
    syms = work_mod.syms_of(args[0][1]) if args and not args[0][0] else None
    if syms is None:
        return None
    key = _node_key(node, instance)
    init = _normalisation_init(node)
    cls = _tensor_class([args[0][1]])
    if init is not None:
        return Inst(cls, "method", {"sym": work_mod.normalisation_on_sym(syms, init, _called(node), key)})
    return Inst(cls, "method", {"sym": work_mod.unknown_on_sym(syms, _called(node), key)})


def _returned(returns: list) -> Any:
    """What a function returns through its `return` statements: their merge, the join of the
    symbolic tensors each returns (symjoin.py), or one of the functions, classes or instances each
    returns (a factory: `return VAE(sess)` on one path, `return GAN(sess)` on another, `union`)."""
    paths = symjoin.either_path(returns) if len(returns) > 1 else None
    if paths is not None:
        return paths
    value = returns[0]
    for other in returns[1:]:
        value = merge(value, other)
    return union(returns) if value is None and len(returns) > 1 else value


def _node_key(node: ast.AST, instance: int) -> Hashable:
    """The key of a graph op's FLOPs in a Sym: its node, and the walk making it where that is one for
    values only (`Resolver.shadowed`: the same line called again adds its own FLOPs)."""
    return (id(node), instance) if instance else id(node)


def _summed(value: Any, key: Hashable) -> Inst | None:
    """`sum(losses)`: of a display of a graph's tensors, their `add_n` (its FLOPs at *key*); of a list every
    item appended to which is a tensor, a tensor; None otherwise (the builtin's own arithmetic)."""
    if type(value) is Seq and any(map(arrays.is_sym, value.items)):
        return Inst(_tensor_class(list(value.items)), "operator",
                    {"sym": symops.on_sym("tensorflow.add_n", {"inputs": value}, key)})
    if type(value) is Inst and value.cls == arrays.LIST and value.meta.get(arrays.HOLDS_TENSORS):
        return Inst(arrays.TENSOR, "operator", {})
    return None


def _tensor_class(values: list) -> str:
    """What an op on symbolic tensors *values* returns: a TF1 graph's Tensor where one of them is a TF
    tensor (a placeholder, a variable), else a KerasTensor."""
    items = [item for v in values for item in items_of(v)]
    tf1 = any(type(v) is Inst and v.cls in arrays.TF_TENSORS for v in items)
    return arrays.TENSOR if tf1 else KERAS_TENSOR


def _normalisation_init(node: ast.Call) -> dict | None:
    """The literal arguments of another library's normalisation layer built and called at once
    (`InstanceNormalization(axis=-1)(x)`: a class whose name ends in `layers.NORMALISATION`): None
    for anything else, for one given a positional argument (a wrapper of a layer, such as
    `SpectralNormalization(Conv2D(...))`: it keeps the wrapped layer's shape, not its input's) or an
    argument that is not a literal."""
    built = node.func
    if type(built) is not ast.Call or built.args:
        return None
    name = built.func.attr if type(built.func) is ast.Attribute else getattr(built.func, "id", "")
    if not name.endswith(layers_mod.NORMALISATION):
        return None
    init = {}
    for keyword in built.keywords:
        if keyword.arg is None:
            return None
        try:
            init[keyword.arg] = ast.literal_eval(keyword.value)
        except ValueError:
            return None
    return init


def _called(node: ast.Call) -> str:
    """The name a call's callee is written with, its own calls stripped (`InstanceNormalization` for
    `InstanceNormalization()(x)`), shortened past 60 characters."""
    func = node.func
    while type(func) is ast.Call:
        func = func.func
    text = ast.unparse(func)
    return text if len(text) <= 60 else f"{text[:57]}..."


def _items(value: Any) -> list | None:
    """The items of a list/tuple display as values (None: not a display)."""
    if type(value) is Seq:
        return list(value.items)
    if type(value) is Const and isinstance(value.value, (tuple, list)):
        return [Const(item) for item in value.value]
    return None


def _unpack(value: Any, count: int) -> tuple | None:
    if type(value) is Inst and (value.cls == arrays.HOST_BATCH or value.meta.get("drawn")):
        return (value,) * count  # `x, y = next(gen)`: each part comes of that work, of those rows
    if type(value) is Seq and len(value.items) == count:
        return value.items
    if type(value) is Const and isinstance(value.value, (tuple, list)) and len(value.value) == count:
        return tuple(Const(item) for item in value.value)
    return None


#: Feature keys describing the context, not the arguments (kept out of an object's `init`).
_CONTEXT_KEYS = frozenset({"loop_multiplier", "loop_unbounded", "loop_depth", "in_tf_function", "in_keras_step"})

_STMT = {
    ast.Expr: Resolver.s_expr,
    ast.Assign: Resolver.s_assign,
    ast.AnnAssign: Resolver.s_annassign,
    ast.AugAssign: Resolver.s_augassign,
    ast.For: Resolver.s_for,
    ast.AsyncFor: Resolver.s_for,
    ast.While: Resolver.s_while,
    ast.If: Resolver.s_if,
    ast.Try: Resolver.s_try,
    ast.With: Resolver.s_with,
    ast.AsyncWith: Resolver.s_with,
    ast.Return: Resolver.s_return,
    ast.Raise: Resolver.s_raise,
    ast.Assert: Resolver.s_assert,
    ast.Delete: Resolver.s_delete,
    ast.Global: Resolver.s_global,
    ast.Nonlocal: Resolver.s_nonlocal,
    ast.Import: Resolver.s_import,
    ast.ImportFrom: Resolver.s_importfrom,
    ast.FunctionDef: Resolver.s_functiondef,
    ast.AsyncFunctionDef: Resolver.s_functiondef,
    ast.ClassDef: Resolver.s_classdef,
    ast.Match: Resolver.s_match,
}
if hasattr(ast, "TryStar"):
    _STMT[ast.TryStar] = Resolver.s_try

_EXPR = {
    ast.Name: Resolver.e_name,
    ast.Constant: Resolver.e_constant,
    ast.Attribute: Resolver.e_attribute,
    ast.Call: Resolver.e_call,
    ast.Tuple: Resolver.e_sequence,
    ast.List: Resolver.e_sequence,
    ast.Dict: Resolver.e_dict,
    ast.Set: Resolver.e_set,
    ast.BinOp: Resolver.e_binop,
    ast.UnaryOp: Resolver.e_unaryop,
    ast.BoolOp: Resolver.e_boolop,
    ast.Compare: Resolver.e_compare,
    ast.IfExp: Resolver.e_ifexp,
    ast.Subscript: Resolver.e_subscript,
    ast.JoinedStr: Resolver.e_joinedstr,
    ast.NamedExpr: Resolver.e_namedexpr,
    ast.Lambda: Resolver.e_lambda,
    ast.ListComp: Resolver.e_comprehension,
    ast.SetComp: Resolver.e_comprehension,
    ast.GeneratorExp: Resolver.e_comprehension,
    ast.DictComp: Resolver.e_comprehension,
    ast.Await: Resolver.e_await,
    ast.Yield: Resolver.e_yield,
    ast.YieldFrom: Resolver.e_yield,
    ast.Starred: Resolver.e_starred,
    ast.Slice: Resolver.e_slice,
}


def _labelled(named: dict) -> bool:
    """A `*_dataset_from_directory` that reads its folder's class folders (`labels="inferred"`, the default),
    not every file under it (`labels=None`)."""
    labels = named.get("labels")
    return labels is None or not (type(labels) is Const and labels.value is None)
