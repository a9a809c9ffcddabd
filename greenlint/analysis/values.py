"""What an expression is known to be, statically: the resolver's abstract values.

`None` stands for *unknown* everywhere (never guessed). `Const` is a known non-TF value
(a literal, or arithmetic on literals), which also feeds the literal-argument features.
"""

from __future__ import annotations

import copy
import itertools
from collections import Counter, deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, NamedTuple


class Const:
    """A literal value (numbers, strings, None, tuples of literals...); `option`: the command-line
    option whose default it is, a value the user can change (`batch_size` of `--batch_size`, or a
    Hydra configuration's key with its override's `=`: `train.epochs=`; `set_as` writes either); ""
    for one the program fixes."""

    __slots__ = ("value", "option")

    def __init__(self, value: Any, option: str = ""):
        self.value = value
        self.option = option

    def __eq__(self, other: object) -> bool:
        return type(other) is Const and type(self.value) is type(other.value) and self.value == other.value

    def __hash__(self) -> int:
        return hash(type(self.value))

    def __repr__(self) -> str:
        return f"Const({self.value!r})"

    def __reduce__(self):  # unpickled, OPAQUE is OPAQUE again
        return (_const, (self.value, self.option))


#: Ends the `Const.option` of a Hydra configuration's key, which the command line overrides as
#: `train.epochs=40` (`hydra_config`), not as an argparse option or absl flag (`--epochs 40`).
HYDRA_KEY = "="


def set_as(option: str) -> str:
    """A command-line option (`Const.option`) as the user sets it: `--epochs` for an argparse option
    or absl flag, `train.epochs=` for a Hydra configuration's key (`HYDRA_KEY`)."""
    return option if option.endswith(HYDRA_KEY) else f"--{option}"


#: A known non-TF value whose exact value is not tracked (a non-literal string, a list of variables).
OPAQUE = Const(NotImplemented)


def _const(value: Any, option: str = "") -> Const:
    return OPAQUE if value is NotImplemented else Const(value, option)


def options_of(values: Any) -> tuple[str, ...]:
    """The command-line options whose defaults *values* hold or were built from (`Const.option`; an
    instance's `options`, a layer's or model's made with them; a sequence's items), in order, once each."""
    found: dict[str, None] = {}
    for v in values:
        kind = type(v)
        if kind is Const and v.option:
            found[v.option] = None
        elif kind is Inst:
            found.update(dict.fromkeys(v.meta.get("options", ())))
        elif kind is Seq:
            found.update(dict.fromkeys(options_of(v.items)))
    return tuple(found)


class Parsed:
    """The namespace a program's command line is parsed into (`args = parser.parse_args()`): its
    attributes are the options' defaults (`options.py`), except those *given* in a literal argument
    list (`parser.parse_args(["--epochs", "5"])`, whose values are not read)."""

    __slots__ = ("given",)

    def __init__(self, given: frozenset[str] = frozenset()):
        self.given = given

    def __eq__(self, other: object) -> bool:
        return type(other) is Parsed and other.given == self.given

    def __hash__(self) -> int:
        return hash(self.given)


class Options:
    """The options object a script beside the module hands one of its functions or classes
    (`dcgan.train(FLAGS)`, `Trainer(args)` in main.py; `constructed.py`): each attribute the default
    of the script's option of that name (a `Const` whose `option` names it), where the script does
    not set it itself, or a group of options in turn (Hydra's `cfg.train`); any other attribute
    unknown."""

    __slots__ = ("defaults",)

    def __init__(self, defaults: Mapping[str, Const | Options]):
        self.defaults = defaults

    def __eq__(self, other: object) -> bool:
        return type(other) is Options and other.defaults == self.defaults

    def __hash__(self) -> int:
        return hash(frozenset(self.defaults))


class Ref:
    """A TF/Keras module, class or function reached through an import: its dotted import path."""

    __slots__ = ("path",)

    def __init__(self, path: str):
        self.path = path

    def __eq__(self, other: object) -> bool:
        return type(other) is Ref and other.path == self.path

    def __hash__(self) -> int:
        return hash(self.path)

    def __repr__(self) -> str:
        return f"Ref({self.path})"


class Inst:
    """An instance of a canonical TF class; `how` says how it was obtained, `meta` is what is
    known of it (constructor literals, model name, number of layers)."""

    __slots__ = ("cls", "how", "meta")

    def __init__(self, cls: str, how: str, meta: dict | None = None):
        self.cls = cls
        self.how = how
        self.meta = meta if meta is not None else {}

    def __eq__(self, other: object) -> bool:
        return type(other) is Inst and other.cls == self.cls

    def __hash__(self) -> int:
        return hash(self.cls)

    def __repr__(self) -> str:
        return f"Inst({self.cls}, {self.how})"


class Member:
    """`owner.name` where owner is an `Inst` (a bound TF method, resolved when called)."""

    __slots__ = ("owner", "name")

    def __init__(self, owner: Inst, name: str):
        self.owner = owner
        self.name = name

    def __eq__(self, other: object) -> bool:
        return type(other) is Member and other.owner == self.owner and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


class Choice:
    """One of several functions, classes or instances of them, picked at run time: the values of a
    dict display of user functions (`{"unet": build_unet, "fcn": build_fcn}[name]`), a name each
    path binds to another (`union`); calling it, or a method of it, calls one of them (at most
    `MOST_CHOICES`)."""

    __slots__ = ("items",)

    def __init__(self, items: tuple):
        self.items = items

    def __eq__(self, other: object) -> bool:
        return type(other) is Choice and other.items == self.items

    def __hash__(self) -> int:
        return len(self.items)


class Foreign:
    """A value from a library that is neither TensorFlow nor the project (scikit-learn, PyTorch,
    ...: `untyped.FOREIGN_ROOTS`): its attributes and calls give foreign values too, so that its
    `.fit(`/`.predict(` is never taken for Keras's."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "FOREIGN"


FOREIGN = Foreign()


class Seq:
    """A tuple or list display with some non-literal items (`return model, optimizer`)."""

    __slots__ = ("items",)

    def __init__(self, items: tuple):
        self.items = items

    def __eq__(self, other: object) -> bool:
        return type(other) is Seq and other.items == self.items

    def __hash__(self) -> int:
        return len(self.items)


class Kw:
    """A dict of keywords known by name (`{"use_bias": False}`, a function's `**kwargs` for one call): each
    name's value (None where unknown); spread into a call's keywords by `**` (builders.py). *attrs*: an
    attribute bag (`EasyDict`, `SimpleNamespace`), whose keys are read and set as attributes."""

    __slots__ = ("items", "attrs")

    def __init__(self, items: dict, attrs: bool = False):
        self.items = items
        self.attrs = attrs

    def __repr__(self) -> str:
        return f"Kw({sorted(self.items)})"


class Composed:
    """Callables composed into one, applied left to right (`reduce(lambda f, g: lambda *a: g(f(*a)), funcs)`,
    builders.py); *items* None where they are not known."""

    __slots__ = ("items",)

    def __init__(self, items: tuple | None):
        self.items = items

    def __repr__(self) -> str:
        return f"Composed({self.items!r})"


def items_of(value: Any) -> tuple:
    """What a one-or-many argument holds: a tuple or list display's items (`[x_a, x_b]`), any other
    value alone (`x`)."""
    return value.items if type(value) is Seq else (value,)


def fresh(value: Any) -> Any:
    """A copy of a summary's value the resolver may extend (an instance's known facts)."""
    if type(value) is Inst:
        return Inst(value.cls, value.how, copy.deepcopy(value.meta))
    if type(value) is Seq:
        return Seq(tuple(fresh(item) for item in value.items))
    return value


class Walk(IntEnum):
    """Where the walk of a function's body stands."""

    PENDING = 0
    WALKING = 1  # a call reached while its body is being walked (recursion) learns nothing
    DONE = 2  # its return value is known


class Spent(NamedTuple):
    """Where a call of a function spends its work (`FuncInfo.runs`, wrappers.py): the TF call's *api* and
    *where* it is; *fed*: the parameters (position among a call's positional arguments, or None for a
    keyword-only one; name) whose values a graph run's `feed_dict` reads, () where it reads none;
    *step*: "training" where the graph run fetches an optimizer's update of its own; *fetched*: where its
    fetches are a parameter of the function, the positional parameters up to that one (a caller's
    argument for it tells whether the run is a training step)."""

    api: str
    where: str
    fed: tuple[tuple[int | None, str], ...]
    step: str | None = None
    fetched: tuple[str, ...] | None = None


@dataclass(eq=False)
class FuncInfo:
    """A function defined in the analysed file (a module-local factory, or a method)."""

    node: Any
    scope: Any  # the scope it was defined in (lookups of free names go there)
    cls: ClassInfo | None = None
    kind: str = "function"  # function | method | staticmethod | classmethod | property | lambda
    tf_function: bool = False  # decorated with or traced by tf.function (see resolver.TRACING)
    graph_function: bool = False  # calling it runs a tf.function: decorated, or what `tf.function(f)` returns
    taped: bool = False  # called under a `tf.GradientTape`: its model calls are a training step's forward pass
    #: (calling FuncInfo or None, whether a tape is open at that call itself) per call made under a tape,
    #: directly or inside a taped function (`Resolver.eager_taped`)
    tape_callers: list = field(default_factory=list)
    step_line: int | None = None  # the line of the last training step its body makes
    keras_step: bool = False  # call/train_step/... of a Keras Layer or Model subclass
    state: Walk = Walk.PENDING
    returns: Any = None
    parent: FuncInfo | None = None  # the function this one is nested in
    defaults: list = field(default_factory=list)  # values of the positional defaults
    kw_defaults: list = field(default_factory=list)  # keyword-only defaults (MISSING where none)
    inserted: tuple = ()  # positional parameters its project decorator's wrapper fills, not its callers (decorated.py)
    passed: dict | None = None  # parameter -> merged value over the calls seen
    calls_seen: int = 0
    implicit_calls: int = 0  # of those, calls that name it nowhere (TF1's `app.run()` runs `main`)
    handed_only: bool = False  # named nowhere but where it is handed to APIs that call it (handed.py)
    callers: list = field(default_factory=list)  # (calling FuncInfo or None, runs.Local, arguments) per call
    blind: bool = False  # walked before all its calls were seen, parameters unknown (Resolver.rewalk_blind)
    deferred: int = 0  # how often its walk was put off, waiting for more of its calls
    sets_outer_names: bool = False  # has `global`/`nonlocal`: walked at its first call
    #: the TF call in which a call of it spends its work (a session's run, a model's fit or predict, a
    #: checkpoint's save: wrappers.py), made in its body or in a function it calls
    runs: Spent | None = None
    runs_by_self: bool = False  # *runs* come from its call of `self.m(...)`, which a subclass may define anew
    runs_looped: bool = False  # *runs* is a call made in one of its loops (preferred to one before them: an initializer's run)
    returned: list = field(default_factory=list)  # the values of its `return`s, before they are merged
    host: str | None = None  # the per-item host work its body does in a loop, or a function it calls does (hostwork.py)
    host_once: str | None = None  # a file decode outside its loops: per item where a caller loops over it
    host_sited: bool = False  # its body holds a host-work call site, where its host work is counted (`Resolver.host_site`)
    draws: bool | None = None  # its body draws rows by a size it may be given (resolver._draws_rows; None: not read yet)
    #: its walk batched a tf.data pipeline, or a value it does not know (`dataset.batch(batch_size)`), or called a
    #: function whose walk did (this module's, or another's `Template`): a pipeline it returns may be its parameters'
    pipes: bool = False

    @property
    def has_parameters(self) -> bool:
        """Whether a call can give it values (self/cls aside): its walk may depend on them."""
        args = self.node.args
        own = len(args.posonlyargs) + len(args.args) - (self.kind in ("method", "property", "classmethod"))
        return own > 0 or bool(args.kwonlyargs or args.vararg or args.kwarg)


@dataclass(eq=False)
class ClassInfo:
    """A class defined in the analysed file; `tf_base` is its nearest TF/Keras base class, `forward`
    the method Keras runs when a layer of it is called (`call`; `_merge_function` on Keras' merge base)."""

    name: str
    tf_base: str | None = None
    user_bases: list[ClassInfo] = field(default_factory=list)
    methods: dict[str, FuncInfo] = field(default_factory=dict)
    attrs: dict[str, Any] = field(default_factory=dict)  # class-body names and self.X targets
    assigners: dict[str, list[FuncInfo]] = field(default_factory=dict)  # X -> methods assigning self.X
    ext_bases: list[ExtClass] = field(default_factory=list)  # bases imported from project modules
    #: a method no class of its own defines -> the `self.m(...)` calls of it its methods make, each (call node ->
    #: the calling method's name and the call's runs per run of that method): a subclass's `m` (`heir_calls`)
    heir_calls: dict[str, dict[Any, tuple[str, Any]]] = field(default_factory=dict)
    forward: str = "call"

    def find_method(self, name: str) -> FuncInfo | None:
        for klass in self.mro():
            if name in klass.methods:
                return klass.methods[name]
        return None

    def find_attr(self, name: str) -> tuple[bool, Any]:
        for klass in self.mro():
            if name in klass.attrs:
                return True, klass.attrs[name]
        return False, None

    def ext_member(self, attr: str) -> tuple[bool, Any]:
        """(found, value) of *attr* on the bases the class imports from project modules; unknown for
        one the base's methods set on `self` where the class overrides a class attribute of that base
        (its `__init__` computing `self.BATCH` from `self.IMAGES`, which the subclass sets anew)."""
        for klass in self.mro():
            for ext in klass.ext_bases:
                if attr in ext.attrs:
                    if attr in ext.assigned and any(name in ext.attrs for c in self.mro() for name in c.attrs):
                        return True, None
                    return True, fresh(ext.attrs[attr])
                if attr in ext.methods:  # (`self.m(...)`: its module may count this call, `ExtFunc.beside`)
                    return True, ExtFunc(ext.methods[attr], ext.runs.get(attr), beside=ext.beside.get(attr))
        return False, None

    def mro(self) -> list[ClassInfo]:
        """This class and its user-defined bases in Python's order (C3 linearisation; breadth
        first where the bases admit no consistent order), each once. Kept once the class
        statement has added its bases, and built from the bases' own: a chain of thousands of
        classes stays fast. The list is shared: callers must not change it."""
        kept = self.__dict__.get("_mro")
        if kept is not None and kept[0] == len(self.user_bases):
            return kept[1]
        bases = self.user_bases
        if len(bases) == 1:
            order = [self, *bases[0].mro()]
        else:
            order = [self, *(_c3_merge([b.mro() for b in bases] + [list(bases)]) or _breadth_first(bases))]
        self.__dict__["_mro"] = (len(bases), order)  # not a field: never cached nor compared
        return order


def _c3_merge(sequences: list[list[ClassInfo]]) -> list[ClassInfo] | None:
    """The C3 merge of *sequences*, or None when they admit no consistent order."""
    queues = [deque(s) for s in sequences if s]
    in_tails: Counter = Counter(id(k) for q in queues for k in itertools.islice(q, 1, None))
    out = []
    while queues:
        head = next((q[0] for q in queues if not in_tails[id(q[0])]), None)
        if head is None:
            return None
        out.append(head)
        for q in queues:
            if q[0] is head:
                q.popleft()
                if q:
                    in_tails[id(q[0])] -= 1
        queues = [q for q in queues if q]
    return out


def _breadth_first(bases: list[ClassInfo]) -> list[ClassInfo]:
    seen = {id(b) for b in bases}
    order = list(bases)
    for klass in order:  # grows while iterated: a queue without pops
        for base in klass.user_bases:
            if id(base) not in seen:
                seen.add(id(base))
                order.append(base)
    return order


class UserClass:
    __slots__ = ("info",)

    def __init__(self, info: ClassInfo):
        self.info = info

    def __eq__(self, other: object) -> bool:
        return type(other) is UserClass and other.info is self.info

    def __hash__(self) -> int:
        return id(self.info)


class UserInst:
    """An instance of a class of the project; *passed*: what its construction passed its `__init__`
    (name -> value), kept for a Keras layer or model of the project (each construction's own sizes)."""

    __slots__ = ("info", "passed")

    def __init__(self, info: ClassInfo, passed: dict[str, Any] | None = None):
        self.info = info
        self.passed = passed

    def __eq__(self, other: object) -> bool:
        return type(other) is UserInst and other.info is self.info

    def __hash__(self) -> int:
        return id(self.info)


class UserFunc:
    """A function of the analysed file; *scope*: where one closure of it reads its free names, that of
    the call of its enclosing function that returned it (`conv_block(3, [64, 64, 256])`), else None
    (its definition's, `FuncInfo.scope`)."""

    __slots__ = ("info", "scope")

    def __init__(self, info: FuncInfo, scope: Any = None):
        self.info = info
        self.scope = scope

    def __eq__(self, other: object) -> bool:
        return type(other) is UserFunc and other.info is self.info and other.scope is self.scope

    def __hash__(self) -> int:
        return id(self.info)


class Bound:
    """A user function whose first arguments are given (`types.MethodType(train, model)`,
    `functools.partial(train, model, epochs=5)`) and stored into an attribute every use of which is a
    call (`Resolver.bound_later`): calling it calls the function with those arguments first."""

    __slots__ = ("func", "args", "keywords")

    def __init__(self, func: UserFunc, args: tuple, keywords: tuple):
        self.func, self.args, self.keywords = func, args, keywords

    def __eq__(self, other: object) -> bool:
        return type(other) is Bound and other.func == self.func and (other.args, other.keywords) == (self.args, self.keywords)

    def __hash__(self) -> int:
        return hash(self.func)


class Super:
    """`super()` inside a method of a user class."""

    __slots__ = ("info",)

    def __init__(self, info: ClassInfo):
        self.info = info

    def __eq__(self, other: object) -> bool:
        return type(other) is Super and other.info is self.info

    def __hash__(self) -> int:
        return id(self.info)


#: An unbound name in one branch of an if/try (merging keeps the other branch's value).
MISSING = object()


#: Keras' batch source shareable between workers; a join of instances of different classes
#: deriving it is a `Sequence` (`gen = PascalGenerator(...)` on one path, `CsvGenerator(...)` on another).
SEQUENCE = "tensorflow.keras.utils.Sequence"


def merge(a: Any, b: Any) -> Any:
    """The value of a name bound differently on two paths; unknown unless they agree.

    A TF value merged with a known non-TF constant (`tf = None` in an `except ImportError`)
    keeps the TF value: the constant path cannot make TF calls. Instances of two classes
    deriving `keras.utils.Sequence` give a plain `Sequence` (only what they share is known).
    A value one path changed in place (meta "before": what it was, the other path's) is what it became.
    Two constructions of one class of another module (`model = MaskRCNN(mode="training", ...)`
    on one path, `MaskRCNN(mode="inference", ...)` on the other) give an instance of that class,
    its constructor's parameters known where both paths gave the same.
    """
    if a is b:
        return a
    if a is not None and b is not None:  # one changed in place on its path (`batch[j] = imread(p)`): what it became
        if type(a) is Inst and a.meta.get("before") is b:
            return a
        if type(b) is Inst and b.meta.get("before") is a:
            return b
    if type(a) is UserInst and type(b) is UserInst and a.info is b.info and a.passed != b.passed:
        passed = merged_bindings([a.passed, b.passed]) if a.passed is not None and b.passed is not None else None
        return UserInst(a.info, passed)
    if a == b:
        return _same_work(a, b) if type(a) is Inst else a
    if a is MISSING:
        return b
    if b is MISSING:
        return a
    if a is None or b is None:
        return None
    displays = _displays_merged(a, b)
    if displays is not None:
        return displays
    a_const, b_const = type(a) in (Const, Kw), type(b) in (Const, Kw)  # (a dict of keywords: a known non-TF value too)
    if a_const and b_const:
        return OPAQUE
    if a_const:
        return b
    if b_const:
        return a
    if is_sequence(a) and is_sequence(b):
        return Inst(SEQUENCE, "merge")
    if type(a) is ExtInst and type(b) is ExtInst and a.cls is b.cls:
        passed = merged_bindings([a.passed, b.passed]) if a.passed is not None and b.passed is not None else None
        return ExtInst(a.cls, passed)
    if type(a) is UserInst and type(b) is UserInst:
        return _joined(a.info, b.info)
    return None


def _display_items(value: Any) -> tuple | None:
    """The items of a list or tuple display (a Seq's, or a literal list's or tuple's as Consts), None otherwise."""
    if type(value) is Seq:
        return value.items
    if type(value) is Const and value is not OPAQUE and type(value.value) in (list, tuple):
        return tuple(Const(item) for item in value.value)
    return None


def _displays_merged(a: Any, b: Any) -> Seq | None:
    """Two list or tuple displays of one length bound on two paths (`image_dims = [out_h, out_w, c]` on one,
    `[in_h, in_w, c]` on the other): a display of that length, each item merged (`merge`: kept where both
    paths agree, unknown where they differ), so that a shape built from it keeps its rank and the sizes
    both paths agree on; None where either is not a display or their lengths differ."""
    x, y = _display_items(a), _display_items(b)
    if x is None or y is None or len(x) != len(y) or not x:
        return None
    return Seq(tuple(merge(i, j) for i, j in zip(x, y)))


def _joined(a: ClassInfo, b: ClassInfo) -> UserInst | None:
    """Instances of two classes of the program, neither with a TF base nor setting anything on `self`
    in its own methods (settings objects: `config = BalloonConfig()` on one path, `InferenceConfig()`,
    its subclass, on the other): an instance of neither, holding the class attributes (their own or
    their project bases') on which both agree; None otherwise."""
    if any(c.tf_base or c.assigners for info in (a, b) for c in info.mro()):
        return None
    names = {name for info in (a, b) for c in info.mro() for name in (*c.attrs, *(n for e in c.ext_bases for n in e.attrs))}
    agreed = {}
    for name in sorted(names):
        x, y = a.find_attr(name), b.find_attr(name)
        x, y = x if x[0] else a.ext_member(name), y if y[0] else b.ext_member(name)
        if x[0] and y[0] and x[1] is not None and x[1] is not MISSING and x[1] == y[1] and type(x[1]) is not ExtFunc:
            agreed[name] = x[1]
    return UserInst(ClassInfo(f"{a.name} | {b.name}", attrs=agreed))


def merged_bindings(bindings: list[dict]) -> dict:
    """Parameter values over several calls: unknown where they disagree."""
    merged = dict(bindings[0])
    for bound in bindings[1:]:
        for name in set(merged) | set(bound):
            merged[name] = merge(merged.get(name), bound.get(name))
    return merged


#: The most candidates a value that is one of several may hold (`Choice`, one_of.py): beyond, what a call of it reaches is not followed.
MOST_CHOICES = 32


def union(values: list) -> Choice | None:
    """The functions, classes or instances a name may hold after paths that bound it to different
    ones (`if noise: act = build_noisy_act(...) else: act = build_act(...)`, `model = GAN(...)` on
    one path and `WGAN(...)` on another, a parameter given a different function by each caller): one
    of them, a `Choice` (calling it, or a method of it, calls one of them), when every path gives one
    of a known kind, this module's or another's, a choice of them or None (whose call or method never
    runs); else None (unknown: a path that binds something else, or nothing, may be the one that
    runs; or more than MOST_CHOICES of them)."""
    items: list = []
    for value in values:
        kind = type(value)
        if kind is Choice and value.items:
            group = value.items
        elif kind in (UserFunc, ExtFunc, UserClass, ExtClass, UserInst, ExtInst):
            group = (value,)
        elif kind is Const and value.value is None:
            continue
        else:
            return None
        items.extend(item for item in group if item not in items)
    return Choice(tuple(items)) if 1 < len(items) <= MOST_CHOICES else None


def is_sequence(value: Any) -> bool:
    """Whether *value* is an instance of a class deriving `keras.utils.Sequence` (a user one included)."""
    kind = type(value)
    if kind is Inst:
        return value.cls == SEQUENCE
    if kind is UserInst:
        return value.info.tf_base == SEQUENCE
    return kind is ExtInst and value.cls.tf_base == SEQUENCE


#: `Inst.meta` keys describing work (sizes, shapes, architectures): kept at a join only where
#: both paths agree (greenlint/analysis/arrays.py, work.py).
WORK_KEYS = frozenset(
    {"layers", "graph", "sub_layers", "wrapped", "data", "shape", "shape_prov", "shape_note", "sym", "site_work",
     "length", "length_bound", "most_rows", "trainable", "compiled_trainable", "trainable_at_compile",
     "trainable_set_in", "trainable_set_at", "compiled_eagerly", "traced_functions", "cut", "call_output", "either", "unread", "estimator_model",
     "estimator_work", "mapped", "batched",  # these two: a dataset's mapped functions (mapped.py)
     "rows", "index", "drawn",  # rows of unknown shape, row numbers, a batch drawn (arrays.py)
     "static_shape",  # a tensor's `set_shape` (queues.STATIC_SHAPE)
     "saves_all", "trained_params",  # a TF1 Saver's variables, the weights a session trained (graphrun.py)
     "optimizer_slots"}  # a Keras model's optimizer's slots per weight (slots.py)
)
#: `Inst.meta` keys of a checkpoint: the Keras models it saves and every value it tracks (work.py), the
#: analysis' own objects, never a call site's features.
SAVED, TRACKED = "saved", "tracked"
#: `Inst.meta` keys of a model built here: its network (work.py).
_NETWORK_KEYS = ("graph", "layers", "sub_layers", "model_name")


def _same_work(a: Inst, b: Inst) -> Inst:
    """*a* where *b* is the same object as far as work goes; otherwise *a* without what differs."""
    if a.meta is b.meta or not (a.meta or b.meta):
        return a
    differ = [k for k in WORK_KEYS if (k in a.meta or k in b.meta) and not _agree(a.meta.get(k), b.meta.get(k))]
    options = _options_differ(a.meta.get("init"), b.meta.get("init"))
    if not differ and not options:
        return a
    meta = {k: v for k, v in a.meta.items() if k not in differ}
    static, other = a.meta.get("static_shape"), b.meta.get("static_shape")
    if "static_shape" in differ and static is not None and other is not None and len(static) == len(other):
        meta["static_shape"] = tuple(x if x == y else None for x, y in zip(static, other))  # the sizes both agree on
    if options:  # `if ...: Conv2D(8, 3, padding="same") else: Conv2D(8, 3)`: either runs
        init = {k: v for k, v in (a.meta.get("init") or {}).items() if k not in options}
        meta.pop("init", None)
        if init:  # (no `init` where none is left, as for a constructor given no literal option)
            meta["init"] = init
        if "init_complete" in meta:  # what is left is not all it was given (hostwork.augments)
            meta["init_complete"] = False
    unread = {*a.meta.get("unread", ()), *b.meta.get("unread", ()), *options}
    if unread:  # an option not known on either path (`padding=pad`) is not known after them
        meta["unread"] = tuple(sorted(unread))
    models = [_alternatives(a.meta), _alternatives(b.meta)]
    if all(models):  # models built on alternative paths, or given by different callers: any may run (work.model_net)
        meta["either"] = tuple({id(m): m for m in (*models[0], *models[1])}.values())
    return Inst(a.cls, a.how, meta)


def _alternatives(meta: dict) -> tuple[dict, ...]:
    """The models a model value may be: itself where its network is known, those it was merged from
    (`either`, so that a third path or caller adds to them rather than losing them); () otherwise."""
    if "either" in meta:
        return meta["either"]
    return (meta,) if any(k in meta for k in _NETWORK_KEYS) else ()


def _options_differ(a: dict | None, b: dict | None) -> set[str]:
    """The constructor options two layers built on alternative paths are given differently (an option
    one leaves out is its default: a `layers.DEFAULTED` one then differs too, any other is unknown)."""
    if a is b:
        return set()
    a, b = a or {}, b or {}  # (a constructor given no literal option has no `init`)
    return {k for k in a.keys() | b.keys() if not _agree(a.get(k, MISSING), b.get(k, MISSING)) and not _no_work(k)}


def _no_work(option: str) -> bool:
    """An option that names a layer or sets its weights' first values: no work depends on it."""
    return option == "name" or option.endswith("_initializer")


def _agree(x: Any, y: Any) -> bool:
    if x is y:
        return True
    if type(x) is list and type(y) is list or type(x) is tuple and type(y) is tuple and dict in map(type, x):
        return len(x) == len(y) and all(i is j for i, j in zip(x, y))  # (the same layers; either of the same models)
    if type(x) is Inst or type(y) is Inst:
        return False
    return x == y


class ExtModule:
    """A module of the analysed project reached through an import (`greenlint.analysis.project`):
    its file (None for a namespace package) and its directory if it is a package; *option*: the
    command-line option whose default names it, where a string picks it (by_name.py), so that the
    constants read off it are that option's default too (`Const.option`)."""

    __slots__ = ("file", "directory", "option")

    def __init__(self, file: str | None, directory: str | None, option: str = ""):
        self.file = file
        self.directory = directory
        self.option = option

    def __eq__(self, other: object) -> bool:
        return type(other) is ExtModule and (other.file, other.directory) == (self.file, self.directory)

    def __hash__(self) -> int:
        return hash((self.file, self.directory))


@dataclass(frozen=True, eq=False)
class Template:
    """A function of another project module as its own module's walk left it, for a caller to walk
    its body again with the arguments of one call (`Resolver.instantiated`): *info*, and the
    functions that walk defined (*functions*), whose records such a walk changes and puts back."""

    info: FuncInfo
    functions: tuple[FuncInfo, ...]


class ExtFunc:
    """A function of another project module: only what it returns is known (a copy, never walked),
    `runs`, the TF call where a call of it spends its work (`FuncInfo.runs`), if any, and the host
    work its body does (`FuncInfo.host`, `FuncInfo.host_once`). A generator function whose batches
    depend on its parameters also keeps its `Template`: each call walks it with its own arguments.
    *code*: its node and its module's functions by name, for what it does with the objects it is
    given (hostwork.handed_methods, asked only of a call that gives one); *sited*: its `FuncInfo.host_sited`;
    *bound*: for a method read on an instance whose class keeps it as a `Template` (a wrapper's, wrapped.py),
    that instance and the method's name; *beside*: its module's path and the name the scripts beside call it by,
    where that module's walk counts their calls of it as its runs (`Resolver.counted_beside`)."""

    __slots__ = ("returns", "runs", "host", "host_once", "template", "code", "sited", "bound", "beside")

    def __init__(
        self, returns: Any, runs: Spent | None = None, host: str | None = None, host_once: str | None = None,
        template: Template | None = None, code: tuple[Any, Any] | None = None, sited: bool = False,
        bound: tuple[ExtInst, str] | None = None, beside: tuple[str, str] | None = None,
    ):
        self.returns = returns
        self.runs = runs
        self.host = host
        self.host_once = host_once
        self.template = template
        self.code = code
        self.sited = sited
        self.bound = bound
        self.beside = beside


@dataclass(eq=False)
class ExtClass:
    """A class of another project module: its nearest TF base, what its methods return, where they
    spend their work and what host work they do, and what its attributes (class body, `self.X`) hold."""

    name: str
    tf_base: str | None = None
    methods: dict[str, Any] = field(default_factory=dict)  # name -> return value (None: unknown)
    attrs: dict[str, Any] = field(default_factory=dict)
    runs: dict[str, Spent] = field(default_factory=dict)  # method name -> its `FuncInfo.runs`
    self_calls: dict[str, tuple[str, ...]] = field(default_factory=dict)  # method name -> the `self.m(...)` it calls
    #: the methods whose `runs` come from a `self.m(...)` call: the first of their self calls that spends work in this
    #: class (a subclass's `m`, where it defines one the base's module did not know) decides (project.py `_late_bound`)
    late: set[str] = field(default_factory=set)
    #: method name -> its host work (`FuncInfo.host`, `FuncInfo.host_once`), where it does some
    hosts: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)
    sliced: bool = False  # its `__getitem__` only slices what the instance holds (hostwork.slices_only)
    workers: int | str | None = None  # what its constructor gives `super().__init__` as `workers` (hostwork.given_workers)
    #: the attributes its methods set on `self` (`self.BATCH = self.IMAGES * n` in `__init__`): computed from what a
    #: subclass may override (`_ext_member` in the resolver)
    assigned: frozenset[str] = frozenset()
    #: method name -> its `Template`, where each call's arguments may tell what it builds (a `__call__` applying
    #: graph ops to the tensor it is given: `batch_norm(name="g_bn0")(h)`) or, for a `keras.utils.Sequence`,
    #: what its batches are (its `__init__` and `__getitem__`, walked for each construction's arguments)
    templates: dict[str, Any] = field(default_factory=dict)
    #: method name -> its `Template`, where each call's arguments may tell the rows of the batch it gives (a
    #: data loader's `load_data(batch_size)` or `load_batch(batch_size)` generator, decoding per item)
    batches: dict[str, Any] = field(default_factory=dict)
    #: a method it does not define -> the methods calling it on `self` that no code of its module calls, each
    #: with that call's runs per run of it (`ClassInfo.heir_calls`): a subclass's `m` runs as often as those
    #: methods, called on the subclass, run times that (`Resolver.heir_called`)
    heir_calls: dict[str, tuple[tuple[str, Any], ...]] = field(default_factory=dict)
    #: method name -> its `ExtFunc.beside`, for the methods spending work that its own body defines
    beside: dict[str, tuple[str, str]] = field(default_factory=dict)


class ExtInst:
    """An instance of an `ExtClass`; *passed*: what its construction gives the parameters of the class's
    `__init__` (name -> value), where that class keeps its `__init__` as a `Template`."""

    __slots__ = ("cls", "passed")

    def __init__(self, cls: ExtClass, passed: dict[str, Any] | None = None):
        self.cls = cls
        self.passed = passed


def runs_of(value: Any) -> Spent | None:
    """Where calling *value* spends its work (`FuncInfo.runs`, wrappers.py): a function's, an instance's `__call__`'s."""
    kind = type(value)
    if kind is UserFunc:
        return value.info.runs
    if kind is UserInst:
        method = value.info.find_method("__call__")
        return method.runs if method is not None else None
    if kind is ExtFunc:
        return value.runs
    if kind is ExtInst:
        return value.cls.runs.get("__call__")
    return None
