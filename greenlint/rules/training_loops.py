"""Training loops of a fixed length that measure the model's progress and never stop on it: a
`for ... in range(N)` whose body trains (directly, in nested loops or in the file's functions it
calls) and also learns how well the model does (an environment's reward, an evaluation on other
data, a TF1 graph run on held-out data, a comparison that keeps the best weights), with nothing in it that ends the loop early, or only ways out
that the program's defaults switch off (`rules/dead_tests.py`)."""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from greenlint.rules.base import FileFacts, argument, keyword
from greenlint.rules.dead_tests import DeadTest, dead_ways
from greenlint.rules.defaults import default_value, known_value
from greenlint.rules.deliberate import in_test
from greenlint.rules.epoch_passes import KEEPS
from greenlint.rules.generator_epochs import generator_epochs
from greenlint.rules.site import Site, is_keras_model_method, method
from greenlint.rules.syntax import (
    EXITS,
    STEP_METHODS,
    cell_units,
    environment_step,
    feed,
    is_training_step,
    last_bindings,
    last_name,
    leaves,
    loop_varying,
    own_body,
    own_loops,
    range_header,
    scope_body,
    scope_of,
)

#: Keras methods that score the model on data other than the batch it trains on.
EVALUATES = ("evaluate", "evaluate_generator", "test_on_batch")
#: The comparisons that tell a better pass from a worse (`hr > best_hr`).
ORDERS = (ast.Gt, ast.GtE, ast.Lt, ast.LtE)
#: A TensorFlow checkpoint's saves, which write the model's weights.
CHECKPOINT_SAVES = frozenset({
    "tensorflow.train.Checkpoint.save", "tensorflow.train.CheckpointManager.save", "tensorflow.compat.v1.train.Saver.save",
})
#: `tf.data` methods whose dataset holds elements of the one they are called on (all, or the first few).
SUBSETS = KEEPS | {"take"}
#: A Keras model's forward passes.
FORWARD = ("__call__", "predict", "predict_on_batch")
#: Keras' losses and metrics: what a validation pass computes on the data it runs the model on.
MEASURES = ("tensorflow.keras.losses.", "tensorflow.keras.metrics.")
#: Calls that make a new Keras model.
BUILDS = frozenset({"Sequential", "Model", "load_model", "clone_model"})


@dataclass(frozen=True)
class TrainingLoop:
    """A fixed-length training loop with a measure of progress and no way out."""

    loop: ast.For
    cell: int | None
    passes: int
    #: Where the pass count comes from, to follow it in a message (" (`EPISODES` = 1000)"; "" as written).
    basis: str
    #: What measures the model's progress in it, for the message.
    progress: str
    #: The test its only ways out wait on, false with the program's defaults; None: it has no way out.
    dead: DeadTest | None = None
    #: What it counts: its own passes, or the epochs of the batch generator it runs over.
    unit: str = "passes"


def fixed_training_loops(facts: FileFacts, minimum: int) -> list[TrainingLoop]:
    """Such loops of the file that run at least *minimum* passes with the program's defaults,
    in source order. A loop nested in another of its function is judged only under a loop
    known to make fewer passes (`for seed in range(3)`): the outer loop holds the stopping
    decision otherwise (the episodes around an episode's steps)."""
    if not any(is_training_step(s) for s in facts.sites) or "for " not in facts.text:
        return []  # the cheap tests first: most files are never indexed (a generator's epochs may be elsewhere)
    found = []
    for cell, _ in cell_units(facts):
        for node in facts.nodes(cell, ast.For):  # the file's one walk, shared
            if in_test(facts, node, cell):
                continue
            passes, basis, unit = _passes(facts, node, cell)
            if passes is None or passes < minimum or _decided_outside(facts, node, cell, minimum):
                continue
            dead = dead_ways(facts, node, cell)
            judged = _judge(facts, node, cell) if dead is not None else None
            if judged is not None:
                found.append(TrainingLoop(node, cell, passes, basis, judged, dead[0] if dead else None, unit))
    return sorted(found, key=lambda t: (t.cell or 0, t.loop.lineno))


def _decided_outside(facts: FileFacts, loop: ast.For, cell: int | None, minimum: int) -> bool:
    """A loop of its function around this one has a way out, an unknown length or at least
    *minimum* passes."""
    for outer in own_loops(facts, loop, cell):
        passes = _passes(facts, outer, cell)[0] if isinstance(outer, ast.For) else None
        if leaves(outer) or passes is None or passes >= minimum:
            return True
    return False


def _passes(facts: FileFacts, loop: ast.For, cell: int | None) -> tuple[int | None, str, str]:
    """How many passes `for ... in range(stop)` (or `range(start, stop)`, maybe through a progress
    bar: `tqdm(range(stop))`, `trange(stop)`) makes with the program's defaults, or how many epochs
    the batch generator it runs over makes (`generator_epochs`), where that comes from and what is
    counted; None when not known."""
    taken = _taken(facts, loop.iter, cell)
    if taken is not None:
        return (*taken, "steps")
    call = range_header(facts, loop.iter, cell)
    if call is None or not 1 <= len(call.args) <= 2 or any(isinstance(a, ast.Starred) for a in call.args):
        epochs = generator_epochs(facts, loop, cell)
        if epochs is None:
            return None, "", ""
        return epochs.epochs, epochs.basis, f"epochs of `{epochs.generator}()`'s batches"
    stop, basis = known_value(facts, call.args[-1], cell, least=True)
    start = (
        call.args[0].value
        if len(call.args) == 2 and isinstance(call.args[0], ast.Constant)
        else 0
        if len(call.args) == 1
        else None
    )
    if not (isinstance(stop, int) and isinstance(start, int)) or isinstance(stop, bool):
        return (*_counted(facts, loop, cell), "passes")
    return stop - start, basis, "passes"


def _taken(facts: FileFacts, call: ast.expr, cell: int | None) -> tuple[int, str] | None:
    """The steps of `for batch in dataset.take(n)` (maybe numbered by `enumerate()`) with the
    program's defaults (the least every caller passes where they differ), and where that comes from;
    `take(steps - done)`, the steps a run resumed from a checkpoint has left, makes `steps` on a
    fresh run. None for another loop or an unknown count."""
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "enumerate" and call.args:
        call = call.args[0]
    if not (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "take"
        and len(call.args) == 1
        and not call.keywords
    ):
        return None
    count = call.args[0]
    resumed = isinstance(count, ast.BinOp) and isinstance(count.op, ast.Sub)
    value, basis = known_value(facts, count.left if isinstance(count, ast.BinOp) and resumed else count, cell, least=True)
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    if not resumed:
        return value, basis
    note = "on a fresh run: one resumed from a checkpoint runs what is left"
    return value, f"{basis[:-1]}; {note})" if basis else f" ({note})"


def _counted(facts: FileFacts, loop: ast.For, cell: int | None) -> tuple[int | None, str]:
    """The passes the analysis counts for a loop at the top level of a file or cell, in order as
    the program (a notebook, top to bottom) runs: the exact loop count of a call in its own body
    that no other loop holds (`for epoch in range(n_epochs)` where cells bind `n_epochs` to 40,
    then to 20 after it); None when there is none."""
    if any(
        isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))
        for a in facts.ancestors(loop, cell)
    ):
        return None, ""
    for node in own_body(loop):
        site = facts.site_at(node, cell) if isinstance(node, ast.Call) else None
        if site is not None and site.features.get("loop_depth") == 1 and site.runs_bound == "exact":
            runs = site.loop_runs
            if isinstance(runs, int) and runs > 1:
                return runs, f" (`{ast.unparse(loop.iter)}`, as the program runs in order)"
    return None, ""


def _reached(facts: FileFacts, loop: ast.For, cell: int | None) -> Iterator[tuple[ast.AST, int | None]]:
    """Every node the loop's body runs: its own (nested loops included), then those of the
    file's functions it calls by name, and the functions they call, each once, nearest first."""
    todo: deque[tuple[ast.AST, int | None]] = deque([(loop, cell)])
    seen: set[str] = set()
    while todo:
        root, at = todo.popleft()
        for node in scope_body(root):
            yield node, at
            if isinstance(node, ast.Call):
                name = last_name(node.func)
                if name not in seen:
                    seen.add(name)
                    todo.extend((function, at_cell) for at_cell, function in facts.functions_named(name))


def _judge(facts: FileFacts, loop: ast.For, cell: int | None) -> str | None:
    """What measures progress in a loop that trains and whose ways out (if any) the defaults switch
    off; None for any other loop."""
    trains, progress = False, None
    for node, at in _reached(facts, loop, cell):
        if isinstance(node, ast.Attribute) and node.attr == "stop_training":
            return None  # a Keras callback's flag read or set: it may end the loop
        if not isinstance(node, ast.Call):
            continue
        name = last_name(node.func)
        if name in EXITS:
            return None
        site = facts.site_at(node, at)
        if site is not None and method(site.api) in BUILDS:
            return None  # a new model each pass (a search, a cross-validation): no one training to stop
        listed = site or facts.listed_at(node, at)  # `model.train(lr)`: a helper's session run
        trains = trains or name in STEP_METHODS or (listed is not None and is_training_step(listed))
        progress = progress or _measures(facts, node, at, site)
    if trains and progress is None:
        progress = _held_out_run(facts, loop, cell) or _best_kept(facts, loop, cell)
    return progress if trains else None


def _best_kept(facts: FileFacts, loop: ast.For, cell: int | None) -> str | None:
    """A comparison in the loop's own body that guards a save of the model's weights (`if hr > best_hr:
    ... model.save_weights(...)`), or a skip of the save that follows it and takes the measure as the
    new best (`if psnr <= ckpt.psnr: continue`, then `ckpt.psnr = psnr` and a checkpoint's
    `save()`; the skip's other conditions not false with the program's defaults): the loop
    measures the model and keeps its best pass, the bookkeeping of early stopping without the
    stop; None where there is none. A skip must update the best: one on another comparison
    (`if epoch < warmup: continue`) keeps no best."""
    for node in scope_body(loop):
        if not isinstance(node, ast.If):
            continue
        compare = _ordering(facts, node.test, cell)
        if compare is None or _training_loss(facts, loop, compare, cell):
            continue
        if any(_saves(facts, n, cell) for statement in node.body for n in ast.walk(statement)):
            return f"`{ast.unparse(compare)}`, which keeps the best weights"
        after = _following(facts, node, cell)
        if isinstance(node.body[-1], ast.Continue) and _updates_best(after, compare) and any(
            _saves(facts, n, cell) for statement in after for n in ast.walk(statement)
        ):
            return f"`{ast.unparse(compare)}`, which keeps the best checkpoint"
    return None


def _training_loss(facts: FileFacts, loop: ast.For, compare: ast.Compare, cell: int | None) -> bool:
    """A side of the comparison is what a training step of the loop returns (`g_loss = train_step(x)`,
    a step of the file's that trains, or a Keras `train_on_batch`): the loss on the batch just trained
    on, which keeps falling after the model stops generalising, so a best kept by it measures no progress."""
    compared = {n.id for side in (compare.left, *compare.comparators) for n in ast.walk(side) if isinstance(n, ast.Name)}
    for node in scope_body(loop):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        bound = {n.id for target in node.targets for n in ast.walk(target) if isinstance(n, ast.Name)}
        if bound & compared and _steps(facts, node.value, cell):
            return True
    return False


def _steps(facts: FileFacts, call: ast.Call, cell: int | None) -> bool:
    """The call runs a training step: itself (`apply_gradients`, `train_on_batch`, a training run or
    `tf.function`), or a function of the file of its name that makes one."""
    def trains(node: ast.AST, at: int | None) -> bool:
        site = facts.site_at(node, at) if isinstance(node, ast.Call) else None
        return isinstance(node, ast.Call) and (
            last_name(node.func) in STEP_METHODS or (site is not None and is_training_step(site))
        )

    return trains(call, cell) or any(
        trains(node, at) for at, function in facts.functions_named(last_name(call.func)) for node in scope_body(function)
    )


def _ordering(facts: FileFacts, test: ast.expr, cell: int | None) -> ast.Compare | None:
    """The ordering comparison a test makes (`hr > best_hr`), alone or beside conditions of an `and` that
    the program's defaults do not make false (`save_best_only and psnr <= best`)."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    compares = [p for p in parts if isinstance(p, ast.Compare) and all(isinstance(op, ORDERS) for op in p.ops)]
    if len(compares) != 1:
        return None
    for part in parts:
        held = default_value(facts, part, cell) if isinstance(part, (ast.Name, ast.Attribute)) else None
        if held is not None and not held.value:
            return None
    return compares[0]


def _saves(facts: FileFacts, node: ast.AST, cell: int | None) -> bool:
    """The node saves the model's weights: a Keras model's `save_weights`/`save`, a TensorFlow
    checkpoint's or its manager's `save`, a TF1 `Saver`'s `save(sess, path)`; made here or by a helper
    the call runs (`model.save(path)` listed as the `Saver.save` it makes)."""
    site = facts.listed_at(node, cell) if isinstance(node, ast.Call) else None
    return site is not None and (is_keras_model_method(site.api, ("save_weights", "save")) or site.api in CHECKPOINT_SAVES)


def _following(facts: FileFacts, node: ast.stmt, cell: int | None) -> list[ast.stmt]:
    """The statements after *node* in the block that holds it."""
    parent = facts.parent(node, cell)
    for block in (getattr(parent, field, None) for field in ("body", "orelse", "finalbody")):
        if isinstance(block, list) and any(s is node for s in block):
            return block[[id(s) for s in block].index(id(node)) + 1:]
    return []


def _updates_best(statements: list[ast.stmt], compare: ast.Compare) -> bool:
    """One of the statements assigns one side of the comparison to the other (`ckpt.psnr = psnr_value`
    after `psnr_value <= ckpt.psnr`, or a variable's `best.assign(psnr_value)`): the measure taken as
    the new best."""
    sides = {ast.unparse(compare.left), *(ast.unparse(c) for c in compare.comparators)}
    for s in statements:
        if isinstance(s, ast.Assign) and len(s.targets) == 1:
            pair = {ast.unparse(s.targets[0]), ast.unparse(s.value)}
        elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Attribute) \
                and s.value.func.attr == "assign" and len(s.value.args) == 1:
            pair = {ast.unparse(s.value.func.value), ast.unparse(s.value.args[0])}
        else:
            continue
        if pair == sides:
            return True
    return False


def _held_out_run(facts: FileFacts, loop: ast.For, cell: int | None) -> str | None:
    """A TF1 run of the graph in the loop's own body (nested loops included) that updates nothing,
    fed data that the loop's passes never change and that nothing else in the loop reads (not
    the training runs, nor what their batches are cut from): `accuracy.eval(feed_dict={X:
    X_valid, y: y_valid})` beside `sess.run(training_op, feed_dict={X: X_batch, ...})`, the model
    scored on held-out data every pass; or a call of a function of the file that runs one on the
    data the call gives it (`dev_step(x_dev, y_dev)`: `_scored_through`), where no function the
    loop reaches reads that data otherwise. What the loop iterates over is read by the loop
    (`batches = batch_iter(zip(x_train, y_train), ...)` reads `x_train`). None where there is none."""
    scored: list[tuple[ast.Call | ast.For, set[str]]] = []
    called: set[int] = set()  # the scored calls of functions of the file
    for node in scope_body(loop):
        if isinstance(node, ast.For) and (validated := _validation_pass(facts, node, cell)) is not None:
            scored.append((node, {validated}))
            continue
        if not isinstance(node, ast.Call):
            continue
        site, given = facts.site_at(node, cell), feed(node)
        if site is None or not isinstance(given, ast.Dict) or site.work_value("step") != "inference":
            through = _scored_through(facts, node)
            if through is not None:
                scored.append((node, through))
                called.add(id(node))
            continue
        named = [_data(v) for v in given.values if not isinstance(v, ast.Constant)]
        data = {d for d in named if d is not None}
        if named and len(data) == len(set(named)):  # every value fed names its data
            scored.append((node, data))
    if not scored:
        return None
    inside = {id(n) for call, _ in scored for n in ast.walk(call)}
    if called:  # data handed to a function is held out only where no function the loop reaches reads it
        elsewhere = {
            n.id for n, _ in _reached(facts, loop, cell)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and id(n) not in inside
        }
        scored = [(c, d) for c, d in scored if id(c) not in called or not any(x.split(".")[0] in elsewhere for x in d)]
    made = _made_from(facts, loop, cell)
    iterated = {o for r in _reads(loop.iter) for o in _origins(r, made)}  # what a generator's batches come from
    read = {r for n in _outermost(loop) if id(n) not in inside and (r := _data(n)) is not None} | iterated
    keys = _keys(loop)
    fed = {r for n in _outermost(loop) if id(n) not in inside | keys and (r := _data(n)) is not None} | iterated
    varying = loop_varying(loop)
    for call, data in scored:
        if any(d.split(".")[0] in varying or any(_overlap(d, r) for r in read) for d in data):
            continue
        origins = {o for d in data for o in _origins(d, made)} - data
        if not any(_overlap(o, r) for o in origins for r in fed):
            if isinstance(call, ast.For):
                return f"a loss or metric over `{ast.unparse(call.iter)}`, data the loop does not train on"
            return f"`{ast.unparse(call.func)}()` on data the loop does not train on"
    return None


def _validation_pass(facts: FileFacts, inner: ast.For, cell: int | None) -> str | None:
    """The data a TF2 validation pass scores the model on: a loop over a dataset (`for x, y in
    val_ds:`, maybe numbered by `enumerate()`) whose body, or a function of the file it calls (a
    `test_step` `tf.function`, or the model called there), runs the model without training it and computes a Keras loss or
    metric on what it gives; None for any other loop (one that trains, or only looks at outputs)."""
    over = inner.iter
    if isinstance(over, ast.Call) and isinstance(over.func, ast.Name) and over.func.id == "enumerate" and over.args:
        over = over.args[0]
    data = _data(over)
    if data is None:
        return None
    runs = scores = False
    for node, at in _called_once(facts, inner, cell):
        if not isinstance(node, ast.Call):
            continue
        site = facts.site_at(node, at)
        if last_name(node.func) in STEP_METHODS or last_name(node.func) == "GradientTape" or (
            site is not None and is_training_step(site)
        ):
            return None
        if site is not None:
            runs = runs or site.work_value("step") == "inference" or is_keras_model_method(site.api, FORWARD)
            scores = scores or site.api.startswith(MEASURES)
    return data if runs and scores else None


def _called_once(facts: FileFacts, root: ast.AST, cell: int | None) -> Iterator[tuple[ast.AST, int | None]]:
    """Every node of *root*'s body, then of the functions of the file it calls by name (one level)."""
    for node in scope_body(root):
        yield node, cell
        if isinstance(node, ast.Call):
            for at, function in facts.functions_named(last_name(node.func)):
                yield from ((n, at) for n in scope_body(function))


def _scored_through(facts: FileFacts, call: ast.Call) -> set[str] | None:
    """The data a call of a function of the file (`dev_step(x_dev, y_dev)`, or `self.dev_step(...)`
    of a method; one function of that name) has it score the model on: a TF1 run in its body that
    updates nothing, each value it feeds (in the run, or in the dict last bound to the name it is
    fed) a parameter of the function that the call gives data for (`x_dev`); None where there is none."""
    func, skip = call.func, 0
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        name, skip = func.attr, 1
    elif isinstance(func, ast.Name):
        name = func.id
    else:
        return None
    defined = facts.functions_named(name)
    if len(defined) != 1:
        return None
    at, function = defined[0]
    names = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    if skip and names[:1] != ["self"]:
        return None
    names = names[skip:]
    for node in scope_body(function):
        if not isinstance(node, ast.Call):
            continue
        site = facts.site_at(node, at)
        if site is None or site.work_value("step") != "inference":
            continue
        given = feed(node)
        if isinstance(given, ast.Name):  # `feed_dict = {...}` bound before the run, last
            bound = last_bindings(function, node.lineno).get(given.id)
            given = bound.value if bound is not None else None
        if not isinstance(given, ast.Dict):
            continue
        values = [v for v in given.values if not isinstance(v, ast.Constant)]
        if not values or not all(isinstance(v, ast.Name) and v.id in names for v in values):
            continue
        passed = [argument(call, v.id, names.index(v.id)) for v in values if isinstance(v, ast.Name)]
        data = [_data(p) for p in passed if p is not None]
        if len(data) == len(values) and all(d is not None for d in data):
            return {d for d in data if d is not None}
    return None


def _keys(node: ast.AST) -> set[int]:
    """The nodes of the dict keys under *node*: the placeholders a feed names, which are no data."""
    return {id(n) for d in ast.walk(node) if isinstance(d, ast.Dict) for k in d.keys if k is not None for n in ast.walk(k)}


def _made_from(facts: FileFacts, loop: ast.For, cell: int | None) -> dict[str, set[str]]:
    """What the names of the loop's function (or module) are made from, outside the loop: for each name its
    plain assignments bind (`sample_files = self.data[0:64]`, `sample = [decode(f) for f in sample_files]`,
    `val_ds = train_ds.take(10)`), the data their values read or call a method chain on; a name also bound otherwise (a tuple target: the split `X_valid, X_train =
    X_train[:5000], X_train[5000:]`, a loop's target) is made from nothing followed."""
    scope = scope_of(facts, loop, cell)
    made: dict[str, set[str]] = {}
    if scope is None:
        return made
    loop_nodes = {id(n) for n in ast.walk(loop)}
    imports: list[ast.Import | ast.ImportFrom] = [*facts.nodes(cell, ast.Import), *facts.nodes(cell, ast.ImportFrom)]
    modules = {(alias.asname or alias.name).split(".")[0] for node in imports for alias in node.names}
    plain: set[int] = set()
    for node in scope_body(scope):
        if isinstance(node, ast.Assign) and id(node) not in loop_nodes and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            plain.add(id(node.targets[0]))
            made.setdefault(node.targets[0].id, set()).update(_reads(node.value) | _receiver(node.value, modules))
    for node in scope_body(scope):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and id(node) not in plain:
            made.pop(node.id, None)
    return made


def _receiver(value: ast.expr, modules: set[str]) -> set[str]:
    """The data a chain of `tf.data` methods that keep or take its elements is called on (`train_ds`
    of `train_ds.take(10)`, `ds` of `ds.skip(1000).batch(32)`), not a module (`tf.data.Dataset.range(9).take(3)`)
    nor any other method's receiver (a session's `sess.run(...)` makes no data of `sess`)."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in SUBSETS:
        value = value.func.value
    data = _data(value) if isinstance(value, (ast.Name, ast.Attribute)) else None
    return set() if data is None or data.split(".")[0] in modules else {data}


def _reads(value: ast.expr) -> set[str]:
    """The data an expression reads (`_data` of its names and attribute chains), not the functions it calls nor
    the placeholders it feeds."""
    called = {id(n) for c in ast.walk(value) if isinstance(c, ast.Call) for n in ast.walk(c.func)} | _keys(value)
    inner = {id(n.value) for n in ast.walk(value) if isinstance(n, ast.Attribute)}
    return {
        d
        for n in ast.walk(value)
        if isinstance(n, (ast.Name, ast.Attribute)) and id(n) not in called | inner and (d := _data(n)) is not None
    }


def _origins(data: str, made: dict[str, set[str]]) -> set[str]:
    """*data* and what it is made from, followed through `made`, each once."""
    found, todo = set(), [data]
    while todo:
        current = todo.pop()
        if current not in found:
            found.add(current)
            todo.extend(made.get(current, ()))
    return found


def _data(value: ast.expr) -> str | None:
    """The data a fed value names: `X_valid`, `X_valid[:500]` -> `X_valid`; `mnist.validation.images`
    as written; None for anything else (a call's result, an arithmetic)."""
    while isinstance(value, ast.Subscript):
        value = value.value
    base = value
    while isinstance(base, ast.Attribute):
        base = base.value
    return ast.unparse(value) if isinstance(base, ast.Name) else None


def _outermost(loop: ast.For) -> Iterator[ast.expr]:
    """The names and attribute chains the loop reads, each whole (`mnist.train.next_batch`, not `mnist`)."""
    inner = {id(n.value) for n in scope_body(loop) if isinstance(n, ast.Attribute)}
    return (n for n in scope_body(loop) if isinstance(n, (ast.Name, ast.Attribute)) and id(n) not in inner)


def _overlap(data: str, read: str) -> bool:
    """Whether a read reaches the data: the same chain, a part of it or the whole it is part of."""
    return data == read or read.startswith(data + ".") or data.startswith(read + ".")


def _measures(facts: FileFacts, call: ast.Call, cell: int | None, site: Site | None) -> str | None:
    """What the call learns about the model's progress: the reward an environment's `step()`
    returns (its result unpacked into gym's four or gymnasium's five values), a Keras
    evaluation, or a `fit` given validation data; None for any other call."""
    if environment_step(facts, call, cell):
        return f"the reward `{ast.unparse(call.func)}()` returns"
    if site is None:
        return None
    if is_keras_model_method(site.api, EVALUATES):
        return f"`{last_name(call.func)}()` on other data"
    if is_keras_model_method(site.api, ("fit", "fit_generator")) and any(
        keyword(call, k) is not None for k in ("validation_data", "validation_split")
    ):
        return "`fit()`'s validation data"
    return None
