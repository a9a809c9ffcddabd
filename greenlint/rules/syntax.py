"""Syntax facts around a call that several rules share (read from `FileFacts.node`'s tree)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts, Site

LOOPS = (ast.For, ast.AsyncFor, ast.While)
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)
#: Method names of one training step (a custom loop's update, or a Keras step call).
STEP_METHODS = frozenset({"apply_gradients", "minimize", "train_on_batch"})


def innermost_loop(facts: FileFacts, site: Site) -> tuple[ast.AST | None, bool]:
    """The loop directly around the call in its own function, and whether an `if` (or `try`)
    between the two guards it; (None, False) outside loops."""
    node = facts.node(site)
    if node is None:
        return None, False
    guarded = False
    for parent in facts.ancestors(node, site.callsite.span.cell):
        if isinstance(parent, LOOPS):
            return parent, guarded
        if isinstance(parent, SCOPES):
            return None, False
        if isinstance(parent, (ast.If, ast.IfExp, ast.Try, ast.ExceptHandler)):
            guarded = True
    return None, False


def own_body(loop: ast.AST) -> Iterator[ast.AST]:
    """Nodes of a loop's body and `else`, not entering nested loops, functions or classes."""
    todo = [*getattr(loop, "body", ()), *getattr(loop, "orelse", ())]
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (*LOOPS, *SCOPES)):
            todo.extend(ast.iter_child_nodes(node))


def is_step_loop(loop: ast.AST | None) -> bool:
    """A loop whose own body (not a nested loop's) runs a training step (`apply_gradients`,
    `minimize`, `train_on_batch`)."""
    if loop is None:
        return False
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in STEP_METHODS
        for n in own_body(loop)
    )


def guarded(facts: FileFacts, site: Site) -> bool:
    """Whether an `if` (or `try`) in the call's own function decides whether it runs."""
    node = facts.node(site)
    if node is None:
        return False
    for parent in facts.ancestors(node, site.callsite.span.cell):
        if isinstance(parent, SCOPES):
            return False
        if isinstance(parent, (ast.If, ast.IfExp, ast.Try, ast.ExceptHandler)):
            return True
    return False


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
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in STEP_METHODS
        and not flow.names(n.func.value) & changed
        for n in own_body(loop)
    )


def units(facts: FileFacts) -> list[ast.Module]:
    """The file's tree, or each notebook cell's, in order."""
    if isinstance(facts.source, str):
        return [m for m in [facts.module()] if m is not None]
    return [m for m in (facts.module(i) for i in range(1, len(facts.source) + 1)) if m is not None]


def text_mentions(facts: FileFacts, word: str) -> bool:
    source = facts.source
    return word in (source if isinstance(source, str) else "\n".join(source))


#: A pipeline of at most this many elements, known from its source, gains nothing worth a finding
#: from running its per-element work in parallel (a one-element `from_tensors`, a `range(30)` demo).
FEW_ELEMENTS = 32

_ONE_TO_ONE = frozenset({"map", "prefetch", "cache", "shuffle", "with_options", "filter", "apply", "enumerate"})


def pipeline_elements(facts: FileFacts, call: ast.Call, cell: int | None) -> int | None:
    """Elements of the `tf.data` pipeline a method (`map`, `interleave`) is called on, when its chain
    starts at a source that states them (`Dataset.from_tensors(x)`: 1; `Dataset.range` of literals;
    `from_tensor_slices` of a literal list), through `take`, `batch`, `repeat(k)` and one-to-one
    steps, and through one assignment of a name in the same scope. None when unknown."""
    expr = call.func.value if isinstance(call.func, ast.Attribute) else None
    steps: list[ast.Call] = []
    for _ in range(64):
        if isinstance(expr, ast.Name):
            expr = _assignment_before(facts, expr, cell)
            continue
        if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute)):
            return None
        source = _source_elements(expr)
        if source is not None:
            return _through(source, reversed(steps))
        steps.append(expr)
        expr = expr.func.value
    return None


def _int(node: ast.AST | None) -> int | None:
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def _source_elements(call: ast.Call) -> int | None:
    func = call.func
    owner = func.value if isinstance(func, ast.Attribute) else None
    named_dataset = (isinstance(owner, ast.Attribute) and owner.attr == "Dataset") or (
        isinstance(owner, ast.Name) and owner.id == "Dataset"
    )
    if not named_dataset or call.keywords:
        return None
    args = call.args
    if func.attr == "from_tensors" and len(args) == 1:
        return 1
    if func.attr == "from_tensor_slices" and len(args) == 1 and isinstance(args[0], ast.List):  # a tuple is a structure
        return len(args[0].elts)
    if func.attr == "range" and 1 <= len(args) <= 3:
        bounds = [_int(a) for a in args]
        if None in bounds:
            return None
        return len(range(*bounds)) if bounds[-1] != 0 or len(bounds) < 3 else None
    return None


def _through(count: int, steps) -> int | None:
    """The element count after the chain's steps (innermost first)."""
    for step in steps:
        name, args = step.func.attr, step.args
        if name in _ONE_TO_ONE:
            continue
        if name == "take" and args and _int(args[0]) is not None and _int(args[0]) >= 0:
            count = min(count, _int(args[0]))
        elif name in ("batch", "padded_batch") and args and _int(args[0]):
            count = -(-count // _int(args[0]))
        elif name == "repeat" and args and _int(args[0]) is not None and _int(args[0]) >= 0:
            count *= _int(args[0])
        else:
            return None
    return count


def _assignment_before(facts: FileFacts, name: ast.Name, cell: int | None) -> ast.expr | None:
    """The value last assigned to `name` before its use, by a plain statement of the same scope
    (not under an `if`, a loop or a `try`); None when there is none or it is conditional."""
    scope = next((a for a in facts.ancestors(name, cell) if isinstance(a, SCOPES)), None)
    if scope is None:
        return None
    found = None
    for node in ast.walk(scope):
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if not isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) or node.lineno >= name.lineno:
            continue
        if any(isinstance(t, ast.Name) and t.id == name.id for t in targets):
            if found is None or node.lineno > found.lineno:
                found = node
    if found is None or isinstance(found, ast.AugAssign):
        return None
    if next((a for a in facts.ancestors(found, cell) if isinstance(a, (*SCOPES, *LOOPS, ast.If, ast.Try))), None) is not scope:
        return None
    return found.value


def few_elements(facts: FileFacts, site: Site) -> bool:
    """Whether the pipeline a `map`/`interleave` works on is known to hold at most `FEW_ELEMENTS`."""
    node = facts.node(site)
    count = None if node is None else pipeline_elements(facts, node, site.callsite.span.cell)
    return count is not None and count <= FEW_ELEMENTS
