"""Loop-carried calls: a call in a loop whose result flows into its own input on the next pass
(an autoregressive forecast, a generated token appended to the prompt), so the passes run one
after the other and their calls cannot be made one batched call."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts
from greenlint.rules.syntax import GROWS, Loop, block_nodes, own_loops


def carried(facts: FileFacts, call: ast.Call, cell: int | None) -> bool:
    """The value *call* returns reaches the names its arguments read within the innermost loop
    of its function around it: through assignments (`x = np.concatenate([x, y])`), a list grown
    by it (`seq.append(y)`), or a name bound under a test that reads it (`if index == predicted:
    word = w`) that a later pass reads before binding it again; not through the loop's own variable,
    nor a name each pass binds afresh before reading it (`flow.next_pass`)."""
    loops = own_loops(facts, call, cell)
    statement = next((a for a in facts.ancestors(call, cell) if isinstance(a, ast.stmt)), None)
    if not loops or statement is None:
        return False
    loop = loops[0]
    fresh = flow.targets(loop.target) if isinstance(loop, (ast.For, ast.AsyncFor)) else frozenset()
    read = frozenset().union(*(flow.names(a) for a in (*call.args, *(k.value for k in call.keywords)))) - fresh
    seeds = _bound(statement)
    return bool(read & flow.next_pass(seeds, loop.body, fresh, handed_on(loop))) if seeds else False


def handed_on(loop: Loop) -> list[tuple[frozenset, frozenset, bool]]:
    """`flow.assignments` of a loop's body, with the names bound under a test that reads others
    (`_controlled`) and the lists grown (`_grown`): how one pass's values reach the next."""
    nodes = list(block_nodes(loop.body))
    return [*flow.assignments(loop.body), *_controlled(nodes), *_grown(nodes)]


def _bound(statement: ast.stmt) -> frozenset:
    """The names a statement binds: its targets, or the list it grows."""
    if isinstance(statement, ast.Assign):
        return frozenset().union(*(flow.targets(t) for t in statement.targets))
    if isinstance(statement, (ast.AugAssign, ast.AnnAssign)):
        return flow.targets(statement.target)
    return frozenset(grown for grown, _, _ in _grown(block_nodes([statement])))


def _controlled(nodes: Iterable[ast.AST]) -> list[tuple[frozenset, frozenset, bool]]:
    """(names bound, names the test reads, fresh) for each `if`/`while` among *nodes* (a block's
    `block_nodes`): what its branches bind depends on its test."""
    found = []
    for node in nodes:
        if isinstance(node, (ast.If, ast.While)):
            bound = frozenset().union(*(b for b, _, _ in flow.assignments([*node.body, *node.orelse])))
            if bound:
                found.append((bound, flow.names(node.test), False))
    return found


def _grown(nodes: Iterable[ast.AST]) -> list[tuple[frozenset, frozenset, bool]]:
    """(the list, names added, fresh) for each `seq.append(y)` / `seq.extend(ys)` statement among *nodes*."""
    found = []
    for node in nodes:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            func = node.value.func
            if isinstance(func, ast.Attribute) and func.attr in GROWS and isinstance(func.value, ast.Name):
                read = frozenset().union(*(flow.names(a) for a in node.value.args))
                found.append((frozenset((func.value.id,)), read, False))
    return found

