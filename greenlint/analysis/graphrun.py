"""The work of running a TF1 graph: `sess.run(fetches, feed_dict=...)` (docs/calls-json.md `step`).

A session's `run` whose fetches include an optimizer's update (`opt.minimize(loss)`,
`opt.apply_gradients(...)`: the op the resolver marks with meta "train_op"; `tf.group` of ops among
which is one, `grouped`; an op built under `tf.control_dependencies` of one, `dependent`), in a list, tuple or dict of fetches at any depth, is one training step of
the graph on the batch fed: `step` "training", `samples` the rows of the fed arrays where the code
shows them (`feed_dict={x: batch}` with `batch = data[i:i + 64]`). Any other run (a loss fetched
alone, `loss.eval(feed)`, a policy's forward pass, an enqueue) is one run of the graph: `step`
"inference" on the batch fed. `flops_per_sample` is the forward pass of the graph the fetches are
computed by, followed from the placeholders (symops.py: the loss `minimize` was given, the tensors
fetched), a lower bound where some op's work is not known; unknown where no fetch was followed
back to a placeholder, so that the run is priced at least as one step of a graph run (a floor),
never as another program's measured `Session.run`. A training step costs about 3 such passes
(the backward pass: predict/work_energy.py). `params` is the weights of that graph where every op of it is
known. A `Saver` built with no `var_list` after a graph's optimizer update writes every variable of the
graph, so its `save(sess, ...)` writes at least the weights of the largest graph that session trained
(`params`, a lower bound: other graphs' variables besides) and, where that graph's update is a known
optimizer's `minimize(loss)` of every trainable variable (no `var_list`), the slots it keeps for each
(`optimizer_slots`: Adam's two moments).
"""

from __future__ import annotations

from typing import Any

from greenlint.analysis.arrays import Sym, is_sym
from greenlint.analysis.callsite import Quantity, Work
from greenlint.analysis.global_step import STEPS, moves_step
from greenlint.analysis.slots import TF1 as TF1_SLOTS
from greenlint.analysis.values import Inst, Kw, Seq
from greenlint.analysis.work import INFERRED, UNKNOWN, Net, merge_syms, q, sym_net

#: Optimizer methods whose TF1 result is the update op a training step fetches.
UPDATE_METHODS = frozenset({"minimize", "apply_gradients"})
#: What a TF1 optimizer's `compute_gradients(loss)` gives (meta "loss": the loss's Sym), which the
#: `apply_gradients` given it trains.
GRADIENTS = "tensorflow.compat.v1.train.Optimizer.compute_gradients"
#: TF1's `Saver` and its `save`; the meta of a Saver given no variables (the line it is built at), and of a
#: session (the weights of the largest graph it trained, the line of that graph's update).
SAVER = "tensorflow.compat.v1.train.Saver"
SAVER_SAVE = f"{SAVER}.save"
SAVES_ALL = "saves_all"
TRAINED = "trained_params"
#: The meta key of an update's slots per weight (slots.py), where it trains every variable of its graph.
UPDATE_SLOTS = "slots"
#: The meta key of the module an update was built in, where that is not the checked file (`ops.py`): its
#: "train_op" line is that module's.
BUILT_IN = "train_op_in"
#: What an op that runs an update keeps of it (`grouped`, `dependent`).
UPDATE_KEYS = ("train_op", BUILT_IN, "sym", UPDATE_SLOTS, STEPS)
#: The class a TF1 optimizer's update returns.
OPERATION = "tensorflow.Operation"
#: The op that runs all the ops it is given (`tf.group(update_ops, train_op)`), and the op that runs nothing
#: but the ops it is built under (`with tf.control_dependencies([update]): train_op = tf.no_op()`).
GROUP = "tensorflow.group"
NO_OP = "tensorflow.no_op"
#: The context under which every op built runs the ops it is given first
#: (`with tf.control_dependencies([d_optim, g_optim]): k_update = tf.assign(...)`).
CONTROL_DEPENDENCIES = "tensorflow.control_dependencies"
#: `keras.backend.function`, and the API of calling what it returns.
BACKEND_FUNCTION = "tensorflow.keras.backend.function"
FUNCTION_CALL = f"{BACKEND_FUNCTION}.__call__"


def fetched(value: Any) -> list:
    """The values fetched: the fetches themselves, or the items of a fetched list, tuple or dict
    (`sess.run({"train": train_op, "loss": loss})`, the values of its literal keys), at any depth."""
    if type(value) is Seq:
        return [item for inner in value.items for item in fetched(inner)]
    if type(value) is Kw:
        return [item for inner in value.items.values() for item in fetched(inner)]
    return [value]


def is_update(value: Any) -> bool:
    """Whether *value* is an op whose run is a training step: an optimizer's update, or an op that runs one."""
    return type(value) is Inst and value.meta.get("train_op") is not None


def grouped(ops: list) -> dict:
    """The meta of `tf.group(*ops)`: an optimizer's update among *ops* (a list of them included) makes
    the group the training step's op, computed by that update's graph; {} otherwise."""
    updates = (v for v in fetched(Seq(tuple(ops))) if is_update(v))
    update = next(updates, None)
    return {k: v for k, v in update.meta.items() if k in UPDATE_KEYS} if update is not None else {}


def dependent(meta: dict, dependencies: list[dict]) -> None:
    """Give the op of *meta*, built under enclosing `tf.control_dependencies` contexts whose `grouped`
    metas are *dependencies*, the optimizer's update it runs first: running the op is a training step
    (its own graph kept where it has one)."""
    update = next((d for d in reversed(dependencies) if d), None)
    if update is not None and "train_op" not in meta:
        meta.update({k: v for k, v in update.items() if k in UPDATE_KEYS and k != "sym"})
        if "sym" in update:
            meta.setdefault("sym", update["sym"])


def update_meta(optimizer: Any, method: str, named: dict, line: int, built_in: str | None, stepped: bool = False) -> dict:
    """The meta of a TF1 optimizer's update built at *line* (`opt.minimize(loss)`, *method* of
    *optimizer*; *built_in*: the module, where not the checked file): what a training step fetches, with
    the slots per weight it keeps (slots.py) where it is a `minimize` of every trainable variable (no
    `var_list`: the graph's weights its loss reaches), and whether each run adds one to a global step (its
    `global_step`; *stepped*: what leaving it out does)."""
    meta: dict = built(line, built_in)
    if moves_step(named, stepped):
        meta[STEPS] = named.get("global_step") or True
    slots = TF1_SLOTS.get(optimizer.cls) if type(optimizer) is Inst else None
    if method == "minimize" and "var_list" not in named and slots is not None:
        meta[UPDATE_SLOTS] = slots
    return meta


def built(line: int, built_in: str | None) -> dict:
    """The meta of an update built at *line* of the module *built_in* (None: the checked file)."""
    return {"train_op": line} if built_in is None else {"train_op": line, BUILT_IN: built_in}


def _update(fetches: Any) -> Inst | None:
    """The optimizer's update among *fetches*, or None."""
    return next((value for value in fetched(fetches) if is_update(value)), None)


def train_op_line(fetches: Any) -> int | None:
    """The line of the optimizer's update among *fetches*, or None."""
    update = _update(fetches)
    return None if update is None else update.meta["train_op"]


def _built_at(update: Inst) -> str:
    """Where *update* was built: `line 12`, `ops.py line 12` where another module built it."""
    module = update.meta.get(BUILT_IN)
    return f"{module} line {update.meta['train_op']}" if module else f"line {update.meta['train_op']}"


def run_work(fetches: Any, fed_rows: int | None) -> Work:
    """The work of a session's `run` of *fetches* (or of a tensor's `eval`: the tensor), fed arrays of
    *fed_rows* rows (None: not known)."""
    update = _update(fetches)
    if update is None:
        step = q("inference", INFERRED, "runs the graph of its fetches once, no optimizer update found among them: "
                                        "one run of the graph on the batch fed")
    else:
        step = q("training", INFERRED, f"fetches the optimizer's update built at {_built_at(update)}: one training "
                                       "step of the graph on the batch fed")
    graph = _graph(fetches)
    if fed_rows is not None:
        samples = q(fed_rows, INFERRED, "the rows of the arrays fed")
    elif graph is not None and graph.batch is not None:
        samples = q(graph.batch, INFERRED, "the batch the graph's inputs hold each run (a queue's or an iterator's "
                                           "batch, a placeholder's literal first axis)")
    else:
        samples = q(None, UNKNOWN, "the batch fed is not known from the code")
    net = sym_net(graph) if graph is not None else None
    work = {"step": step, "samples": samples, "flops_per_sample": _forward(net)}
    if net is not None and not net.partial and net.params:  # (one unknown op may hold variables: no part)
        work["params"] = q(net.params, INFERRED, "the weights of the graph the fetches are computed by (its "
                                                 "layers' variables)")
    return work


def _graph(fetches: Any) -> Sym | None:
    """The graph *fetches* are computed by (the ops of all of them, once); None where none is symbolic."""
    syms = [v.meta["sym"] for v in fetched(fetches) if is_sym(v)]
    return merge_syms(syms, None) if syms else None


def forward(fetches: Any) -> Quantity:
    """The forward FLOPs per sample of the graph *fetches* are computed by (the ops of all of them, once)."""
    graph = _graph(fetches)
    return _forward(sym_net(graph) if graph is not None else None)


def _forward(net: Net | None) -> Quantity:
    if net is None or not net.flops:
        return q(None, UNKNOWN, "the graph the fetches depend on is not followed back to its placeholders"
                 if net is None else "no op of known work among those the fetches depend on")
    note = "the forward pass of the graph the fetches are computed by, from its placeholders"
    if net.partial_flops:
        return q(net.flops, INFERRED, f"{note}; the ops of known work alone ({net.note})", bound="lower")
    return q(net.flops, INFERRED, note)


def trained(session: Any, fetches: Any, work: Work) -> None:
    """Keep on *session* (a TF1 session's value) the weights of the largest graph a training step it ran
    updates (*work*: the run of *fetches*), the line of that update and its slots per weight (None: not
    known), which a `Saver` built after that graph writes at least (`save_work`)."""
    if type(session) is not Inst or "params" not in work or work["step"].value != "training":
        return
    update = _update(fetches)
    if update is not None and work["params"].value > session.meta.get(TRAINED, (0, 0, None))[0]:
        session.meta[TRAINED] = (work["params"].value, update.meta["train_op"], update.meta.get(UPDATE_SLOTS))


def saver_meta(named: dict, line: int) -> dict:
    """The meta of `tf.train.Saver(...)` built at *line*: that line where it is given no variables
    (`var_list`), so that it writes every variable of the graph then built; {} otherwise."""
    return {} if "var_list" in named else {SAVES_ALL: line}


def save_work(saver: Any, session: Any) -> Work:
    """The work of `saver.save(sess, path)`: at least the weights of the largest graph *session* trained,
    and the slots its update keeps for each where known (`optimizer_slots`), where *saver* writes every
    variable of the graph and was built after that graph's optimizer update (the variables then
    existed); {} otherwise."""
    built = saver.meta.get(SAVES_ALL) if type(saver) is Inst else None
    found = session.meta.get(TRAINED) if type(session) is Inst else None
    if built is None or found is None or built < found[1]:
        return {}
    params, line, slots = found
    work = {"params": q(params, INFERRED, "the weights of the graph the session trains, which the Saver "
                                          "(given no var_list) writes with every other variable", bound="lower")}
    if slots is not None:
        work["optimizer_slots"] = q(slots, INFERRED, f"the slot variables per weight that the optimizer's update "
                                                     f"at line {line} keeps, which the Saver writes too")
    return work


def function_work(line: int | None, rows: int | None, net: Work) -> Work:
    """The work of calling what `K.function(...)` (at *line*; None: in another function's call) returned,
    on input arrays of *rows* rows (None: not known); *net*: the params and FLOPs per sample of the
    model layers its outputs are reached through, where known (`K.function([model.input],
    [model.output])`), else {}."""
    built = f"K.function built at line {line}" if line is not None else "that a K.function built"
    return {
        "step": q("inference", INFERRED, f"runs the graph {built} from its inputs to its "
                                         "outputs once: one run of the graph on the arrays given"),
        "samples": q(rows, INFERRED, "the rows of the first array given") if rows is not None
        else q(None, UNKNOWN, "the arrays given are not known from the code"),
        "flops_per_sample": q(None, UNKNOWN, "the graph from the function's inputs to its outputs is not known"),
        **net,
    }
