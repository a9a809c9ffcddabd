"""GL209 folder-listed-per-batch: a function that lists a whole folder on every call to draw a few files of it."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.listings import LISTED_BY, LISTINGS
from greenlint.rules.syntax import Function, last_name, own_loops, parameters

#: The same functions imported by name (`from glob import glob`), and the modules they come from.
IMPORTED = {"glob": "glob", "iglob": "glob", "listdir": "os", "scandir": "os", "walk": "os"}
#: One of them as a word (`glob` in `global` is none), in the text of a file that may list a folder
#: (one imported under another name is named in its import): checked before the tree is indexed,
#: after the plain substrings (the rule's MENTIONS: a search for any of them at every position costs more).
WORDS = re.compile(r"\b(?:" + "|".join(sorted(LISTED_BY)) + r")\b")
#: Calls that draw a few items at random from a sequence (`np.random.choice(paths, size=8)`).
DRAWS = frozenset({"choice", "choices", "sample"})
#: Decorators that keep a function's result: the listing then runs once per distinct argument.
CACHES = frozenset({"cache", "lru_cache", "cached_property", "cached"})


class FolderListedPerBatch(Rule):
    """
    ## What it does
    Flags a folder listing (`glob.glob`, `glob.iglob`, `os.listdir`, `os.scandir`, `os.walk`,
    `tf.io.gfile.glob`, `tf.io.gfile.listdir`, `tf.io.gfile.walk`) inside a function, of a path
    that does not change from call to call (it names no parameter of the function and no local
    name: literals, module constants and the object's own attributes, such as
    `glob('./datasets/%s/*' % self.dataset_name)`), when the function then draws a few items of
    the listing at random (`np.random.choice(paths, size=batch_size)`, `random.sample`,
    `random.choice`): a batch loader, called once for every batch, that lists the whole folder
    each time to use a handful of its files.

    Not reported: a listing at module level or in `__init__` (done once); a function whose
    result is kept (`functools.cache`, `lru_cache`); a path built from the function's arguments
    (`glob(os.path.join(root, split, "*"))`: it may list another folder each call); a listing
    used whole (shuffled and iterated once per epoch: its cost is shared by every file it
    yields); a function the file calls (by its name: `f(...)`, `loader.f(...)`) only outside
    any loop (a few samples drawn for a figure: the listing runs a handful of times).

    greenlint does not see how large the folder is, nor, where the function's callers are in
    another module (usually the training loop), how many times it is called; the draw of a few
    items of the listing is what says that the listing is redone for each small batch. Like
    every rule, it sees only the files greenlint analyses: those that name TensorFlow or Keras,
    import a module of the project, or are imported by a module of their own folder that names
    TensorFlow or Keras (`from data_loader import DataLoader` beside the training script); a
    loader module imported only from another folder, or only by modules naming neither, is not read.

    ## Why is this bad?
    Listing a folder reads the file system's metadata of every entry (a `readdir` per block of
    entries, and for `glob` a pattern match of each name), on the host, while the accelerator
    waits for the batch. For a folder of 200,000 images, listed twice per training iteration
    over 30,000 iterations, that is 12 billion directory entries read to pick 60,000 files.
    The folder does not change during training: one listing, kept on the object, gives the same
    draws.

    ## Example
    ```python
    from glob import glob

    import numpy as np


    class DataLoader:
        def __init__(self, name):
            self.name = name

        def load_batch(self, batch_size):
            paths = glob("./datasets/%s/*" % self.name)
            return [read(p) for p in np.random.choice(paths, size=batch_size)]
    ```

    ## Use instead
    ```python
    from glob import glob

    import numpy as np


    class DataLoader:
        def __init__(self, name):
            self.paths = glob("./datasets/%s/*" % name)  # listed once

        def load_batch(self, batch_size):
            return [read(p) for p in np.random.choice(self.paths, size=batch_size)]
    ```

    ## Energy evidence
    The pair under bench/rules/ draws 20 batches of 16 images (32×32, raw bytes) at random from
    a folder of 10,000 files on a local disk, in the page cache, and trains a small
    discriminator on each with `train_on_batch`: before, the folder listed by `glob` for every
    batch; after, once, in the loader's constructor (the same draws). The saving grows with the
    folder's size and the file system's latency (a network file system costs most) and shrinks
    as the step grows. Default since the real-world benchmark judged its findings
    (bench/realworld: 1 of 1 true).

    ## Fix safety
    No automatic fix: where the listing is kept (the constructor, a module constant) is the
    author's choice, and a folder that does change while the program runs must be listed again.

    ## Options
    None.
    """

    code = "GL209"
    name = "folder-listed-per-batch"
    SITELESS = True  # a data loader often holds no TensorFlow call at all
    MENTIONS = tuple(sorted(LISTED_BY))
    MESSAGE = (
        "`{call}` lists the whole folder on every call of `{function}` to draw a few of its files at random:"
        " list it once (in `__init__` or at module level) and draw from that list"
    )
    FIX_TITLE = "List the folder once and draw each batch from the kept list"
    VALID = (
        Valid(  # listed once, in the constructor
            "import tensorflow as tf\nfrom glob import glob\nimport numpy as np\n\n\nclass Loader:\n    def __init__(self, name):\n"
            "        self.paths = glob('./data/%s/*' % name)\n\n    def batch(self, n):\n"
            "        return np.random.choice(self.paths, size=n)\n"
        ),
        Valid(  # the path comes from the function's argument: another folder on each call
            "import tensorflow as tf\nimport os\nimport random\n\n\ndef batch(split, n):\n    names = os.listdir(os.path.join('data', split))\n"
            "    return random.sample(names, n)\n"
        ),
        Valid(  # the result is kept: listed once
            "import tensorflow as tf\nimport functools\nimport glob\nimport random\n\n\n@functools.lru_cache()\ndef pick():\n"
            "    return random.choice(glob.glob('data/*.png'))\n"
        ),
        Valid(  # the whole listing used, once per epoch: its cost is shared by every file
            "import tensorflow as tf\nimport glob\nimport random\n\n\ndef epoch_files():\n    files = glob.glob('data/*.png')\n"
            "    random.shuffle(files)\n    return files\n"
        ),
        Valid(  # called only outside loops: a few samples drawn for a figure, the folder listed a handful of times
            "import tensorflow as tf\nimport glob\nimport numpy as np\n\n\ndef samples(n):\n"
            "    return np.random.choice(glob.glob('data/*.png'), size=n)\n\n\nshow(samples(16))\n"
        ),
        Valid(  # at module level: listed once per run
            "import tensorflow as tf\nimport glob\nimport numpy as np\nFILES = glob.glob('data/*.png')\n\n\ndef batch(n):\n"
            "    return np.random.choice(FILES, size=n)\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nfrom glob import glob\nimport numpy as np\n\n\nclass DataLoader:\n    def __init__(self, name):\n"
            "        self.name = name\n\n    def load_data(self, batch_size=1):\n"
            "        path = glob('./datasets/%s/*' % (self.name))\n"
            "        batch = np.random.choice(path, size=batch_size)\n        return [read(p) for p in batch]\n",
            line=11,
            message_contains="`glob(...)` lists the whole folder on every call of `load_data`",
        ),
        Invalid(  # called by name inside a loop of the file (besides once outside): once per step
            "import tensorflow as tf\nimport glob\nimport numpy as np\n\n\ndef batch(n):\n"
            "    return np.random.choice(glob.glob('data/*.png'), size=n)\n\n\nshow(batch(16))\n"
            "for step in range(1000):\n    train(batch(8))\n",
            line=7,
        ),
        Invalid(  # a module constant path, one file drawn per call
            "import tensorflow as tf\nimport os\nimport random\nROOT = 'images'\n\n\ndef random_image():\n"
            "    return os.path.join(ROOT, random.choice(os.listdir(ROOT)))\n",
            line=8,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        text = facts.text
        if WORDS.search(text) is None:  # the tree is not indexed
            return
        for cell in facts.cells:
            imported = _imported_names(facts, cell)
            for call in facts.nodes(cell, ast.Call):
                if not call.args or not _is_listing(call.func, imported):
                    continue
                function = _owner(facts, call, cell)
                if function is None or not _runs_per_call(function) or _called_outside_loops_only(facts, function.name):
                    continue
                if _fixed_path(function, call) and _drawn_from(function, call, _bound(facts, call, cell)):
                    span = facts.span(call, cell)
                    shown = f"{ast.unparse(call.func)}(...)"
                    yield self.diagnostic(span, facts.path, self.MESSAGE.format(call=shown, function=function.name))


def _imported_names(facts: FileFacts, cell: int | None) -> set[str]:
    """The listing functions the unit imports by name (`from glob import glob`)."""
    return {
        alias.asname or alias.name
        for node in facts.nodes(cell, ast.ImportFrom)
        if isinstance(node, ast.ImportFrom)  # for the type checker
        for alias in node.names
        if IMPORTED.get(alias.name) == node.module
    }


def _owner(facts: FileFacts, call: ast.Call, cell: int | None) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The function whose body runs *call* itself (not a function, lambda or class defined in it,
    nor its decorators or defaults), or None."""
    child: ast.AST = call
    for node in facts.ancestors(call, cell):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node if any(child is statement for statement in node.body) else None
        if isinstance(node, (ast.Lambda, ast.ClassDef)):
            return None
        child = node
    return None


def _bound(facts: FileFacts, call: ast.Call, cell: int | None) -> str | None:
    """The name *call* is assigned to (`paths = glob(...)`), None when it is used in place."""
    parent = facts.parent(call, cell)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and parent.value is call:
        target = parent.targets[0]
        return target.id if isinstance(target, ast.Name) else None
    return None


def _runs_per_call(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Not a constructor and not cached: its body runs on every call."""
    return function.name != "__init__" and not any(last_name(_called(d)) in CACHES for d in function.decorator_list)


def _called_outside_loops_only(facts: FileFacts, name: str) -> bool:
    """The file calls a function of this name (`f(...)`, `obj.f(...)`), and never inside a loop of
    the calling function or module: it runs a few times, whatever it lists."""
    calls = [(cell, call) for cell in facts.cells for call in facts.calls_named(cell, name)]
    return bool(calls) and not any(own_loops(facts, call, cell) for cell, call in calls)


def _called(decorator: ast.expr) -> ast.expr:
    return decorator.func if isinstance(decorator, ast.Call) else decorator


def _is_listing(func: ast.expr, imported: set[str]) -> bool:
    if isinstance(func, ast.Name):
        return func.id in imported
    return isinstance(func, ast.Attribute) and func.attr in LISTED_BY and ast.unparse(func) in LISTINGS


def _fixed_path(function: Function, call: ast.Call) -> bool:
    """The listed path names no parameter but `self` and no local of the function: the same folder on every call."""
    local = {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    changing = (set(parameters(function)) - {"self", "cls"}) | local
    return not any(isinstance(n, ast.Name) and n.id in changing for n in ast.walk(call.args[0]))


def _drawn_from(function: Function, call: ast.Call, bound: str | None) -> bool:
    """A few items of the listing are drawn at random in the function: the listing (or the name
    it is assigned to) is the first argument of `choice`, `choices` or `sample`."""
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and last_name(node.func) in DRAWS and node.args:
            first = node.args[0]
            if first is call or bound is not None and isinstance(first, ast.Name) and first.id == bound:
                return True
    return False
