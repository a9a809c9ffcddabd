"""Syntax facts around a call that several rules share (read from `FileFacts.node`'s tree)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from greenlint.analysis import flow, progress
from greenlint.analysis.runs import period
from greenlint.rules.base import FileFacts, argument, binds, last_name
from greenlint.rules.site import Site, is_keras_model_method, method

LOOPS = (ast.For, ast.AsyncFor, ast.While)
#: Methods that grow the object they are called on: a list's `append`/`extend`.
GROWS = frozenset({"append", "extend"})
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)
#: Comprehensions: each generator of one binds a variable per pass.
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
#: Method names of one training step (a custom loop's update, or a Keras step call).
STEP_METHODS = frozenset({"apply_gradients", "minimize", "train_on_batch"})
#: Calls that end the program from inside a loop.
EXITS = frozenset({"exit", "quit", "_exit", "abort"})
#: How many values an environment's `step()` returns: gym's `(observation, reward, done, info)`,
#: gymnasium's `(observation, reward, terminated, truncated, info)`.
STEP_RESULTS = (4, 5)


def is_training_step(site: Site) -> bool:
    """The call trains a model: a step method, Keras' `fit`/`fit_generator`, or a call the
    analysis found to be one training step (`work["step"]` "training")."""
    api = site.api or ""
    return (
        method(api) in STEP_METHODS
        or is_keras_model_method(api, ("fit", "fit_generator"))
        or site.work_value("step") == "training"
    )


def enclosing(facts: FileFacts, node: ast.AST, cell: int | None, kinds: tuple[type, ...] = SCOPES) -> ast.AST | None:
    """The innermost ancestor of *node* of one of *kinds* (by default its scope: function, class or module)."""
    return next((a for a in facts.ancestors(node, cell) if isinstance(a, kinds)), None)


def enclosing_anywhere(facts: FileFacts, node: ast.AST, kinds: tuple[type, ...]) -> ast.AST | None:
    """`enclosing` for a node of any unit of the file (a notebook cell's node, its cell not known)."""
    for cell in facts.cells:
        if facts.parent(node, cell) is not None:
            return enclosing(facts, node, cell, kinds)
    return None


def innermost_loop(facts: FileFacts, site: Site) -> tuple[ast.AST | None, bool]:
    """The loop directly around the call in its own function, and whether an `if` (or `try`)
    between the two guards it, or an `if step % k != 0: continue` before it skips it on the other
    passes (`gate_divisor`); (None, False) outside loops."""
    node = facts.node(site)
    if node is None:
        return None, False
    guarded = False
    child: ast.AST = node
    for parent in facts.ancestors(node, site.callsite.span.cell):
        guarded = guarded or gate_divisor(parent, child) is not None
        if isinstance(parent, LOOPS):
            return parent, guarded
        if isinstance(parent, SCOPES):
            return None, False
        if isinstance(parent, (ast.If, ast.IfExp, ast.Try, ast.ExceptHandler)):
            guarded = True
        child = parent
    return None, False


Loop = ast.For | ast.AsyncFor | ast.While
Function = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


def exclusive(facts: FileFacts, a: ast.AST, b: ast.AST, cell: int | None) -> bool:
    """*a* and *b* lie in opposite branches of `if`s (one, or two in turn) that test the same
    expression, as written, in their function: no pass reaches both, where the test's names keep
    their values between the two."""
    first, second = _branches(facts, a, cell), _branches(facts, b, cell)
    return any(test in second and second[test] != side for test, side in first.items())


def _branches(facts: FileFacts, node: ast.AST, cell: int | None) -> dict[str, bool]:
    """The tests of the `if`s around *node* in its function (`ast.dump`), each with whether *node*
    is in its body (True) or its `else` (False); the innermost `if` of a test counts."""
    found: dict[str, bool] = {}
    child = node
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, SCOPES):
            break
        if isinstance(parent, ast.If) and child is not parent.test:
            found.setdefault(ast.dump(parent.test), any(child is s for s in parent.body))
        child = parent
    return found


def own_loops(facts: FileFacts, node: ast.AST, cell: int | None) -> list[Loop]:
    """The loops around a node in its own function (or module), innermost first."""
    found: list[Loop] = []
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, SCOPES):
            break
        if isinstance(parent, LOOPS):
            found.append(parent)
    return found


def autograph_loop(facts: FileFacts, loop: Loop, cell: int | None) -> bool:
    """A `for` over `tf.range(...)`: written for AutoGraph, which turns it into one graph loop
    (`tf.while_loop`) when its function is traced, so its body runs once in Python."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)) or not isinstance(loop.iter, ast.Call):
        return False
    site = facts.site_at(loop.iter, cell)
    return site is not None and site.api == "tensorflow.range"


def period_divisor(test: ast.expr) -> int | ast.expr | None:
    """The k of an `if` test that lets its body run on 1 in k passes of a loop whose counter counts
    up, read as the analysis reads a guarded call's runs (`analysis.runs.period`: `step % k == 0`,
    `not i % k`, `np.mod(step, k) == 0`, one operand of `and`), also with equalities `or`-ed to it
    (`or step == max_steps - 1`: each holds on one pass); None for any other test, `step % k != 0`
    and a bare `step % k` among them (true on all the other passes). The rules read every guard
    of a periodic call through it."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        found = [(value, period_divisor(value)) for value in test.values]
        divisors = [k for _, k in found if k is not None]
        once = all(k is not None or _equality(value) for value, k in found)
        return divisors[0] if len(divisors) == 1 and once else None
    held = period(test)
    return held[0] if held is not None else None


def skip_divisor(test: ast.expr) -> int | ast.expr | None:
    """The k of the test of an `if ...: continue` after which the rest of a loop's pass runs on 1
    in k passes: a test true on all the other passes (`step % k != 0`, a bare `step % k`, `not
    step % k == 0`), alone or as an operand of `or` (`if step < warmup or step % k != 0:
    continue`), the largest literal k of several; None otherwise."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        found = [k for value in test.values if (k := skip_divisor(value)) is not None]
        literal = [k for k in found if isinstance(k, int)]
        return max(literal) if literal else next(iter(found), None)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return period_divisor(test.operand)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotEq):
        return period_divisor(ast.Compare(left=test.left, ops=[ast.Eq()], comparators=test.comparators))
    return period_divisor(ast.UnaryOp(op=ast.Not(), operand=test))  # a bare `step % k`: true when not 0


def gate_divisor(parent: ast.AST, child: ast.AST) -> int | ast.expr | None:
    """The k where *parent*, inside a loop (or the loop itself), runs its statement *child* on 1 in k
    of the loop's passes: *child* in the body of an `if` whose test thins the passes out
    (`period_divisor`), or after an `if` of the same block that leaves the pass on all the other
    passes (`if step % k != 0: continue`, `skip_divisor`); None otherwise."""
    if isinstance(parent, ast.If) and child in parent.body and (k := period_divisor(parent.test)) is not None:
        return k
    for field in ("body", "orelse", "finalbody"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and any(s is child for s in block):
            for stmt in block[: next(i for i, s in enumerate(block) if s is child)]:
                skips = isinstance(stmt, ast.If) and not stmt.orelse and isinstance(stmt.body[-1], ast.Continue)
                if skips and (k := skip_divisor(stmt.test)) is not None:
                    return k
    return None


def _equality(test: ast.expr) -> bool:
    """`a == b`: true on one pass of a loop whose counter *a* counts up past *b*."""
    return isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)


def periodic(facts: FileFacts, node: ast.AST, cell: int | None) -> bool:
    """The node runs on some iterations only of its loop: gated by an `if` that thins the passes out
    (`gate_divisor`: in the body of `if step % display_step == 0`, `if not i % 10 or i == 1`,
    `np.mod(i, 10) == 0`, or after `if step % k != 0: continue`), between it and the innermost loop
    around it, or in the body of an `if` that reads a name that loop's
    body binds to one (`is_print_iter = it % print_iterations == 0`, then `should_print = is_print_iter
    or is_last` and `if should_print:`)."""
    child: ast.AST = node
    tests: list[ast.expr] = []
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, SCOPES):
            return False
        if gate_divisor(parent, child) is not None:
            return True
        if isinstance(parent, LOOPS):
            read = {n.id for test in tests for n in ast.walk(test) if isinstance(n, ast.Name)}
            return bool(read) and not read.isdisjoint(_periodic_names(parent.body))
        if isinstance(parent, ast.If) and child in parent.body:
            tests.append(parent.test)
        child = parent
    return False


def _periodic_names(body: list[ast.stmt]) -> set[str]:
    """The names *body* (a loop's, nested functions aside) binds, by plain assignment only, to a test
    that thins the passes out (`period_divisor`), itself or through such names (one pass over the body)."""
    assigns = [(node.targets[0].id, node.value) for stmt in body if not isinstance(stmt, SCOPES)
               for node in ast.walk(stmt)
               if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)]
    found: set[str] = set()
    grown = True
    while grown:
        grown = False
        for name, value in assigns:
            if name not in found and (period_divisor(value) is not None
                                      or any(isinstance(n, ast.Name) and n.id in found for n in ast.walk(value))):
                found.add(name)
                grown = True
    return found


def every_pass(facts: FileFacts, call: ast.AST, cell: int | None) -> bool:
    """The call (or statement) runs on every pass of the loop around it in its own function: no `if` or
    exception handler between them, but for the `else` of an `if` that thins the passes out
    (`period_divisor`: `if step % 50 == 0: <trace> else: <the step>`), which runs on all the other passes."""
    found = _passes(facts, call, cell)
    return found is not None and found[1] is None


def same_passes(facts: FileFacts, node: ast.AST, other: ast.AST, cell: int | None) -> bool:
    """*node* runs on exactly the passes of its loop on which *other* runs, as often: both on every pass
    (`every_pass`), or both in the same branch of the same `if` of that loop with no other
    condition between (`if config.dataset == 'mnist': <step>; <log>`), and in the same comprehensions
    (a step repeated k times by one, `[sess.run(train_op, fd) for _ in range(k)]`, runs more often than a
    run beside it)."""
    found = _passes(facts, node, cell)
    return found is not None and found == _passes(facts, other, cell) and list(
        map(id, comprehensions_around(facts, node, cell))
    ) == list(map(id, comprehensions_around(facts, other, cell)))


def comprehensions_around(
    facts: FileFacts, node: ast.AST, cell: int | None
) -> list[ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp]:
    """The comprehensions between *node* and the loop or scope around it, innermost first
    (`[sess.run(train_op, fd) for _ in range(k)]`): each runs it several times on one pass."""
    found: list[ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp] = []
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, (*LOOPS, *SCOPES)):
            break
        if isinstance(parent, COMPREHENSIONS):
            found.append(parent)
    return found


def _passes(facts: FileFacts, node: ast.AST, cell: int | None) -> tuple[ast.AST, tuple[ast.AST, bool] | None] | None:
    """(the loop around *node* in its own function, the innermost `if` branch between them:
    the `if` and whether its body, else None); None outside loops, or behind a conditional
    expression or an exception handler. The `else` of an `if` that thins the passes out runs on
    all the other passes: it is no branch; what follows `if step % k != 0: continue` runs on 1 pass
    in k, a branch of the block holding them (the block's owner, and False)."""
    child, branch = node, None
    for parent in facts.ancestors(node, cell):
        if branch is None and not isinstance(parent, ast.If) and gate_divisor(parent, child) is not None:
            branch = (parent, False)  # after `if step % k != 0: continue`: on 1 pass in k
        if isinstance(parent, LOOPS):
            return parent, branch
        if isinstance(parent, SCOPES) or isinstance(parent, (ast.IfExp, ast.ExceptHandler)):
            return None
        if isinstance(parent, ast.If) and branch is None:
            if not (child in parent.orelse and period_divisor(parent.test) is not None):
                branch = (parent, child in parent.body)
        child = parent
    return None


def feed(call: ast.Call) -> ast.expr | None:
    """What a TF1 graph run is fed: `sess.run(fetches, feed_dict)` or `tensor.eval(feed_dict)`, by keyword or position."""
    return argument(call, "feed_dict", 0 if isinstance(call.func, ast.Attribute) and call.func.attr == "eval" else 1)


def loop_varying(loop: Loop) -> frozenset:
    """The names a loop's iterations differ in (`flow.varying`)."""
    target = loop.target if isinstance(loop, (ast.For, ast.AsyncFor)) else ast.Tuple(elts=[], ctx=ast.Store())
    return flow.varying(target, loop.body)


def parameters(func: Function) -> list[str]:
    """Every parameter name of a function or lambda (`*args` and `**kwargs` included)."""
    args = func.args
    return [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a is not None]


def host_reads(tree: ast.AST) -> list[int]:
    """Lines of the `x.numpy()` calls in *tree*: host reads of tensors, which tracing cannot run."""
    return [
        n.lineno
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "numpy" and not n.args
    ]


def own_body(loop: ast.AST) -> Iterator[ast.AST]:
    """Nodes of a loop's body and `else`, not entering nested loops, functions or classes."""
    todo = [*getattr(loop, "body", ()), *getattr(loop, "orelse", ())]
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (*LOOPS, *SCOPES)):
            todo.extend(ast.iter_child_nodes(node))


def last_bindings(scope: ast.AST | None, line: int) -> dict[str, ast.Assign | None]:
    """Each name the scope (a function, a module; None: none) binds on a line before *line*, not
    entering nested functions or classes, with its last binding there: a plain assignment
    `name = ...`, or None where another kind (a loop variable, an augmented assignment, an
    unpacking) comes last."""
    stores: list[ast.Name] = []
    plain: dict[ast.Name, ast.Assign] = {}
    todo = list(ast.iter_child_nodes(scope)) if scope is not None else []
    while todo:
        node = todo.pop()
        if isinstance(node, SCOPES):
            continue
        todo.extend(ast.iter_child_nodes(node))
        if isinstance(node, ast.Assign):  # walked before its targets
            plain.update((target, node) for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.lineno < line:
            stores.append(node)
    return {name.id: plain.get(name) for name in sorted(stores, key=lambda n: (n.lineno, n.col_offset))}


def environment_step(facts: FileFacts, call: ast.Call, cell: int | None) -> bool:
    """The call steps a reinforcement-learning environment: a `.step(...)` whose result is unpacked
    into gym's four or gymnasium's five values (`obs, reward, done, info = env.step(action)`)."""
    parent = facts.parent(call, cell)
    return (
        isinstance(call.func, ast.Attribute)
        and call.func.attr == "step"
        and isinstance(parent, ast.Assign)
        and len(parent.targets) == 1
        and isinstance(parent.targets[0], ast.Tuple)
        and len(parent.targets[0].elts) in STEP_RESULTS
    )


def target_binds(target: ast.expr, name: str) -> bool:
    """Whether an assignment, loop or `with` target binds *name*: the name itself, or a tuple,
    starred, subscript or attribute target that holds it (`a, x = ...`, `x[i] = ...`)."""
    if type(target) is ast.Name:
        return target.id == name
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(target))


def int_literal(node: ast.AST | None, value: int) -> bool:
    """The node is the integer literal *value* (not a bool)."""
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == value


def scope_body(node: ast.AST) -> Iterator[ast.AST]:
    """Every node of a function's or loop's body, nested loops included, not entering the
    functions, lambdas or classes it defines (a lambda's body is one expression)."""
    body = getattr(node, "body", ())
    return block_nodes([body] if isinstance(body, ast.AST) else body)


def own_yields(function: ast.AST) -> Iterator[ast.Yield | ast.YieldFrom]:
    """The `yield`s of a function's own body (not of the functions, lambdas or classes it defines):
    the function is a generator where it has one (`any(own_yields(f))`)."""
    return (n for n in scope_body(function) if isinstance(n, (ast.Yield, ast.YieldFrom)))


def block_nodes(block: Iterable[ast.AST]) -> Iterator[ast.AST]:
    """Every node of a block of statements, nested blocks included, not entering the functions,
    lambdas or classes it defines (those are yielded)."""
    todo = list(block)
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, SCOPES):
            todo.extend(ast.iter_child_nodes(node))


def statement_blocks(node: ast.AST) -> Iterator[list[ast.stmt]]:
    """The statement lists of a compound statement (a body, an `else`, a `finally`, a handler's)."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(node, field, None)
        if isinstance(block, list):
            yield block
    for handler in getattr(node, "handlers", ()):
        yield handler.body


def unguarded_body(loop: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a loop's body that run on every pass: not under an `if` (or a conditional
    expression), not in a nested loop, function or class (those nodes themselves are yielded,
    not entered)."""
    todo = [*getattr(loop, "body", ())]
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.If, ast.IfExp, *LOOPS, *SCOPES)):
            todo.extend(ast.iter_child_nodes(node))


def simple_bindings(loop: ast.AST) -> dict[str, ast.expr]:
    """`name: value` of the plain `name = value` statements of a loop's own body (one value a name)."""
    return {
        node.targets[0].id: node.value
        for node in own_body(loop)
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
    }


def is_step_loop(loop: ast.AST | None) -> bool:
    """A loop whose own body (not a nested loop's) runs a training step (`apply_gradients`,
    `minimize`, `train_on_batch`)."""
    if loop is None:
        return False
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in STEP_METHODS
        for n in own_body(loop)
    )


def trains(facts: FileFacts, loop: ast.AST | None, cell: int | None) -> bool:
    """A loop whose own body runs a training step: a step method (`is_step_loop`), or a call the
    analysis found to be one training step (`work["step"]` "training": a TF1 `Session.run` that
    fetches the optimizer's update, a `tf.function` whose traced body trains a model)."""
    if loop is None:
        return False
    if is_step_loop(loop):
        return True
    for node in own_body(loop):
        site = facts.site_at(node, cell) if isinstance(node, ast.Call) else None
        if site is not None and site.work_value("step") == "training":
            return True
    return False


def leaves(loop: ast.AST) -> bool:
    """Something in the loop leaves it (`exits`)."""
    return next(exits(loop), None) is not None


def exits(loop: ast.AST) -> Iterator[ast.AST]:
    """What in the loop leaves it: its own `break` (not a nested loop's), a `return`, a `raise`,
    a `yield`, or a call that ends the program."""
    for node in scope_body(loop):
        if isinstance(node, (ast.Return, ast.Raise, ast.Yield, ast.YieldFrom)):
            yield node
        if isinstance(node, ast.Call) and last_name(node.func) in EXITS:
            yield node
    todo = list(getattr(loop, "body", ()))
    while todo:  # its own breaks: not those of a nested loop
        node = todo.pop()
        if isinstance(node, ast.Break):
            yield node
        if not isinstance(node, (*LOOPS, *SCOPES)):
            todo.extend(ast.iter_child_nodes(node))


#: Functions that read a clock (`time.perf_counter()`, `timeit.default_timer()`, `timeit.timeit`).
TIMERS = frozenset(
    {
        "time",
        "time_ns",
        "perf_counter",
        "perf_counter_ns",
        "monotonic",
        "monotonic_ns",
        "process_time",
        "default_timer",
        "timeit",
    }
)


def times_each_call(loop: ast.AST, call: ast.AST) -> bool:
    """The loop times *call* on each pass: a statement of the loop's body before the call's and
    one after it read a clock (`start = time.time()`, the call, `elapsed = time.time() - start`),
    as a latency measurement does, whose point is one item per call."""
    body = getattr(loop, "body", ())
    where = next((i for i, statement in enumerate(body) if any(n is call for n in ast.walk(statement))), None)
    if where is None:
        return False

    def reads_clock(statement: ast.stmt) -> bool:
        return any(
            isinstance(n, ast.Call) and last_name(n.func) in TIMERS and isinstance(n.func, ast.Attribute)
            for n in ast.walk(statement)
        )

    return any(reads_clock(s) for s in body[:where]) and any(reads_clock(s) for s in body[where:])


def streams_items(loop: ast.AST) -> bool:
    """The loop takes its items as they arrive on standard input (`for line in sys.stdin:`): none
    exists before the one the loop is at, so none can be batched or uploaded ahead."""
    iterable = getattr(loop, "iter", None)
    return iterable is not None and ast.unparse(iterable) in ("sys.stdin", "fileinput.input()")


def stored_frames(facts: FileFacts, loop: ast.AST, cell: int | None) -> frozenset:
    """The names a `while` loop binds on every pass from the next frame of a stored video (`ok, frame =
    capture.read()`, `capture` last bound before the loop to `cv2.VideoCapture(path)`): its frames all
    exist before the loop, as a list's items do, so they can wait to be stacked. Empty for a camera,
    opened on an index (`VideoCapture(0)`, `int(args.camera)`, a name last bound to an int), and for
    any other loop."""
    if not isinstance(loop, ast.While):
        return frozenset()
    bound = last_bindings(enclosing(facts, loop, cell), loop.lineno)
    found: frozenset = frozenset()
    for node in unguarded_body(loop):
        if not (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr == "read"
            and isinstance(node.value.func.value, ast.Name)
        ):
            continue
        opened = bound.get(node.value.func.value.id)
        if opened is not None and _opens_stored_video(opened.value, bound):
            found = found.union(*(flow.targets(t) for t in node.targets))
    return found


def _opens_stored_video(value: ast.expr, bound: dict[str, ast.Assign | None]) -> bool:
    """`cv2.VideoCapture(source)` given a source that is not a camera's index: an int literal, an
    `int(...)`, or a name last bound to either."""
    if not (isinstance(value, ast.Call) and last_name(value.func) == "VideoCapture" and value.args):
        return False
    source = value.args[0]
    if isinstance(source, ast.Name) and (assigned := bound.get(source.id)) is not None:
        source = assigned.value
    return not (
        (isinstance(source, ast.Constant) and type(source.value) is int)
        or (isinstance(source, ast.Call) and last_name(source.func) == "int")
    )


def waits_for_user(loop: ast.AST) -> bool:
    """The loop's body blocks on a person each time: `input()`, a window shown until closed
    (`plt.show()`), or `cv2.waitKey()` with no delay or a delay of 0 (until a key is pressed);
    not under an `if` (`if visualize:` shows the items only when asked). A loop over standard
    input's lines waits for each too (`streams_items`)."""
    return streams_items(loop) or any(isinstance(n, ast.Call) and blocks_on_user(n) for n in unguarded_body(loop))


def blocks_on_user(call: ast.Call) -> bool:
    """The call waits for a person: `input()`, `plt.show()`, or `cv2.waitKey()` with no delay or a
    delay of 0."""
    name = last_name(call.func)
    if (
        name == "input"
        and isinstance(call.func, ast.Name)
        or name == "show"
        and last_name(getattr(call.func, "value", None) or call.func) in ("plt", "pyplot")
    ):
        return True
    if name == "waitKey":
        delay = argument(call, "delay", 0)
        return not binds(call, "delay", 0) or isinstance(delay, ast.Constant) and delay.value == 0
    return False


def shows_each_pass(loop: ast.AST, guarded: bool = False) -> bool:
    """The loop shows each pass's result to a person: `cv2.imshow` on every pass (a live window a
    webcam or video demo redraws per frame; with *guarded*, also under an `if`, such as a frame
    read's `if ok:`), or it waits for the person (`waits_for_user`). Its point is one item per pass,
    shown as it comes: items cannot wait to be batched with later ones."""
    return waits_for_user(loop) or any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "imshow"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "cv2"
        for node in (own_body(loop) if guarded else unguarded_body(loop))
    )


def in_class(facts: FileFacts, site: Site) -> bool:
    """Whether the call is written inside a class (its body or one of its methods)."""
    node = facts.node(site)
    return node is not None and any(isinstance(a, ast.ClassDef) for a in facts.ancestors(node, site.callsite.span.cell))


def in_unguarded_step_loop(facts: FileFacts, site: Site) -> bool:
    """The call runs on every iteration of a training-step loop: one whose step repeats on the
    same optimizer or model, not a loop over settings that makes a new one each time (`for dtype
    in dtypes: opt = SGD(); opt.apply_gradients(...)`)."""
    loop, guarded = innermost_loop(facts, site)
    return not guarded and is_step_loop(loop) and _steps_repeat(loop)


def _steps_repeat(loop: ast.AST) -> bool:
    """Some training step of the loop's own body is called on an object the loop does not
    change (flow.varying)."""
    changed = flow.varying(getattr(loop, "target", None), loop.body)
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in STEP_METHODS
        and not flow.names(n.func.value) & changed
        for n in own_body(loop)
    )


def chain_top(facts: FileFacts, node: ast.expr, cell: int | None) -> ast.expr:
    """The whole method chain `node` starts: `ds.batch(8)` in `ds.batch(8).map(f)` gives all of it."""
    while True:
        attribute = facts.parent(node, cell)
        call = facts.parent(attribute, cell) if isinstance(attribute, ast.Attribute) else None
        if not (isinstance(call, ast.Call) and call.func is attribute):
            return node
        node = call


def bound_name(facts: FileFacts, call: ast.Call, cell: int | None) -> str | None:
    """The name a call's result is bound to (`merged = tf.summary.merge_all()`, `with tf.GradientTape() as tape`), or None."""
    parent = facts.parent(call, cell)
    if isinstance(parent, ast.withitem) and isinstance(parent.optional_vars, ast.Name):
        return parent.optional_vars.id
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        return parent.targets[0].id
    return None


def chain_methods(chain: ast.expr, stop: ast.AST | None = None) -> tuple[list[ast.Call], ast.expr]:
    """The method calls of *chain* (`ds.map(f).batch(32)`), last first, down to *stop* or a receiver
    that is no method call, and that receiver."""
    methods: list[ast.Call] = []
    while isinstance(chain, ast.Call) and isinstance(chain.func, ast.Attribute) and chain is not stop:
        methods.append(chain)
        chain = chain.func.value
    return methods, chain


def chain_calls(chain: ast.expr, method: str) -> bool:
    """Whether a method chain calls *method* (`.take(...)`: a look at a few elements; `.cache()`)."""
    return any(call.func.attr == method for call in chain_methods(chain)[0])  # type: ignore[attr-defined]


def takes(expr: ast.expr) -> bool:
    """Whether a method chain has a `.take(...)`: a look at a few elements."""
    return chain_calls(expr, "take")


def only_looked_at(facts: FileFacts, call: ast.Call, cell: int | None) -> bool:
    """The dataset a pipeline call makes is only looked at: its chain ends in `.take(n)`, or it is
    bound to a name every read of which, until the name is bound again (in its function, or in the
    later cells of a notebook), is a chain with a `.take(n)` (`for line in ds.take(5): print(line)`),
    and there is one such read."""
    top = chain_top(facts, call, cell)
    if takes(top):
        return True
    name = bound_name(facts, top, cell) if isinstance(top, ast.Call) else None
    if name is None:
        return False
    bound = (cell or 0, top.lineno, top.col_offset)
    reads = [takes(chain_top(facts, node, unit_cell)) for unit_cell, node in uses_until_rebound(facts, top, cell, name, bound)]
    return bool(reads) and all(reads)


def scope_of(facts: FileFacts, node: ast.AST, cell: int | None) -> ast.AST | None:
    """The function, lambda, class or module (a notebook cell's) *node* is in."""
    return next((a for a in facts.ancestors(node, cell) if isinstance(a, SCOPES)), None)


def uses_until_rebound(
    facts: FileFacts, node: ast.AST, cell: int | None, name: str, after: tuple[int, int, int]
) -> list[tuple[int | None, ast.Name]]:
    """The reads of *name* in *node*'s scope after the position *after* (cell, line, column), in
    order, up to the next binding of it there: a module's names in the later cells of a notebook
    too, never a function's own."""
    scope = scope_of(facts, node, cell)
    if scope is None:
        return []
    module = isinstance(scope, ast.Module)
    names = ((c, facts.nodes(c, ast.Name)) for c, _ in cell_units(facts)) if module else [(cell, ast.walk(scope))]
    found = sorted(
        ((unit_cell or 0, n.lineno, n.col_offset), unit_cell, n)
        for unit_cell, nodes in names
        for n in nodes
        if isinstance(n, ast.Name) and n.id == name
        and (scope_of(facts, n, unit_cell) is scope or module and isinstance(scope_of(facts, n, unit_cell), ast.Module))
    )
    reads = []
    for position, unit_cell, n in found:
        if position <= after:
            continue
        if not isinstance(n.ctx, ast.Load):
            break
        reads.append((unit_cell, n))
    return reads


def bound_between(
    facts: FileFacts, call: ast.Call, other: ast.Call, given: tuple[ast.expr | None, ...], cell: int | None
) -> bool:
    """A name the expressions *given* read is bound (or an item or attribute of it set) in *call*'s
    scope from the line of the first of the two nodes up to the line before the second: the second
    reads other values (the next batch, a state the first run returned)."""
    read = {n.id for e in given if e is not None for n in ast.walk(e) if isinstance(n, ast.Name)}
    first, last = sorted((call.lineno, other.lineno))
    scope = scope_of(facts, call, cell)
    for node in ast.walk(scope) if scope is not None else ():
        if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)) and isinstance(node.ctx, ast.Store):
            root: ast.expr = node
            while isinstance(root, (ast.Attribute, ast.Subscript)):
                root = root.value
            if isinstance(root, ast.Name) and root.id in read and first <= node.lineno < last:
                return True
    return False


def map_function(call: ast.Call) -> ast.expr | None:
    """The function a `Dataset.map(...)` call is given (first argument or `map_func=`)."""
    return argument(call, "map_func", 0)


def definitions(facts: FileFacts, expr: ast.expr | None, cell: int | None) -> list[Function]:
    """The lambda, or this file's functions and methods named like *expr* (`f`, `self.f`)."""
    return [function for function, _ in located_definitions(facts, expr, cell)]


def located_definitions(facts: FileFacts, expr: ast.expr | None, cell: int | None) -> list[tuple[Function, int | None]]:
    """`definitions`, each with the cell it is written in (a notebook's function may be in an
    earlier cell than *expr*, a lambda is in *cell*)."""
    if isinstance(expr, ast.Lambda):
        return [(expr, cell)]
    name = expr.id if isinstance(expr, ast.Name) else expr.attr if isinstance(expr, ast.Attribute) else None
    if name is None:
        return []
    return [(function, unit) for unit, function in facts.functions_named(name)]


def calls_of(
    facts: FileFacts, function: ast.FunctionDef | ast.AsyncFunctionDef, cell: int | None
) -> list[tuple[int | None, ast.Call]]:
    """The calls the file (every cell of a notebook) makes of *function*, with their cells: `f(...)`
    for a function, `self.f(...)` for a method (*cell*: the one *function* is written in)."""
    method_of = isinstance(facts.parent(function, cell), ast.ClassDef)
    found = []
    for unit_cell, _ in cell_units(facts):
        for node in facts.calls_named(unit_cell, function.name):
            func = node.func  # named *function*'s name: `self.<name>` for a method, `<name>` for a function
            if (
                isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"
                if method_of
                else isinstance(func, ast.Name)
            ):
                found.append((unit_cell, node))
    return found


def instance_calls(
    facts: FileFacts, function: ast.FunctionDef | ast.AsyncFunctionDef, cell: int | None
) -> list[tuple[int | None, ast.Call]]:
    """The calls `obj.f(...)` the file makes of a method *function* through an instance of its
    class: `obj` a name the file binds to a call of that class (`q = Estimator()`), and binds to
    nothing else; a parameter of that name counts as the instance passed (`train(q=q)`)."""
    owner = facts.parent(function, cell)
    if not isinstance(owner, ast.ClassDef):
        return []
    made: dict[str, bool] = {}  # name -> bound to a call of the class only
    for unit_cell, _ in cell_units(facts):
        for node in facts.nodes(unit_cell, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    built = isinstance(node.value, ast.Call) and last_name(node.value.func) == owner.name
                    made[target.id] = made.get(target.id, True) and built
    names = {name for name, only in made.items() if only}
    return [
        (unit_cell, node)
        for unit_cell, _ in cell_units(facts)
        for node in facts.calls_named(unit_cell, function.name)
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and node.func.value.id in names
    ]


def is_method(facts: FileFacts, function: ast.FunctionDef | ast.AsyncFunctionDef, cell: int | None) -> bool:
    """Defined in a class body and not a staticmethod: its first parameter is the receiver."""
    decorated = {last_name(d) for d in function.decorator_list}
    return isinstance(facts.parent(function, cell), ast.ClassDef) and "staticmethod" not in decorated


def positional_parameters(
    facts: FileFacts, function: ast.FunctionDef | ast.AsyncFunctionDef, cell: int | None
) -> list[str]:
    """The parameters a call's positional arguments bind, in order (a method's receiver left out)."""
    args = function.args
    names = [a.arg for a in (*args.posonlyargs, *args.args)]
    return names[1:] if is_method(facts, function, cell) and names else names


def calls_by_name(facts: FileFacts, name: str, method: bool) -> Iterator[tuple[int | None, ast.Call]]:
    """Calls in the file naming a function: `name(...)`, or `obj.name(...)` for a *method*."""
    for cell, _ in cell_units(facts):
        for call in facts.calls_named(cell, name):  # the file's calls indexed by the name they end in
            func = call.func
            if method and isinstance(func, ast.Attribute) and func.attr == name:
                yield cell, call
            elif not method and isinstance(func, ast.Name) and func.id == name:
                yield cell, call


def uncalled(facts: FileFacts, name: str, method: bool) -> bool:
    """The file neither calls a function (or a class) named *name* (`calls_by_name`) nor names it
    otherwise: passed on as a value (`app.run(main)`, `Thread(target=train)`, a base class), or
    for a *method* read as an attribute (`callbacks=[self.on_end]`). A library's API, then."""
    if next(iter(calls_by_name(facts, name, method)), None) is not None:
        return False
    kinds: tuple[type[ast.expr], ...] = (ast.Attribute,) if method else (ast.Name,)
    for cell, _ in cell_units(facts):
        for node in facts.nodes(cell, *kinds):
            if method and isinstance(node, ast.Attribute) and node.attr == name:
                return False
            if not method and isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
                return False
    return True


def units(facts: FileFacts) -> list[ast.Module]:
    """The file's tree, or each notebook cell's, in order."""
    return [module for _, module in cell_units(facts)]


def cell_units(facts: FileFacts) -> list[tuple[int | None, ast.Module]]:
    """The file's tree with cell None, or each notebook cell's tree with its 1-based cell number,
    in order (a unit that does not parse left out)."""
    found = facts.once("cell_units", lambda: [(c, tree) for c in facts.cells if (tree := facts.module(c)) is not None])
    return list(found)  # a copy: the caller's to change


#: A pipeline of at most this many elements, known from its source, gains nothing worth a finding
#: from running its per-element work in parallel (a one-element `from_tensors`, a `range(30)` demo).
FEW_ELEMENTS = 32


def few_elements(site: Site) -> bool:
    """Whether the pipeline a `map`/`interleave` works on is known to hold at most `FEW_ELEMENTS`
    (the resolver's `pipeline_elements`, followed through the pipeline's names and steps)."""
    count = site.features.get("pipeline_elements")
    return count is not None and count <= FEW_ELEMENTS


#: Calls whose result has as many items as their third argument (`num`): `np.linspace(0, 1, 10)`.
COUNTED_SEQUENCES = frozenset({"linspace", "logspace", "geomspace"})


def literal_trips(loop: ast.AST) -> int | None:
    """How many times a `for` loop runs, where its iterable says so in literals: `range(10)`,
    `range(2, 12)`, a list or tuple display, `np.linspace(0, 1, 10)`, any of them numbered by
    `enumerate()`; None otherwise (a `while`, a name, a step, a `*` item)."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return None
    it = loop.iter
    if isinstance(it, ast.Call) and last_name(it.func) == "enumerate" and len(it.args) == 1 and not it.keywords:
        it = it.args[0]
    if isinstance(it, (ast.List, ast.Tuple)):
        return None if any(isinstance(e, ast.Starred) for e in it.elts) else len(it.elts)
    if not isinstance(it, ast.Call) or any(isinstance(a, ast.Starred) for a in it.args):
        return None
    name = last_name(it.func)
    if name == "range" and 1 <= len(it.args) <= 2 and not it.keywords:
        bounds = [a.value for a in it.args if isinstance(a, ast.Constant) and type(a.value) is int]
        return max(bounds[-1] - (bounds[0] if len(bounds) == 2 else 0), 0) if len(bounds) == len(it.args) else None
    if name in COUNTED_SEQUENCES:
        num = argument(it, "num", 2)
        return num.value if isinstance(num, ast.Constant) and type(num.value) is int else None
    return None


#: Python's counting loops: `range`, and Python 2's lazy `xrange` (also six's).
RANGES = ("range", "xrange")


def range_header(facts: FileFacts, iterable: ast.expr, cell: int | None) -> ast.Call | None:
    """The call whose positional arguments are the bounds a `for` loop's *iterable* counts
    through: `range(n)` (or `xrange`), seen through a progress bar as the file imports it
    (analysis/progress.py): `tqdm(range(n))` gives its `range(n)`, `trange(n, desc=...)` is
    itself one; None for another iterable."""
    if not isinstance(iterable, ast.Call):
        return None
    if isinstance(iterable.func, ast.Name) and iterable.func.id in RANGES:
        return iterable
    bar = facts.imported_path(iterable.func, cell) if isinstance(iterable.func, (ast.Name, ast.Attribute)) else None
    if bar in progress.WRAPPERS and iterable.args:
        return range_header(facts, iterable.args[0], cell)
    return iterable if bar in progress.RANGES else None


#: Names for a new leading axis in an index (`x[None]`, `x[np.newaxis, ...]`).
NEW_AXIS = ("newaxis",)


def batch_of_one(expr: ast.expr) -> bool:
    """`expand_dims(x, 0)`, `x[None]`/`x[np.newaxis, ...]`, `x[i:i + 1]`, `np.array([x])`, a
    reshape to a leading 1."""
    if isinstance(expr, ast.Subscript):
        index = expr.slice.elts[0] if isinstance(expr.slice, ast.Tuple) and expr.slice.elts else expr.slice
        if (isinstance(index, ast.Constant) and index.value is None) or last_name(index) in NEW_AXIS:
            return True
        return isinstance(index, ast.Slice) and _one_apart(index.lower, index.upper)
    if not isinstance(expr, ast.Call):
        return False
    name = last_name(expr.func)
    if name == "expand_dims":
        value = argument(expr, "axis", 1)
        return isinstance(value, ast.Constant) and value.value == 0 and type(value.value) is int
    if name in ("array", "asarray", "stack", "convert_to_tensor", "constant") and expr.args:
        first = expr.args[0]
        return (
            isinstance(first, (ast.List, ast.Tuple))
            and len(first.elts) == 1
            and not isinstance(first.elts[0], ast.Starred)
        )
    if name == "reshape":
        shape = (
            expr.args[1:]
            if isinstance(expr.func, ast.Attribute) and last_name(expr.func.value) in ("np", "numpy", "tf")
            else expr.args
        )
        lead = (
            shape[0].elts[0]
            if shape and isinstance(shape[0], (ast.Tuple, ast.List)) and shape[0].elts
            else shape[0]
            if shape
            else None
        )
        return isinstance(lead, ast.Constant) and lead.value == 1 and type(lead.value) is int
    return False


def _one_apart(lower: ast.expr | None, upper: ast.expr | None) -> bool:
    """`i:i + 1` (or `:1` from the start)."""
    if upper is None:
        return False
    if lower is None:
        return isinstance(upper, ast.Constant) and upper.value == 1
    return (
        isinstance(upper, ast.BinOp)
        and isinstance(upper.op, ast.Add)
        and isinstance(upper.right, ast.Constant)
        and upper.right.value == 1
        and ast.dump(upper.left) == ast.dump(lower)
    )
