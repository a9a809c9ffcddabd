"""A module's import table (analysis/import_table.py): what Python binds at module scope, each name
to the dotted path of what it binds; and the same table asked of a file's facts."""

from __future__ import annotations

import ast
import textwrap

import pytest

from greenlint.analysis.import_table import imported
from greenlint.rules.base import FileFacts


def _table(code: str) -> dict[str, str]:
    return imported(ast.parse(textwrap.dedent(code)))


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("import tensorflow as tf", {"tf": "tensorflow"}),
        ("import a.b.c", {"a": "a"}),  # binds the root package only
        ("import a.b as c", {"c": "a.b"}),
        ("from tensorflow.keras.models import load_model as lm", {"lm": "tensorflow.keras.models.load_model"}),
        ("import numpy as np, os", {"np": "numpy", "os": "os"}),
        # module level, under a block that runs in the module's scope
        ("try:\n    import ujson as json\nexcept ImportError:\n    import json", {"json": "json"}),
        ("if True:\n    from keras import layers\nelse:\n    pass", {"layers": "keras.layers"}),
        ("with ctx():\n    import torch", {"torch": "torch"}),
        # the last binding written wins
        ("import a as x\nimport b as x", {"x": "b"}),
        ("from . import x\nimport a as x", {"x": "a"}),
    ],
)
def test_names_the_module_binds(code, expected):
    assert _table(code) == expected


@pytest.mark.parametrize(
    "code",
    [
        "from . import models",  # relative: no absolute path
        "from .models import Net",
        "import a as x\nfrom . import x",  # rebound to a module of the package
        "from tensorflow.keras.layers import *",  # binds names the table cannot list
        "def f():\n    import tensorflow as tf",  # binds in the function's scope
        "class C:\n    from keras import layers",  # in the class's
        "x = lambda: __import__('tensorflow')",  # no import statement
    ],
)
def test_names_the_module_does_not_bind(code):
    assert _table(code) == {}


def test_facts_merge_a_notebooks_cells_in_order():
    facts = FileFacts("nb.ipynb", (), ("import tensorflow as tf", "x = 1", "import torch as tf\nimport numpy as np"))
    assert facts.imported == {"tf": "torch", "np": "numpy"}


def test_facts_of_a_script_that_does_not_parse_bind_nothing():
    assert FileFacts("broken.py", (), "import tensorflow as tf\ndef (:\n").imported == {}


def _path_at(code: str, name: str) -> str | None:
    """The dotted path `FileFacts.imported_path` gives the first read of *name* (the whole chain) in *code*."""
    facts = FileFacts("run.py", (), textwrap.dedent(code))
    reads = [n for n in facts.nodes(None, ast.Attribute, ast.Name) if _first(n) == name]
    return facts.imported_path(reads[0])


def _first(node: ast.AST) -> str:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) else ""


@pytest.mark.parametrize(
    ("code", "name", "expected"),
    [
        ("import numpy as np\nnp.random.rand()", "np", "numpy.random.rand"),
        # a function's own import, whatever the module binds; its nested functions see it too
        ("import numpy as np\ndef f():\n    import jax.numpy as np\n    np.ones(3)", "np", "jax.numpy.ones"),
        ("def f():\n    from itertools import count\n    def g():\n        count()", "count", "itertools.count"),
        # a class body's import is seen by its own statements
        ("class C:\n    import numpy as np\n    x = np.ones(3)", "np", "numpy.ones"),
    ],
)
def test_the_path_an_expression_names_where_it_is(code, name, expected):
    assert _path_at(code, name) == expected


@pytest.mark.parametrize(
    "code",
    [
        "np.ones(3)",  # nothing imports it
        "def f():\n    import numpy as np\ndef g():\n    np.ones(3)",  # another function's import
        "class C:\n    import numpy as np\n    def f(self):\n        np.ones(3)",  # a class's names are not its methods'
        "import numpy as np\ndef f():\n    from . import np\n    np.ones(3)",  # rebound to a module of the package
    ],
)
def test_no_path_where_no_import_visible_there_binds_the_name(code):
    assert _path_at(code, "np") is None
