"""Where the batch a training or inference step runs on is written, read back from the syntax.

A `fit()`/`evaluate()`/`predict()`, `Dataset.batch()` or `tf.train.batch()` call's batch is its argument, run with the
program's defaults (`written_batch`): a literal, a name bound to one, a parameter's default or what the
file's calls pass it, an argparse option's or absl flag's default (`rules.defaults`), said in the finding.

The analysis tells a `*_on_batch` call's batch (its work's `samples`: the rows of its inputs or
targets, followed through the function's parameters as its callers bind them); this module finds
the integer literal of that value the step's arguments derive from (`flow.derived`): a local
assignment (`batch_size = 4`), or a parameter of the step's function, set by a call of that
function in the file (`gan.train(epochs=200, batch_size=1)`, a name the caller's scope bound to the
literal, or an option's default: `gan.train(batch_size=args.batch_size)`) or, where no call passes
it, by its default (`def train(self, batch_size=2)`); or a value the function reads from outside it:
an attribute its class's `__init__` alone sets (`self.batch_size = 4`; or from its parameter, which
the class's constructions set as calls set a function's), a module constant bound once (`BATCH = 4`).
Only where a loop around the step draws its batches by that value (`for x, y in loader.load_batch(batch_size)`,
`range(n // batch_size)`): there a larger batch means fewer steps per pass; or where a `for` loop
around it counts its iterations by a `range` the batch does not set (`for epoch in range(epochs)`
drawing `idx = np.random.randint(0, n, batch_size)` each time): as written, a larger batch there runs
as many steps, each larger, so the same samples in fewer steps need its count divided too (the
literal is reported as `counted`).
"""

from __future__ import annotations

import ast

from greenlint.analysis import flow
from greenlint.analysis.callsite import Span, estimator_method
from greenlint.analysis.queues import BATCHES
from greenlint.analysis.values import set_as
from greenlint.rules.base import FileFacts, argument
from greenlint.rules.defaults import Origin, default_expression, default_value, flag_default, init_binding, module_value
from greenlint.rules.deliberate import in_test
from greenlint.rules.site import Site, method
from greenlint.rules.syntax import (
    calls_by_name,
    int_literal,
    is_method,
    last_bindings,
    own_loops,
    positional_parameters,
)

Function = ast.FunctionDef | ast.AsyncFunctionDef
#: Caller levels followed from a step's function up to the literal (`main` → `train` → step).
DEPTH = 3


#: The position of the `batch_size` argument of the calls whose argument is their batch.
BATCH_POSITION = {"fit": 2, "evaluate": 2, "predict": 1, "batch": 0}
#: The position of `batch_size` in TF1's queue batching ops (`tf.train.batch(tensors, batch_size)`,
#: `tf.train.maybe_batch(tensors, keep_input, batch_size)`).
QUEUE_POSITION = {api: 2 if api.endswith(".maybe_batch") else 1 for api in BATCHES}
#: An Estimator's methods and the constructor argument that sets their batch (TPUEstimator's, which
#: hands it to the input_fn as `params["batch_size"]`).
ESTIMATOR_BATCH = {"train": "train_batch_size", "evaluate": "eval_batch_size", "predict": "predict_batch_size"}


def estimator_batch(facts: FileFacts, call: ast.Call | None, site: Site) -> ast.expr | None:
    """The argument that sets the batch of an Estimator's `train`/`evaluate`/`predict` *call*: the
    constructor's (`estimator = TPUEstimator(..., eval_batch_size=FLAGS.eval_batch_size)`) last bound
    to the name it is called on, in its scope; None where none is written there."""
    if call is None or not isinstance(call.func, ast.Attribute) or not isinstance(call.func.value, ast.Name):
        return None
    function = _function(facts, call, site.callsite.span.cell)
    scope = function if function is not None else facts.module(site.callsite.span.cell)
    bound = last_bindings(scope, call.lineno).get(call.func.value.id)
    made = bound.value if bound is not None else None
    return argument(made, ESTIMATOR_BATCH[method(site.api)]) if isinstance(made, ast.Call) else None


def written_batch(facts: FileFacts, site: Site) -> tuple[int, str] | None:
    """The batch size of a `fit`/`evaluate`/`predict`, `Dataset.batch` or TF1 queue's `tf.train.batch`
    call with the program's defaults, and where it is written, as the message goes on
    (`defaults.default_value`: "" for a literal at the call, " (`args.batch_size`: the default of
    `--batch_size`)", " (`batch_size`: the default of parameter `batch_size`)"); the analysis' value where the defaults do not give it, with
    the option whose default it followed (work's `options`: " (the default of `--batch_size`)") or the
    assignment of the name passed (" (`batch_size = 8`, line 4)"). None where neither knows it."""
    size = site.features.get("batch_size")
    known = size if isinstance(size, int) and not isinstance(size, bool) else None
    call = facts.node(site)
    if estimator_method(site.api):
        given = estimator_batch(facts, call, site)
        known = None  # the input_fn's own batch (features): its `Dataset.batch` is reported where it is written
    else:
        position = QUEUE_POSITION[site.api] if site.api in QUEUE_POSITION else BATCH_POSITION.get(method(site.api))
        given = argument(call, "batch_size", position)
    found = default_value(facts, given, site.callsite.span.cell) if given is not None else None
    if found is not None and found.origin is Origin.UNCALLED:
        found = None  # a library function's default: its callers elsewhere set the batch
    value, where = (found.value, found.where) if found is not None else (None, "")
    if isinstance(value, int) and not isinstance(value, bool) and (known is None or value == known):
        return value, f" (`{ast.unparse(given)}`: {where})" if where and given is not None else ""
    if known is None:
        return None
    options = site.callsite.work.get("options")
    option = (options.arguments or {}).get("batch_size") if options is not None else None
    if option:  # the analysis followed an option's default here (`main(**{"batch_size": FLAGS.batch_size})`)
        return known, f" (the default of `{set_as(option)}`)"
    bound = None
    if isinstance(given, ast.Name) and call is not None:
        function = _function(facts, call, site.callsite.span.cell)
        scope = function if function is not None else facts.module(site.callsite.span.cell)
        bound = last_bindings(scope, call.lineno).get(given.id)
    return known, f" (`{ast.unparse(bound)}`, line {bound.lineno})" if bound is not None else ""


def step_literals(
    facts: FileFacts, call: ast.Call, cell: int | None, size: int
) -> list[tuple[Span, ast.For | ast.AsyncFor | None]]:
    """The literals equal to *size* that set the batch of the step *call*, each with None where a
    loop around it draws its batches by that value, else the outermost loop of the fixed count
    (`_counted`) to divide; [] where none is found."""
    read = frozenset().union(*(_reads(a) for a in (*call.args, *(k.value for k in call.keywords))))
    function = _function(facts, call, cell)
    body = function.body if function is not None else _module_body(facts, cell)
    pairs = flow.assignments(body)
    loops = own_loops(facts, call, cell)
    found: list[tuple[Span, ast.For | ast.AsyncFor | None]] = []
    bound = last_bindings(function if function is not None else facts.module(cell), call.lineno)
    for name, value in ((name, assign.value) for name, assign in bound.items() if assign is not None):
        if not int_literal(value, size):
            continue
        reach = flow.derived(frozenset((name,)), body, pairs)
        drawn, outer = _drawn_by(loops, reach), _counted(loops, reach)
        if reach & read and (drawn or outer is not None):
            found.append((facts.span(value, cell), None if drawn else outer))
    if function is not None:
        for name in _parameter_names(facts, function, cell):
            reach = flow.derived(frozenset((name,)), body, pairs)
            drawn, outer = _drawn_by(loops, reach), _counted(loops, reach)
            if reach & read and (drawn or outer is not None):
                outer = None if drawn else outer
                found.extend((span, outer) for span in _passed(facts, function, cell, name, size, DEPTH))
        for key, value, init in _held(facts, function, cell):
            seeds = frozenset().union(
                *(flow.targets(t) for n in _assigns(body) if key in _reads(n.value) for t in n.targets)
            )
            reach = frozenset((key,)) | flow.derived(seeds, body, pairs)
            drawn, outer = _drawn_by(loops, reach), _counted(loops, reach)
            if reach & read and (drawn or outer is not None):
                outer = None if drawn else outer
                found.extend((span, outer) for span in _held_literals(facts, value, init, cell, size))
    return list(dict.fromkeys(found))


def _held_literals(facts: FileFacts, value: ast.expr, init: Function | None, cell: int | None, size: int) -> list[Span]:
    """The literals *size* that set a value `_held` found: the value itself, or, for a parameter of
    the class's `__init__` (`self.batch_size = batch_size`), what the file's constructions pass it,
    else its default."""
    if int_literal(value, size):
        return [facts.span(value, unit) for unit in _units_holding(facts, value)]
    if init is not None and isinstance(value, ast.Name) and value.id in _parameter_names(facts, init, cell):
        return _passed(facts, init, cell, value.id, size, DEPTH)
    return []


def _held(facts: FileFacts, function: Function, cell: int | None) -> list[tuple[str, ast.expr, Function | None]]:
    """The values *function* reads from outside it, with the key `_reads` gives them: `self.<attr>`
    where its class assigns that once, in `__init__` (`self.batch_size = 4`, `= batch_size`: with that
    `__init__`), and a module-level name bound once and never rebound (`BATCH = 4`, in any cell of a
    notebook)."""
    local = {*_parameter_names(facts, function, cell), *(n for bound, _, _ in flow.assignments(function.body) for n in bound)}
    read: dict[str, ast.Attribute | ast.Name] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                read.setdefault(f"self.{node.attr}", node)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in local:
            read.setdefault(node.id, node)
    found: list[tuple[str, ast.expr, Function | None]] = []
    for key, node in read.items():
        if isinstance(node, ast.Attribute):
            bound = init_binding(facts, node, cell)
            if bound is not None:
                found.append((key, bound[2], bound[1]))
            continue
        value = module_value(facts, node.id)
        if value is not None:
            found.append((key, value, None))
    return found


def _units_holding(facts: FileFacts, literal: ast.expr) -> list[int | None]:
    """The unit (`FileFacts.cells`: a notebook's cell) that holds *literal*, a constant; [] where none does."""
    return [cell for cell in facts.cells if any(n is literal for n in facts.nodes(cell, ast.Constant))][:1]


def _reads(node: ast.AST) -> frozenset:
    """The names an expression reads, and each `self.<attr>` it reads as the key "self.<attr>"."""
    attributes = (
        f"self.{n.attr}"
        for n in ast.walk(node)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"
    )
    return flow.names(node) | frozenset(attributes)


def _assigns(body: list[ast.stmt]) -> list[ast.Assign]:
    return [n for statement in body for n in ast.walk(statement) if isinstance(n, ast.Assign)]


def parameter_literals(facts: FileFacts, node: ast.AST, cell: int | None, name: str, size: int) -> list[Span]:
    """The literals *size* that set *name*, a parameter of the function around *node*: passed by the
    file's calls of it (up to DEPTH caller levels), else its default; [] where *name* is none of its
    parameters."""
    function = _function(facts, node, cell)
    if function is None or name not in _parameter_names(facts, function, cell):
        return []
    return _passed(facts, function, cell, name, size, DEPTH)


def _drawn_by(loops: list, reach: frozenset) -> bool:
    """A `for` loop around the step iterates over something computed from the batch's names."""
    return any(isinstance(loop, (ast.For, ast.AsyncFor)) and _reads(loop.iter) & reach for loop in loops)


def _counted(loops: list, reach: frozenset) -> ast.For | ast.AsyncFor | None:
    """The outermost loop around the step where every one (there is one at least) is a `for` over a
    `range(...)` that no name of the batch sets: the step runs a fixed count whatever the batch, and
    the outermost loop is the training's length (an inner one, such as a WGAN's critic steps per
    generator step, is the algorithm's). None otherwise, and where a `while` is among them (an
    agent stepping an environment until an episode ends, learning from replay at each step): its
    count is not the training's to divide."""
    counted = bool(loops) and all(
        isinstance(loop, (ast.For, ast.AsyncFor))
        and isinstance(loop.iter, ast.Call)
        and isinstance(loop.iter.func, ast.Name)
        and loop.iter.func.id == "range"
        and not _reads(loop.iter) & reach
        for loop in loops
    )
    outer = loops[-1] if counted else None
    return outer if isinstance(outer, (ast.For, ast.AsyncFor)) else None


def _function(facts: FileFacts, node: ast.AST, cell: int | None) -> Function | None:
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return parent
        if isinstance(parent, (ast.Lambda, ast.ClassDef)):
            return None
    return None


def _owner(facts: FileFacts, function: Function, cell: int | None) -> ast.ClassDef | None:
    """The class whose method *function* is (its constructions call `__init__`)."""
    parent = next(iter(facts.ancestors(function, cell)), None)
    return parent if isinstance(parent, ast.ClassDef) else None


def _module_body(facts: FileFacts, cell: int | None) -> list[ast.stmt]:
    module = facts.module(cell)
    return module.body if module is not None else []


def _parameter_names(facts: FileFacts, function: Function, cell: int | None) -> list[str]:
    kwonly = [a.arg for a in function.args.kwonlyargs]
    return [*positional_parameters(facts, function, cell), *kwonly]


def _passed(facts: FileFacts, function: Function, where: int | None, name: str, size: int, depth: int) -> list[Span]:
    """The literals *size* the file's calls of *function* (for an `__init__`, the constructions of its
    class) pass as *name* (directly, or as a name their scope bound to the literal, or as a parameter
    of theirs set so in turn), else its default where no call passes the parameter; calls in test
    code are passed over."""
    found: list[Span] = []
    passing = False
    method = is_method(facts, function, where)
    positional = positional_parameters(facts, function, where)
    owner = _owner(facts, function, where) if function.name == "__init__" else None
    calls = calls_by_name(facts, owner.name, False) if owner is not None else calls_by_name(facts, function.name, method)
    for cell, call in calls:
        given = argument(call, name, positional.index(name) if name in positional else None)
        if given is None:
            continue
        passing = True
        if in_test(facts, call, cell):
            continue  # a test picks its batch on purpose
        written = written_at(facts, given, cell)
        if int_literal(written, size):
            found.append(facts.span(written, cell))
        elif isinstance(given, ast.Name) and depth > 1:
            outer = _function(facts, call, cell)
            bound = last_bindings(outer if outer is not None else facts.module(cell), call.lineno).get(given.id)
            held = written_at(facts, bound.value, cell) if bound is not None else None
            if held is not None and int_literal(held, size):
                found.append(facts.span(held, cell))
            elif outer is not None and given.id in _parameter_names(facts, outer, cell):
                found.extend(_passed(facts, outer, cell, given.id, size, depth - 1))
    if not passing:
        default = default_expression(function, name)
        if default is not None and int_literal(default, size):
            found.append(facts.span(default, where))
    return found


def written_at(facts: FileFacts, given: ast.expr, cell: int | None) -> ast.expr:
    """Where the value *given* is written: the default of the script's option or flag it reads
    (`args.batch_size`: `--batch_size`'s; not in a notebook, whose cells define in turn), else itself."""
    if cell is None and isinstance(given, ast.Attribute) and isinstance(given.value, ast.Name) and given.value.id != "self":
        default = flag_default(facts, given.attr)
        if default is not None:
            return default
    return given


