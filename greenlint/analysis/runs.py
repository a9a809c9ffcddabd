"""How often a call site runs in one run of the program, and why: `CallSite.runs`.

A site's count is the product of its enclosing loops' trip counts (`range(...)` and literal
sequences, as `features.loop_multiplier`; data sets and arrays of known length too: `for batch
in ds` over 1000 samples `.batch(64)` runs 16 times, arrays.iterations; `ds.take(n)` at most n;
a list filled by `append` in loops of known length, arrays.appended)
times the number of times its function runs: the sum, over the calls of that function seen in
the module, of each call's own count (a helper called 7 times runs its `fit` 7 times; one called
from a 3-trip loop in a function called twice, 6). The count is exact only when every reference
to the function is a call the resolver saw (`Resolver.all_calls_seen`); a function passed
elsewhere (a callback, Keras's `call`/`train_step`, `tf.function(f)`), never called in the file,
called recursively or through an unknown loop gives an unknown count; one handed to an API that calls it
(a callback's hooks once per epoch or batch of the `fit` given it, a `Dataset.map` function traced once:
handed.py) has those calls, `Place.via` naming the API: all of them where the file names it nowhere else (a
lambda written as its argument, a hook several callback classes define). A function only the scripts
beside its module call (`trainer.train()` in main.py) runs as often as those calls do per run of
the program, where none of them sits in a loop (script_runs.py, `Resolver.passed_beside`). Code under `if`/`except`/
`case` inside a loop, in a comprehension with a filter, or in a loop a `break`/`return`/`raise`
may leave, runs at most the loop bound (`upper`); under `if step % k == 0` (`np.mod(step, k)`,
`tf.math.mod` too) at most 1 in k of those runs, and c more under `if step % k == 0 or step == c1
or ...` (c such tests); k the default of a command-line option (`args.display_step`) is the count
with the defaults, which a command line may change (the note says so); a loop whose body always leaves it (`evaluate(); break`) runs once.

Loops and calls are told apart: `loop` counts the runs that loops alone give (the enclosing
loops, and the loops around the calls of its function; a function called from two cells is
not in a loop), `callers` how many calls of its function there are. Code under `if p is None:`
(p a parameter defaulting to None) is repeated only by the loops around the calls that may leave p
None: `predict(model, x)` in a loop, the model loaded before it, does not repeat the load in
`predict`'s `if model is None:` (the count, over every call, is unchanged). Per loop that repeats a
site, `varying` lists the inputs the loop changes: those its variable reaches (`for dtype in
dtypes: tf.constant([1], dtype=dtype)`), directly, through names the body binds afresh or from
it (`flow.varying`), or through the parameters of the functions called in that loop. A site
*varies* when every such loop changes it: no iteration repeats another's work, and the in-loop
rules must not call it a repeat.
"""

from __future__ import annotations

import ast
from math import ceil
from typing import Any, NamedTuple

from greenlint.analysis import flow
from greenlint.analysis.callsite import Runs
from greenlint.analysis.values import MISSING, Const, Foreign, set_as
from greenlint.units import TIMES

EXACT, UPPER, UNKNOWN = "exact", "upper", "unknown"


class Local(NamedTuple):
    """Runs of a place per run of its function: count (None: unknown) and bound; *share*: the
    place runs on at most 1 in *share* of its function's runs (`if step % k == 0` outside loops)."""

    count: int | None
    bound: str
    share: int = 1
    option: str = ""  # a period of the count is this command-line option's default
    counted: str = ""  # loops' trip counts in the count are these command-line options' defaults (comma-separated)
    guarded: bool = False  # at most *count*: under a condition, or in a loop left early
    resumed: bool = False  # at most *count*: a loop resumes its count at a start not known here
    least: int = 0  # where *count* is unknown, the fewest runs known (`floor`); 0: none

    @property
    def floor(self) -> int:
        """The fewest runs certain: an exact count, else `least` (0: none known)."""
        return self.count if self.bound == EXACT and self.count is not None else self.least


class Period(NamedTuple):
    """An enclosing `if ... % k == 0`: the loop at *depth* (1-based; 0: the function's own runs)
    runs what it gates on 1 in *k* of its trips, plus *extra* (`or step == 1`); *option*: k is
    the default of this command-line option (`--display_step`), "" where the code fixes it."""

    depth: int
    k: int
    extra: int = 0
    option: str = ""


#: Functions that take a remainder: `np.mod(a, k)`, `tf.math.floormod(a, k)` are `a % k`.
_REMAINDERS = frozenset({"mod", "floormod", "remainder", "fmod", "truncatemod"})


def remainder(node: ast.AST) -> tuple[ast.expr, ast.expr] | None:
    """(a, k) of `a % k`, or of a call of a remainder function on two positional arguments
    (`np.mod(a, k)`, `tf.math.mod(a, k)`); None for anything else."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return node.left, node.right
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _REMAINDERS
        and len(node.args) == 2
        and not node.keywords
        and not any(isinstance(a, ast.Starred) for a in node.args)
    ):
        return node.args[0], node.args[1]
    return None


def period(test: ast.expr) -> tuple[int | ast.expr, frozenset, int] | None:
    """(k, names read by a, extra runs) of a test `a % k == 0` (also `0 == ...`, `not a % k`, `a % k == c`
    for one residue c, and as one operand of `and`; `or a == c` adds one run per such test), k >= 2 a literal, or the
    name, attribute or dict entry holding it or arithmetic computing it (`Resolver.divisor` reads its value); None
    for other tests."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        found = [d for d in map(period, test.values) if d]
        literal = [d for d in found if isinstance(d[0], int)]
        return max(literal, key=lambda d: d[0] if isinstance(d[0], int) else 0) if literal else next(iter(found), None)
    if isinstance(test, ast.BoolOp):  # `or`: one period, the other operands tests of equality to a number
        found = [d for d in map(period, test.values) if d]
        if len(found) != 1 or not all(_equals_constant(v) for v in test.values if not period(v)):
            return None
        k, read, more = found[0]
        return k, read, more + len(test.values) - 1
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _modulus(test.operand)
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return None
    pairs = ((test.left, test.comparators[0]), (test.comparators[0], test.left))
    for left, right in pairs:
        if isinstance(right, ast.Constant) and right.value == 0 and type(right.value) is int:
            return _modulus(left)
    for left, right in pairs:
        parts = remainder(left)
        if parts is not None and _one_residue(right, *parts):
            return _modulus(left)
    return None


def _one_residue(c: ast.expr, a: ast.expr, k: ast.expr) -> bool:
    """`a % k == c` holds once every k passes as a counts up: c a literal 0 < c < k, or an expression
    that calls nothing and reads nothing a reads (`step % self.n == self.n - 1`)."""
    if isinstance(c, ast.Constant):
        residue, divisor = c.value, k.value if isinstance(k, ast.Constant) else None
        if not isinstance(residue, int) or isinstance(residue, bool) or residue <= 0:
            return False
        return not isinstance(divisor, int) or residue < divisor
    return (
        isinstance(c, (ast.Name, ast.Attribute, ast.BinOp))
        and not any(isinstance(n, ast.Call) for n in ast.walk(c))
        and not flow.names(c) & flow.names(a)
    )


def _modulus(node: ast.expr) -> tuple[int | ast.expr, frozenset, int] | None:
    found = remainder(node)
    if found is None:
        return None
    a, k = found
    if isinstance(k, ast.Constant) and type(k.value) is int and k.value >= 2:
        return k.value, flow.names(a), 0
    if isinstance(k, (ast.Name, ast.Attribute, ast.Subscript, ast.BinOp)):  # `step % (args.log_step * 10)`, `cfg["k"]`
        return k, flow.names(a), 0
    return None


def _equals_constant(test: ast.expr) -> bool:
    """`a == c`, c a literal number (`step == 1`)."""
    return (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
        and any(isinstance(e, ast.Constant) and type(e.value) in (int, float) for e in (test.left, test.comparators[0]))
    )


ONCE = Local(1, EXACT)


NEVER_KNOWN = Local(None, UNKNOWN)


class Place(NamedTuple):
    """Where a call sits in its function: its *runs* there; per enclosing loop that repeats it,
    the inputs (parameter names, "receiver") that loop changes (*varying*); and what
    `FunctionRuns.links` needs to tell which inputs derive from the function's parameters (the
    call's node and the callee's positional parameters), where the function has any."""

    runs: Local
    varying: tuple = ()
    call: Any = None
    params: list | None = None
    later: bool = False  # `types.MethodType(f, ...)`/`functools.partial(f, ...)`: f is called elsewhere, unseen
    unless: frozenset = frozenset()  # parameters of its function an enclosing `if p is None:` requires None
    line: int = 0  # the call's line (0: not known), and whether an `if`/`except`/`case` body encloses it
    branched: bool = False
    beside: str = ""  # a call another module makes, named by its scripts (`Resolver.passed_beside`)
    via: str = ""  # a call an API makes of a function handed to it, in words (handed.py: "once per epoch of ...")


def local(trips: list[int | None], guarded: bool, divisors: tuple = (), counted: list[str] | tuple = (),
          resumed: bool = False) -> Local:
    """Runs per run of the function of a place in loops of *trips* (outermost first; *counted*: the
    command-line option whose default each counts, "" for a count the code fixes; *resumed*: one of
    them resumes its count at a start not known here, so runs at most its trips); *divisors*:
    the `Period` of each enclosing `if ... % k == 0`: the loop at its depth (0: the function's own
    runs, as *share*, where no extra runs come with it) runs the place on at most 1 in k of its
    trips (plus its extra runs); of several at one depth, the fewest (`step % 100 == 0` around `step % 1000
    == 0` both test one counter: 1 in 1000, not 1 in 100,000)."""
    if not trips and not divisors:
        return ONCE
    count, share = 1, 1
    for period in divisors:
        if period.depth == 0 and not period.extra:
            share = max(share, period.k)
    for depth, whole in enumerate(trips, 1):
        if whole is None:  # at least the counted loops' trips, each unknown one once, where nothing may skip the place
            held = guarded or resumed or bool(divisors)
            return NEVER_KNOWN if held else Local(None, UNKNOWN, least=_product(t or 1 for t in trips))
        trip = whole
        for period in divisors:
            if period.depth == depth:
                trip = min(trip, ceil(whole / period.k) + period.extra)
        count *= trip
    option = next((p.option for p in divisors if p.option), "")
    held = guarded or bool(divisors)
    options = ", ".join(dict.fromkeys(c for c in counted if c))  # each option once, outermost first
    return Local(count, UPPER if held or resumed else EXACT, share, option, options, held, resumed)


def _product(values) -> int:
    found = 1
    for value in values:
        found *= value
    return found


def times(place: Local, outer: int) -> int:
    """Runs of a place per *outer* runs of its function."""
    return place.count * ceil(outer / place.share)


def combine(a: Local, b: Local) -> Local:
    """Runs of a place run *a* times per run of something run *b* times (where unknown, at least
    their floors' product: none where *a* runs on 1 in k of *b*'s runs)."""
    if a.count is None or b.count is None:
        return Local(None, UNKNOWN, least=a.floor * b.floor if a.share == 1 else 0)
    return Local(times(a, b.count), UPPER if UPPER in (a.bound, b.bound) or a.share > 1 else EXACT)


def _loop_max(values: list[int | None]) -> int | None:
    """The most runs loops give over several calls; None (unknown) wins."""
    return None if None in values else max(values, default=1)


class FunctionRuns:
    """Runs of each user function per program run, memoised; *all_calls_seen(info)* says
    whether the calls seen are all of them, *links(info, place)* which inputs of a call in it
    derive from which of its parameters (asked only where a loop varies them)."""

    def __init__(self, all_calls_seen, links, traced: frozenset[int] | set[int] = frozenset(),
                 served: dict[int, str] | None = None, hooks: dict[int, str] | None = None):
        self.all_calls_seen = all_calls_seen
        self.links = links  # (function, place in it) -> {input: the function's parameters it derives from}
        self.traced = traced  # ids of the functions whose Python runs only while a graph is traced
        self.served = served or {}  # ids of the functions a web server runs once per request -> what runs them
        self.hooks = hooks or {}  # ids of callback hooks no fit seen is given (handed.unseen_hook) -> who calls them
        self.memo: dict[int, tuple[Local, str | None]] = {}
        self.loops: dict[tuple, Local] = {}
        self.varied: dict[int, frozenset] = {}
        self.sites: dict[tuple, Runs] = {}  # (function, runs, varying) -> `runs`, where no link is asked

    def function(self, info: Any, active: frozenset = frozenset()) -> tuple[Local, str | None]:
        """(runs, why unknown) of a user function (None: the module's top level)."""
        if info is None:
            return ONCE, None
        key = id(info)
        if key in self.memo:
            return self.memo[key]
        name = getattr(info.node, "name", None)
        # a function named only where it is handed to APIs that call it (handed.py) has those calls alone
        handed = bool(info.callers) and all(place is not None and place.via for _, place, _ in info.callers)
        if name is None:  # a lambda: counted where it is handed to an API, or stored into an attribute it is called through
            if not handed and (not info.callers or not self.all_calls_seen(info)):
                self.memo[key] = Local(None, UNKNOWN), "a lambda runs where it is passed"
                return self.memo[key]
            name = f"the lambda at line {info.node.lineno}"
        label = name if isinstance(info.node, ast.Lambda) else f"{name}()"
        if key in active:
            return Local(None, UNKNOWN), f"{name} is called recursively"
        if key in self.served:
            found = Local(None, UNKNOWN), f"{name} runs once per web request ({self.served[key]})"
        elif not info.callers or not (handed and info.handed_only or self.all_calls_seen(info)):
            found = Local(None, UNKNOWN), self.hooks.get(key, f"{name} is called or passed where greenlint cannot count")
        elif any(place is not None and place.later for _, place, _ in info.callers):
            found = Local(None, UNKNOWN), f"{name} is bound (types.MethodType, functools.partial) and called where " \
                "greenlint cannot count"
        else:
            total, bound, why = 0, EXACT, None
            # a call from a traced body runs this Python once per trace, its ops in the graph (counted
            # where the graph runs): only the eager calls count, where there are any
            eager = [c for c in info.callers if c[0] is None or id(c[0]) not in self.traced]
            for caller, place, _ in eager or info.callers:
                outer, why = self.function(caller, active | {key})
                runs = combine(place.runs, outer)
                if runs.count is None:
                    total = None
                    if place.via and outer.count is not None:  # the API's repetition is what is not known
                        why = f"{name} runs {place.via}"
                    else:
                        why = why or f"a call of {name} sits in a loop of unknown length"
                    break
                total += runs.count
                bound = UPPER if runs.bound == UPPER else bound
            calls = len(eager or info.callers)
            if total is None:
                least = sum(combine(place.runs, self.function(caller, active | {key})[0]).floor
                            for caller, place, _ in eager or info.callers)
                found = Local(None, UNKNOWN, least=least), why
            else:
                beside = ", ".join(dict.fromkeys(place.beside for _, place, _ in info.callers if place.beside))
                if "," in beside:  # each script a program of its own: the most calls one makes
                    beside = f"one of {beside}, the most any makes"
                places = f"{calls} call{'s' if calls != 1 else ''}" + (f" in {beside}" if beside else "") + \
                    (", the others traced into a graph" if eager and len(eager) < len(info.callers) else "")
                vias = "; ".join(dict.fromkeys(place.via for _, place, _ in eager or info.callers if place.via))
                if vias:  # called by APIs it was handed to (handed.py)
                    places = vias if handed else f"{places}: {vias}"
                found = Local(total, bound), f"{label} runs {'at most ' if bound == UPPER else ''}{total}{TIMES} ({places})"
        self.memo[key] = found
        return found

    def loop(self, info: Any, active: frozenset = frozenset(), unless: frozenset = frozenset()) -> Local:
        """Runs loops alone give a user function: the most over its calls seen of the loops
        around each call (times its caller's), and its bound; 1 at top level, for a function
        called from no loop, or one whose calls are not seen or an API makes a number of times not known
        (handed.py); None where such a loop's length is unknown, or where a web server runs it once per request. *unless*: of its runs, only those where these parameters are None count (a
        call under `if model is None:`): its calls giving them a value known not to be None do not."""
        if info is None or id(info) in active:
            return ONCE
        key = (id(info), unless)
        if key not in self.loops:
            # bound for calls unseen: no loop known; nor for an API's calls of unknown repetition (handed.py): a
            # traced function (a Lambda layer's, a graph's map_fn body) runs a few times, not once per element
            found = [combine(place.runs, self.loop(caller, active | {id(info)}, place.unless))
                     for caller, place, bound in info.callers
                     if not place.later and not (place.via and place.runs.count is None) and not _given(bound, unless)]
            if id(info) in self.served:  # each request runs it again: as a loop of unknown length
                found.append(Local(None, UNKNOWN))
            counts = [runs.count for runs in found]
            most = _loop_max(counts)
            upper = any(runs.bound == UPPER for runs in found) or len(set(counts)) > 1
            self.loops[key] = Local(most, UNKNOWN if most is None else UPPER if upper else EXACT)
        return self.loops[key]

    def varying(self, info: Any, active: frozenset = frozenset()) -> frozenset:
        """Per loop that repeats a user function through one of its calls (in its caller, or
        around its caller's calls), the parameters that loop's variable reaches: a set of sets."""
        if info is None or id(info) in active:
            return frozenset()
        key = id(info)
        if key not in self.varied:
            found = set()
            for caller, place, _ in info.callers:
                found.update(place.varying)
                outers = self.varying(caller, active | {key})
                links = self.links(caller, place) if any(outers) else {}
                for outer in outers:
                    found.add(frozenset(p for p, params in links.items() if params & outer))
            self.varied[key] = frozenset(found)
        return self.varied[key]

    def request(self, info: Any, active: frozenset = frozenset()) -> str | None:
        """What runs a user function once per web request (a route handler, `served`), itself or
        through the calls of its callers; None where no request does."""
        if info is None or id(info) in active:
            return None
        if id(info) in self.served:
            return self.served[id(info)]
        return next((found for caller, _, _ in info.callers
                     if (found := self.request(caller, active | {id(info)})) is not None), None)

    def site(self, func: Any, place: Place) -> Runs:
        """The `runs` of a call site in *func* at *place* (sites in one function at the same kind
        of place share it)."""
        outers = self.varying(func)
        if any(outers):  # the call's own inputs count
            return self._site(func, place, outers)
        key = (id(func), place.runs, place.varying)
        found = self.sites.get(key)
        if found is None:
            found = self.sites[key] = self._site(func, place, outers)
        return found

    def _site(self, func: Any, place: Place, outers: frozenset) -> Runs:
        outer, why = self.function(func)
        runs = combine(place.runs, outer)
        notes = []
        if place.runs.count != 1 or place.runs.bound != EXACT:
            notes.append(_place_note(place.runs))
        if func is not None and why:
            notes.append(why)
        looped = combine(place.runs, self.loop(func, unless=place.unless))
        loop = looped.count
        links = self.links(func, place) if any(outers) else {}
        loops = set(place.varying)
        loops.update(frozenset(label for label, linked in links.items() if linked & outer) for outer in outers)
        if loop == 1:
            loops = set()
        callers = 1 if func is None else len(func.callers) if func.callers and self.all_calls_seen(func) else None
        option = place.runs.counted if place.runs.counted and loop is not None and loop > 1 else None
        return Runs(
            count=runs.count,
            bound=runs.bound,
            least=runs.least if runs.count is None and runs.least > 1 else None,
            note="; ".join(notes) or None,
            loop=loop,
            loop_bound=looped.bound,
            callers=callers,
            varies=bool(loops) and all(loops),
            varying=tuple(tuple(names) for names in sorted(sorted(names) for names in loops)),
            loop_option=option,
            request=self.request(func),
        )


def option_defaults(options: str) -> str:
    """"the default of `--epoch`", "the defaults of `--epoch` and `--iteration`": *options* as
    `Local.counted` and `Runs.loop_option` hold them (comma-separated)."""
    names = [f"`{set_as(o)}`" for o in options.split(", ")]
    if len(names) == 1:
        return f"the default of {names[0]}"
    return f"the defaults of {', '.join(names[:-1])} and {names[-1]}"


def _given(bound: dict, names: frozenset) -> bool:
    """Whether a call's arguments (*bound*: parameter -> value) give one of *names* a value known
    not to be None (a model, an instance, a literal other than None)."""
    for name in names:
        value = bound.get(name)
        if value is None or value is MISSING or type(value) is Foreign:  # unknown, or another library's
            continue
        if type(value) is not Const or value.value not in (None, NotImplemented):  # OPAQUE: any value
            return True
    return False


_HELD = "under a condition, or a loop left by break/return"
_RESUMED = "a loop resumes its count at a start not known here"


def _place_note(place: Local) -> str:
    """How often its loops run a call at *place*, in words, with the options whose defaults count them."""
    if place.count is None:
        return "inside a loop of unknown length"
    if place.share > 1 and place.count == 1:
        note = f"at most 1 in {place.share} of its function's runs (under `if ... % {place.share} == 0`)"
    elif place.bound == UPPER and place.option:
        note = (f"at most {place.count}{TIMES} in its loops with the default of `{set_as(place.option)}` as the period"
                " of the condition it runs under (a command line may change it)")
    elif place.bound == UPPER:
        why = [cause for cause, holds in ((_HELD, place.guarded or not place.resumed), (_RESUMED, place.resumed)) if holds]
        note = f"at most {place.count}{TIMES} in its loops ({'; '.join(why)})"
    else:
        note = f"{place.count}{TIMES} in its loops"
    if place.counted:
        several = ", " in place.counted
        note += (f", with {option_defaults(place.counted)} as {'loops' if several else 'a loop'}'s trip "
                 f"count{'s' if several else ''} (a command line may change {'them' if several else 'it'})")
    return note
