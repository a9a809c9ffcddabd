"""GL412 deque-indexed-by-position: a large `collections.deque` read at random positions, as a replay memory sampled per step."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument, last_name
from greenlint.rules.defaults import known_value
from greenlint.rules.deliberate import in_test
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.syntax import COMPREHENSIONS, enclosing, last_bindings, parameters

#: From this many items a lookup in the middle of a deque costs several times a list's: CPython's
#: `deque_item` (Modules/_collectionsmodule.c) walks blocks of 64 items from the nearer end, about
#: n / 256 blocks for a random index (3 ns each measured at n = 1e6: 11.8 us a lookup against 0.43
#: us for a list, Python's loop included); at 1e5 that is about 1.2 us, three list lookups.
LARGE = 100_000
#: What the message adds where the deque's length is not shown.
UNKNOWN = " (where it holds 100,000 items or more: several list lookups each)"
#: The `random` functions that index their population once per pick.
PICKS = frozenset({"sample", "choice"})
#: The deque methods that change its length other than `append`.
MUTATORS = frozenset({"appendleft", "extend", "extendleft", "pop", "popleft", "clear", "remove", "insert"})


class DequeIndexedByPosition(Rule):
    """
    ## What it does
    Flags a `collections.deque` given a `maxlen` (a bounded buffer, such as a replay memory) that
    the code reads at positions other than its ends: a subscript whose index is not a literal
    (`self.data[idx]`, `memory[i]`), or `random.sample(buffer, k)` / `random.choice(buffer)`, which
    index it once per pick. The deque is the value of a name or of an attribute of `self`
    (`self.data = deque(maxlen=maxlen)`), read by that name in the same function (the module, for a
    module-level name: every cell of a notebook) or by that attribute in the methods of the same
    class. The finding is on the `deque(...)` call, where the container is chosen, and names the
    first read. Reported where `maxlen` is at least 100,000 (a literal, a parameter's or flag's
    default, what the file's calls pass), or is a parameter of the function making the deque that
    the code gives no value (a capacity its caller chooses: the message then says the cost holds
    for a long buffer).

    Not reported: a deque whose `maxlen` is below 100,000 (a lookup then costs at most a few list
    lookups), a value the code computes (`span = 2 * skip_window + 1`), or absent (a queue whose
    length the code does not bound); reads at literal positions (`d[0]`, `d[-1]`: the ends are
    reached at once); reads at a position counted back from its length (`len(d) - 1 - offset`,
    directly or through names the function bound so: the recent items, which the walk reaches from
    that end in as many blocks as it counts back, whatever the length), or from the length of
    another deque of the class that holds as many items (made beside it with the same `maxlen` and
    changed only by `append`s side by side with its own: a window of frames and one of their
    flags); for a deque whose length is not shown, reads at the variable of a loop over a `range`
    (`[self.frames[i] for i in range(self.k)]`: a window read in order, not a memory drawn from at
    random); iteration, `append`, `popleft`; test code.

    Default since the real-world benchmark judged its findings: of the four first judged, the two
    false were windows of `window_length` frames and flags read back from their end, which the
    reads counted back from a length leave out; one true (a 1M-transition replay memory sampled
    at random) and one debatable (a notebook timing a deque's lookups on purpose) remain.

    ## Why is this bad?
    A deque is a linked list of blocks of 64 items (CPython's `Modules/_collectionsmodule.c`):
    `d[i]` walks block by block from the nearer end, O(n) in the deque's length, where a list or a
    NumPy array reaches any item in constant time. A replay memory of 1M transitions sampled at
    random walks about 4,000 blocks per lookup; a DQN batch of 32 transitions, each a window of
    frames plus its action, reward and flags, takes hundreds of lookups: milliseconds of host time
    per training step (measured: 11.8 us per random lookup at 1M items against 0.43 us for a list),
    as long as or longer than the update the accelerator then runs, which waits for it on the same
    thread. A ring buffer over a preallocated list or NumPy arrays with a write index does the same
    job in constant time per lookup (and a batch by one fancy index into the arrays).

    ## Example
    ```python
    from collections import deque

    memory = deque(maxlen=1_000_000)

    def sample(batch_size):
        return [memory[i] for i in np.random.randint(len(memory), size=batch_size)]
    ```

    ## Use instead
    ```python
    class Ring:
        def __init__(self, size):
            self.items, self.next, self.size = [None] * size, 0, 0

        def append(self, item):
            self.items[self.next] = item
            self.next = (self.next + 1) % len(self.items)
            self.size = min(self.size + 1, len(self.items))

        def __getitem__(self, i):
            return self.items[(self.next - self.size + i) % len(self.items)]
    ```

    ## Energy evidence
    The pair under bench/rules/ keeps 1M transitions in a `deque(maxlen=1_000_000)` and in a list
    used as a ring buffer, and reads 200 batches of 32 transitions, 11 lookups each, at the same
    random positions: the host work of sampling alone. The saving on the whole training grows with
    the buffer's length and the lookups per batch against the step beside them, which the pair does
    not claim; on an accelerator that waits for the batch on the same thread it is also the
    device's idle time.

    ## Fix safety
    No automatic fix: the buffer's class changes, and what else reads it (iteration order, `len`,
    eviction) must be kept by hand.

    ## Options
    None.
    """

    code = "GL412"
    name = "deque-indexed-by-position"
    SITELESS = True  # a replay memory's module often holds no TensorFlow call
    MENTIONS = ("deque",)
    MESSAGE = (
        "`{target}` is a `collections.deque` ({size}) read at positions other than its ends ({read}, line {line}):"
        " each such lookup walks the deque block by block from its nearer end, O(n) in its length{unknown};"
        " keep a ring buffer over a list or NumPy arrays with a write index"
    )
    FIX_TITLE = "Keep the buffer in a preallocated list or NumPy arrays with a write index"
    VALID = (
        Valid(  # a small replay memory: 2,000 items are about 8 blocks from an end
            "import tensorflow as tf\n"
            "import random\nfrom collections import deque\nmemory = deque(maxlen=2000)\n"
            "def replay(n):\n    return random.sample(memory, n)\n"
        ),
        Valid(  # only its ends are read: constant time
            "import tensorflow as tf\n"
            "from collections import deque\nclass Frames:\n    def __init__(self, n):\n"
            "        self.frames = deque(maxlen=n)\n    def last(self):\n        return self.frames[-1], self.frames[0]\n"
        ),
        Valid(  # no maxlen: a queue of a length the code does not bound, drained from its ends
            "import tensorflow as tf\n"
            "import collections\nqueue = collections.deque()\ndef at(i):\n    return queue[i]\n"
        ),
        Valid(  # iterated, not indexed
            "import tensorflow as tf\n"
            "from collections import deque\nclass Memory:\n    def __init__(self, size):\n"
            "        self.data = deque(maxlen=size)\n    def total(self):\n        return sum(x for x in self.data)\n"
        ),
        Valid(  # another class's attribute of the same name is a list
            "import tensorflow as tf\n"
            "from collections import deque\nclass A:\n    def __init__(self, size):\n        self.data = deque(maxlen=size)\n"
            "class B:\n    def __init__(self):\n        self.data = []\n    def get(self, i):\n        return self.data[i]\n"
        ),
        Valid(  # a window whose length the code computes from its parameters: a few items, not a memory
            "import tensorflow as tf\n"
            "import collections\ndef batch(data, skip_window):\n    span = 2 * skip_window + 1\n"
            "    buffer = collections.deque(maxlen=span)\n    return buffer[skip_window]\n"
        ),
        Valid(  # a frame window read back from its end (`len(d) - 1 - offset`): as many blocks as it counts back
            "import tensorflow as tf\n"
            "from collections import deque\nclass Memory:\n    def __init__(self, window_length):\n"
            "        self.window_length = window_length\n        self.frames = deque(maxlen=window_length)\n"
            "    def recent(self):\n        idx = len(self.frames) - 1\n        state = []\n"
            "        for offset in range(self.window_length - 1):\n            current = idx - offset\n"
            "            state.insert(0, self.frames[current])\n        return state\n"
        ),
        Valid(  # two windows of one capacity appended side by side: one is read back from the other's length
            "import tensorflow as tf\n"
            "from collections import deque\nclass Memory:\n    def __init__(self, n):\n"
            "        self.frames = deque(maxlen=n)\n        self.dones = deque(maxlen=n)\n"
            "    def append(self, frame, done):\n        self.frames.append(frame)\n        self.dones.append(done)\n"
            "    def recent(self, offset):\n        idx = len(self.frames) - 1 - offset\n"
            "        return self.frames[idx], self.dones[idx - 1]\n"
        ),
        Valid(  # a frame stack of a length its caller passes, read in order: a window, not a memory drawn at random
            "import numpy as np\nimport tensorflow as tf\n"
            "from collections import deque\nclass FrameStack:\n    def __init__(self, k):\n"
            "        self.k = k\n        self.frames = deque(maxlen=k)\n"
            "    def observation(self):\n        return np.concatenate([self.frames[i] for i in range(self.k)], axis=-1)\n"
        ),
        Valid(  # a queue drained at its left end, read back from its own length: its recent items
            "import tensorflow as tf\n"
            "from collections import deque\nclass Window:\n    def __init__(self, n):\n"
            "        self.items = deque(maxlen=n)\n    def drop(self):\n        self.items.popleft()\n"
            "    def back(self, k):\n        return self.items[len(self.items) - 1 - k]\n"
        ),
        Valid(  # a parameter whose default is small
            "import tensorflow as tf\n"
            "import random\nfrom collections import deque\nclass Agent:\n    def __init__(self, size=2000):\n"
            "        self.memory = deque(maxlen=size)\n    def replay(self, n):\n        return random.sample(self.memory, n)\n"
        ),
        Valid(  # `collections` a module of the program's own: no standard deque
            "import tensorflow as tf\n"
            "from mylib import collections\nmemory = collections.deque(maxlen=1_000_000)\ndef get(i):\n    return memory[i]\n"
        ),
        Valid(  # a `deque` that is not the standard library's
            "import tensorflow as tf\n"
            "from mylib import deque\nmemory = deque(maxlen=10 ** 6)\ndef get(i):\n    return memory[i]\n"
        ),
    )
    INVALID = (
        Invalid(  # a ring buffer class over a deque of a size its caller passes, indexed at random positions
            "import tensorflow as tf\n"
            "from collections import deque\nclass RingBuffer:\n    def __init__(self, maxlen):\n"
            "        self.maxlen = maxlen\n        self.data = deque(maxlen=maxlen)\n"
            "    def __getitem__(self, idx):\n        return self.data[idx]\n",
            line=6,
            message_contains="`self.data` is a `collections.deque` (maxlen `maxlen`, not shown) read at positions other"
            " than its ends (`self.data[idx]`, line 8)",
        ),
        Invalid(  # read back from the length of another deque that is not appended beside it: any position
            "import tensorflow as tf\n"
            "from collections import deque\nclass Memory:\n    def __init__(self, n):\n"
            "        self.frames = deque(maxlen=n)\n        self.dones = deque(maxlen=n)\n"
            "    def add_frame(self, frame):\n        self.frames.append(frame)\n"
            "    def add_done(self, done):\n        self.dones.append(done)\n"
            "    def recent(self, offset):\n        idx = len(self.frames) - 1 - offset\n"
            "        return self.frames[idx], self.dones[idx - 1]\n",
            line=6,
            message_contains="`self.dones[idx - 1]`, line 13",
        ),
        Invalid(  # 1M items read in order by index: each lookup still walks from the nearer end
            "import tensorflow as tf\n"
            "from collections import deque\nmemory = deque(maxlen=1_000_000)\n"
            "def total():\n    return sum(memory[i] for i in range(len(memory)))\n",
            line=3,
            message_contains="(`memory[i]`, line 5)",
        ),
        Invalid(  # a module-level replay memory of 1M items sampled by index
            "import tensorflow as tf\n"
            "import numpy as np\nimport collections\nmemory = collections.deque(maxlen=1_000_000)\n"
            "def sample(batch_size):\n"
            "    return [memory[i] for i in np.random.randint(len(memory), size=batch_size)]\n",
            line=4,
            message_contains="(maxlen 1000000)",
        ),
        Invalid(  # the standard deque under another name
            "import tensorflow as tf\n"
            "from collections import deque as Deque\nmemory = Deque(maxlen=1_000_000)\ndef get(i):\n    return memory[i]\n",
            line=3,
            message_contains="`memory` is a `collections.deque` (maxlen 1000000)",
        ),
        Invalid(  # a flag's default of 1M transitions
            "import argparse\nimport tensorflow as tf\nfrom collections import deque\np = argparse.ArgumentParser()\n"
            "p.add_argument('--memory', type=int, default=1000000)\nargs = p.parse_args()\n"
            "memory = deque(maxlen=args.memory)\ndef get(i):\n    return memory[i]\n",
            line=7,
            message_contains="(maxlen 1000000 (`args.memory`: the default of `--memory`))",
        ),
        Invalid(  # random.sample picks by index
            "import tensorflow as tf\n"
            "import random\nfrom collections import deque\nclass Agent:\n    def __init__(self):\n"
            "        self.memory = deque(maxlen=500000)\n    def replay(self, n):\n"
            "        return random.sample(self.memory, n)\n",
            line=6,
            message_contains="(`random.sample(self.memory, n)`, line 8)",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for cell in facts.cells:
            for assign in facts.nodes(cell, ast.Assign, ast.AnnAssign):
                if not isinstance(assign, (ast.Assign, ast.AnnAssign)):
                    continue
                value = assign.value
                if not isinstance(value, ast.Call) or not _is_deque(facts, value.func, cell):
                    continue
                size = _capacity(facts, argument(value, "maxlen", 1), cell)
                if size is None:
                    continue
                targets = assign.targets if isinstance(assign, ast.Assign) else [assign.target]
                for target in targets:
                    read = _first_read(
                        facts, cell, assign, target, _lockstep(facts, cell, assign, target), "not shown" in size
                    )
                    if read is None or in_test(facts, value, cell):
                        continue
                    yield self.diagnostic(
                        facts.span(value, cell),
                        facts.path,
                        self.MESSAGE.format(
                            target=ast.unparse(target),
                            size=size,
                            read=f"`{ast.unparse(read)}`",
                            line=read.lineno,
                            unknown="" if "not shown" not in size else UNKNOWN,
                        ),
                    )


def _capacity(facts: FileFacts, size: ast.expr | None, cell: int | None) -> str | None:
    """How the finding states a deque's `maxlen` where it is large or passed in by the caller:
    `maxlen 1000000`, `maxlen 1000000 (`SIZE` = 1000000)`, "maxlen `maxlen`, not
    shown" for a parameter of the function making it with no literal default, nor passed a literal
    by the file's calls; None where it is absent, below `LARGE`, or a value the code computes."""
    if size is None:
        return None
    value, where = known_value(facts, size, cell)
    if value is not None:
        if not isinstance(value, int) or isinstance(value, bool) or value < LARGE:
            return None
        return f"maxlen {value}{where}"
    scope = enclosing(facts, size, cell, (ast.FunctionDef, ast.AsyncFunctionDef))
    if (
        isinstance(size, ast.Name)
        and isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef))
        and size.id in parameters(scope)
    ):
        return f"maxlen `{size.id}`, not shown"
    return None


def _is_deque(facts: FileFacts, func: ast.expr, cell: int | None) -> bool:
    """`collections.deque`, as the imports visible at the call bind its name (`from collections
    import deque [as d]`, `import collections`: `FileFacts.imported_path`)."""
    return facts.imported_path(func, cell) == "collections.deque"


def _first_read(
    facts: FileFacts, cell: int | None, assign: ast.AST, target: ast.expr, lengths: frozenset[str], unsized: bool
) -> ast.expr | None:
    """The first read of the deque bound to *target* at a position other than its ends: a subscript
    whose index is not a literal nor counted back from its length (that of a deque in *lengths*,
    `_lockstep`), nor, for a deque whose length is not shown (*unsized*), the variable of a loop
    over a `range` (`[self.frames[i] for i in range(self.k)]`: a pass over a window in order, not
    a memory drawn from at random), or a `random.sample`/`random.choice` of it. `self.x` is followed
    in the methods of the assignment's class, a name in the assignment's function (every unit of the
    file for a module-level name)."""
    units: list[tuple[int | None, ast.AST | None]]
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
        scope = enclosing(facts, assign, cell, (ast.ClassDef,))
        units = [(cell, scope)] if scope is not None else []
    elif isinstance(target, ast.Name):
        scope = enclosing(facts, assign, cell, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        units = [(cell, scope)] if scope is not None else [(c, facts.module(c)) for c in facts.cells]
    else:
        return None
    text = ast.unparse(target)
    reads: list[ast.expr] = []
    for unit_cell, root in units:
        if root is None:
            continue
        for node in facts.nodes(unit_cell, ast.Subscript, ast.Call):
            if isinstance(node, ast.Subscript):
                read = (
                    isinstance(node.ctx, ast.Load)
                    and ast.unparse(node.value) == text
                    and not _literal(node.slice)
                    and not _from_end(node.slice, lengths, enclosing(facts, node, unit_cell), node.lineno)
                    and not (unsized and _in_order(facts, node, unit_cell))
                )
            else:
                read = (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in PICKS
                    and last_name(node.func.value) == "random"
                    and bool(node.args)
                    and ast.unparse(node.args[0]) == text
                )
            if read and (isinstance(root, ast.Module) or root in facts.ancestors(node, unit_cell)):
                reads.append(node)
    return min(reads, key=lambda n: (n.lineno, n.col_offset), default=None)


def _from_end(index: ast.expr, lengths: frozenset[str], scope: ast.AST | None, line: int, hops: int = 3) -> bool:
    """Whether *index* counts back from the deque's length (`len(d) - 1 - offset`, *lengths* naming
    the expressions that hold it, directly or through the names the function last bound so before
    *line*): a read of its recent items, which the walk reaches from that end in as many blocks as
    it counts back, whatever the deque's length."""
    while isinstance(index, ast.BinOp) and isinstance(index.op, ast.Sub):
        index = index.left
    if (
        isinstance(index, ast.Call)
        and isinstance(index.func, ast.Name)
        and index.func.id == "len"
        and len(index.args) == 1
    ):
        return ast.unparse(index.args[0]) in lengths
    if isinstance(index, ast.Name) and hops > 0:
        bound = last_bindings(scope, line).get(index.id)
        return bound is not None and _from_end(bound.value, lengths, scope, bound.lineno, hops - 1)
    return False


def _in_order(facts: FileFacts, read: ast.Subscript, cell: int | None) -> bool:
    """Whether *read*'s index is the variable of a `for` or a comprehension around it that goes
    over a `range(...)`: the positions read one after the other."""
    index = read.slice
    if not isinstance(index, ast.Name):
        return False
    loops: list[ast.For | ast.AsyncFor | ast.comprehension] = []
    for above in facts.ancestors(read, cell):
        if isinstance(above, (ast.For, ast.AsyncFor)):
            loops.append(above)
        elif isinstance(above, COMPREHENSIONS):
            loops.extend(above.generators)
    return any(
        isinstance(loop.target, ast.Name)
        and loop.target.id == index.id
        and isinstance(loop.iter, ast.Call)
        and isinstance(loop.iter.func, ast.Name)
        and loop.iter.func.id == "range"
        for loop in loops
    )


def _lockstep(facts: FileFacts, cell: int | None, assign: ast.AST, target: ast.expr) -> frozenset[str]:
    """The deques whose length is the length of the deque bound to *target*: itself, and for
    `self.x`, the attributes the same statement list binds to a deque of the same `maxlen`
    (`self.frames = deque(maxlen=n)`, `self.dones = deque(maxlen=n)`) where the class changes
    both only by `append`s made side by side, in the same statement list (`self.frames.append(o)`,
    `self.dones.append(d)`): each holds as many items as the other."""
    text = ast.unparse(target)
    klass = enclosing(facts, assign, cell, (ast.ClassDef,))
    made = getattr(assign, "value", None)
    if klass is None or not isinstance(made, ast.Call) or not text.startswith("self."):
        return frozenset({text})
    size = ast.unparse(argument(made, "maxlen", 1) or made)
    made_at = {text: assign}
    for other in facts.nodes(cell, ast.Assign):
        if (
            facts.parent(other, cell) is facts.parent(assign, cell)
            and len(other.targets) == 1
            and ast.unparse(other.targets[0]).startswith("self.")
            and isinstance(other.value, ast.Call)
            and _is_deque(facts, other.value.func, cell)
            and ast.unparse(argument(other.value, "maxlen", 1) or other.value) == size
        ):
            made_at.setdefault(ast.unparse(other.targets[0]), other)
    appends = _appends(facts, cell, klass, made_at)
    mine = appends.get(text)
    return frozenset({text, *(peer for peer in made_at if mine is not None and appends.get(peer) == mine)})


def _appends(
    facts: FileFacts, cell: int | None, klass: ast.AST, made_at: Mapping[str, ast.AST]
) -> dict[str, frozenset[tuple[int, str]] | None]:
    """For each deque attribute of *made_at* (its text -> the assignment making it), the statement
    lists of *klass* that append to it; None for one the class changes any other way (a method of
    `MUTATORS`, an `append` inside an expression, `del`, the attribute bound again)."""
    found: dict[str, set[tuple[int, str]] | None] = {text: set() for text in made_at}
    making = {id(t) for made in made_at.values() for t in getattr(made, "targets", [getattr(made, "target", None)])}
    for node in facts.nodes(cell, ast.Attribute):
        text = ast.unparse(node)
        parent = facts.parent(node, cell)
        rebound = isinstance(node.ctx, ast.Store) and id(node) not in making
        if text in found and (rebound or isinstance(parent, ast.Subscript) and isinstance(parent.ctx, ast.Del)):
            found[text] = None
        owner = ast.unparse(node.value)
        if owner not in found or found[owner] is None or node.attr not in MUTATORS | {"append"}:
            continue
        if klass not in facts.ancestors(node, cell):
            continue
        called = isinstance(parent, ast.Call) and parent.func is node
        statement = facts.parent(parent, cell) if called and parent is not None else None
        holder = facts.parent(statement, cell) if isinstance(statement, ast.Expr) else None
        field = next((f for f in ("body", "orelse", "finalbody") if statement in getattr(holder, f, ())), None)
        lists = found[owner]
        if node.attr != "append" or field is None or lists is None:
            found[owner] = None
        else:
            lists.add((id(holder), field))
    return {text: (None if lists is None else frozenset(lists)) for text, lists in found.items()}


def _literal(index: ast.expr) -> bool:
    """A literal position (`0`, `-1`) or a slice (which a deque refuses)."""
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
        index = index.operand
    return isinstance(index, (ast.Constant, ast.Slice))
