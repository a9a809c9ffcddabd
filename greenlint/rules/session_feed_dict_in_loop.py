"""GL503 session-feed-dict-in-loop: TF1 `Session.run(feed_dict=...)` on every loop iteration."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.rules.assembled import Assembled
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument, binds
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.feed_work import host_work
from greenlint.rules.host_made import made_on_host, scalars_only
from greenlint.rules.material import SAVING_OPTION, immaterial_work
from greenlint.rules.site import Site, method
from greenlint.rules.syntax import (
    LOOPS,
    SCOPES,
    TIMERS,
    calls_by_name,
    calls_of,
    comprehensions_around,
    enclosing,
    feed,
    innermost_loop,
    is_training_step,
    last_name,
    literal_trips,
    loop_varying,
    own_body,
    own_loops,
    own_yields,
    parameters,
    periodic,
    positional_parameters,
    waits_for_user,
)

#: An op's own `run` (`train_step.run(feed_dict=...)`): a run of the default session.
OPERATION_RUN = "tensorflow.Operation.run"
RUNS = ("tensorflow.compat.v1.Session.run", "tensorflow.compat.v1.InteractiveSession.run", OPERATION_RUN)
#: Graph runs whose result a loop can feed back: `Session.run`, `Tensor.eval`, `Variable.eval`.
EVALS = ("tensorflow.Tensor.eval", "tensorflow.Variable.eval")


#: A feeder class deriving from `{base}` whose `run` calls a method that feeds each batch, made item by item, to a
#: queue's enqueue op.
FEEDER = (
    "import threading\nimport numpy as np\nimport tensorflow as tf\nclass Feeder({base}):\n"
    "    def __init__(self, sess):\n        self.sess = sess\n    def run(self):\n        while True:\n"
    "            self.enqueue_group()\n    def enqueue_group(self):\n        for batch in make_batches():\n"
    "            feed = {{self.inputs: np.stack([prepare(x) for x in batch])}}\n"
    "            self.sess.run(self.enqueue_op, feed_dict=feed)\n"
)

#: What runs a function on another thread or process (`threading.Thread(target=f)`).
WORKERS = frozenset({"Thread", "Process", "Timer"})
#: Host calls that draw or pick the next element from a model's output (`np.random.choice(n, p=probs)`, `argmax`).
SAMPLERS = frozenset({"choice", "choices", "multinomial", "categorical", "argmax"})
#: Modules and builtins whose calls compute on the host alone: what a generation loop does with a run's output
#: between two runs (anything else, such as an environment's `step`, is a system outside the graph).
HOST_MATH = frozenset(
    {
        "np",
        "numpy",
        "random",
        "math",
        "int",
        "float",
        "list",
        "tuple",
        "len",
        "min",
        "max",
        "sum",
        "round",
        "abs",
        "reversed",
        "sorted",
    }
)
#: A generation loop known to run fewer times than this is not reported (a short demo).
FEW_ELEMENTS = 100


def _varies(fed: ast.expr, loop: ast.AST, steady: flow.Steady | None = None) -> bool | None:
    """Whether the fed values change between iterations; None when they are all literals. A call
    *steady* accepts (a function that only assembles its arguments into a feed dict) changes only
    with what it is given."""
    values = fed.values if isinstance(fed, ast.Dict) else [fed]
    if all(
        isinstance(v, ast.Constant) or (isinstance(v, ast.UnaryOp) and isinstance(v.operand, ast.Constant))
        for v in values
    ):
        return None
    bound = flow.varying(getattr(loop, "target", None), loop.body, steady)
    for value in values:
        for node in ast.walk(value):
            if isinstance(node, ast.Call) and not (steady is not None and steady(node)):
                return True
            if isinstance(node, ast.Name) and node.id in bound:
                return True
    return False


def _path(expr: ast.expr) -> str | None:
    """The dotted path of the value an expression names, items left out: `obs`, `self.memory` in
    `self.memory[i]`; None for another expression (a call's result)."""
    if isinstance(expr, ast.Subscript):
        return _path(expr.value)
    if isinstance(expr, ast.Attribute):
        owner = _path(expr.value)
        return None if owner is None else f"{owner}.{expr.attr}"
    return expr.id if isinstance(expr, ast.Name) else None


def _filled(target: ast.expr) -> Iterator[str]:
    """The paths an assignment target (re)binds or fills: `a, b`, `d[k]`, `self.field`."""
    if isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from _filled(element)
    elif isinstance(target, ast.Starred):
        yield from _filled(target.value)
    elif (path := _path(target)) is not None:
        yield path


#: A class's methods -> the attributes of `self` each reads (`attributes_read`), None where not known.
Methods = Mapping[str, "frozenset[str] | None"]


def _reads(expr: ast.AST, calls: set[int], paths: set[str], methods: Methods | None = None) -> bool:
    """Whether the expression uses one of the *calls* or a value at one of the *paths*: by its
    path or one within it (`self.memory.sample(32)` reads `self.memory`), or through a method of
    an object holding it (`self.replay()` may read `self.memory`; a method of `self` whose body,
    *methods* says, reads none of them does not: `self.get_feed_dict(words)` after
    `self.file_writer.add_summary(summary)`)."""
    for node in ast.walk(expr):
        if isinstance(node, ast.Call):
            owner = _path(node.func.value) if isinstance(node.func, ast.Attribute) else None
            if id(node) in calls:
                return True
            inner = [p for p in paths if p.startswith(f"{owner}.")] if owner is not None else []
            called = node.func.attr if isinstance(node.func, ast.Attribute) else ""
            read = methods.get(called) if methods and owner == "self" else None
            if inner and (read is None or any(p.split(".")[1] in read for p in inner)):
                return True
        elif isinstance(node, (ast.Name, ast.Attribute)) and _path(node) in paths:
            return True
    return False


def attributes_read(cls: ast.ClassDef) -> dict[str, frozenset[str] | None]:
    """Each method of *cls* -> the attributes of `self` its body reads, those of the methods of `self` it
    calls included; None where that is not known (`self` handed on whole, a method of a base class)."""
    own: dict[str, set[str] | None] = {}
    for function in cls.body:
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or not function.args.args:
            continue
        me = function.args.args[0].arg
        bases = {id(n.value) for n in ast.walk(function) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
        whole = any(isinstance(n, ast.Name) and n.id == me and id(n) not in bases for n in ast.walk(function))
        own[function.name] = None if whole else {
            n.attr for n in ast.walk(function)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == me
        }
    found: dict[str, frozenset[str] | None] = {}

    def closure(name: str, seen: frozenset[str]) -> frozenset[str] | None:
        attrs = own.get(name)
        if attrs is None:
            return None
        total = set(attrs)
        for attr in attrs & set(own) - seen:  # the methods of `self` it calls
            more = closure(attr, seen | {attr})
            if more is None:
                return None
            total |= more
        return frozenset(total)

    for name in own:
        found[name] = closure(name, frozenset({name}))
    return found


def _fed_back(
    fed: ast.expr,
    loop: ast.AST,
    results: set[int],
    methods: Methods | None = None,
    run: ast.Call | None = None,
    modules: frozenset[str] = frozenset(),
) -> bool:
    """Whether the fed values derive, through the loop's assignments and the containers it
    fills, from what a run in the loop returned (an agent's observations after `env.step` on
    the chosen action, gradients fed back, a generated sequence): input that exists only after
    the previous step, which no pipeline can prepare ahead. A run in the `for` loop's own iterable (a
    reader's generator fetching batches through a session of its own) is no such reply: its items
    exist before the body runs on them. What *run* itself returns reaches its own feed only on a later
    pass (`_handed_on`)."""
    drawn = {id(n) for n in ast.walk(loop.iter)} if isinstance(loop, (ast.For, ast.AsyncFor)) else set()
    replies = results - drawn
    values = fed.values if isinstance(fed, ast.Dict) else [fed]
    if run is not None and id(run) in replies:
        replies = replies - {id(run)}
        later = _handed_on(loop, run, results, methods, modules)
        if any(_reads(value, set(), later, methods) for value in values):
            return True
    tainted = _spread(loop, replies, results, None, methods, modules=modules)
    return any(_reads(value, replies, tainted, methods) for value in values)


def _handed_on(
    loop: ast.AST, run: ast.Call, results: set[int], methods: Methods | None, modules: frozenset[str]
) -> set[str]:
    """The paths that hold, at the start of a pass of *loop*, what *run* returned on the one before, and
    those each pass derives from them: of what the run's reply reaches (`_spread`), the values the next
    pass reads before binding them again (`flow.read_first`: not the `step` a fetch binds that the next
    pass rebinds, `step = start + batch_size`, before slicing its batch with it), or an object's attribute."""
    bound = flow.targets(loop.target) if isinstance(loop, (ast.For, ast.AsyncFor)) else frozenset()
    first = flow.read_first(getattr(loop, "body", []), bound)
    reached = _spread(loop, {id(run)}, results, None, methods, modules=modules)
    kept = {p for p in reached if p.split(".")[0] in first}
    return _spread(loop, set(), results, None, methods, frozenset(kept), modules) if kept else set()


def _host_only(expr: ast.AST, results: set[int], values: set[str]) -> bool:
    """Every call in the expression is a graph run of the loop, host arithmetic (`np.*`, `int`,
    ...), or a method of a value at a path the loop derived from a run's output (`probs.argmax()`)."""
    for node in ast.walk(expr):
        if isinstance(node, ast.Call) and id(node) not in results:
            chain = node.func
            while not (isinstance(chain, ast.Name) and chain.id in HOST_MATH or _path(chain) in values):
                if not isinstance(chain, (ast.Attribute, ast.Call, ast.Subscript)):
                    return False
                chain = chain.func if isinstance(chain, ast.Call) else chain.value
    return True


def _spread(
    loop: ast.AST,
    seeds: set[int],
    results: set[int],
    host: set[str] | None,
    methods: Methods | None = None,
    start: frozenset[str] = frozenset(),
    modules: frozenset[str] = frozenset(),
) -> set[str]:
    """The paths the loop binds from the calls in *seeds*: through its assignments, `for`
    targets and the objects its method calls are given them (`history.append(output)`,
    `env.step(action)`, `self.memory.append(obs)`: the object at the receiver's path, not the
    root holding it, so that `self.writer.add_summary(summary)` says nothing of `self.data`);
    with *host* (paths that hold host values already), through host arithmetic only and the
    containers filled with `append`/`extend`. *start*: paths that hold such values already. An imported
    module (*modules*) given such a value (`utils.save_image(output)`) keeps nothing of it."""
    tainted: set[str] = set(start)

    def reads(expr: ast.AST) -> bool:
        return _reads(expr, seeds, tainted, methods)

    def admits(expr: ast.AST) -> bool:
        return host is None or _host_only(expr, results, tainted | host)

    size = -1
    while size != len(tainted):
        size = len(tainted)
        for node in ast.walk(loop):
            if (
                isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                and node.value is not None
                and reads(node.value)
                and admits(node.value)
            ):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    tainted.update(_filled(target))
            elif isinstance(node, (ast.For, ast.comprehension)) and reads(node.iter) and admits(node.iter):
                tainted.update(_filled(node.target))
            elif (
                isinstance(node, ast.Call)
                and id(node) not in results
                and isinstance(node.func, ast.Attribute)
                and any(reads(a) for a in (*node.args, *(k.value for k in node.keywords)))
                and (host is None or node.func.attr in ("append", "extend") and all(admits(a) for a in node.args))
                and (_path(node.func.value) or "").split(".")[0] not in modules
            ):
                tainted.update(_filled(node.func.value))  # `history.append(output)`, `env.step(action)`
    return tainted


def _sampled_on_host(fed: ast.expr, loop: ast.AST, results: set[int]) -> bool:
    """Whether the fed values are drawn on the host from what a run in the loop fetched
    (`sample = np.random.choice(n, p=probs)` fed back as the next input), through host
    arithmetic only: a generation loop the graph could run itself. An environment stepped in
    between (`obs = env.step(action)`) breaks the chain: its input comes from outside."""
    fetched = _spread(loop, results, results, set())
    samplers = {
        id(node)
        for node in ast.walk(loop)
        if isinstance(node, ast.Call)
        and last_name(node.func) in SAMPLERS
        and _host_only(node, results, fetched)
        and _reads(node, results, fetched)
    }
    if not samplers:
        return False
    sampled = _spread(loop, samplers, results, fetched)
    values = fed.values if isinstance(fed, ast.Dict) else [fed]
    return any(_reads(value, samplers, sampled) for value in values)


def _shares_placeholders(facts: FileFacts, fed: ast.expr, loop: ast.AST, results: set[int], cell: int | None) -> bool:
    """Whether a key this run feeds also takes values that change in a loop around another run's feed
    in the same scope (the outermost function or class around the loop, else the module): the
    training batches on the placeholder a per-epoch evaluation feeds the validation set to, or a
    sampling helper nested in the training function feeds its prompt to. That placeholder cannot
    become fixed data in the graph."""
    if not isinstance(fed, ast.Dict):
        return False
    keys = {ast.dump(k) for k in fed.keys if k is not None}
    outer = [
        a for a in facts.ancestors(loop, cell) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    ]
    scope = outer[-1] if outer else facts.module(cell)
    for node in ast.walk(scope) if scope is not None else ():
        other = feed(node) if isinstance(node, ast.Call) and id(node) in results else None
        if other is None or other is fed or not isinstance(other, ast.Dict):
            continue
        loops = [a for a in facts.ancestors(node, cell) if isinstance(a, LOOPS)]
        for key, value in zip(other.keys, other.values):
            if key is not None and ast.dump(key) in keys and any(_varies(value, around) for around in loops):
                return True
    return False


def _beside_step_loop(loop: ast.AST, fed_runs: set[int]) -> bool:
    """The loop also holds, nested in it, a loop that runs fed steps: a run in the outer loop's
    own body happens once per pass of it (a report of the last batch after each epoch's steps),
    beside the feeding of every step, which the inner run's own finding names."""
    return any(
        isinstance(node, LOOPS) and any(isinstance(n, ast.Call) and id(n) in fed_runs for n in ast.walk(node))
        for node in own_body(loop)
    )


def _reads_a_clock(node: ast.AST) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            func = n.func
            if last_name(func) in TIMERS:
                return True
    return False


def _timed(facts: FileFacts, loop: ast.AST, call: ast.Call, cell: int | None) -> bool:
    """The loop is timed (a timer read in it, or right before and right after it), or it warms
    up a timed loop that follows it in the same block and runs the same call."""
    if _reads_a_clock(loop):
        return True
    parent = facts.parent(loop, cell)
    block = next(
        (
            b
            for b in (getattr(parent, f, None) for f in ("body", "orelse", "finalbody"))
            if isinstance(b, list) and loop in b
        ),
        [loop],
    )
    at = block.index(loop)
    before, after = block[at - 1 : at] if at else [], block[at + 1 :]
    if before and after and _reads_a_clock(before[0]) and _reads_a_clock(after[0]):
        return True
    same = ast.dump(call)
    return any(
        isinstance(later, LOOPS)
        and _timed(facts, later, call, cell)
        and any(ast.dump(n) == same for n in ast.walk(later))
        for later in after
    )


def _result_read(facts: FileFacts, loop: ast.AST, call: ast.Call, cell: int | None) -> bool:
    """The loop reads what the run returned (`outs = sess.run(...)`, then `outs[1]` printed or tested): it
    computes with its runs, as training does; a latency benchmark times its runs and drops what they return."""
    parent = facts.parent(call, cell)
    if not isinstance(parent, ast.Assign):
        return False
    names = frozenset().union(*(flow.targets(t) for t in parent.targets)) - {"_"}
    return any(isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load) for n in own_body(loop))


def _refed(facts: FileFacts, call: ast.Call, fed: ast.expr, loop: ast.AST | None, cell: int | None) -> bool:
    """The run is repeated on one pass of its loop by comprehensions none of whose variables reaches
    what it is fed (`[sess.run(train_op, {x: s}) for _ in range(10)]`: ten steps on one rollout), or
    by the `for` loop right around it, none of whose variables reaches the feed, on one pass of an
    outer loop that makes it (`for _ in range(10): sess.run(train_op, {x: s})`, `s` made per update):
    what the pass makes is fed to every one of those runs, so its making is no work of each step."""
    names = flow.names(fed)
    around = comprehensions_around(facts, call, cell)
    if around:
        return not frozenset().union(*(flow.targets(g.target) for c in around for g in c.generators)) & names
    if not isinstance(loop, (ast.For, ast.AsyncFor)) or loop_varying(loop) & names:
        return False
    outer = enclosing(facts, loop, cell, (*LOOPS, *SCOPES))
    return isinstance(outer, LOOPS) and bool(loop_varying(outer) & names)


def _run_name(site: Site, call: ast.Call) -> str:
    """How a finding names the run: a session's `Session.run`; the default session's `train_step.run` as written."""
    return "Session.run" if site.api != OPERATION_RUN else ast.unparse(call.func)


def _producer(facts: FileFacts, call: ast.Call, cell: int | None) -> bool:
    """The run is in a data producer: a generator function (Keras' `fit_generator` and queue
    runners draw from it ahead of the step), or a thread's or process's body (`_thread_body`) or a
    function only such bodies call (`self._enqueue_next_group()` in a `Thread` subclass's `run`, up to
    `THREAD_CALLERS` calls deep), filling a queue the graph reads: its feeding already overlaps the
    step that consumes it. (A generator whose run is the training step itself, yielding progress now
    and then, produces no data: its callers judge that.)"""
    function = next(
        (n for n in facts.ancestors(call, cell) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None
    )
    if function is None:
        return False
    return any(own_yields(function)) or _on_thread(facts, function, cell, THREAD_CALLERS)


#: How many calls deep `_producer` follows a function to the thread body that calls it.
THREAD_CALLERS = 2


def _on_thread(facts: FileFacts, function: ast.FunctionDef | ast.AsyncFunctionDef, cell: int | None, depth: int) -> bool:
    """Whether *function* is a thread's body, or the file calls it, *depth* calls deep, only from such bodies."""
    if _thread_body(facts, function, cell):
        return True
    method = isinstance(facts.parent(function, cell), ast.ClassDef)  # called as `self.f()` or `feeder.f()`
    callers = [(at, enclosing(facts, c, at)) for at, c in calls_by_name(facts, function.name, method)] if depth else []
    return bool(callers) and all(
        isinstance(caller, (ast.FunctionDef, ast.AsyncFunctionDef)) and _on_thread(facts, caller, at, depth - 1)
        for at, caller in callers
    )


def _thread_body(facts: FileFacts, function: ast.FunctionDef | ast.AsyncFunctionDef, cell: int | None) -> bool:
    """A function a thread or process runs: handed as `target=` to one (`threading.Thread(target=
    self.thread_main)`), or the `run` method of a class deriving from one (`class Feeder(threading.Thread)`)."""
    owner = facts.parent(function, cell)
    if function.name == "run" and isinstance(owner, ast.ClassDef) and any(last_name(b) in WORKERS for b in owner.bases):
        return True
    return any(
        last_name(node.func) in WORKERS
        and (target := argument(node, "target")) is not None
        and last_name(target) == function.name
        for node in facts.nodes(cell, ast.Call)  # the file's one walk, shared
    )


def _batch_builder(facts: FileFacts, site: Site, call: ast.Call, results: set[int]) -> bool:
    """The run is no training step and fills the data its function returns (a batch built one item
    per run: `data[i] = sess.run(mfcc, feed_dict=...)`, then `return data`), in a function the file
    never calls: its callers are elsewhere, and they decide whether this feeding overlaps a step (a
    generator Keras draws from on worker threads does)."""
    cell = site.callsite.span.cell
    function = next(
        (n for n in facts.ancestors(call, cell) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None
    )
    if function is None or is_training_step(site) or calls_of(facts, function, cell):
        return False
    built = _spread(function, {id(call)}, results, None) - {"self"}
    return any(
        isinstance(n, ast.Name) and n.id in built or n is call
        for node in ast.walk(function)
        if isinstance(node, ast.Return) and node.value is not None
        for n in ast.walk(node.value)
    )


def _parameters_fed(function: ast.FunctionDef | ast.AsyncFunctionDef, fed: ast.expr, own: set[str]) -> list[str]:
    """The parameters in *own* whose values the run's *fed* expression reads, through the function's
    assignments (`input_feed[self.img] = batch['data']` fills `input_feed` from `batch`)."""
    names = {n.id for n in ast.walk(fed) if isinstance(n, ast.Name)}
    size = -1
    while size != len(names):
        size = len(names)
        for node in ast.walk(function):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(path.split(".")[0] in names for target in targets for path in _filled(target)):
                    names |= {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
    return sorted(names & own)


def _looped_callers(facts: FileFacts, call: ast.Call, fed: ast.expr, cell: int | None):
    """For a run with no loop in its own function, the calls of that function the file makes in a loop
    (`self.step(batch)` in `for batch in data.gen(65):`): each with its cell, its innermost loop, and
    the arguments it gives the parameters the run's feed reads (none where it gives none of them)."""
    function = enclosing(facts, call, cell, (ast.FunctionDef, ast.AsyncFunctionDef))
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return
    positional = positional_parameters(facts, function, cell)
    named = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    own = set(parameters(function)) - set(named[: len(named) - len(positional)])  # a method's receiver left out
    read = _parameters_fed(function, fed, own)
    for unit_cell, node in calls_of(facts, function, cell) if read else ():
        loops = own_loops(facts, node, unit_cell)
        given = [
            value
            for name in read
            if (value := argument(node, name, positional.index(name) if name in positional else None)) is not None
        ]
        if loops and given and not _few_passes(loops):
            yield unit_cell, node, loops[0], ast.Tuple(elts=given, ctx=ast.Load())


def _few_passes(loops: list) -> bool:
    """The loops around a call run it fewer than `FEW_ELEMENTS` times, as their literals say (an
    interpolation over `np.linspace(0, 1, 10)`, `for step in range(3)`): a pipeline would stage a
    handful of batches, nothing worth a finding."""
    total = 1
    for loop in loops:
        trips = literal_trips(loop)
        if trips is None:
            return False
        total *= trips
    return total < FEW_ELEMENTS


class SessionFeedDictInLoop(Rule):
    """
    ## What it does
    Flags `tf.compat.v1.Session.run()` (or an op's own `run`, `train_step.run(feed_dict=...)`, a run of
    the default session) given a `feed_dict` inside a Python loop that runs it more
    than once on the same session (directly, or in a function that loop calls; not a function
    merely called from several places): TensorFlow 1 style training or inference that feeds
    each batch from Python.

    What the loop feeds decides the finding. Values that change from one iteration to the next
    (a loop variable, a name assigned in the loop, a call such as `next_batch()`) are batches
    fed from Python, reported only where greenlint sees the host work that makes each of them
    while the device waits (greenlint/rules/feed_work.py), which the message names: a file read
    or decoded (`cv2.imread`, `np.load`, `open`), or a Python loop over the batch's items that
    works per item (a comprehension calling a function per item, a loop filling the batch item
    by item), in the loop or in a function of the file or of a project module it calls there.
    A loop whose items take only index arithmetic (`len`, `min`, `max`, a `map` of them: the widths a
    padding computes) and random draws of a number or of a few items
    of a list (`random.randint(0, span)`, `random.sample(context_words, num_skips)`: a skip-gram
    batch gathered from a word array at random context offsets) gathers data already in memory,
    microseconds per item: a share of the step that depends on the step, which greenlint does not
    price for such graphs (embedding lookups, sampled losses), so it is not reported. On the
    real-world benchmark the two such generators were judged debatable (a sampled-softmax step whose
    Adagrad update touches the batch's rows of 50,000x128 tables) and false (timed at about 0.5 ms a
    batch against several ms for a dense Adam update of two 50,000x150 tables).
    Copying a fed array costs its bytes at memory bandwidth and microseconds per tensor, a few
    per cent of a step at most: batches sliced, indexed or shuffled from arrays in memory
    (`X[idx]`, a generator that only slices) are not reported, and neither are batches drawn
    from a function greenlint cannot read (`mnist.train.next_batch`, another library's), whose
    work is not seen: on the real-world benchmark, the 19 first-judged findings of that kind were
    all debatable, none true, and a second judge called the three it re-judged false ("each feed
    is ~157 KB from RAM"). A binding under one branch of an `if` whose test is the same as that of an `if`
    holding the run in its other branch is not that run's (MNIST sliced in memory under
    `if dataset == 'mnist':`, files decoded otherwise). Values that stay the same (the whole training set on every epoch of
    full-batch gradient descent) are reported with their own advice: the same arrays are
    converted and copied again on every run. That includes a feed dict the loop builds afresh on each
    pass with a function of the file or of a project module that only assembles its arguments into a
    container (gcn's `construct_feed_dict(features, support, y_train, train_mask, placeholders)`, given
    names bound before the loop; greenlint/rules/assembled.py), unless the loop then fills it with what
    changes (`feed_dict.update({x: batch})`). Not reported: a loop that feeds only literals
    (`{keep_prob: 0.5}`: copying a scalar costs nothing) or command-line options' scalars
    (`{batch_size: args.batch_size}`, the batches coming from an in-graph queue), or names bound to one
    of those in some branch (a learning rate from `args.lr` or, otherwise, from a schedule file: a
    variable keeps its type), or only values it makes on the host
    without reading data: random draws (a GAN's latent batch, `np.random.uniform(-1, 1, [64,
    100])`, drawn in the loop or by a function of the file or of a project module that returns
    one), NumPy's constructors (a one-hot label grid made with `np.zeros`), literals and
    arithmetic on them: microseconds of host work and a few kilobytes, nothing a pipeline would
    stage (a value that reads a data set, `X[idx]`, a parameter, an attribute or another call's
    result, counts as data, and so does an array made with `np.zeros` then filled from one); a loop re-running one fixed feed
    in a loop that is timed (a timer such as `time.perf_counter()`, `time.time()` or `timeit`
    read in the loop, or right before and right after it), or that warms up such a loop
    running the same call: a latency benchmark, which must re-run the same input (a loop that reads
    what its run returns, a loss printed with the epoch's time, computes with its runs: it is
    training, not a benchmark, and is reported); fixed values
    fed to placeholders that a loop of the same scope (the outermost function or class around the
    loop, else the module) also feeds changing batches to (a per-epoch evaluation on the validation
    set; a sampling helper nested in the training function feeding its prompt to the placeholder the
    training steps feed: those placeholders cannot become data in the graph); and values that
    derive, through the loop's assignments and the containers it fills, from what a run in the
    loop returned (a reinforcement-learning agent feeding the observation `env.step` gave for
    its last action, or a batch sampled from the replay memory its transitions were appended to,
    gradients fed back, a generated sequence): that input exists only after the previous run, so
    no pipeline can prepare it ahead. What a method is given fills the object at its receiver's
    path (`self.memory.append(obs)` fills `self.memory`, which `self.memory.sample(32)` or another
    method of `self` then reads), not the rest of the object holding it: a summary written with
    `self.writer.add_summary(summary, step)` leaves `self.data`, sliced into the next batch, fed
    from Python, and a method of `self` whose body (with the methods of `self` it calls) reads none of
    what the loop filled builds its feed from data, not from a reply (`fd = self.get_feed_dict(words)`
    after that summary). A run's own reply reaches its feed only through what the next pass reads
    before binding it again: a fetched `step` that the next pass rebinds (`step = start + batch_size`)
    before slicing its file names is no reply there, and an imported module given a value
    (`utils.save_image(sample)`) keeps nothing of it. Such a loop is reported with its own
    advice when it generates on the host: the fed values are drawn or picked from what the run
    fetched (`np.random.choice(n, p=probs)`, `np.argmax`, `np.random.multinomial`) through host
    arithmetic alone (NumPy, builtins, lists filled with `append`), in a loop that runs at least
    100 times or an unknown number: one session call and one device round trip per generated
    element, where the graph could sample (`tf.random.categorical`) and loop itself. Not when
    something outside the graph comes in between (an environment's `step` on the chosen action).
    Nor a run that comprehensions repeat on one pass with the same feed (`[sess.run(train_op, {x: s})
    for _ in range(10)]`: ten steps on one rollout), or that a `for` loop none of whose variables reaches
    the feed repeats on one pass of an outer loop that makes it (`for _ in range(10): sess.run(train_op,
    {x: s})`, `s` made per update): what the pass makes is made once for all of them.
    Nor is what a function does in a branch that its tests on its parameters never take, every call of
    it in the project leaving them at their defaults (`if use_label_info:` in a sampler that no call
    asks for labels: rules/constant_branches.py), host work of the step.
    Nor a run in a loop that also holds, nested in it, a loop running fed steps (the loss of
    the last batch reported after each epoch's steps): it runs once per epoch, beside the
    feeding of every step, which that inner run's own finding names. Nor is a run on some iterations
    only, under an `if` that takes a remainder (`if step % display_step == 0:` a progress
    report), or after one that skips the other passes (`if step % display_step != 0: continue`):
    it feeds no batch of the training. Nor a run in a data producer: a generator
    function (Keras' `fit_generator` draws batches from it on worker threads ahead of the step;
    not one whose run is the training step itself, yielding progress now and then)
    or a function a thread or process runs (`threading.Thread(target=self.thread_main)`, or the
    `run` method of a `threading.Thread` subclass), or one that only such bodies call (two calls
    deep: `self._enqueue_next_group()` in the feeder's `run`), filling a queue the training graph
    reads: that feeding already overlaps the computation (a training step run there is still
    reported). Nor a run that
    is no training step and fills the data its function returns (`data[i] = sess.run(mfcc, ...)`
    then `return data`: a batch built one item per run) in a function the file never calls: its
    callers, in another module, decide whether that feeding overlaps a step. Nor a run whose whole
    figure over its counted runs stays under `material-saving-j` (10 kJ) at its point, the
    predictor's median (greenlint/rules/material.py): what a pipeline saves is part of that work at most;
    runs greenlint cannot count, or a figure whose data size is unknown, say nothing of it.

    The run may have no loop of its own, in a function fed what its parameters give it (`def step(self,
    batch)` filling `input_feed` from `batch`) that the file calls in a loop (`for batch in data.gen(65):
    self.step(batch)`): the same judgement is made on the arguments of that call in that loop (what
    the call returns being what the run fetched: an agent's `act(obs)` whose action gives the next
    observation is fed back), and the finding is on the run. A run in the `for` loop's own iterable (a reader's generator fetching each
    batch through a session of its own) is no reply of the step: the items it yields exist before the
    body runs on them, so they are data a pipeline can prepare ahead. A call in loops that run it
    fewer than 100 times, as their literals say (`range(3)`, a list display, a sample grid over
    `np.linspace(0, 1, 10)`), is not judged: a pipeline would stage a handful of batches.

    The run may be in another module's helper: a call such as `model.train(lr, *minibatch)` that
    greenlint lists as the session run the helper makes (`features.via`) is reported where the
    helper's run is fed through `feed_dict` what its parameters give it (`features.fed`) and a loop
    around the call changes one of the call's arguments (a name the loop binds afresh, such as
    `minibatch` above; an argument written as a call in place is not followed): each pass feeds
    new values from Python through the helper, reported, as a run written in the file is, only where
    greenlint sees the host work that makes them (a file read, a Python loop over the items): PPO's
    minibatches sliced from one rollout in memory, fed again on every optimisation epoch, were judged
    debatable on the real-world benchmark (copies of kilobytes to megabytes next to the environment's
    steps), and are not. The same cases are left out as for a run written in the file (a call on
    some iterations only, a data producer, values made on the host without data, values derived from
    a run in the loop such as the observation an action produced), and so is a loop that waits for a
    person on each pass (`input()`, a window shown until closed). A helper that feeds only literals or
    its own attributes, whatever it is given, is not reported.

    ## Why is this bad?
    Every `run` with a `feed_dict` converts the fed Python or NumPy values and copies them into
    the runtime, then blocks until the step is done, so input preparation and computation never
    overlap. The TensorFlow 1 performance guide called `feed_dict` the least efficient way to
    feed data; a `tf.data` pipeline (and, in TensorFlow 2, `tf.function` instead of sessions)
    prepares the next batch while the current one runs.

    ## Example
    ```python
    import tensorflow as tf

    with tf.compat.v1.Session() as sess:
        for xb, yb in batches:
            sess.run(train_op, feed_dict={x: xb, y: yb})
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    dataset = tf.data.Dataset.from_tensor_slices((xs, ys)).batch(64).prefetch(tf.data.AUTOTUNE)
    model.fit(dataset, epochs=1)
    ```

    A per-sample helper that builds and returns a batch is not reported where the file never
    calls it: the rule does not see the callers of a function in other modules. Nor is a run per
    item of a list (a seed primed one sample per run): what each run costs there is the session
    call, not a feed a pipeline would prepare.

    ## Energy evidence
    The pair under bench/rules/ (kept for an accelerator, run only when named) trains the same
    TensorFlow 1 graph, a small convolutional classifier, over 4,096 images of 32×32 read from
    raw files in batches of 32: before, each batch read by a Python loop and fed by `feed_dict`;
    after, read by a `tf.data` pipeline (a parallel `map`, `prefetch`) that feeds the graph. On
    a loaded 2-core CPU, by process CPU time, it showed no saving
    (bench/rules/not_measurable.json gives the figures): the saving is the device's idle time
    while the host makes each batch, which the pipeline overlaps with the step, and a
    process-CPU-time estimate counts the same reads however they overlap.

    The case on a GPU, argued from TensorFlow's documents: `Session.run` returns only once its
    fetches are computed, and a `feed_dict` is converted and copied in by the same call, so the
    next batch is read and assembled by the host while the device idles, and the step waits for
    none of that work when a `tf.data` pipeline (or a queue) prepares the next batch on its own
    threads during the step. TensorFlow 1's performance guide says so: "in general, `feed_dict`
    does not provide a scalable solution. Avoid using `feed_dict` for all but trivial examples"
    (tensorflow/docs, site/en/r1/guide/performance/overview.md). The time saved per step is the
    shorter of the host's batch making and the device's step (from a few percent of a step that
    dwarfs its input to half of one that the input matches), at the draw of a device waiting on
    the host (greenlint's device model, greenlint/predict/devices.py: 0.222 of the board's TDP,
    15.5 W on a Tesla T4, within a factor 2) plus the host's; never below 0, since the pipeline
    does the same reads.

    ## Fix safety
    No automatic fix: moving to tf.data, or holding fixed data in the graph, changes the
    program's structure.

    ## Options
    - `material-saving-j`
    """

    code = "GL503"
    name = "session-feed-dict-in-loop"
    OPTIONS = (SAVING_OPTION,)
    CALLS = frozenset(map(method, RUNS))
    MESSAGE = (
        "`{run}(feed_dict=...)` in a loop feeds every batch from Python, made on each step by {work} while"
        " the device waits: a `tf.data` pipeline (a parallel `map`, `prefetch`) overlaps that work with the step"
    )
    SAME_FEED = (
        "`{run}(feed_dict=...)` in a loop feeds the same values on every iteration: each run converts and"
        " copies them again; hold fixed data in the graph (`tf.constant`, a variable) instead of a placeholder"
    )
    SAMPLED = (
        "`Session.run(feed_dict=...)` once per generated element{times}, the next input drawn on the host from the"
        " output it fetched: every element pays a session call and a round trip to the device; sample in the graph"
        " (`tf.random.categorical`) and generate in a `tf.while_loop`, one run per sequence"
    )
    WRAPPED = (
        "`{call}()` runs a session fed through `feed_dict` ({via}) with new values on every pass of this loop{times},"
        " made on each step by {work} while the device waits: a `tf.data` pipeline (a parallel `map`, `prefetch`)"
        " overlaps that work with the step"
    )
    FIX_TITLE = "Feed changing batches with a tf.data pipeline, keep fixed data in the graph (and migrate to TF2)"
    VALID = (
        Valid(  # padding token lists: a map of `len` per item is index arithmetic, microseconds a batch
            "import tensorflow as tf\n\n\ndef pad_sequences(sequences):\n"
            "    width = max([max(map(lambda x: len(x), seq)) for seq in sequences])\n    padded = []\n"
            "    for seq in sequences:\n        padded += [seq + [0] * (width - len(seq))]\n    return padded\n\n\n"
            "class Tagger:\n    def get_feed_dict(self, words):\n        return {self.word_ids: pad_sequences(words)}\n\n"
            "    def run_epoch(self, train):\n        for i, words in enumerate(minibatches(train, 20)):\n"
            "            fd = self.get_feed_dict(words)\n            self.sess.run(self.train_op, feed_dict=fd)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the method building the feed reads what the last run left in `self.state`: fed back
            "import cv2\nimport numpy as np\nimport tensorflow as tf\n\n\nclass Agent:\n"
            "    def feed(self, paths):\n        return {self.x: np.stack([cv2.imread(p) for p in paths]), self.h: self.state}\n\n"
            "    def run_epoch(self, batches):\n        for i, paths in enumerate(batches):\n"
            "            fd = self.feed(paths)\n"
            "            out = self.sess.run(self.step, feed_dict=fd)\n"
            "            self.state.update(out)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the state a run fetches is fed to the next run: read before the next pass binds it again
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\nstate = np.zeros(256)\n"
            "for step in range(1000):\n"
            "    state, _ = sess.run([final_state, train_op], feed_dict={X: np.load(files[step]), H: state})\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the fetched value reaches the next feed through an object it was handed to (not an import)
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    obs = np.load(env.observation_path())\n"
            "    action = sess.run(policy, feed_dict={X: obs})\n    env.act(action)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # a thousand counted runs whose whole figure stays under material-saving-j: a pipeline saves less
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    batch = np.load(files[step])\n    sess.run(train_op, feed_dict={X: batch})\n"
        ),
        Valid(  # batches sliced from arrays in memory: copying them costs microseconds, nothing to overlap
            "import tensorflow as tf\nwith tf.compat.v1.Session() as sess:\n    for epoch in range(10):\n"
            "        for i in range(n_batches):\n            x_batch = X_train[i * 50:(i + 1) * 50]\n"
            "            sess.run(train_op, feed_dict={X: x_batch, y: y_train[i * 50:(i + 1) * 50]})\n"
        ),
        Valid(  # drawn by another module's function (`mnist.train.next_batch`): its work is not seen, none claimed
            "import tensorflow as tf\nwith tf.compat.v1.Session() as sess:\n    for epoch in range(10):\n"
            "        for i in range(n_batches):\n            x_batch, y_batch = mnist.train.next_batch(50)\n"
            "            sess.run(train_op, feed_dict={X: x_batch, y: y_batch})\n"
        ),
        Valid(  # another object's `next_batch`, not the file's function of that name (which works per item)
            "import random\nimport tensorflow as tf\n\n\ndef next_batch(size):\n"
            "    return [tokenizer.encode(t) for t in random.sample(texts, size)]\n\n\n"
            "sess = tf.compat.v1.Session()\nfor step in range(n_steps):\n"
            "    x_batch, y_batch = mnist.train.next_batch(50)\n    sess.run(train_op, feed_dict={X: x_batch})\n"
        ),
        Valid(  # a report on the passes a flag computed from a remainder selects, not every batch
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "for it, paths in enumerate(batches):\n    sess.run(step)\n    is_print_iter = it % 1000 == 0\n"
            "    should_print = is_print_iter or it == len(batches) - 1\n    if should_print:\n"
            "        images = np.array([cv2.imread(p) for p in paths])\n"
            "        sess.run(loss, feed_dict={x: images})\n",
        ),
        Valid(  # a data producer: a generator preprocessing each image in a graph, drawn from by a Keras fit
            "import cv2\nimport tensorflow as tf\n\n\ndef batches(sess, paths):\n    while True:\n"
            "        for p in paths:\n            yield sess.run(resized, feed_dict={raw: cv2.imread(p)})\n\n\n"
            "model.fit_generator(batches(tf.compat.v1.Session(), paths), steps_per_epoch=100, epochs=10)\n"
        ),
        Valid(  # a generator of the file that only shuffles and slices arrays: no per-item work
            "import numpy as np\nimport tensorflow as tf\n\n\ndef shuffle_batch(X, y, size):\n"
            "    for idx in np.array_split(np.random.permutation(len(X)), len(X) // size):\n"
            "        yield X[idx], y[idx]\n\n\nsess = tf.compat.v1.Session()\nfor xb, yb in shuffle_batch(X, y, 50):\n"
            "    sess.run(train_op, feed_dict={x: xb, y: yb})\n"
        ),
        Valid(  # a batch gathered row by row from memory: indexing per item, no work to overlap
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\nfor xb in batches:\n"
            "    batch = np.zeros((64, 784))\n    for i in range(64):\n        batch[i] = images[xb[i]]\n"
            "    sess.run(train_op, feed_dict={x: batch})\n"
        ),
        Valid(  # a run per item of a list the file never decodes: what it costs is the session call, not a feed
            "import numpy as np\nimport tensorflow as tf\n\n\ndef get_data(sess, files):\n"
            "    data = np.zeros((len(files), 16000))\n    for i, f in enumerate(files):\n"
            "        data[i, :] = sess.run(mfcc, feed_dict={wav: f}).flatten()\n    return data\n\n\n"
            "sess = tf.compat.v1.Session()\nfor epoch in range(10):\n    model.train_on_batch(get_data(sess, files), labels)\n"
        ),
        Valid("import tensorflow as tf\nsess = tf.compat.v1.Session()\nfor i in range(3):\n    sess.run(step)\n"),
        Valid("import tensorflow as tf\nsess = tf.compat.v1.Session()\nsess.run(init, feed_dict={x: 1})\n"),
        Valid(  # a helper called from two places feeds twice, in no loop
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\ndef show(v):\n"
            "    return sess.run(y, feed_dict={x: v})\nshow(a)\nshow(b)\n"
        ),
        Valid(  # the method's run is fed a latent its caller's loop draws with NumPy: nothing a pipeline would stage
            "import numpy as np\nimport tensorflow as tf\n\n\nclass GAN:\n    def step(self, z):\n"
            "        return self.sess.run(self.g_optim, feed_dict={self.z: z})\n\n    def train(self):\n"
            "        for i in range(10000):\n            self.step(np.random.normal(size=(64, 100)))\n"
        ),
        Valid(  # a sample grid: ten interpolation points, each batch made by a Python loop: a handful of runs
            "import numpy as np\nimport tensorflow as tf\n\n\nclass GAN:\n    def generate(self, z):\n"
            "        return self.sess.run(self.G, {self.z: z})\n\n    def interpolate(self, z1, z2):\n"
            "        for i, ratio in enumerate(np.linspace(0, 1, 10)):\n"
            "            z = np.stack([slerp(ratio, a, b) for a, b in zip(z1, z2)])\n"
            "            self.generate(z)\n"
        ),
        Valid(  # the same over a literal list of points
            "import numpy as np\nimport tensorflow as tf\n\n\nclass GAN:\n    def generate(self, z):\n"
            "        return self.sess.run(self.G, {self.z: z})\n\n    def interpolate(self, z1, z2):\n"
            "        for ratio in [0.0, 0.25, 0.5, 0.75, 1.0]:\n"
            "            z = np.stack([slerp(ratio, a, b) for a, b in zip(z1, z2)])\n"
            "            self.generate(z)\n"
        ),
        Valid(  # the method's run is fed only what its own attributes hold, whatever the loop gives it
            "import cv2\nimport tensorflow as tf\n\n\nclass Model:\n    def step(self, path):\n"
            "        return self.sess.run(self.op, feed_dict={self.x: self.images})\n\n    def train(self, paths):\n"
            "        for path in paths:\n            self.step(cv2.imread(path))\n"
        ),
        Valid(  # the method's run is fed the observation its own output led to: an agent acting, no batch to prefetch
            "import cv2\nimport tensorflow as tf\n\n\nclass Env:\n    def step(self, action):\n"
            "        return cv2.resize(cv2.imread(self.frames[action]), (84, 84))\n\n\nclass Agent:\n"
            "    def act(self, obs):\n        return self.sess.run(self.pi, feed_dict={self.x: obs})\n\n"
            "    def play(self):\n        env = Env()\n        obs = env.step(0)\n"
            "        for t in range(10000):\n            action = self.act(obs)\n"
            "            obs = env.step(action)\n"
        ),
        Valid(  # a feed dict assembled by a function of the file, then given each pass's batch: batches in memory
            "import tensorflow as tf\n\n\ndef construct_feed_dict(labels, placeholders):\n"
            "    feed_dict = dict()\n    feed_dict.update({placeholders['labels']: labels})\n    return feed_dict\n\n\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    feed_dict = construct_feed_dict(y_train, placeholders)\n"
            "    feed_dict.update({placeholders['x']: X[step * 64:(step + 1) * 64]})\n"
            "    outs = sess.run([opt_op, loss], feed_dict=feed_dict)\n    print(outs[1])\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # scalars fed on every step (a rate from an option or a schedule file, a flag): a few bytes
            "import argparse\nimport time\nimport tensorflow as tf\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--lr', type=float, default=0.1)\n"
            "parser.add_argument('--batch_size', type=int, default=90)\nargs = parser.parse_args()\n\n\n"
            "def train(sess, schedule):\n    if args.lr > 0:\n        lr = args.lr\n    else:\n"
            "        lr = read_schedule(schedule)\n    for step in range(1000):\n        t = time.time()\n"
            "        feed_dict = {lr_ph: lr, train_ph: True, batch_ph: args.batch_size}\n"
            "        loss_, _ = sess.run([loss, train_op], feed_dict=feed_dict)\n"
            "        print(step, loss_, time.time() - t)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the function drawing noise on each call: not the same values on each pass
            "import numpy as np\nimport tensorflow as tf\n\n\ndef construct_feed_dict(features, placeholders):\n"
            "    feed_dict = dict()\n    feed_dict.update({placeholders['features']: features})\n"
            "    feed_dict.update({placeholders['z']: np.random.normal(size=(64, 100))})\n    return feed_dict\n\n\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    outs = sess.run([opt_op, loss], feed_dict=construct_feed_dict(features, placeholders))\n"
            "    print(outs[1])\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # a latency benchmark re-runs one input on purpose
            "import time\nimport numpy as np\nimport tensorflow as tf\n"
            "image = np.zeros((1, 224, 224, 3), np.float32)\n"
            "with tf.compat.v1.Session() as sess:\n"
            "    start = time.perf_counter()\n"
            "    for _ in range(100):\n"
            "        sess.run(logits, feed_dict={inputs: image})\n"
            "    print((time.perf_counter() - start) / 100)\n"
        ),
        Valid(
            "import timeit\nimport tensorflow as tf\n\n\ndef latency(sess, feed):\n"
            "    t0 = timeit.default_timer()\n    for _ in range(50):\n        sess.run(out, feed_dict=feed)\n"
            "    return timeit.default_timer() - t0\n"
        ),
        Valid(
            "import time\nimport tensorflow as tf\nwith tf.Session() as sess:\n    t = time.time()\n"
            "    for i in range(10):\n        sess.run(y, {x: batch})\n    print(time.time() - t)\n"
        ),
        Valid(  # warm-up runs of the benchmark that follows
            "import time\nimport tensorflow as tf\nwith tf.compat.v1.Session() as sess:\n"
            "    for _ in range(5):\n        sess.run(outputs, feed_dict={'input:0': x})\n"
            "    s = time.perf_counter()\n"
            "    for _ in range(100):\n        sess.run(outputs, feed_dict={'input:0': x})\n"
            "    e = time.perf_counter()\n"
        ),
        Valid(  # an agent feeds the observation its last action produced: nothing to prefetch
            "import tensorflow as tf\nwith tf.compat.v1.Session() as sess:\n    obs = env.reset()\n"
            "    for step in range(1000):\n        action = sess.run(policy, feed_dict={X: obs[None]})\n"
            "        obs, reward, done, info = env.step(action[0])\n"
        ),
        Valid(  # a replay memory filled with the run's transitions, then sampled and fed
            "import tensorflow as tf\n\n\nclass Agent:\n    def train(self, steps):\n        obs = self.env.reset()\n"
            "        for step in range(steps):\n"
            "            action = self.sess.run(self.act, feed_dict={self.obs: obs[None]})\n"
            "            next_obs, reward, done, _ = self.env.step(action)\n"
            "            self.memory.append((obs, action, reward, next_obs))\n"
            "            self.sess.run(self.train_op, feed_dict={self.batch: self.memory.sample(32)})\n"
            "            obs = next_obs\n"
        ),
        Valid(  # the same memory, sampled by a method of the agent holding it
            "import tensorflow as tf\n\n\nclass Agent:\n    def train(self, steps):\n        obs = self.env.reset()\n"
            "        for step in range(steps):\n"
            "            action = self.sess.run(self.act, feed_dict={self.obs: obs[None]})\n"
            "            obs, reward, done, _ = self.env.step(action)\n"
            "            self.memory.append((obs, action, reward))\n"
            "            batch = self.replay(32)\n"
            "            self.sess.run(self.train_op, feed_dict={self.batch: batch})\n"
        ),
        Valid(  # a generated sequence fed back one step at a time
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\nsequence = [0.0] * 20\n"
            "for i in range(300):\n    x_batch = np.array(sequence[-20:]).reshape(1, 20, 1)\n"
            "    y_pred = sess.run(outputs, feed_dict={X: x_batch})\n    sequence.append(y_pred[0, -1, 0])\n"
        ),
        Valid(  # an agent picks its action on the host, but the next observation comes from the environment
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\nobs = env.reset()\n"
            "for step in range(100000):\n    q = sess.run(q_values, feed_dict={X: obs[None]})\n"
            "    action = np.argmax(q)\n    obs, reward, done, info = env.step(action)\n"
        ),
        Valid(  # a short demo: 20 characters generated
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\ntext = [0]\n"
            "for i in range(20):\n    probs = sess.run(next_char, feed_dict={x: [text[-1]]})\n"
            "    text.append(np.random.choice(len(probs), p=probs))\n"
        ),
        Valid(  # policy gradients: the fed gradients are the earlier runs' outputs
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "for iteration in range(250):\n    all_gradients = []\n    obs = env.reset()\n    for step in range(100):\n"
            "        action, gradients_val = sess.run([act, gradients], feed_dict={X: obs[None]})\n"
            "        obs, reward, done, info = env.step(action)\n"
            "        all_gradients.append(gradients_val)\n    feed_dict = {}\n"
            "    for i, placeholder in enumerate(gradient_placeholders):\n"
            "        feed_dict[placeholder] = np.mean([g[i] for g in all_gradients], axis=0)\n"
            "    sess.run(training_op, feed_dict=feed_dict)\n"
        ),
        Valid(  # a literal feed (the dropout rate) copies nothing worth a finding
            "import tensorflow as tf\nsess = tf.compat.v1.InteractiveSession()\nfor step in range(1000):\n"
            "    sess.run(train_op, feed_dict={keep_prob: 0.5, training: True})\n"
        ),
        Valid(  # the batches come from an in-graph queue; the feed is a flag and an option's scalar
            "import argparse\nimport tensorflow as tf\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--batch_size', type=int, default=90)\nargs = parser.parse_args()\n"
            "sess = tf.compat.v1.Session()\nfor i in range(1000):\n"
            "    feed_dict = {phase_train: False, batch_size_placeholder: args.batch_size}\n"
            "    sess.run([loss, accuracy], feed_dict=feed_dict)\n"
        ),
        Valid(  # the same scalar, handed to the evaluating function by its one caller
            "import argparse\nimport tensorflow as tf\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--batch_size', type=int, default=90)\nargs = parser.parse_args()\n\n\n"
            "def evaluate(sess, batches, batch_size):\n    for i in range(batches):\n"
            "        sess.run(embeddings, feed_dict={phase_train: False, size: batch_size})\n\n\n"
            "evaluate(tf.compat.v1.Session(), 1000, args.batch_size)\n"
        ),
        Valid(  # a GAN's generator step fed only a latent batch drawn on the host: no data to stage
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\nfor step in range(10000):\n"
            "    batch_z = np.random.uniform(-1, 1, size=[batch_size, z_dim]).astype(np.float32)\n"
            "    sess.run(g_optim, feed_dict={z: batch_z})\n"
        ),
        Valid(  # the latent drawn by a helper of the file, and one-hot labels built with np.zeros
            "import numpy as np\nimport tensorflow as tf\n\n\ndef gen_random(size):\n"
            "    return np.random.normal(0, 1, size=size)\n\n\nsess = tf.compat.v1.Session()\n"
            "for idx in range(z_dim):\n    z_sample = gen_random([64, z_dim])\n"
            "    for kdx, row in enumerate(z_sample):\n        row[idx] = kdx / 64\n"
            "    y_one_hot = np.zeros((64, 10))\n    y_one_hot[np.arange(64), np.random.choice(10, 64)] = 1\n"
            "    samples = sess.run(sampler, feed_dict={z: z_sample, y: y_one_hot, lr: 0.001 * 0.5})\n"
        ),
        Valid(  # a progress report every display_step steps: not every batch
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\nfor step in range(1, 10001):\n"
            "    sess.run(train_op)\n    if step % display_step == 0 or step == 1:\n"
            "        loss = sess.run(loss_op, feed_dict={X: test_x, Y: test_y})\n"
        ),
        Valid(  # the same report after the steps it skips: `if step % display_step != 0: continue`
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\nfor step in range(1, 10001):\n"
            "    sess.run(train_op)\n    if step % display_step != 0:\n        continue\n"
            "    loss = sess.run(loss_op, feed_dict={X: test_x, Y: test_y})\n"
        ),
        Valid(  # the same report, the remainder taken by `np.mod` and the period a flag's default
            "import numpy as np\nimport tensorflow as tf\nflags = tf.compat.v1.flags\n"
            "flags.DEFINE_integer('display_step', 100, 'log every')\nFLAGS = flags.FLAGS\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1, 10001):\n"
            "    sess.run(train_op)\n    if np.mod(step, FLAGS.display_step) == 0 or step == 1:\n"
            "        loss = sess.run(loss_op, feed_dict={X: test_x, Y: test_y})\n"
        ),
        Valid(  # once per epoch, after the epoch's steps: the loss of the last batch (the steps' run is the finding)
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\nfor epoch in range(50):\n"
            "    for iteration in range(n_batches):\n        X_batch, y_batch = mnist.train.next_batch(150)\n"
            "        sess.run(training_op, feed_dict={X: X_batch})  # noqa: GL503\n"
            "    loss_val = sess.run(loss, feed_dict={X: X_batch})\n"
        ),
        Valid(  # a reader thread fills the queue the training graph dequeues from
            "import threading\nimport tensorflow as tf\n\n\nclass Reader:\n"
            "    def thread_main(self, sess):\n        for piece in load_pieces():\n"
            "            sess.run(self.enqueue, feed_dict={self.sample: piece})\n\n"
            "    def start(self, sess):\n        thread = threading.Thread(target=self.thread_main, args=(sess,))\n"
            "        thread.start()\n"
        ),
        Valid(FEEDER.format(base="threading.Thread")),  # a feeder thread's `run` fills the queue through a method
        Valid(  # a generator Keras draws batches from on its worker threads
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\n\n\ndef batches(files):\n"
            "    while True:\n        for f in files:\n"
            "            yield sess.run(spectrogram, feed_dict={wav: load(f)})\n\n\n"
            "model.fit_generator(batches(files), steps_per_epoch=100, epochs=10)\n"
        ),
        Valid(  # a skip-gram batch gathered at randomly drawn offsets: microseconds an item, a share of a step not priced
            "import collections\nimport numpy as np\nimport tensorflow as tf\n\n\ndef generate_batch(size, skips):\n"
            "    global data_index\n    batch = np.ndarray(shape=(size,), dtype=np.int32)\n"
            "    buffer = collections.deque(maxlen=3)\n    for i in range(size // skips):\n"
            "        for j in range(skips):\n            target = np.random.randint(0, 3)\n"
            "            batch[i * skips + j] = buffer[target]\n"
            "        buffer.append(data[data_index])\n        data_index = (data_index + 1) % len(data)\n"
            "    return batch\n\n\nwith tf.compat.v1.Session() as sess:\n    for step in range(100001):\n"
            "        sess.run([optimizer, loss], feed_dict={train_inputs: generate_batch(128, 2)})\n"
        ),
        Valid(  # the same with the context words drawn as a sample of the window's offsets
            "import random\nimport numpy as np\nimport tensorflow as tf\n\n\ndef generate_batch(size, skips):\n"
            "    batch = np.ndarray(shape=(size,), dtype=np.int32)\n    for i in range(size // skips):\n"
            "        context = [w for w in range(3) if w != 1]\n"
            "        for j, word in enumerate(random.sample(context, skips)):\n"
            "            batch[i * skips + j] = buffer[word]\n        buffer.append(data[i])\n    return batch\n\n\n"
            "with tf.compat.v1.Session() as sess:\n    for step in range(100001):\n"
            "        sess.run([optimizer, loss], feed_dict={train_inputs: generate_batch(128, 2)})\n"
        ),
        Valid(  # a batch built one clip per run and returned, by a method the file never calls: its caller decides
            "import numpy as np\nimport tensorflow as tf\n\n\nclass Processor:\n    def get_data(self, sess, files):\n"
            "        data = np.zeros((len(files), 16000))\n        for i, f in enumerate(files):\n"
            "            data[i, :] = sess.run(self.mfcc, feed_dict={self.wav: f}).flatten()\n        return data\n"
        ),
        Valid(  # a sampler nested in the training function feeds its prompt to the placeholder the steps feed batches to
            "import tensorflow as tf\n\n\ndef finetune(sess, sampler, sample_num=1, batch_size=1):\n"
            "    context = tf.compat.v1.placeholder(tf.int32, [batch_size, None])\n\n"
            "    def generate_samples():\n        tokens = sampler.sample(1)\n        index = 0\n"
            "        while index < sample_num:\n"
            "            out = sess.run(tf_sample, feed_dict={context: batch_size * [tokens]})\n"
            "            index += batch_size\n\n"
            "    for step in range(1000):\n        if step % 100 == 0:\n            generate_samples()\n"
            "        sess.run(train_op, feed_dict={context: sampler.sample(1024)})\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # ten steps on one rollout: the rows read once per update, fed again to each step of the comprehension
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "for update in range(1000):\n    s = np.stack([cv2.imread(p) for p in rollout_paths()])\n"
            "    [sess.run(train_op, {x: s}) for _ in range(10)]\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the same ten steps written as a `for`: the rollout is made once per update, outside it
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "for update in range(1000):\n    s = np.stack([cv2.imread(p) for p in rollout_paths()])\n"
            "    for _ in range(10):\n        sess.run(train_op, {x: s})\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the sampler's per-item loop runs only for labels, which the file's one call never asks for
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n\n\n"
            "def prior(n, dim, labelled=False):\n    if labelled:\n        z = np.empty((n, dim))\n"
            "        for i in range(n):\n            z[i] = on_circle(i)\n        return z\n"
            "    return np.random.normal(0, 1, (n, dim))\n\n\n"
            "for step in range(1000):\n    sess.run(train_op, {x: data[step], z: prior(64, 2)})\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # rollouts that worker threads put on a queue: taking them is no work of this thread's
            "import queue\nimport numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "QUEUE = queue.Queue()\nwhile True:\n    data = np.vstack([QUEUE.get() for _ in range(QUEUE.qsize())])\n"
            "    sess.run(train_op, {x: data})\n",
            options={"material-saving-j": 0.0},
        ),
    )
    INVALID = (
        Invalid(  # near miss of the `for` form: each inner step reads its own files
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "for update in range(1000):\n    paths = rollout_paths()\n    for k in range(10):\n"
            "        sess.run(train_op, {x: np.stack([cv2.imread(p) for p in paths[k::10]])})\n",
            line=8,
            message_contains="made on each step by a file read",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # near miss: the data fed on every inner step is made once for the whole run, no outer pass remakes it
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\ns = np.load('train.npy')\n"
            "for epoch in range(1000):\n    for _ in range(10):\n        print(sess.run(loss, {x: s}))\n",
            line=7,
            message_contains="feeds the same values on every iteration",
            options={"material-saving-j": 0.0},
        ),
        Invalid(FEEDER.format(base="object"), line=13, options={"material-saving-j": 0.0}),  # a `run` of no thread
        Invalid(  # near miss: the method a feeder thread's `run` calls is called by the main loop too
            FEEDER.format(base="threading.Thread") + "feeder = Feeder(sess)\nfor step in range(1000):\n"
            "    feeder.enqueue_group()\n",
            line=13,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # near miss: the comprehension reads a file per step it runs
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "for epoch in range(1000):\n    [sess.run(train_op, {x: cv2.imread(p)[None]}) for p in paths]\n",
            line=6,
            message_contains="a file read (`cv2.imread`",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # near miss: the loop's call asks for the labels, whose loop runs per item
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n\n\n"
            "def prior(n, dim, labelled=False):\n    if labelled:\n        z = np.empty((n, dim))\n"
            "        for i in range(n):\n            z[i] = on_circle(i)\n        return z\n"
            "    return np.random.normal(0, 1, (n, dim))\n\n\n"
            "for step in range(1000):\n    sess.run(train_op, {x: data[step], z: prior(64, 2, labelled=True)})\n",
            line=16,
            message_contains="a Python loop over its items (in `prior`, line 9)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # near miss: a method of a class with a base, which may call it asking for the labels
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n\n\n"
            "class Prior(Sampler):\n    def draw(self, n, dim, labelled=False):\n        if labelled:\n"
            "            z = np.empty((n, dim))\n            for i in range(n):\n                z[i] = on_circle(i)\n"
            "            return z\n        return np.random.normal(0, 1, (n, dim))\n\n\n"
            "prior = Prior()\nfor step in range(1000):\n    sess.run(train_op, {x: data[step], z: prior.draw(64, 2)})\n",
            line=18,
            message_contains="a Python loop over its items (in `draw`, line 10)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # near miss: what the queue hands over is parsed item by item on this thread
            "import queue\nimport numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "QUEUE = queue.Queue()\nwhile True:\n    data = np.vstack([parse(line) for line in QUEUE.get()])\n"
            "    sess.run(train_op, {x: data})\n",
            line=8,
            message_contains="a Python loop over its items (line 7)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the fetched step is bound afresh before the next pass slices its files, and the fetched image
            # goes to an imported module's function: neither reaches the next feed
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nimport helpers\n"
            "sess = tf.compat.v1.Session()\nit = 0\nwhile it < 1000:\n    start = it * 8\n    step = start + 8\n"
            "    batch = np.zeros((8, 64, 64, 3))\n    for j, path in enumerate(paths[start:step]):\n"
            "        batch[j] = helpers.crop(cv2.imread(path))\n"
            "    _, image, step = sess.run([train_op, sample, global_step], feed_dict={X: batch})\n"
            "    helpers.save(image, step)\n    it += 1\n",
            line=13,
            message_contains="feeds every batch from Python",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the same map calling a function per word: work per item while the device waits
            "import tensorflow as tf\n\n\ndef pad_sequences(sequences):\n"
            "    width = max([max(map(lambda x: encode(x), seq)) for seq in sequences])\n    padded = []\n"
            "    for seq in sequences:\n        padded += [seq + [0] * (width - len(seq))]\n    return padded\n\n\n"
            "class Tagger:\n    def get_feed_dict(self, words):\n        return {self.word_ids: pad_sequences(words)}\n\n"
            "    def run_epoch(self, train):\n        for i, words in enumerate(minibatches(train, 20)):\n"
            "            fd = self.get_feed_dict(words)\n            self.sess.run(self.train_op, feed_dict=fd)\n",
            line=19,
            message_contains="made on each step by a Python loop over its items (in `pad_sequences`",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a summary written through `self.file_writer`: the feed its method builds reads no reply of the run
            "import cv2\nimport numpy as np\nimport tensorflow as tf\n\n\nclass Tagger:\n"
            "    def feed(self, paths):\n        return {self.x: np.stack([cv2.imread(p) for p in paths])}\n\n"
            "    def run_epoch(self, batches):\n        for i, paths in enumerate(batches):\n"
            "            fd = self.feed(paths)\n"
            "            _, summary = self.sess.run([self.train_op, self.merged], feed_dict=fd)\n"
            "            self.file_writer.add_summary(summary, i)\n",
            line=13,
            message_contains="a file read (`cv2.imread`",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # autoregressive sampling on the host: the window fed ends with the sample drawn from the last output
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\nwaveform = [128] * 100\n"
            "for step in range(16000):\n    window = waveform[-1]\n"
            "    prediction = sess.run(outputs, feed_dict={samples: window})[0]\n"
            "    scaled = np.exp(np.log(prediction) / 0.9)\n"
            "    sample = np.random.choice(np.arange(256), p=scaled / scaled.sum())\n    waveform.append(sample)\n",
            line=7,
            message_contains="once per generated element (16,000 times), the next input drawn on the host",
        ),
        Invalid(  # the same, its length a command-line option's default: the message says it may change
            "import argparse\nimport numpy as np\nimport tensorflow as tf\np = argparse.ArgumentParser()\n"
            "p.add_argument('--samples', type=int, default=16000)\nargs = p.parse_args()\n"
            "sess = tf.compat.v1.Session()\nwaveform = [128] * 100\n"
            "for step in range(args.samples):\n    window = waveform[-1]\n"
            "    prediction = sess.run(outputs, feed_dict={samples: window})[0]\n"
            "    sample = np.random.choice(np.arange(256), p=prediction)\n    waveform.append(sample)\n",
            line=11,
            message_contains="once per generated element (16,000 times: the default of `--samples`), the next input",
        ),
        Invalid(  # each batch's images read and decoded in Python before the step
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "for paths in batches:\n    images = np.array([cv2.imread(p) for p in paths])\n"
            "    sess.run(step, feed_dict={x: images})\n",
            line=7,
            message_contains="feeds every batch from Python, made on each step by a file read (`cv2.imread`, line 6)",
        ),
        Invalid(  # under `step % 10 != 0`: fed on 9 steps of 10, no periodic report
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "for step, paths in enumerate(batches):\n    images = np.array([cv2.imread(p) for p in paths])\n"
            "    if step % 10 != 0:\n        sess.run(step_op, feed_dict={x: images})\n",
            line=8,
            message_contains="feeds every batch from Python, made on each step by a file read (`cv2.imread`, line 6)",
        ),
        Invalid(  # the training op's own run (the default session's), each batch's images decoded into it first
            "import imageio\nimport numpy as np\nimport tensorflow as tf\n\n"
            "x = tf.compat.v1.placeholder(tf.float32, (4, 256, 256, 3))\n"
            "train_step = tf.compat.v1.train.AdamOptimizer(0.001).minimize(tf.reduce_mean(x))\n\n\n"
            "def optimize(paths, epochs=2, batch_size=4):\n    with tf.compat.v1.Session() as sess:\n"
            "        for epoch in range(epochs):\n            for i in range(0, len(paths), batch_size):\n"
            "                batch = np.zeros((batch_size, 256, 256, 3))\n"
            "                for j, path in enumerate(paths[i:i + batch_size]):\n"
            "                    batch[j] = imageio.imread(path)\n"
            "                train_step.run(feed_dict={x: batch})\n"
            "                if i % 1000 == 0:\n                    yield epoch, i\n\n\n"
            "for progress in optimize(paths):\n    print(progress)\n",
            line=16,
            message_contains="`train_step.run(feed_dict=...)` in a loop feeds every batch from Python, made on each step"
            " by a file read (`imageio.imread`, line 15)",
        ),
        Invalid(  # a batch of words encoded one by one by a function of the file
            "import random\nimport numpy as np\nimport tensorflow as tf\n\n\ndef generate_batch(size):\n"
            "    batch = np.ndarray(shape=(size,), dtype=np.int32)\n    for i in range(size):\n"
            "        batch[i] = vocab.encode(words[random.randint(0, 2)])\n    return batch\n\n\n"
            "with tf.compat.v1.Session() as sess:\n    for step in range(num_steps):\n"
            "        batch_data = generate_batch(128)\n        feed_dict = {train_dataset: batch_data}\n"
            "        sess.run([optimizer, loss], feed_dict=feed_dict)\n",
            line=17,
            message_contains="a Python loop over its items (in `generate_batch`, line 8)",
        ),
        Invalid(  # the same interpolation over a thousand points: a thousand batches made by a Python loop
            "import numpy as np\nimport tensorflow as tf\n\n\nclass GAN:\n    def generate(self, z):\n"
            "        return self.sess.run(self.G, {self.z: z})\n\n    def interpolate(self, z1, z2):\n"
            "        for ratio in np.linspace(0, 1, 1000):\n"
            "            z = np.stack([slerp(ratio, a, b) for a, b in zip(z1, z2)])\n"
            "            self.generate(z)\n",
            line=7,
            message_contains="made on each step by a Python loop over its items",
        ),
        Invalid(  # the run in a method fed its parameter, the method called once per batch a file generator decodes
            "import cv2\nimport numpy as np\nimport tensorflow as tf\n\n\ndef batches(paths):\n    while True:\n"
            "        yield np.stack([cv2.imread(p) for p in paths[:64]])\n\n\nclass Model:\n"
            "    def step(self, images):\n        feed = {}\n        feed[self.x] = images\n"
            "        return self.sess.run(self.train_op, feed)\n\n    def train(self, paths):\n"
            "        for images in batches(paths):\n            self.step(images)\n",
            line=15,
            message_contains="made on each step by a file read (`cv2.imread`, in `batches`, line 8)",
        ),
        Invalid(  # the steps of every epoch: the run in the inner loop is the finding, not the epoch's report
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\nfor epoch in range(50):\n"
            "    for iteration in range(n_batches):\n        X_batch = np.load(paths[iteration])\n"
            "        sess.run(training_op, feed_dict={X: X_batch})\n"
            "    loss_val = sess.run(loss, feed_dict={X: X_batch})\n",
            line=7,
            message_contains="a file read (`np.load`, line 6)",
        ),
        Invalid(  # the summary a run returns goes to the writer: the batches decoded from `self.files` are fed from Python
            "import cv2\nimport numpy as np\nimport tensorflow as tf\n\n\nclass GAN:\n    def train(self, epochs, n_batches):\n"
            "        for epoch in range(epochs):\n            for idx in range(n_batches):\n"
            "                batch = np.array([cv2.imread(f) for f in self.files[idx * 64:(idx + 1) * 64]])\n"
            "                _, summary = self.sess.run([self.d_optim, self.d_sum], feed_dict={self.inputs: batch})\n"
            "                self.writer.add_summary(summary, idx)\n",
            line=11,
            message_contains="a file read (`cv2.imread`, line 10)",
        ),
        Invalid(  # the latent is drawn on the host, but the real images are read from files
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\nfor idx in range(n_batches):\n"
            "    batch_z = np.random.uniform(-1, 1, size=[64, 100]).astype(np.float32)\n"
            "    sess.run(d_optim, feed_dict={inputs: np.load(paths[idx]), z: batch_z})\n",
            line=6,
            message_contains="a file read (`np.load`, line 6)",
        ),
        Invalid(  # a buffer made with np.zeros, then filled item by item with decoded images
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "for step in range(1000):\n    x = np.zeros((64, 64, 64, 3))\n    for i in range(64):\n"
            "        x[i] = cv2.resize(cv2.imread(paths[step * 64 + i]), (64, 64))\n"
            "    sess.run(train_op, feed_dict={X: x})\n",
            line=9,
            message_contains="a file read (`cv2.imread`, line 8)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # noise drawn for every image of the batch: an array of draws per item, not one number
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    batch = np.zeros((64, 64, 64))\n    for i in range(64):\n"
            "        batch[i] = images[i] + np.random.normal(0, 0.1, size=(64, 64))\n"
            "    sess.run(train_op, feed_dict={X: batch})\n",
            line=8,
            message_contains="a Python loop over its items (line 6)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the same with the size given by position: a crop of pixels drawn per image
            "import numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    batch = np.zeros((64, 64, 64))\n    for i in range(64):\n"
            "        batch[i] = images[i] * np.random.randint(0, 2, (64, 64))\n"
            "    sess.run(train_op, feed_dict={X: batch})\n",
            line=8,
            message_contains="a Python loop over its items (line 6)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # texts tokenised one by one for every batch
            "import random\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    batch = [tokenizer.encode(t) for t in random.sample(texts, 32)]\n"
            "    sess.run(train_op, feed_dict={X: batch})\n",
            line=6,
            message_contains="a Python loop over its items (line 5)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # MNIST sliced in memory under one test, files decoded under the other: only that branch's run
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nsess = tf.compat.v1.Session()\n"
            "for idx in range(n_batches):\n    if dataset == 'mnist':\n        batch = data_X[idx * 64:(idx + 1) * 64]\n"
            "    else:\n        batch = np.array([cv2.imread(f) for f in files[idx * 64:(idx + 1) * 64]])\n"
            "    if dataset == 'mnist':\n        sess.run(d_optim, feed_dict={inputs: batch, y: labels})\n"
            "    else:\n        sess.run(d_optim, feed_dict={inputs: batch})\n",
            line=13,
            message_contains="a file read (`cv2.imread`, line 9)",
        ),
        Invalid(  # full-batch training (a GCN): the feed dict a function of the file assembles from the same arrays each
            # epoch, timed per epoch for the log; the loop prints what its runs return, so it is no latency benchmark
            "import time\nimport tensorflow as tf\n\n\ndef construct_feed_dict(features, labels, placeholders):\n"
            "    feed_dict = dict()\n    feed_dict.update({placeholders['features']: features})\n"
            "    feed_dict.update({placeholders['labels']: labels})\n    return feed_dict\n\n\n"
            "sess = tf.compat.v1.Session()\nfor epoch in range(200):\n    t = time.time()\n"
            "    feed_dict = construct_feed_dict(features, y_train, placeholders)\n"
            "    feed_dict.update({placeholders['dropout']: 0.5})\n"
            "    outs = sess.run([opt_op, loss], feed_dict=feed_dict)\n"
            "    print(epoch, outs[1], time.time() - t)\n",
            line=17,
            message_contains="feeds the same values",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # full-batch gradient descent: the whole set fed again on every epoch
            "import time\nimport tensorflow as tf\nstart = time.time()\nwith tf.compat.v1.Session() as sess:\n"
            "    for epoch in range(1000):\n        sess.run(training_op, feed_dict={X: X_train, y: y_train})\n",
            line=6,
            message_contains="feeds the same values",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # each function builds its own placeholder: the batches fed in `train` leave `evaluate`'s fixed feed
            "import numpy as np\nimport tensorflow as tf\n\n\ndef train(sess, files):\n"
            "    X = tf.compat.v1.placeholder(tf.float32)\n    for f in files:\n"
            "        sess.run(train_op, feed_dict={X: np.load(f)})\n\n\ndef evaluate(sess, X_test):\n"
            "    X = tf.compat.v1.placeholder(tf.float32)\n    for _ in range(1000):\n"
            "        sess.run(accuracy, feed_dict={X: X_test})\n",
            line=14,
            message_contains="feeds the same values",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a training loop followed by a benchmark of another call is no warm-up
            "import time\nimport tensorflow as tf\nwith tf.compat.v1.Session() as sess:\n"
            "    for epoch in range(100):\n        sess.run(train_op, feed_dict={X: X_train, y: y_train})\n"
            "    s = time.perf_counter()\n"
            "    for _ in range(100):\n        sess.run(logits, feed_dict={X: X_test})\n"
            "    e = time.perf_counter()\n",
            line=5,
            message_contains="feeds the same values",
            options={"material-saving-j": 0.0},
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        runs = [site for site in facts.sites if site.api in RUNS]
        if not runs:  # nothing to judge: the tree is not indexed
            return
        results = {id(facts.call_at(s)) for s in facts.sites if s.api in (*RUNS, *EVALS)}
        steady = Assembled(facts)  # reads a project function only where a loop's feed calls one
        modules = frozenset(facts.imported)
        wrapped = [site for site in runs if _wrapped_feed(site)]
        fed_runs = {id(call) for call in map(facts.node, runs) if call is not None and binds(call, "feed_dict", 1)}
        fed_runs |= {id(facts.call_at(site)) for site in wrapped}
        yield from self._wrapped(
            facts, [s for s in wrapped if not immaterial_work(facts, s, options)], results, fed_runs
        )
        for site in runs:
            call = facts.node(site)
            if call is None or feed(call) is None:  # fed nothing, or only maybe through `*`/`**`: not reported
                continue
            if not site.repeats(same=("receiver",)):  # one session, run again by a loop
                continue
            if immaterial_work(facts, site, options):  # its whole work, over its counted runs, is not material
                continue
            if periodic(facts, call, site.callsite.span.cell):  # a log every k steps, not every batch
                continue
            if _producer(facts, call, site.callsite.span.cell) and not is_training_step(site):
                continue  # feeding that already overlaps the step (a generator's training step is the step itself)
            if _batch_builder(facts, site, call, results):  # how it is run is decided in another module
                continue
            loop, _ = innermost_loop(facts, site)  # its own loop, where what it feeds is read
            fed = feed(call)
            if fed is not None and _refed(facts, call, fed, loop, site.callsite.span.cell):
                continue  # values made once for several steps: no host work per step
            if loop is None and fed is not None:  # run once per call: fed what a caller's loop gives it
                yield from self._through_callers(facts, site, call, fed, results, fed_runs)
                continue
            if loop is not None and fed is not None and _fed_back(fed, loop, results, _methods(facts, loop, site), call, modules):
                trips = site.loop_runs
                if _sampled_on_host(fed, loop, results) and (trips is None or trips >= FEW_ELEMENTS):
                    yield self.diagnostic(site.callsite.span, facts.path, self.SAMPLED.format(times=site.loop_times()))
                continue  # input that exists only after the previous run: neither a batch to prefetch nor fixed data
            if loop is not None and _beside_step_loop(loop, fed_runs):  # once per epoch, not per step
                continue
            scope = enclosing(facts, call, site.callsite.span.cell)
            if fed is not None and scope is not None and made_on_host(facts, fed, scope, site.callsite.span.cell):
                continue  # a drawn latent, a label grid, scalars: nothing a pipeline would stage
            varies = True if loop is None or fed is None else _varies(fed, loop, steady)
            if varies:
                work = host_work(facts, fed, loop, call, site.callsite.span.cell) if loop and fed else None
                if work is not None:  # else slices of data in memory, or work not seen: nothing to overlap is known
                    yield self.diagnostic(site.callsite.span, facts.path,
                                          self.MESSAGE.format(run=_run_name(site, call), work=work))
            elif (
                varies is False
                and fed is not None
                and loop is not None
                and (_result_read(facts, loop, call, site.callsite.span.cell)
                     or not _timed(facts, loop, call, site.callsite.span.cell))
                and not _shares_placeholders(facts, fed, loop, results, site.callsite.span.cell)
                and not (scope is not None and scalars_only(facts, fed, scope, site.callsite.span.cell))
            ):
                yield self.diagnostic(site.callsite.span, facts.path, self.SAME_FEED.format(run=_run_name(site, call)))

    def _through_callers(
        self, facts: FileFacts, site: Site, call: ast.Call, fed: ast.expr, results: set[int], fed_runs: set[int]
    ) -> Iterator[Diagnostic]:
        """A run with no loop of its own, fed what its function's parameters give it (`step(self, batch)`
        feeding `batch['data']`), whose function the file calls in a loop: the same judgement as a run
        written in that loop, read from the arguments of the call (`self.step(batch)`), what the call
        returns being the run's reply (`action = self.act(obs)` then `obs = env.step(action)`: fed back);
        one finding, on the run."""
        for cell, node, loop, given in _looped_callers(facts, call, fed, site.callsite.span.cell):
            if periodic(facts, node, cell) or _producer(facts, node, cell) or waits_for_user(loop):
                continue
            replies = results | {id(node)}  # the call returns what the run fetched: `action = self.act(obs)`
            if _fed_back(given, loop, replies) or _beside_step_loop(loop, fed_runs) or not _varies(given, loop):
                continue
            scope = enclosing(facts, node, cell)
            if scope is not None and made_on_host(facts, given, scope, cell):
                continue
            work = host_work(facts, given, loop, node, cell)
            if work is not None:
                yield self.diagnostic(site.callsite.span, facts.path,
                                      self.MESSAGE.format(run=_run_name(site, call), work=work))
                return

    def _wrapped(
        self, facts: FileFacts, wrapped: list[Site], results: set[int], fed_runs: set[int]
    ) -> Iterator[Diagnostic]:
        """A call of another module's helper whose session run is fed, through its `feed_dict`,
        what the loop around the call changes (`model.train(lr, *minibatch)`): the same judgement
        as a run written here, read from the helper's arguments."""
        for site in wrapped:
            call, cell = facts.call_at(site), site.callsite.span.cell
            loop = next(iter(own_loops(facts, call, cell)), None) if call is not None else None
            if call is None or loop is None or periodic(facts, call, cell) or _producer(facts, call, cell):
                continue
            given = ast.Tuple(elts=_fed_arguments(call, site.features.get("fed_by")), ctx=ast.Load())
            if not given.elts or not _varies(given, loop):  # what the run is fed stays the same on each pass
                continue
            if _fed_back(given, loop, results) or _beside_step_loop(loop, fed_runs) or waits_for_user(loop):
                continue
            scope = enclosing(facts, call, cell)
            if scope is not None and made_on_host(facts, given, scope, cell):
                continue
            work = host_work(facts, given, loop, call, cell)
            if work is None:  # slices of data in memory, or work not seen: nothing to overlap is known
                continue
            name = ast.unparse(call.func)
            via = str(site.features.get("via") or "its session run")
            message = self.WRAPPED.format(call=name, via=via, times=site.loop_times(), work=work)
            yield self.diagnostic(site.callsite.span, facts.path, message)


def _fed_arguments(call: ast.Call, fed_by: list | None) -> list[ast.expr]:
    """The arguments of a helper's *call* that its session run is fed (`features.fed_by`: each parameter's
    position among the positional arguments, or None, and its name); all of them where that is not known
    or a `*args` hides the positions."""
    if fed_by is None or any(isinstance(a, ast.Starred) for a in call.args):
        return [*call.args, *(k.value for k in call.keywords)]
    keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
    found = []
    for position, name in fed_by:
        if position is not None and position < len(call.args):
            found.append(call.args[position])
        elif name in keywords:
            found.append(keywords[name])
    return found


def _methods(facts: FileFacts, node: ast.AST, site: Site) -> dict[str, frozenset[str] | None] | None:
    """`attributes_read` of the class whose method holds *node*; None outside a class."""
    cls = next((p for p in facts.ancestors(node, site.callsite.span.cell) if isinstance(p, ast.ClassDef)), None)
    return attributes_read(cls) if cls is not None else None


def _wrapped_feed(site: Site) -> bool:
    """A helper's call listed as the session run it makes (analysis/wrappers.py), whose run is fed
    what the helper's parameters give it (`features.fed`), run again by a loop that changes one
    of the call's arguments (`runs.varying`; the helper's receiver alone does not count)."""
    if site.features.get("receiver") != "wrapper" or not site.features.get("fed"):
        return False
    loop = site.loop_runs
    loops = site.callsite.runs.varying
    return (loop is None or loop > 1) and any(set(names) - {"receiver"} for names in loops)
