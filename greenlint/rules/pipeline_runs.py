"""How often a tf.data pipeline runs again: the passes a loop, a `repeat()` or a `fit()` makes over it,
followed through the names, returns and calls of the file and of the scripts beside it (GL408, GL413)."""

from __future__ import annotations

import ast
import os
from collections.abc import Mapping
from typing import Any

from greenlint.analysis.project import project_bindings
from greenlint.rules.base import FileFacts, argument
from greenlint.rules.dataset_cache import caches
from greenlint.rules.defaults import default_value
from greenlint.rules.deliberate import test_module
from greenlint.rules.epoch_passes import Size, chain_size, fit_passes, size_after
from greenlint.rules.importers import script_facts
from greenlint.rules.syntax import (
    Loop,
    calls_of,
    cell_units,
    chain_calls,
    chain_methods,
    chain_top,
    enclosing,
    is_method,
    last_name,
    located_definitions,
    own_loops,
    parameters,
    positional_parameters,
    range_header,
    scope_of,
    uses_until_rebound,
)

#: How many uses of a pipeline are followed through the names it is assigned to (`ds = ds.batch(32)`).
MAX_USES = 24

#: Calls whose iterations are those of the iterable they are given: iterating them iterates the pipeline.
ITERATES = frozenset({"enumerate", "zip", "tqdm", "tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm"})


def _many(count: ast.expr) -> bool:
    """A `repeat` count, as written, that repeats: `None`, -1 (for ever) or an integer above 1."""
    try:
        value = ast.literal_eval(count)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False  # not a literal: a parameter or a flag may be 1
    return value is None or (type(value) is int and (value == -1 or value > 1))


def repeated_after(facts: FileFacts, call: ast.Call, cell: int | None, elements: tuple[int, ...] = ()) -> str | None:
    """How a pipeline is repeated after *call*, in its chain or through the names it is assigned
    to in its scope: "every pass of `repeat()` (line 12)", a `repeat` with no count, `None`, -1
    or a literal count above 1 (whatever takes it then: a cache there would hold an endless
    dataset, the cache belongs before it); None where there is none, where its count is not
    known (a parameter may be 1), or where a `.take(n)` bounds it (`_looked_at`). With *elements*,
    the pipeline is that element of what *call* gives, as `pipeline_passes` reads them."""
    todo: list[tuple[int | None, ast.expr, ast.AST | None, tuple[int, ...]]] = [
        (cell, call, None, elements) if elements else (cell, chain_top(facts, call, cell), call, ())
    ]
    seen: set[int] = set()
    while todo:
        cell, top, stop, elements = todo.pop()
        if id(top) in seen or len(seen) > MAX_USES or _looked_at(facts, top):
            continue
        seen.add(id(top))
        if elements:
            todo += _element_uses(facts, top, facts.parent(top, cell), cell, elements) or []
            continue
        repeat = _repeat_in(top, stop)
        if repeat is not None:
            count = argument(repeat, "count", 0)
            given = "" if count is None else ast.unparse(count)
            return f"every pass of `repeat({given})` (line {repeat.lineno})"
        parent = facts.parent(top, cell)
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
            todo += [(unit, load, None, ()) for unit, load in _loads(facts, parent, parent.targets[0].id, cell)]
    return None


def runs_once(facts: FileFacts, loop: Loop, cell: int | None) -> bool:
    """*loop* runs at most once (`_passes_of`); False where its count is not known."""
    passes = _passes_of(facts, loop, cell)
    return passes is not None and passes <= 1


def _passes_of(facts: FileFacts, loop: Loop, cell: int | None) -> int | None:
    """How many passes a `for` over `range(n)` (or `range(start, stop)`, maybe through a progress bar:
    `syntax.range_header`) makes with the values its bounds hold by default (`default_value`: a literal,
    a parameter's or flag's default, what the file's calls pass); None for another loop or a bound not known."""
    header = range_header(facts, loop.iter, cell) if isinstance(loop, (ast.For, ast.AsyncFor)) else None
    if header is None or not 1 <= len(header.args) <= 2:
        return None
    bounds = [default_value(facts, arg, cell) for arg in header.args]
    values = [
        value
        for value in (found.value for found in bounds if found is not None)
        if isinstance(value, int) and not isinstance(value, bool)
    ]
    if len(values) != len(header.args):
        return None
    start, stop = (0, values[0]) if len(values) == 1 else values
    return max(stop - start, 0)


def loop_at(facts: FileFacts, loop: Loop, cell: int | None) -> str:
    """The loop's line, and its passes where known: "169 (200 passes)", "169", and where the count
    is a command-line option's default, whose: "210 (25 passes: `config.epoch`, the default of `--epoch`)"."""
    passes = _passes_of(facts, loop, cell)
    if passes is None or not isinstance(loop, (ast.For, ast.AsyncFor)) or not isinstance(loop.iter, ast.Call):
        return f"{loop.lineno}"
    stop = loop.iter.args[-1]  # (`_passes_of`: a `range` call)
    found = default_value(facts, stop, cell)
    option = f": `{ast.unparse(stop)}`, {found.where}" if found is not None and found.where.startswith("the default of `") else ""
    return f"{loop.lineno} ({passes} passes{option})"


def pipeline_passes(
    facts: FileFacts, top: ast.expr, cell: int | None, options: Mapping[str, Any], exits: list[str] | None = None,
    elements: tuple[int, ...] = (),
) -> str | None:
    """How the pipeline *top* (the whole method chain) is run again and again: "each of 30
    epochs", "every epoch (`epochs=args.epochs`)", "every pass of the loop at line 12"; None
    when it runs once, or goes somewhere (a helper, another module) that may cache it. A pipeline a
    function returns (alone or in a tuple) is followed to the file's calls of that function, and a
    module-level function the file never calls to the calls of the scripts beside it that import the
    file (`_script_calls`: "every pass of the loop at train.py line 180"); one iterated through
    `enumerate`, `zip` or `tqdm` is iterated; a `fit()` runs it again as `epoch_passes.fit_passes`
    says, from its cardinality (followed with it) and the TensorFlow of *options*. With *exits*, a
    function the file never calls is named there instead (its callers are in other modules), and
    emptied where the pipeline goes elsewhere. With *elements*, the pipeline is that element of what *top*
    gives, unpacked (`ds, info = tfds.load(..., with_info=True)`: (0,)) or subscripted (`ds[0]`), an
    element of an element after it (a list of splits with its info: (0, 1))."""
    found: list[str] = []
    # (the file, expression, its cell, the elements of what it gives that are the pipeline, where the pipeline is
    # made, its cardinality)
    todo: list[tuple[FileFacts, ast.expr, int | None, tuple[int, ...], ast.expr, Size]] = [
        (facts, top, cell, elements, top, None if elements else chain_size(facts, top, cell))
    ]
    seen: set[int] = set()
    start = cell
    while todo:
        here, expr, cell, elements, made, size = todo.pop()
        where = f"{os.path.basename(here.path)} " if here is not facts else f"cell {cell} " if cell != start else ""
        if id(expr) in seen:
            continue
        if len(seen) > MAX_USES:
            _away(exits)  # too far to follow
            return None
        seen.add(id(expr))
        if _looked_at(here, expr):
            continue
        parent = here.parent(expr, cell)
        if elements:  # the pipeline is element `elements[0]` of what *expr* gives
            uses = _element_uses(here, expr, parent, cell, elements)
            if uses is None:
                _away(exits)  # kept whole somewhere this file does not follow
                return None
            todo += [
                (here, top, unit, rest, made, size if rest else size_after(top, size, stop))
                for unit, top, stop, rest in uses
            ]
            continue
        returned = here.parent(parent, cell) if isinstance(parent, ast.Tuple) else None
        if isinstance(parent, ast.Tuple) and isinstance(returned, ast.Return):
            elements = (parent.elts.index(expr),)
            parent = returned
        if isinstance(parent, ast.Return):
            function = enclosing(here, parent, cell)
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                _away(exits)
                return None
            calls = [(here, unit, call) for unit, call in calls_of(here, function, cell)]
            if not calls and here is facts and isinstance(here.parent(function, cell), ast.Module):
                if exits is not None:
                    exits.append(function.name)
                    continue
                calls = _script_calls(facts, function.name)
            if not calls:
                _away(exits)  # returned to code this file does not show: the caller may cache it
                return None
            for at, unit, call in calls:
                top = chain_top(at, call, unit)
                todo.append((at, top, unit, elements, call, size_after(top, size, call)))
            continue
        if isinstance(parent, (ast.For, ast.AsyncFor)) and parent.iter is expr:
            around = set(here.ancestors(made, cell))  # a loop that makes the pipeline anew each pass: no cache outlives it
            outer = [
                loop for loop in own_loops(here, parent, cell) if loop not in around and not runs_once(here, loop, cell)
            ]
            if outer:
                found.append(f"every pass of the loop at {where}line {loop_at(here, outer[0], cell)}")
            continue
        if isinstance(parent, ast.keyword):
            parent = here.parent(parent, cell)
        if isinstance(parent, ast.Call) and expr is not parent.func and ast.unparse(parent.func) in ITERATES:
            todo.append((here, parent, cell, (), made, size))  # `enumerate(ds)`, `tqdm(ds)`: its passes are the pipeline's
            continue
        if isinstance(parent, ast.Call) and expr is not parent.func:
            if last_name(parent.func) != "fit":
                _away(exits)  # a helper: it may cache the pipeline
                return None
            epochs = fit_passes(here, parent, expr, cell, size, options)
            if epochs:
                found.append(epochs + (f" of the `fit()` at {where}line {parent.lineno}" if where else ""))
            continue
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
            bound = parent.targets[0]
            todo += [
                (here, load, unit, (), made, size_after(load, size))
                for unit, load in _loads(here, parent, bound.id, cell)
            ]
            continue
        if isinstance(parent, (ast.Yield, ast.YieldFrom, ast.Assign, ast.AnnAssign, ast.Tuple, ast.List)):
            _away(exits)  # yielded, or kept somewhere this file does not follow
            return None
    return found[0] if found else None


def _away(exits: list[str] | None) -> None:
    """The pipeline goes where it may be cached: none of the functions *exits* names returns it uncached."""
    if exits is not None:
        exits.clear()


def _script_calls(facts: FileFacts, name: str) -> list[tuple[FileFacts, int | None, ast.Call]]:
    """The calls of the module-level function *name* of the module of *facts* in the scripts beside
    it that import it (`script_facts`), as the script's imports bind it (`data.name(...)`,
    `name(...)` after `from data import name`; `_bound_from`); none from a test module or from a
    script that calls `Dataset.cache()` where its defaults run it (it may cache what it is given)."""
    path = os.path.abspath(facts.path)
    found = []
    for script in script_facts(facts.path):
        if test_module(script.path) or caches(script):
            continue
        for unit in script.cells:
            modules, functions = _bound_from(script, unit, path)
            found += [
                (script, unit, call)
                for local in [name, *(k for k, v in functions.items() if v == name and k != name)]
                for call in script.calls_named(unit, local)
                if (isinstance(call.func, ast.Name) and functions.get(call.func.id) == name)
                or (
                    isinstance(call.func, ast.Attribute)
                    and isinstance(call.func.value, ast.Name)
                    and call.func.value.id in modules
                )
            ]
    return found


def _bound_from(script: FileFacts, unit: int | None, path: str) -> tuple[set[str], dict[str, str]]:
    """What the imports of a unit of *script* bind of the project module at *path*
    (`project_bindings`): the names of the module itself (`import data`, `import data as d`, `from
    pkg import data`) and of its names (`from data import make as m`: `m` -> `make`)."""
    modules: set[str] = set()
    names: dict[str, str] = {}
    bound = project_bindings(os.path.abspath(script.path), script.nodes(unit, ast.Import, ast.ImportFrom))
    for name, each in bound.items():
        for file, member in each:
            if file == path and member:
                names[name] = member
            elif file == path:
                modules.add(name)
    return modules, names


def _loads(facts: FileFacts, assign: ast.stmt, name: str, cell: int | None) -> list[tuple[int | None, ast.expr]]:
    """The method chains that read *name* after the statement *assign* binding (or filling) it, each with its cell, in its
    scope (a read before it, `dataset = helper(dataset)`, is of what the name held before); a
    notebook's top-level name also in the later cells, where their top level reads it."""
    scope = enclosing(facts, assign, cell)
    end = (cell or 0, assign.end_lineno or assign.lineno, assign.end_col_offset or 0)
    later = isinstance(scope, ast.Module) and cell is not None
    units = [(unit, tree) for unit, tree in cell_units(facts) if (unit or 0) > (cell or 0)] if later else []
    named = [
        ((unit or 0, node.lineno, node.col_offset), unit, node)
        for unit, tree in [(cell, scope), *units]
        for node in (ast.walk(tree) if tree is not None else ())
        if isinstance(node, ast.Name)
        and node.id == name
        and ((unit or 0), node.lineno, node.col_offset) > end
        and (unit == cell or isinstance(scope_of(facts, node, unit), ast.Module))
    ]
    stores = [(unit, node) for _, unit, node in named if isinstance(node.ctx, ast.Store)]
    # a function of the scope that binds the name has a name of its own
    own = {id(s) for unit, node in stores if (s := scope_of(facts, node, unit)) is not scope and unit == cell}
    # the next binding of the name that runs whenever the assignment has run (in its block or one around it; a
    # notebook's later cell's top level), not a comprehension's own name: what it reads after that statement is
    # another value
    blocks = {_block(facts, a, cell) for a in (assign, *facts.ancestors(assign, cell)) if isinstance(a, ast.stmt)}
    rebound = min(
        (
            _statement_end(statement, unit)
            for unit, node in stores
            if not isinstance(facts.parent(node, unit), ast.comprehension)
            and (statement := _statement(facts, node, unit)) is not None
            and (_block(facts, statement, unit) in blocks if unit == cell else isinstance(facts.parent(statement, unit), ast.Module))
        ),
        default=None,
    )
    return [
        (unit, chain_top(facts, node, unit))
        for position, unit, node in named
        if isinstance(node.ctx, ast.Load)
        and (rebound is None or position < rebound)
        and not (own and id(scope_of(facts, node, unit)) in own)
    ]


def _statement(facts: FileFacts, node: ast.AST, cell: int | None) -> ast.stmt | None:
    """The statement holding *node*."""
    return next((a for a in facts.ancestors(node, cell) if isinstance(a, ast.stmt)), None)


def _statement_end(statement: ast.stmt, cell: int | None) -> tuple[int, int, int]:
    """Where *statement* ends (cell, line, column)."""
    return (cell or 0, statement.end_lineno or statement.lineno, statement.end_col_offset or 0)


def _block(facts: FileFacts, statement: ast.stmt, cell: int | None) -> tuple[int, str]:
    """The statement list *statement* is in: its parent and the field holding it (an `if`'s `body` or `orelse`)."""
    parent = facts.parent(statement, cell)
    field = next((f for f, v in ast.iter_fields(parent) if isinstance(v, list) and statement in v), "") if parent else ""
    return id(parent), field


def _element_uses(
    facts: FileFacts, expr: ast.expr, parent: ast.AST | None, cell: int | None, elements: tuple[int, ...]
) -> list[tuple[int | None, ast.expr, ast.AST | None, tuple[int, ...]]] | None:
    """Where element `elements[0]` of what *expr* gives goes (*parent*: *expr*'s parent): the chain on
    `expr[0]`, or the chains reading the name that unpacking binds it to (`ds, info = ...`; a nested
    target takes the next elements too: `(train, test), info = ...`), each with its cell, where its
    methods start (the subscript; None: the chain's top) and the elements left; None where what
    *expr* gives is kept whole (a name, an argument), which this file does not follow."""
    index, rest = elements[0], elements[1:]
    if isinstance(parent, ast.Subscript) and parent.value is expr and _constant_index(parent.slice) == index:
        return [(cell, chain_top(facts, parent, cell), parent, rest)]  # `ds[0]`
    target = parent.targets[0] if isinstance(parent, ast.Assign) and len(parent.targets) == 1 else None
    if not isinstance(parent, ast.Assign) or not _unpacks(target, index):
        return None
    element = target.elts[index]  # type: ignore[union-attr]
    while rest and _unpacks(element, rest[0]):
        element, rest = element.elts[rest[0]], rest[1:]  # type: ignore[attr-defined]
    if not isinstance(element, ast.Name):
        return []
    return [(unit, load, None, rest) for unit, load in _loads(facts, parent, element.id, cell)]


def _unpacks(target: ast.AST | None, index: int) -> bool:
    """*target* is a tuple or list target, with no starred name, that binds an element *index*."""
    return (
        isinstance(target, (ast.Tuple, ast.List))
        and index < len(target.elts)
        and not any(isinstance(e, ast.Starred) for e in target.elts)
    )


def _constant_index(node: ast.expr) -> int | None:
    """The integer a subscript's index writes (`ds[0]`), else None."""
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def _looked_at(facts: FileFacts, chain: ast.expr) -> bool:
    """A method chain with a `.take(n)` that looks at a few elements, not one side of a split: a
    `take(n)` whose receiver the file also `skip`s by the same count (`ds.take(k)` and `ds.skip(k)`:
    training and held-out parts) bounds nothing the training draws."""
    return any(call.func.attr == "take" and not _split(facts, call) for call in chain_methods(chain)[0])  # type: ignore[attr-defined]


def _split(facts: FileFacts, take: ast.Call) -> bool:
    """`recv.take(n)` where the file calls `recv.skip(n)` (the same text for both)."""
    count = argument(take, "count", 0)
    if count is None or not isinstance(take.func, ast.Attribute):
        return False
    key = (ast.unparse(take.func.value), ast.unparse(count))
    for unit in facts.cells:
        for skip in facts.calls_named(unit, "skip"):
            skipped = argument(skip, "count", 0)
            if isinstance(skip.func, ast.Attribute) and skipped is not None:
                if (ast.unparse(skip.func.value), ast.unparse(skipped)) == key:
                    return True
    return False


def repeated_in_helper(facts: FileFacts, call: ast.Call, cell: int | None) -> tuple[ast.Call, int | None] | None:
    """The endless or many-times `repeat()` (with its cell) that a function of the file other than
    *call*'s applies to the pipeline *call* makes, where the pipeline reaches that function through
    the file's own functions: returned to their calls, bound to names, appended to or listed in a
    list that a loop or a comprehension goes over, and given to a parameter of a function of the
    file (`[preprocess(ds) for ds in datasets]`, whose `ds.map(crop).repeat()` runs every pass
    over the files); None where it goes anywhere else (another module, a method, a tuple: it may
    be cached there) or is repeated nowhere so. What *call*'s own function repeats is
    `repeated_after`'s."""
    home = scope_of(facts, call, cell)
    # (the cell, an expression holding the pipeline, whether it holds a list of pipelines instead)
    todo: list[tuple[int | None, ast.expr, bool]] = [(cell, chain_top(facts, call, cell), False)]
    seen: set[int] = set()
    while todo:
        unit, expr, listed = todo.pop()
        if id(expr) in seen or len(seen) > MAX_USES or _looked_at(facts, expr) or chain_calls(expr, "cache"):
            continue
        seen.add(id(expr))
        if not listed and scope_of(facts, expr, unit) is not home and (repeat := _repeat_in(expr)) is not None:
            return repeat, unit
        todo += _holders(facts, expr, unit, listed)
    return None


def _repeat_in(chain: ast.expr, stop: ast.AST | None = None) -> ast.Call | None:
    """The `repeat()` of a method chain (down to *stop*) that repeats (no count, `None`, -1 or a literal above 1)."""
    return next((call for call in chain_methods(chain, stop)[0] if call.func.attr == "repeat"  # type: ignore[attr-defined]
                 and ((count := argument(call, "count", 0)) is None or _many(count))), None)


def _holders(facts: FileFacts, expr: ast.expr, cell: int | None, listed: bool) -> list[tuple[int | None, ast.expr, bool]]:
    """Where the value of *expr* (a pipeline, or a list of them where *listed*) goes next, as
    `repeated_in_helper` follows it: the method chains reading the name it is bound to, the calls of
    the function returning it, the list it is appended to or listed in, the item of a loop or
    comprehension over it, the parameter of a function of the file it is given to (by position or by name)."""
    parent = facts.parent(expr, cell)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        return [(unit, load, listed) for unit, load in _loads(facts, parent, parent.targets[0].id, cell)]
    if listed:
        loop = parent if isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is expr else None
        if loop is None or not isinstance(loop.target, ast.Name):
            return []
        body = loop.body if isinstance(loop, ast.For) else [facts.parent(loop, cell) or loop]  # the comprehension's
        item = loop.target.id
        return [
            (cell, chain_top(facts, node, cell), False)
            for part in body
            for node in ast.walk(part)
            if isinstance(node, ast.Name) and node.id == item and isinstance(node.ctx, ast.Load)
        ]
    if isinstance(parent, ast.List):
        return [(cell, parent, True)]
    if isinstance(parent, ast.Return):
        function = enclosing(facts, parent, cell)
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or is_method(facts, function, cell):
            return []
        return [(unit, chain_top(facts, made, unit), listed) for unit, made in calls_of(facts, function, cell)]
    given = facts.parent(parent, cell) if isinstance(parent, ast.keyword) and parent.arg else parent
    if not (isinstance(given, ast.Call) and (expr in given.args or parent in given.keywords)):
        return []
    if isinstance(given.func, ast.Attribute) and given.func.attr == "append" and isinstance(given.func.value, ast.Name):
        statement = _statement(facts, given, cell)
        if listed or statement is None:
            return []  # a list of lists: not followed
        return [(unit, read, True) for unit, read in _loads(facts, statement, given.func.value.id, cell)]
    found = located_definitions(facts, given.func, cell) if isinstance(given.func, ast.Name) else []
    function, unit = found[0] if len(found) == 1 else (None, None)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return []
    if isinstance(parent, ast.keyword):
        name = parent.arg if parent.arg in parameters(function) else None
    else:
        index, names = given.args.index(expr), positional_parameters(facts, function, unit)
        starred = any(isinstance(a, ast.Starred) for a in given.args[: index + 1])
        name = names[index] if index < len(names) and not starred else None
    if name is None:
        return []
    start = (unit or 0, function.lineno, function.col_offset)
    return [
        (unit, chain_top(facts, node, unit), listed)
        for statement in function.body[:1]
        for _, node in uses_until_rebound(facts, statement, unit, name, start)
    ]
