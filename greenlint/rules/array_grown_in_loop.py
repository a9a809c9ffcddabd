"""GL211 array-grown-in-loop: a NumPy array grown by concatenation on every pass of a loop, copied whole each time."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.dead_code import never_runs
from greenlint.rules.defaults import known_value
from greenlint.rules.deliberate import in_test
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.host_made import bindings
from greenlint.rules.syntax import LOOPS, SCOPES, enclosing, parameters

#: NumPy's functions that return a new array holding their inputs one after another.
JOINS = frozenset(
    "numpy." + name for name in ("concatenate", "append", "vstack", "hstack", "row_stack", "column_stack", "dstack")
)
#: Loops of fewer passes than this copy the final array at most a few dozen times: not reported.
MIN_PASSES = 100
#: What each case starts with: a TensorFlow program (the rule judges files with a TensorFlow call).
TF = "import tensorflow as tf\nm = tf.keras.Sequential()\n"


class ArrayGrownInLoop(Rule):
    """
    ## What it does
    Flags a loop that grows a NumPy array by joining it with a new piece on every pass, the result
    bound back to the same name: `x = np.concatenate([x, piece])` (or a tuple), `x =
    np.append(x, piece)`, `x = np.vstack((x, piece))` (also `hstack`, `row_stack`, `column_stack`,
    `dstack`; the array first or last among the parts), as NumPy is imported where the call is; or a
    list rebuilt from its own items and a new one (`x = [*x, item]`), which copies it too.
    Reported once per loop, at its first such assignment, naming every array the loop grows so.

    Not reported: a loop that reads the growing array elsewhere on each pass (an autoregressive
    decoder that feeds the model the tokens so far needs the whole array every step, and the model
    costs far more than the copy); an array joined with itself (`x = np.concatenate([x, x])`
    doubles it in a few passes); a loop of fewer than 100 passes known from the code: over a
    literal list or tuple, a name its function binds only to such literals (a parameter whose
    `None` default it replaces by `[3, 4, 5, 6, 7]`, maybe through `enumerate()`), or `range(n)`
    with `n` a literal, a default or a module constant (as `rules/defaults.py` reads it); a function
    of a script that nothing calls (`dead_code.never_runs`: it never runs); test code.

    On by default since the real-world benchmark judged its findings (none false; the debatable
    ones loops whose passes the data sets, few there: over a few hundred passes of small pieces
    the copies take milliseconds, over one pass per item of a corpus of 100,000 texts they copy
    terabytes) and its pair measured the saving on the device it claims it for, the host's CPU.

    ## Why is this bad?
    A NumPy array is one contiguous block: `np.concatenate` (and `np.append`, `np.vstack`, which
    call it) allocates a new array and copies every input into it. Growing an array that way on
    every pass copies all the rows gathered so far again each time: n passes of pieces of k rows
    copy about k * n**2 / 2 rows instead of k * n, and allocate as many short-lived arrays, on the
    host, before or between the steps that the device waits for. Collecting the pieces in a
    Python list and joining them once after the loop copies each row once.

    ## Example
    ```python
    indices = np.block(pieces[0])
    for piece in pieces[1:]:
        indices = np.concatenate([indices, np.block(piece)])
    ```

    ## Use instead
    ```python
    indices = np.concatenate([np.block(piece) for piece in pieces])
    ```

    ## Energy evidence
    The pair under bench/rules/ joins 3,000 pieces of 20 rows of two int64 columns: before, one
    `np.concatenate` per pass onto the array so far; after, the pieces gathered in a list and
    joined once. The saving grows with the square of the passes, which the pair fixes at 3,000.

    ## Fix safety
    No automatic fix: the loop's other uses of the array (a length read after it, an `axis`) are
    for a person to keep.

    ## Options
    None.
    """

    code = "GL211"
    name = "array-grown-in-loop"
    MENTIONS = ("concatenate", "np.append", "numpy.append", "stack(", "[*")
    MESSAGE = (
        "this loop grows {arrays} by joining {them} with a new piece on every pass (`{call}`): each pass copies"
        " everything gathered so far again, so n passes copy about n**2 / 2 pieces instead of n{passes};"
        " {instead}"
    )
    JOIN_ONCE = "gather the pieces in a list and join them once after the loop"
    APPEND = "append each new item to the one list instead (`{name}.append(item)`)"
    FIX_TITLE = "Gather the pieces in a list and join them once after the loop"
    VALID = (
        Valid(  # a list rebuilt from a copy of itself without the new item: `[*x]` copies but grows nothing
            TF + "items = []\nfor text in texts:\n    items = [*items]\n    items.append(text)\n"
        ),
        Valid(  # a list rebuilt from another list's items: nothing carried from pass to pass
            TF + "latest = []\nfor batch in batches:\n    latest = [*batch, 0]\n    m.predict(latest)\n"
        ),
        Valid(  # the pieces gathered in a list and joined once
            TF + "import numpy as np\nparts = []\nfor text in texts:\n    parts.append(np.array(text))\n"
            "indices = np.concatenate(parts)\n"
        ),
        Valid(  # a decoder feeds the model the tokens so far on every step: the whole array is needed each pass
            TF + "import numpy as np\ntoken_ids = np.zeros((1, 1))\n"
            "for step in range(maxlen):\n    probas = m.predict(token_ids)\n"
            "    token_ids = np.concatenate([token_ids, probas.argmax(-1)[:, None]], 1)\n"
        ),
        Valid(  # five pyramid levels, a literal list: the copies are few
            TF + "import numpy as np\nanchors = np.zeros((0, 4))\nfor level in [3, 4, 5, 6, 7]:\n"
            "    anchors = np.append(anchors, shifted(level), axis=0)\n"
        ),
        Valid(  # a parameter that defaults to five pyramid levels, enumerated
            TF + "import numpy as np\ndef anchors_for(shape, levels=None):\n    if levels is None:\n"
            "        levels = [3, 4, 5, 6, 7]\n    out = np.zeros((0, 4))\n    for i, p in enumerate(levels):\n"
            "        out = np.append(out, shifted(shape, p), axis=0)\n    return out\n"
        ),
        Valid(  # a known count of 10 passes
            TF + "import numpy as np\nLEVELS = 10\nout = np.zeros(0)\nfor i in range(LEVELS):\n"
            "    out = np.concatenate([out, piece(i)])\n"
        ),
        Valid(  # doubled, not grown by a piece: a few passes reach any size
            TF + "import numpy as np\nfor i in range(rounds):\n    ids = np.concatenate([ids, ids])\n"
        ),
        Valid(  # bound to another name: no array carried from pass to pass
            TF
            + "import numpy as np\nfor batch in batches:\n    joined = np.concatenate([base, batch])\n    use(joined)\n"
        ),
        Valid(  # not NumPy's concatenate
            TF + "from mylib import concatenate\nfor batch in batches:\n    out = concatenate([out, batch])\n"
        ),
        Valid(  # a method of a script's class that nothing calls: dead code, it never runs
            TF + "import numpy as np\nclass Agent:\n    def join(self, batches):\n        out = np.zeros(0)\n"
            "        for b in batches:\n            out = np.concatenate([out, b])\n        return out\n"
            "    def train(self):\n        m.fit(x)\nif __name__ == '__main__':\n    Agent().train()\n"
        ),
        Valid(  # test code
            TF + "import numpy as np\ndef test_join():\n    out = np.zeros(0)\n    for b in batches:\n"
            "        out = np.concatenate([out, b])\n"
        ),
    )
    INVALID = (
        Invalid(  # a list rebuilt from its own items and the new one on every pass
            TF + "import numpy as np\npredicted = []\nfor x in batches:\n"
            "    predicted = [*predicted, np.argmax(m.predict(x))]\n",
            line=6,
            message_contains="(`[*predicted, np.argmax(m.predict(x))]`): each pass copies everything gathered so far"
            " again, so n passes copy about n**2 / 2 pieces instead of n; append each new item to the one list instead"
            " (`predicted.append(item)`)",
        ),
        Invalid(  # one block per text of the corpus, joined onto the array so far
            TF + "import numpy as np\nindices_list_o = np.block(indices_list[0])\n"
            "for i in range(len(indices_list) - 1):\n    tmp = np.block(indices_list[i + 1])\n"
            "    indices_list_o = np.concatenate([indices_list_o, tmp])\n",
            line=7,
            message_contains="this loop grows `indices_list_o` by joining it with a new piece on every pass"
            " (`np.concatenate([indices_list_o, tmp])`)",
        ),
        Invalid(  # a TF1 graph's predictions of each batch joined onto those of the batches before
            TF + "import numpy as np\nsess = tf.compat.v1.Session()\nall_predictions = []\n"
            "for x_test_batch in batches:\n    batch_predictions = sess.run(predictions, {input_x: x_test_batch})\n"
            "    all_predictions = np.concatenate([all_predictions, batch_predictions])\n",
            line=8,
        ),
        Invalid(  # several arrays grown by np.append in one loop: one finding naming them all
            TF + "import numpy\nscores = numpy.zeros((0,))\nhits = numpy.zeros((0,))\nfor d in detections:\n"
            "    scores = numpy.append(scores, d[4])\n    if d[5]:\n        hits = numpy.append(hits, 1)\n"
            "    else:\n        hits = numpy.append(hits, 0)\n",
            line=7,
            message_contains="grows `scores` and `hits` by joining them",
        ),
        Invalid(  # a vstack of a tuple, the array last, in a while loop
            TF
            + "import numpy as np\nrows = np.empty((0, 3))\nwhile reader.more():\n    rows = np.vstack((reader.next(), rows))\n",
            line=6,
        ),
        Invalid(  # a parameter its callers fill: the passes are not known
            TF + "import numpy as np\ndef join(levels):\n    out = np.zeros((0, 4))\n    for p in levels:\n"
            "        out = np.append(out, shifted(p), axis=0)\n    return out\n",
            line=7,
        ),
        Invalid(  # the script's method that its training calls
            TF + "import numpy as np\nclass Agent:\n    def join(self, batches):\n        out = np.zeros(0)\n"
            "        for b in batches:\n            out = np.concatenate([out, b])\n        return out\n"
            "    def train(self):\n        m.fit(self.join(x))\nif __name__ == '__main__':\n    Agent().train()\n",
            line=8,
        ),
        Invalid(  # a function nothing in the file calls, of a module with no main guard: a library's, its users call it
            TF + "import numpy as np\ndef join(batches):\n    out = np.zeros(0)\n    for b in batches:\n"
            "        out = np.concatenate([out, b])\n    return out\n",
            line=7,
        ),
        Invalid(  # a count known to be large: the message says it
            TF
            + "import numpy as np\nout = np.zeros(0)\nfor i in range(5000):\n    out = np.concatenate((out, piece(i)))\n",
            line=6,
            message_contains="instead of n (n = 5000 here)",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for cell in facts.cells:
            grown: dict[int, tuple[ast.AST, list[tuple[ast.Assign, ast.Name]]]] = {}
            for assign in facts.nodes(cell, ast.Assign):
                if not isinstance(assign, ast.Assign) or len(assign.targets) != 1:
                    continue
                part = _grown(facts, assign, cell)
                loop = enclosing(facts, assign, cell, LOOPS + SCOPES) if part is not None else None
                if part is None or not isinstance(loop, LOOPS):
                    continue
                grown.setdefault(id(loop), (loop, []))[1].append((assign, part))
            for loop, assigns in grown.values():
                names = list(dict.fromkeys(p.id for _, p in assigns if not _read_in(loop, p.id, assigns)))
                if not names or in_test(facts, loop, cell) or never_runs(facts, loop, cell):
                    continue
                passes = _passes(facts, loop, cell)
                if passes is not None and passes[0] < MIN_PASSES:
                    continue
                first = next(a for a, p in assigns if p.id in names)
                quoted = [f"`{n}`" for n in names]
                shown = " and ".join(filter(None, (", ".join(quoted[:-1]), quoted[-1])))
                yield self.diagnostic(
                    facts.span(first, cell),
                    facts.path,
                    self.MESSAGE.format(
                        arrays=shown,
                        them="them" if len(names) > 1 else "it",
                        call=ast.unparse(first.value),
                        passes=f" (n = {passes[0]}{passes[1]} here)" if passes is not None else "",
                        instead=self.APPEND.format(name=names[0])
                        if isinstance(first.value, ast.List)
                        else self.JOIN_ONCE,
                    ),
                )


def _grown(facts: FileFacts, assign: ast.Assign, cell: int | None) -> ast.Name | None:
    """The part naming the array where *assign* binds a name to NumPy's join of that name's own
    array with another piece (first or last among the parts); None otherwise."""
    target, value = assign.targets[0], assign.value
    if isinstance(target, ast.Name) and isinstance(value, ast.List):
        return _unpacked(target, value)
    if not isinstance(target, ast.Name) or not isinstance(value, ast.Call) or not value.args:
        return None
    joined = facts.imported_path(value.func, cell)
    if joined not in JOINS:
        return None
    first = value.args[0]
    if joined == "numpy.append":
        parts = value.args[:2]
    elif isinstance(first, (ast.List, ast.Tuple)):
        parts = first.elts
    else:
        return None
    named = [p for p in parts if isinstance(p, ast.Name) and p.id == target.id]
    if len(parts) < 2 or len(named) != 1 or named[0] not in (parts[0], parts[-1]):
        return None
    return named[0]


def _unpacked(target: ast.Name, value: ast.List) -> ast.Name | None:
    """The name a list display rebuilds from its own items and a new one (`x = [*x, item]`, `x =
    [item, *x]`: a new list holding a copy of the old one); None otherwise."""
    ends = [value.elts[0], value.elts[-1]] if len(value.elts) > 1 else []
    named = [e.value for e in value.elts if isinstance(e, ast.Starred) and isinstance(e.value, ast.Name)
             and e.value.id == target.id]
    return named[0] if len(named) == 1 and any(isinstance(e, ast.Starred) and e.value is named[0] for e in ends) else None


def _read_in(loop: ast.AST, name: str, assigns: list[tuple[ast.Assign, ast.Name]]) -> bool:
    """Whether the loop reads *name* other than as the array its joins grow."""
    skip = {id(p) for _, p in assigns}
    return any(
        isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load) and id(node) not in skip
        for node in ast.walk(loop)
    )


def _passes(facts: FileFacts, loop: ast.AST, cell: int | None) -> tuple[int, str] | None:
    """The loop's passes where they are known: a literal list or tuple's length, or `range(n)`'s
    `n` as the program's defaults give it (and where that comes from); None otherwise."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return None
    over = loop.iter
    if isinstance(over, ast.Call) and isinstance(over.func, ast.Name) and over.func.id == "enumerate" and over.args:
        over = over.args[0]
    if isinstance(over, (ast.List, ast.Tuple, ast.Set)):
        return len(over.elts), ""
    if isinstance(over, ast.Name):
        listed = _listed(facts, over, cell)
        return (listed, f" (`{over.id}`, a literal list)") if listed is not None else None
    if (
        isinstance(over, ast.Call)
        and isinstance(over.func, ast.Name)
        and over.func.id == "range"
        and len(over.args) == 1
        and not over.keywords
    ):
        value, where = known_value(facts, over.args[0], cell)
        if isinstance(value, int) and not isinstance(value, bool):
            return value, where
    return None


def _listed(facts: FileFacts, name: ast.Name, cell: int | None) -> int | None:
    """The most items *name* holds where its scope binds it only to literal lists or tuples (a
    parameter whose default is one of them, or `None` that the function replaces by one:
    `if levels is None: levels = [3, 4, 5, 6, 7]`); None otherwise."""
    scope = enclosing(facts, name, cell)
    values = [v for v in bindings(scope, name.id)] if scope is not None else []
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and name.id in parameters(scope):
        args = scope.args
        given = [*args.posonlyargs, *args.args]
        defaults = dict(zip([a.arg for a in given[len(given) - len(args.defaults) :]], args.defaults))
        defaults.update((a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None)
        default = defaults.get(name.id)
        values = values[:-1]  # `bindings` gives the parameter itself last, as None: its default stands for it
        if default is None:
            return None
        if not (isinstance(default, ast.Constant) and default.value is None):
            values.append(default)
    if not values or not all(isinstance(v, (ast.List, ast.Tuple)) for v in values):
        return None
    return max(len(v.elts) for v in values if isinstance(v, (ast.List, ast.Tuple)))
