"""TF1 training loops that end at a global step: `with tf.train.MonitoredTrainingSession(hooks=[
tf.train.StopAtStepHook(last_step=N)]) as sess: while not sess.should_stop(): sess.run(train_op)`.

A `StopAtStepHook` stops the session once the graph's global step reaches its `last_step` (or
`num_steps` past the step it began at), so the loop's trips are the steps only where each trip moves
the global step by one: the body's one session run of an optimizer's update given that step
(`opt.minimize(loss, global_step=gs)`, `apply_gradients(..., global_step=gs)`, slim's
`create_train_op`, whose default is the graph's global step), at the body's top level, with no
`continue` before it. Then the loop runs at most N trips (UPPER: the step may start at a checkpoint's,
an input running out ends it sooner). A loop whose runs move no global step known here, or move it
under a condition or more than once a trip, never ends at that step as far as greenlint can tell: its
length stays unknown, and so does one whose session holds no hook of a literal step count.

`while step < n:` whose body binds `step`, at its top level, from a session run of a global step that
starts at 0 (`tf.train.get_or_create_global_step()`, `tf.Variable(0)`) and runs at its top level an update
moving that step, runs at most n + 1 trips (UPPER: a read may come before the trip's own step).
"""

from __future__ import annotations

import ast
from typing import Any

from greenlint.analysis.slim_training import STOP_HOOK, hook_steps
from greenlint.analysis.values import Const, Inst

#: The monitored sessions that run hooks, and the meta key of the hooks one is given.
MONITORED = frozenset(
    {
        "tensorflow.compat.v1.train.MonitoredTrainingSession",
        "tensorflow.compat.v1.train.MonitoredSession",
        "tensorflow.compat.v1.train.SingularMonitoredSession",
    }
)
HOOKS = "hooks"
#: The meta key of an optimizer's update that adds one to a global step each run (the step's value, or
#: True where it is not known).
STEPS = "steps_global"
#: The functions making the graph's global step, a variable starting at 0, and the meta key marking it.
CREATORS = frozenset(
    {
        "tensorflow.compat.v1.train.get_or_create_global_step",
        "tensorflow.compat.v1.train.create_global_step",
    }
)
FROM_ZERO = "from_zero"


def session_meta(api: str, named: dict) -> dict:
    """The meta a monitored session *api* keeps of its arguments (*named*): the hooks it is given; and that
    of a global step made by *api*: that it starts at 0."""
    if api in CREATORS:
        return {FROM_ZERO: True}
    return {HOOKS: named[HOOKS]} if api in MONITORED and HOOKS in named else {}


def starts_at_zero(step: Any) -> bool:
    """Whether *step* is a variable starting at 0: the graph's global step, or `tf.Variable(0)`."""
    if type(step) is not Inst:
        return False
    return bool(step.meta.get(FROM_ZERO)) or (
        step.cls.endswith(".Variable") and (step.meta.get("init") or {}).get("initial_value", None) == 0
    )


def moves_step(named: dict, default: bool = False) -> bool:
    """Whether an update given the arguments *named* adds one to a global step each run: its `global_step`
    given a value not known to be None (*default*: what leaving it out does: nothing for an optimizer's
    update, the graph's step for slim's `create_train_op`)."""
    if "global_step" not in named:
        return default
    step = named["global_step"]
    return not (type(step) is Const and step.value is None)


def session_of(test: ast.expr) -> str | None:
    """The name of the session of a loop test `not sess.should_stop()`, None for other tests."""
    if type(test) is not ast.UnaryOp or type(test.op) is not ast.Not:
        return None
    call = test.operand
    if type(call) is not ast.Call or call.args or call.keywords or type(call.func) is not ast.Attribute:
        return None
    owner = call.func.value
    return owner.id if call.func.attr == "should_stop" and type(owner) is ast.Name else None


def session_runs(body: list[ast.stmt], session: str) -> list[tuple[ast.Call, bool]]:
    """The `session.run(...)` calls of a loop body (nested functions and classes left out), each with
    whether it is a statement of its top level (alone or assigned)."""
    top = {id(stmt.value) for stmt in body if isinstance(stmt, (ast.Expr, ast.Assign))}
    every = []
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Call) and _runs(node, session):
            every.append((node, id(node) in top))
        stack.extend(ast.iter_child_nodes(node))
    return every


def _runs(node: Any, session: str) -> bool:
    return (
        type(node) is ast.Call
        and type(node.func) is ast.Attribute
        and node.func.attr == "run"
        and type(node.func.value) is ast.Name
        and node.func.value.id == session
    )


def stepping(fetched: list, step: Any = None) -> bool:
    """Whether the values *fetched* by a run hold an update that adds one to a global step (to *step*,
    where given)."""
    return any(
        type(v) is Inst and (v.meta.get(STEPS) is step if step is not None else v.meta.get(STEPS)) for v in fetched
    )


def loop_trips(session: Any, steps: list[bool], top: list[bool]) -> tuple[int | None, bool, str]:
    """The trips of `while not sess.should_stop():` over *session*, whose body's session runs each move
    the global step or not (*steps*) and are at its top level or not (*top*): at most the step count of its
    `StopAtStepHook` where a run at the top level moves the step (None otherwise); whether that count is the
    step it stops at (`last_step`: the loop resumes at a checkpoint's step); the command-line options whose
    defaults it is."""
    if type(session) is not Inst or session.cls not in MONITORED or not any(s and t for s, t in zip(steps, top)):
        return None, False, ""
    hooks = session.meta.get(HOOKS)
    found, _ = hook_steps(hooks)
    hook = next((h for h in getattr(hooks, "items", ()) if type(h) is Inst and h.cls.endswith("." + STOP_HOOK)), None)
    if found.count is None or hook is None:
        return None, False, ""
    init = hook.meta.get("init") or {}
    return found.count, "num_steps" not in init, ", ".join(hook.meta.get("options", ()))


def counter_trips(bound: Any, inclusive: bool) -> int | None:
    """The most trips of `while step < bound:` (`<=`: *inclusive*) where each trip reads into `step` a
    global step starting at 0 that each trip moves: a read may come before the trip's own step, so
    trip k reads at least k - 1, and one more trip than the bound may run (None: no literal bound)."""
    if type(bound) is not Const or type(bound.value) is not int or bound.value < 0:
        return None
    return bound.value + (2 if inclusive else 1)


def read_into(body: list[ast.stmt], name: str) -> tuple[ast.Call, int | None, str] | None:
    """The top-level statement of a loop body binding *name* from a session run (`step = sess.run(gs)`,
    `_, step = sess.run([train_op, gs])`): the run, the position among its listed fetches of what *name*
    is given (None: the whole fetch), and the session's name; None where no such statement binds it."""
    for stmt in body:
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1 or not isinstance(stmt.value, ast.Call):
            continue
        call, target = stmt.value, stmt.targets[0]
        if not isinstance(call.func, ast.Attribute) or call.func.attr != "run" or not call.args:
            continue
        if not isinstance(call.func.value, ast.Name):
            continue
        session = call.func.value.id
        if isinstance(target, ast.Name) and target.id == name:
            return call, None, session
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(call.args[0], (ast.List, ast.Tuple)):
            at = [i for i, t in enumerate(target.elts) if isinstance(t, ast.Name) and t.id == name]
            if len(at) == 1 and len(target.elts) == len(call.args[0].elts):
                return call, at[0], session
    return None
