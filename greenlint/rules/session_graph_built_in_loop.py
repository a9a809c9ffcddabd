"""GL506 session-graph-built-in-loop: a TF1 graph built anew each time a loop runs the code that runs it."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, last_name
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.syntax import (
    calls_by_name,
    enclosing,
    is_method,
    own_loops,
    scope_body,
    target_binds,
)

#: Session methods that run a graph element (the fetch, their first argument).
RUNS = ("Session.run", "InteractiveSession.run")
#: Calls that give the code a fresh graph, or empty the default one: a graph built after them does
#: not pile up on the earlier copies.
FRESH = frozenset({"reset_default_graph", "clear_session", "as_default", "Graph", "import_graph_def"})
#: A function a call can name.
Named = ast.FunctionDef | ast.AsyncFunctionDef
#: Decorators that keep a function's result: the ops it builds are built on its first call only.
CACHES = frozenset({"lru_cache", "cache", "cached_property"})
#: Caller levels followed up from the function that builds and runs the graph to a loop calling it.
CALLERS = 3


class Repeat(NamedTuple):
    """The loop that repeats the building, and how it reaches it."""

    loop: ast.For | ast.AsyncFor | ast.While
    where: str  # "" for a loop of the function itself, else " (line 13, through `f()`)"


class SessionGraphBuiltInLoop(Rule):
    """
    ## What it does
    Flags, in a TensorFlow 1 program, a `Session.run` whose fetch is built in the same function
    just before it (`output = sample_sequence(...)`, `pred = model(x)`, the fetch a name bound by
    a call there, not read from an attribute or a getter; or a list of ops built there, one per
    variable: `ops = []` then `ops.append(t.assign(s))`, or `[t.assign(s) for ...]`, a target
    network's copy), where a Python loop runs that building more than once: a loop of the function around it, or a loop of the file that calls
    the function (directly, or through up to three functions of the file that call it). The
    finding is at the call that builds the fetch. Not reported: code that starts from a fresh
    graph each time (`tf.reset_default_graph()`, `with tf.Graph().as_default():`,
    `keras.backend.clear_session()`, `import_graph_def` in the function or in the loop), a
    fetch made by a getter (`get_tensor_by_name`, `get_collection`: the graph is read, not
    built), a fetch a function of the file hands back built before (one that makes no call and
    no operation, `return self._output`; one that builds on its first call and keeps it, `if
    self._output is None: self._output = ...`; one cached by `functools.lru_cache` or `cache`),
    and a fetch bound outside the function (built once, run many times: the intended use). A
    function of another module or of a library is taken to build what it returns.

    The same holds for a run of what `K.function(...)` returned (`f([x, 0])`, or a call of another
    module's function given it, which calls it: `calculate_cam(face, gradient_function)`), the function
    bound in the same way by a call (`gradient_function = compile_gradient_function(model, ...)`, which
    builds the gradient graph it wraps) that a loop repeats. `K.function(...)` itself is not taken as
    such a build: it wraps ops built before it.

    ## Why is this bad?
    TensorFlow 1 adds every op a call builds to the default graph, which the session keeps: a
    sampling or inference graph built inside a loop is copied once per pass, the graph growing
    without end, and each new copy is pruned, placed and optimised again on its first run
    (seconds for a large model), which an earlier copy had already done; memory grows with
    every copy too. Building the graph once, outside the loop, with a placeholder for what
    changes between passes (a prompt, a length), runs the same ops at the cost of one build.

    ## Example
    ```python
    import tensorflow as tf

    def generate(sess, prompt):
        output = build_sampler(prompt)
        return sess.run(output)

    for prompt in prompts:
        print(generate(sess, prompt))
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    context = tf.compat.v1.placeholder(tf.int32, [1, None])
    output = build_sampler(context)

    for prompt in prompts:
        print(sess.run(output, feed_dict={context: [encode(prompt)]}))
    ```

    ## Energy evidence
    The pair under bench/rules/ samples 20 tokens greedily, 4 samples at once, after each of 8
    prompts with a small recurrent model (256 units, 4,000 tokens) in a TensorFlow 1 session:
    before, the sampler's graph (its 20 steps unrolled) built again for every prompt, the graph
    growing run after run; after, built once on a placeholder fed each prompt. The saving is the
    builds and their first-run optimisation but one, against the sampling itself: nearly all of
    it beside this small model's sampling, less where the sampling is long and the model large.

    ## Fix safety
    No automatic fix: what changes between passes must become a placeholder or a variable.

    ## Options
    None.
    """

    code = "GL506"
    name = "session-graph-built-in-loop"
    CALLS = frozenset({"run", "__call__"})
    MESSAGE = (
        "`{build}` builds the graph that `{run}` runs, and `{loop}`{where} repeats it: each pass adds another copy"
        " of these ops to the session's graph, which grows without end and optimises each copy again on its first"
        " run; build it once, outside the loop, and feed what changes through a placeholder"
    )
    FIX_TITLE = "Build the graph once, outside the loop, with a placeholder for what changes"
    VALID = (
        Valid(  # built once, run in the loop: the intended use
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\ndef generate(sess, output):\n"
            "    return sess.run(output)\noutput = build_sampler()\nfor p in prompts:\n    generate(sess, output)\n"
        ),
        Valid(  # a fresh graph on every pass
            "import tensorflow as tf\ndef generate(prompt):\n    with tf.Graph().as_default():\n"
            "        output = build_sampler(prompt)\n        with tf.compat.v1.Session() as sess:\n"
            "            return sess.run(output)\nfor p in prompts:\n    generate(p)\n"
        ),
        Valid(  # the default graph emptied in the loop
            "import tensorflow as tf\ndef generate(sess, prompt):\n    output = build_sampler(prompt)\n"
            "    return sess.run(output)\nfor p in prompts:\n    tf.compat.v1.reset_default_graph()\n"
            "    sess = tf.compat.v1.Session()\n    generate(sess, p)\n"
        ),
        Valid(  # a notebook's helper empties the default graph on every pass of a search
            "import tensorflow as tf\ndef reset_graph():\n    tf.compat.v1.reset_default_graph()\n"
            "for lr in rates:\n    reset_graph()\n    loss, init = build(lr)\n"
            "    with tf.compat.v1.Session() as sess:\n        sess.run(init)\n"
        ),
        Valid(  # a getter reads the graph, builds nothing
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\ndef generate(sess):\n"
            "    output = sess.graph.get_tensor_by_name('out:0')\n    return sess.run(output)\n"
            "for p in prompts:\n    generate(sess)\n"
        ),
        Valid(  # a getter of the file hands back the ops built once in __init__
            "import tensorflow as tf\nclass Sampler:\n    def __init__(self):\n        self._output = build_sampler()\n"
            "    def output(self):\n        return self._output\n    def generate(self, sess):\n"
            "        out = self.output()\n        return sess.run(out)\n"
            "sess = tf.compat.v1.Session()\ns = Sampler()\nfor p in prompts:\n    s.generate(sess)\n"
        ),
        Valid(  # built on the first call and kept
            "import tensorflow as tf\nclass Sampler:\n    _output = None\n    def output(self):\n"
            "        if self._output is None:\n            self._output = build_sampler()\n        return self._output\n"
            "    def generate(self, sess):\n        out = self.output()\n        return sess.run(out)\n"
            "sess = tf.compat.v1.Session()\ns = Sampler()\nfor p in prompts:\n    s.generate(sess)\n"
        ),
        Valid(  # a builder of the file cached by functools: built on its first call only
            "import functools\nimport tensorflow as tf\n@functools.lru_cache(maxsize=None)\ndef sampler(length):\n"
            "    return build_sampler(length)\nsess = tf.compat.v1.Session()\nfor p in prompts:\n"
            "    out = sampler(100)\n    print(sess.run(out))\n"
        ),
        Valid(  # the gradient function built once, run per face: the intended use
            "from keras import backend as K\n\ndef gradients(model, index):\n    loss = K.sum(model.output[:, index])\n"
            "    return K.function([model.input], K.gradients(loss, [model.input]))\n\n"
            "function = gradients(model, 0)\nfor face in faces:\n    print(function([face]))\n"
        ),
        Valid(  # `K.function` itself in the loop wraps ops built before it: no new model ops
            "from keras import backend as K\nfor face in faces:\n    function = K.function([model.input], [model.output])\n"
            "    print(function([face]))\n"
        ),
        Valid(  # a chain that ends in what the function is given: nothing built per call
            "import tensorflow as tf\ndef show(sess, fetched):\n    image = tf.concat([a, b], 2)\n"
            "    image = fetched\n    return sess.run(image)\nsess = tf.compat.v1.Session()\n"
            "for p in prompts:\n    show(sess, out)\n"
        ),
        Valid(  # a chain whose last binding is under a branch: which binding the run fetches is not known here
            "import tensorflow as tf\ndef show(sess, ready):\n    image = ready\n    if ready is None:\n"
            "        image = tf.concat([a, b], 2)\n    return sess.run(image)\nsess = tf.compat.v1.Session()\n"
            "for p in prompts:\n    show(sess, None)\n"
        ),
        Valid(  # the copy ops built per variable, but by a function called once, before the loop
            "import tensorflow as tf\ndef sync(sess, source, target):\n    ops = []\n"
            "    for s, t in zip(source, target):\n        ops.append(t.assign(s))\n    sess.run(ops)\n"
            "sess = tf.compat.v1.Session()\nsync(sess, online, frozen)\nfor step in range(1000):\n"
            "    sess.run(train_op)\n"
        ),
        Valid(  # the copy ops built once, on the first call, and kept: run every 100 steps
            "import tensorflow as tf\nclass Agent:\n    _copy = None\n    def copy_ops(self):\n"
            "        if self._copy is None:\n            self._copy = [t.assign(s) for s, t in zip(self.a, self.b)]\n"
            "        return self._copy\n    def sync(self, sess):\n        ops = self.copy_ops()\n"
            "        sess.run(ops)\nagent = Agent()\nsess = tf.compat.v1.Session()\nfor step in range(1000):\n"
            "    if step % 100 == 0:\n        agent.sync(sess)\n"
        ),
        Valid(  # the copy ops built once, in `__init__`, and run every 100 steps: the intended use
            "import tensorflow as tf\nclass Copier:\n    def __init__(self, source, target):\n"
            "        self.ops = []\n        for s, t in zip(source, target):\n            self.ops.append(t.assign(s))\n"
            "    def copy(self, sess):\n        sess.run(self.ops)\ncopier = Copier(online, frozen)\n"
            "sess = tf.compat.v1.Session()\nfor step in range(1000):\n    if step % 100 == 0:\n        copier.copy(sess)\n"
        ),
        Valid(  # a list of tensors read from the graph, not built: the loop runs the same ops
            "import tensorflow as tf\ndef fetch(sess, names):\n    outputs = []\n    for n in names:\n"
            "        outputs.append(sess.graph.get_tensor_by_name(n))\n    return sess.run(outputs)\n"
            "sess = tf.compat.v1.Session()\nfor batch in batches:\n    fetch(sess, ['a:0', 'b:0'])\n"
        ),
        Valid(  # built and run once: no loop repeats it
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\ndef generate(sess, prompt):\n"
            "    output = build_sampler(prompt)\n    return sess.run(output)\ngenerate(sess, 'a')\n"
        ),
    )
    INVALID = (
        Invalid(  # a gradient function of the file built per face, then run: its graph copied per pass
            "from keras import backend as K\n\ndef gradients(model, index):\n    loss = K.sum(model.output[:, index])\n"
            "    return K.function([model.input], K.gradients(loss, [model.input]))\n\n"
            "for face in faces:\n    function = gradients(model, 0)\n    print(function([face]))\n",
            line=8,
            message_contains="`gradients(...)` builds the graph that `function(...)` runs",
        ),
        Invalid(  # a sampling graph built per call, the function called per file through a wrapper
            "import tensorflow as tf\n\ndef generate(sess, length=1023):\n"
            "    output = sample.sample_sequence(length=length)[:, 1:]\n    return sess.run(output)\n\n"
            "def generate_to_file(sess, path):\n    generate(sess)\n\n"
            "def cmd(nfiles):\n    sess = tf.compat.v1.Session()\n    for _ in range(nfiles):\n"
            "        generate_to_file(sess, 'out.txt')\n",
            line=4,
            message_contains="`sample.sample_sequence(...)` builds the graph that `sess.run(output)` runs,"
            " and `for _ in range(nfiles)` (line 12, through `generate_to_file()`) repeats it",
        ),
        Invalid(  # a helper of the file that only slices what it is given still adds an op per call
            "import tensorflow as tf\ndef last(t):\n    return t[:, -1]\nsess = tf.compat.v1.Session()\n"
            "for p in prompts:\n    out = last(logits)\n    print(sess.run(out))\n",
            line=6,
        ),
        Invalid(  # a preview image built by a chain of ops per call, the function called every 200 steps
            "import tensorflow as tf\n\ndef preview(sess, feature, label, size):\n"
            "    image = tf.concat([tf.image.resize(feature, size), label], 2)\n    image = image[0:8]\n"
            "    image = tf.concat([image[i] for i in range(8)], 0)\n    image = sess.run(image)\n    return image\n\n"
            "def train(sess, train_op, feature, label):\n    step = 0\n    while True:\n"
            "        sess.run(train_op)\n        step += 1\n        if step % 200 == 0:\n"
            "            preview(sess, feature, label, [64, 64])\n",
            line=6,
            message_contains="`tf.concat(...)` builds the graph that `sess.run(image)` runs, and `while True` (line 12)",
        ),
        Invalid(  # an assign op built per variable at each call, the function called every 100 steps
            "import tensorflow as tf\n\ndef sync(sess, source, target):\n    ops = []\n"
            "    for s, t in zip(source, target):\n        op = t.assign(s)\n        ops.append(op)\n"
            "    sess.run(ops)\n\ndef train(sess, online, frozen):\n    for step in range(100000):\n"
            "        sess.run(train_op)\n        if step % 100 == 0:\n            sync(sess, online, frozen)\n",
            line=6,
            message_contains="`t.assign(...)` builds the graph that `sess.run(ops)` runs, and `for step in range(100000)`"
            " (line 11)",
        ),
        Invalid(  # the assign ops of a comprehension, in the loop that runs them
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\nfor step in range(100000):\n"
            "    if step % 100 == 0:\n        ops = [tf.compat.v1.assign(t, s) for s, t in zip(a, b)]\n"
            "        sess.run(ops)\n",
            line=5,
        ),
        Invalid(  # a model called on a new tensor in the loop itself
            "import tensorflow as tf\nsess = tf.compat.v1.Session()\nfor x in batches:\n"
            "    pred = model(tf.constant(x))\n    print(sess.run(pred))\n",
            line=4,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        from greenlint.analysis.graphrun import FUNCTION_CALL  # on first need: a warm run loads no catalog

        reported: set[int] = set()  # one finding per build, however many runs fetch it
        for site in facts.sites:
            run = facts.call_at(site) if site.api == FUNCTION_CALL else facts.node(site) if site.api.endswith(RUNS) else None
            if run is None:
                continue
            called = site.api == FUNCTION_CALL
            names = _functions_run(site, run) if called else _fetched_names(run.args[0]) if run.args else []
            cell = site.callsite.span.cell
            scope = enclosing(facts, run, cell)
            for name in names:
                found = _built_in(facts, scope, name, run)
                if found is None or id(found.call) in reported or called and last_name(found.call.func) == "function":
                    continue
                build = found.call
                repeat = _repeat(facts, found.at, scope, cell)
                if repeat is None:
                    continue
                reported.add(id(build))
                message = self.MESSAGE.format(
                    build=f"{ast.unparse(build.func)}({'...' if build.args or build.keywords else ''})",
                    run=_shown(run, called),
                    loop=ast.unparse(repeat.loop).split("\n", 1)[0].rstrip(":"),
                    where=repeat.where,
                )
                yield self.diagnostic(facts.span(build, cell), facts.path, message)
                break


def _shown(run: ast.Call, called: bool) -> str:
    """The run as the message shows it: its fetch (a session's), else its arguments elided."""
    if called:
        return f"{ast.unparse(run.func)}({'...' if run.args or run.keywords else ''})"
    return f"{ast.unparse(run.func)}({ast.unparse(run.args[0])}{', ...' if len(run.args) > 1 or run.keywords else ''})"


def _functions_run(site: Any, run: ast.Call) -> list[str]:
    """The name of what `K.function` returned that a call runs: the called name itself (`f([x])`), or
    the argument that gives it to another module's function which calls it (`features.handed`)."""
    handed = site.features.get("handed")
    if site.features.get("receiver") != "wrapper":
        return [run.func.id] if isinstance(run.func, ast.Name) else []
    if type(handed) is int and handed < len(run.args):
        given: ast.expr | None = run.args[handed]
    else:
        given = next((k.value for k in run.keywords if k.arg == handed), None)
    return [given.id] if isinstance(given, ast.Name) else []


def _fetched_names(fetch: ast.expr) -> list[str]:
    """The names a fetch runs: the name itself, or those in its tuple, list or dict values."""
    if isinstance(fetch, ast.Name):
        return [fetch.id]
    if isinstance(fetch, (ast.Tuple, ast.List)):
        return [n.id for n in fetch.elts if isinstance(n, ast.Name)]
    if isinstance(fetch, ast.Dict):
        return [n.id for n in fetch.values if isinstance(n, ast.Name)]
    return []


class Build(NamedTuple):
    """A call that builds a fetch, and the node whose loops repeat it: the call itself, or the
    binding of the list its result is appended to (a loop over variables fills one list per call)."""

    call: ast.Call
    at: ast.AST


def _built_in(facts: FileFacts, scope: ast.AST | None, name: str, run: ast.Call) -> Build | None:
    """The call that builds *name* in *scope* before *run*: its one binding there, `name =
    call(...)` (sliced or indexed after the call too), or the last before the run of a chain of
    assignments that are all statements of a function's own body, as the run's is (`image =
    tf.concat(...)`, `image = image[0:8]`, `image = tf.concat(0, [...])`, `image = sess.run(image)`);
    or a list of built ops, `name = [v.assign(...) for ...]` or `name = []` then
    `name.append(op)`; the call neither a getter, a run, nor a function of the file that hands
    back ops built before; None otherwise."""
    if scope is None:
        return None
    bindings = sorted((
        node
        for node in scope_body(scope)
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr))
        and any(target_binds(t, name) for t in _targets(node))
    ), key=lambda node: (node.lineno, node.col_offset))
    assigns = [b for b in bindings if isinstance(b, ast.Assign)]
    before = [b for b in assigns if b.lineno < run.lineno]
    if not before or len(assigns) != len(bindings) or len(assigns) > 1 and not _chained(scope, assigns, run):
        return None
    value = before[-1].value
    if isinstance(value, ast.List) and not value.elts:
        return _appended(facts, scope, name, before[-1], run)
    if isinstance(value, (ast.ListComp, ast.GeneratorExp)):
        value = value.elt
    call = _builder(facts, value)
    return None if call is None else Build(call, call)


def _appended(facts: FileFacts, scope: ast.AST, name: str, start: ast.Assign, run: ast.Call) -> Build | None:
    """The first build appended, before *run*, to the list *name* that *start* binds empty
    (`ops.append(v.assign(w))`, or a name bound by such a call), repeated where *start* is."""
    for node in scope_body(scope):
        if not (
            isinstance(node, ast.Call)
            and start.lineno < node.lineno < run.lineno
            and len(node.args) == 1
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "append"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == name
        ):
            continue
        item = node.args[0]
        if isinstance(item, ast.Name) and item.id != name:
            found = _built_in(facts, scope, item.id, node)
            call = None if found is None else found.call
        else:
            call = _builder(facts, item)
        if call is not None:
            return Build(call, start)
    return None


def _builder(facts: FileFacts, value: ast.expr) -> ast.Call | None:
    """*value* as a call that builds ops (sliced or indexed after too): not a getter, a run, a fresh
    graph, nor a function of the file that hands back ops built before."""
    while isinstance(value, ast.Subscript):
        value = value.value
    if not isinstance(value, ast.Call):
        return None
    called = last_name(value.func)
    if called.startswith("get") or called in ("run", "eval") or called in FRESH:
        return None
    return None if _builds_nothing(facts, value) else value


def _chained(scope: ast.AST, bindings: list[ast.Assign], run: ast.Call) -> bool:
    """Whether *bindings* and the statement of *run* are all statements of the function *scope*'s own
    body (none under a branch or a loop: each call makes them all, in order)."""
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    own = {id(statement) for statement in scope.body}
    holding = [s for s in scope.body if s.lineno <= run.lineno <= (s.end_lineno or s.lineno)]
    return all(id(b) in own for b in bindings) and len(holding) == 1 and not isinstance(
        holding[0], (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith))


def _builds_nothing(facts: FileFacts, build: ast.Call) -> bool:
    """The call names functions of the file that each hand back ops built before (what a function
    of the file is can be told only there; a library's or another module's function is taken to
    build): one that makes no call and no operation (`return self._output`: an operator or an index
    on a tensor adds an op too), one that builds once and keeps it
    (`if self._output is None: self._output = ...`), or one cached by `functools`."""
    name = last_name(build.func)
    defined = [function for _, function in facts.functions_named(name)]
    return bool(defined) and all(_hands_back(function) for function in defined)


def _hands_back(function: Named) -> bool:
    """A function that returns ops built before its call (see `_builds_nothing`)."""
    if any(last_name(d.func if isinstance(d, ast.Call) else d) in CACHES for d in function.decorator_list):
        return True
    nodes = list(scope_body(function))
    return not any(_operates(n) for n in nodes) or any(_keeps(n) for n in nodes)


def _operates(node: ast.AST) -> bool:
    """A call, or an operator or index that adds an op where its operand is a tensor."""
    if isinstance(node, ast.UnaryOp):
        return not isinstance(node.op, ast.Not)
    return isinstance(node, (ast.Call, ast.BinOp, ast.Subscript, ast.Compare))


def _keeps(node: ast.AST) -> bool:
    """`if self.x is None:` (or `if not self.x:`) whose body assigns `self.x`: built on the first call only."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        kept = test.operand
    elif isinstance(test, ast.Compare) and isinstance(test.ops[0], ast.Is) and _is_none(test.comparators[0]):
        kept = test.left
    else:
        return False
    if not isinstance(kept, ast.Attribute):
        return False
    return any(
        isinstance(n, ast.Assign) and any(ast.unparse(t) == ast.unparse(kept) for t in n.targets)
        for statement in node.body
        for n in ast.walk(statement)
    )


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, ast.With):
        return [i.optional_vars for i in node.items if i.optional_vars is not None]
    return [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)) else []


def _repeat(facts: FileFacts, build: ast.AST, scope: ast.AST | None, cell: int | None) -> Repeat | None:
    """The loop that runs *build* more than once: one of its own function around it, else one
    around a call of that function (up to CALLERS levels of callers in the file); None where no
    loop does, or where the function or that loop starts from a fresh graph."""
    if scope is None or _fresh(facts, scope):
        return None
    loops = own_loops(facts, build, cell)
    if loops:
        return None if any(_fresh(facts, loop) for loop in loops) else Repeat(loops[-1], "")
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    todo: list[tuple[Named, int | None, tuple[str, ...]]] = [(scope, cell, ())]
    seen = {scope.name}
    for _ in range(CALLERS):
        later: list[tuple[Named, int | None, tuple[str, ...]]] = []
        for function, at, through in todo:
            for where, call in calls_by_name(facts, function.name, is_method(facts, function, at)):
                around = own_loops(facts, call, where)
                if around:
                    if any(_fresh(facts, loop) for loop in around):
                        return None
                    path = ", ".join(f"`{f}()`" for f in through)
                    return Repeat(around[-1], f" (line {around[-1].lineno}" + (f", through {path})" if path else ")"))
                caller = enclosing(facts, call, where)
                if isinstance(caller, (ast.FunctionDef, ast.AsyncFunctionDef)) and caller.name not in seen:
                    if _fresh(facts, caller):
                        continue
                    seen.add(caller.name)
                    later.append((caller, where, (caller.name, *through)))
        todo = later
    return None


def _fresh(facts: FileFacts, node: ast.AST) -> bool:
    """The function or loop calls something that starts a fresh graph or empties the default one,
    itself or through a function of the file it calls by name (a notebook's `reset_graph()`)."""
    calls = [n for n in scope_body(node) if isinstance(n, ast.Call)]
    return any(last_name(n.func) in FRESH for n in calls) or any(
        isinstance(n.func, ast.Name)
        and any(
            isinstance(m, ast.Call) and last_name(m.func) in FRESH
            for _, function in facts.functions_named(n.func.id)
            for m in scope_body(function)
        )
        for n in calls
    )
