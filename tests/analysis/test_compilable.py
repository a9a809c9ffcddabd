"""The walk that sends a tree to the compiler only where the compiler may refuse it (GL001's
compiler-only errors): every such error still reported, the trees without one left uncompiled."""

from __future__ import annotations

import ast
import sys
import warnings

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.analysis.compilable import MAX_BLOCKS, MAX_DEPTH, may_not_compile

TF = "import tensorflow as tf\n"

#: One program per compiler-only error (each parses), with a word of the compiler's message.
REFUSED = {
    "return at module level": ("return 1", "'return' outside function"),
    "return in a class body": ("def f():\n    class C:\n        return 1", "'return' outside function"),
    "yield at module level": ("yield 1", "'yield' outside function"),
    "yield from in a class": ("class C:\n    yield from x", "'yield' outside function"),
    "await at module level": ("await x", "'await' outside function"),
    "await in a plain function": ("def f():\n    await x", "'await' outside async function"),
    "await in a lambda": ("async def f():\n    return lambda: await x", "'await' outside async function"),
    "break at module level": ("for i in x:\n    pass\nbreak", "'break' outside loop"),
    "break in a function in a loop": ("for i in x:\n    def f():\n        break", "'break' outside loop"),
    "break in a loop's else": ("for i in x:\n    pass\nelse:\n    break", "'break' outside loop"),
    "break in a class in a loop": ("while x:\n    class C:\n        break", "'break' outside loop"),
    "continue in a function": ("def f():\n    continue", "'continue' not properly in loop"),
    "nonlocal at module level": ("nonlocal x", "nonlocal declaration not allowed at module level"),
    "nonlocal without binding": ("def f():\n    nonlocal x", "no binding for nonlocal 'x' found"),
    "global after assignment": ("def f():\n    x = 1\n    global x", "assigned to before global declaration"),
    "global parameter": ("def f(x):\n    global x", "is parameter and global"),
    "annotated global": ("def f():\n    global x\n    x: int = 1", "annotated name 'x' can't be global"),
    "duplicate parameter": ("def f(a, a):\n    pass", "duplicate argument 'a'"),
    "duplicate keyword-only parameter": ("def f(a, *, a):\n    pass", "duplicate argument 'a'"),
    "duplicate lambda parameter": ("g = lambda a, a: 0", "duplicate argument 'a'"),
    "import * in a function": ("def f():\n    from m import *", "import * only allowed at module level"),
    "import * in a class": ("class C:\n    from m import *", "import * only allowed at module level"),
    "yield in a comprehension": ("def f():\n    return [(yield x) for x in y]", "'yield' inside list comprehension"),
    "walrus rebinding an iteration variable": ("[(x := 1) for x in z]", "cannot rebind comprehension iteration"),
    "walrus in a class's comprehension": ("class C:\n    [(y := 1) for x in z]", "cannot be used in a class body"),
    "walrus in a comprehension's iterable": ("[x for x in (y := z)]", "comprehension iterable expression"),
    "two starred targets": ("*a, *b = c", "multiple starred expressions in assignment"),
    "starred target alone": ("*a = b", "starred assignment target must be in a list or tuple"),
    "starred expression alone": ("*a", "can't use starred expression here"),
    "bare except before another": (
        "try:\n    pass\nexcept:\n    pass\nexcept ValueError:\n    pass",
        "default 'except:' must be last",
    ),
    "async for in a plain function": ("def f():\n    async for x in y:\n        pass", "'async for' outside async"),
    "async with in a plain function": ("def f():\n    async with x:\n        pass", "'async with' outside async"),
    "async comprehension in a plain function": (
        "def f():\n    return [x async for x in y]",
        "asynchronous comprehension",
    ),
    "return value in an async generator": ("async def f():\n    yield 1\n    return 2", "'return' with value in async"),
    "keyword given twice": ("f(a=1, a=2)", "keyword argument repeated"),
    "class keyword given twice": ("class C(metaclass=M, metaclass=N):\n    pass", "keyword argument repeated"),
    "name captured before another case": (
        "match x:\n    case a:\n        pass\n    case 1:\n        pass",
        "makes remaining patterns unreachable",
    ),
    "name bound twice in a pattern": ("match x:\n    case [a, a]:\n        pass", "multiple assignments to name 'a'"),
    "assignment to __debug__": ("__debug__ = 1", "cannot assign to __debug__"),
    "__debug__ as a keyword": ("f(__debug__=1)", "cannot assign to __debug__"),
    "__debug__ as an attribute set": ("x.__debug__ = 1", "cannot assign to __debug__"),
    "__debug__ written in other letters": ("__\uff44\uff45\uff42\uff55\uff47__ = 1", "cannot assign to __debug__"),
    "__future__ import after a statement": (
        "import os\nfrom __future__ import annotations",
        "must occur at the beginning of the file",
    ),
    "__future__ import in a function": (
        "def f():\n    from __future__ import annotations",
        "must occur at the beginning of the file",
    ),
    "unknown __future__ feature": ("from __future__ import braces", "not a chance"),
    "too many nested loops": (
        "".join("    " * i + f"for x{i} in y:\n" for i in range(21)) + "    " * 21 + "pass",
        "too many statically nested blocks",
    ),
    "too many context managers": (
        "with " + ", ".join(f"a{i}" for i in range(21)) + ":\n    pass",
        "too many statically nested blocks",
    ),
}

#: Programs near those, that compile: the walk must leave them to the parser alone.
COMPILED_CLEAN = {
    "return in a function": "def f():\n    if x:\n        return 1\n    return 2",
    "return in a method": "class C:\n    def f(self):\n        return 1",
    "break in a loop": "for i in x:\n    if i:\n        break\n    continue",
    "break in a loop's with and try": "while x:\n    with a:\n        try:\n            break\n        finally:\n            continue",
    "break in an inner loop's else": "for i in x:\n    for j in y:\n        pass\n    else:\n        break",
    "import * at module level": "try:\n    from m import *\nexcept ImportError:\n    pass",
    "distinct parameters": "def f(a, b=1, *args, c, d=2, **kwargs):\n    pass\ng = lambda a, *b, **c: 0",
    "distinct keywords and a mapping": "f(a=1, b=2, **kw)\nclass C(B, metaclass=M):\n    pass",
    "starred arguments and displays": "f(*a, *b)\nx = [*a, *b]\ny = (*a, 1)\nz = {*a}",
    "bare except last": "try:\n    pass\nexcept ValueError:\n    pass\nexcept:\n    pass",
    "__future__ imports after the docstring": '"""Doc."""\nfrom __future__ import annotations\n'
    "from __future__ import division, print_function\nimport os",
    "other dunder names": "__version__ = '1'\nx.__dict__\ndebug = True",
    "non-ASCII text": "# café\nnom = 'été'\n",
    "ten nested loops": "".join("    " * i + f"for x{i} in y:\n" for i in range(MAX_BLOCKS))
    + "    " * MAX_BLOCKS
    + "pass",
}


def _compile_error(code: str) -> str | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(ast.parse(code), "a.py", "exec", dont_inherit=True)
        except SyntaxError as exc:
            return exc.msg
    return None


@pytest.mark.parametrize("code, why", REFUSED.values(), ids=REFUSED.keys())
def test_a_compiler_only_error_is_compiled_and_reported(code, why):
    assert why in (_compile_error(code) or ""), "the case must be one the compiler alone refuses"
    assert may_not_compile(ast.parse(code), code)
    (error,) = analyse_source(code + "\n" + TF, path="a.py").errors
    assert error.code == "GL001" and why in error.message


@pytest.mark.parametrize("code", COMPILED_CLEAN.values(), ids=COMPILED_CLEAN.keys())
def test_a_tree_the_compiler_accepts_is_not_compiled(code):
    assert _compile_error(code) is None
    assert not may_not_compile(ast.parse(code), code)
    assert analyse_source(code + "\n" + TF, path="a.py").errors == []


@pytest.mark.parametrize(
    "code",
    [
        "def g():\n    yield 1",  # a generator: compiled, and accepted
        "async def f():\n    await x",
        "def g():\n    global x\n    x = 1",
        "if (n := 10) > 5:\n    pass",
        "match x:\n    case 1:\n        pass",
        "a, *b = c",
    ],
)
def test_the_constructs_left_to_the_compiler_send_the_tree_to_it(code):
    assert _compile_error(code) is None
    assert may_not_compile(ast.parse(code), code)


@pytest.mark.skipif(sys.version_info < (3, 12), reason="type parameters: Python 3.12")
def test_type_parameters_send_the_tree_to_the_compiler():
    code = "def f[T: (x := 1)](): pass"
    assert _compile_error(code) is not None and may_not_compile(ast.parse(code), code)


@pytest.mark.parametrize(
    "block",
    [
        "for x{i} in y:",
        "while x{i}:",
        "with a{i}:",
        "with a{i}, b{i}:",
        "try:",
        "if x{i}:",
    ],
)
def test_every_nest_the_compiler_refuses_is_compiled(block):
    for depth in range(1, 25):
        code = ""
        for i in range(depth):
            code += "    " * i + block.format(i=i) + "\n"
        code += "    " * depth + "pass\n"
        if block == "try:":  # each `try` closed by a handler, innermost first
            for i in reversed(range(depth)):
                code += "    " * i + "except E:\n" + "    " * (i + 1) + "pass\n"
        if _compile_error(code) is not None:
            assert may_not_compile(ast.parse(code), code), f"{depth} nested `{block}` not compiled"


def test_a_tree_deeper_than_the_walk_judges_is_compiled():
    code = "x = " + "-" * (MAX_DEPTH + 1) + "1"
    assert may_not_compile(ast.parse(code), code)
    assert not may_not_compile(ast.parse("x = -1"), "x = -1")
