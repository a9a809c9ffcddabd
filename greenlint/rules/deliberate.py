"""Whether a switch or a literal at a call was chosen on purpose: the call runs only under a
condition (a debug flag, a CLI option, `if __debug__`), it is test code (a test, a test class,
a pytest fixture: tests select eager mode or tiny batches to exercise them), it is in a helper
function only called so, or a comment beside it gives the reason. Rules about debugging
switches read these instead of file names. Code that is what it is on purpose loses every
rule's findings (`wanted`, which check/pipeline.py applies): code that says it is slow on purpose
(`declared_slow`), a call an exercise left blank for the student (`left_blank`)."""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize

from greenlint.analysis.callsite import Span
from greenlint.analysis.sources import text_lines
from greenlint.rules.base import FileFacts, unit_text
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import Site
from greenlint.rules.syntax import SCOPES, last_name

#: Setup methods of unittest-style test classes.
_TEST_SETUP = frozenset({"setUp", "setUpClass", "setUpModule", "tearDown", "tearDownClass"})


def _main_guard(test: ast.expr) -> bool:
    """`__name__ == "__main__"`: the script's main path, not a condition on the call."""
    return (
        isinstance(test, ast.Compare)
        and len(test.comparators) == 1
        and any(isinstance(n, ast.Name) and n.id == "__name__" for n in (test.left, *test.comparators))
    )


def _always(test: ast.expr) -> bool:
    """A test that holds on every run the linter cares about: the main guard, a truthy literal."""
    return _main_guard(test) or (isinstance(test, ast.Constant) and bool(test.value))


def _condition(facts: FileFacts, node: ast.AST, cell: int | None) -> ast.AST | None:
    child = node
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, SCOPES):
            return None
        if isinstance(parent, (ast.If, ast.IfExp)) and child is not parent.test and not _always(parent.test):
            return parent.test
        if isinstance(parent, ast.match_case):
            return parent.pattern
        child = parent
    return None


def _decorator_name(decorator: ast.expr) -> str:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return last_name(target)


def _test_class(cls: ast.ClassDef) -> bool:
    bases = [last_name(b) for b in cls.bases]
    return (
        cls.name.startswith("Test")
        or cls.name.endswith(("Test", "Tests"))
        or any(b.endswith("TestCase") for b in bases)
    )


def in_test(facts: FileFacts, node: ast.AST, cell: int | None) -> bool:
    """The node is written in test code: a `test*` function, a setup method, a pytest fixture, a test class."""
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if parent.name.startswith("test") or parent.name in _TEST_SETUP:
                return True
            if any(_decorator_name(d) == "fixture" for d in parent.decorator_list):
                return True
        if isinstance(parent, ast.ClassDef) and _test_class(parent):
            return True
    return False


def _callers(facts: FileFacts, node: ast.AST, cell: int | None) -> tuple[ast.Call, ...]:
    """The calls, in the same file (or cell), of the function the node is written in."""
    helper = next(
        (a for a in facts.ancestors(node, cell) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))), None
    )
    return () if helper is None else facts.calls_named(cell, helper.name)


def everywhere(facts: FileFacts, site: Site, holds) -> bool:
    """`holds(node)` at the call, or at every call of the helper function it is written in."""
    node, cell = facts.node(site), site.callsite.span.cell
    if node is None:
        return False
    if holds(node):
        return True
    callers = _callers(facts, node, cell)
    return bool(callers) and all(holds(c) for c in callers)


def test_module(path: str) -> bool:
    """A test module by pytest's and unittest's naming (`test_*.py`, `*_test.py`): all its code is test code."""
    name = os.path.basename(path)
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def in_test_code(facts: FileFacts, site: Site) -> bool:
    """The call is in test code: a function named `test*`, a pytest fixture, a method of a
    test class (named `Test*`/`*Test`, or a `TestCase` subclass), or a helper function that
    only such code calls (in the same file)."""
    cell = site.callsite.span.cell
    return everywhere(facts, site, lambda node: in_test(facts, node, cell))


def chosen_at(facts: FileFacts, node: ast.AST, cell: int | None) -> bool:
    """The node runs only under a condition of its function (the main guard is none), or is test code."""
    return _condition(facts, node, cell) is not None or in_test(facts, node, cell)


def deliberate_switch(facts: FileFacts, site: Site) -> bool:
    """A debugging switch turned on on purpose: under a condition or in test code, or in a
    helper function that is only called that way (`if args.debug: enable_debugging()`)."""
    cell = site.callsite.span.cell
    return everywhere(facts, site, lambda node: chosen_at(facts, node, cell))


def comments_beside(facts: FileFacts, site: Site) -> str:
    """The comments on the call's lines and in the comment block right above it, joined."""
    text = unit_text(facts.source, site.callsite.span.cell)
    node = facts.node(site)
    if not text or node is None:
        return ""
    statement = node
    for parent in facts.ancestors(node, site.callsite.span.cell):
        if isinstance(parent, ast.stmt):
            statement = parent
            break
    first, last = statement.lineno, statement.end_lineno or statement.lineno
    lines = text_lines(text)
    above = first - 1
    while above >= 1 and lines[above - 1].lstrip().startswith("#"):
        above -= 1
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT and above < token.start[0] <= last:
                found.append(token.string)
            elif token.start[0] > last:
                break
    except (tokenize.TokenError, SyntaxError):
        return ""
    return "\n".join(found)


def comment_explains(facts: FileFacts, site: Site, words: re.Pattern[str]) -> bool:
    """A comment beside the call matches `words` (the reason the literal is there)."""
    return bool(words.search(comments_beside(facts, site)))


#: The words by which code says it is slow on purpose: "deoptimized" or "created by deoptimizing"
#: (a profiling tutorial's pipeline made slow from a fast one), its `# BEGIN_DEOPTIMIZE` /
#: `# END_DEOPTIMIZE` markers, "deliberately" (or "intentionally", "purposely", "on purpose")
#: "slow", "inefficient" or "unoptimized", and "slow/inefficient/unoptimized on purpose". A
#: verb that says what code would do ("would deoptimize the trace") declares nothing.
DECLARED_SLOW = re.compile(
    r"(?<![a-z])de-?optimi[sz]ed\b|\bby de-?optimi[sz]ing\b|\b(?:BEGIN|END)_DEOPTIMI[SZ]E\b"
    r"|(?:deliberately|intentionally|purposely|on purpose)[ -](?:slow|inefficient|unoptimi[sz]ed)"
    r"|(?:slow|inefficient|unoptimi[sz]ed) on purpose",
    re.I,
)


#: One of these is in every text `DECLARED_SLOW` matches, lowercased: a test far cheaper than the pattern.
_SLOW_HINTS = ("deoptimi", "de-optimi", "deliberately", "intentionally", "purposely", "on purpose")


def wanted(facts: FileFacts, findings: list[Diagnostic]) -> list[Diagnostic]:
    """The *findings* the code does not make moot: none in code declared slow on purpose
    (`declared_slow`), at a call left blank (`left_blank`) or at a call the program never reaches (a
    branch a test the code fixes never takes: the analysis' `unreached`). Read only where there is a finding."""
    if not findings:
        return findings
    slow = declared_slow(facts)
    blanks = left_blank(facts) | {site.callsite.span for site in facts.sites if site.features.get("unreached")}
    return [d for d in findings if d.span not in blanks
            and not any(cell == d.span.cell and first <= d.span.line <= last for cell, first, last in slow)]


def declared_slow(facts: FileFacts) -> list[tuple[int | None, int, int]]:
    """The code that declares itself slow on purpose (`DECLARED_SLOW`), as (cell, first line,
    last line): a module (or notebook cell) whose docstring says so, a function or class whose
    docstring says so, a function with a comment in its body that says so. A comment outside
    any function, or a name, declares nothing. Its findings would defeat its purpose: a
    tutorial's slow pipeline to profile, a benchmark's bad case."""
    found: list[tuple[int | None, int, int]] = []
    for cell in facts.cells:
        text = unit_text(facts.source, cell)
        lowered = text.lower() if text else ""
        module = facts.module(cell) if text and any(hint in lowered for hint in _SLOW_HINTS) else None
        if module is None or text is None:
            continue
        if DECLARED_SLOW.search(ast.get_docstring(module) or ""):
            found.append((cell, 1, len(text_lines(text)) + 1))
            continue
        said = _comment_lines(text_lines(text), text_lines(lowered))
        for scope in facts.nodes(cell, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            last = scope.end_lineno or scope.lineno
            in_body = not isinstance(scope, ast.ClassDef) and any(scope.lineno < line <= last for line in said)
            if in_body or DECLARED_SLOW.search(ast.get_docstring(scope) or ""):
                found.append((cell, scope.lineno, last))
    return found


def _comment_lines(lines: list[str], lowered: list[str]) -> list[int]:
    """The lines (1-based) whose comment, from the first `#`, says the code is slow on purpose."""
    return [
        number
        for number, (line, low) in enumerate(zip(lines, lowered), 1)
        if "#" in line and any(hint in low for hint in _SLOW_HINTS) and DECLARED_SLOW.search(line[line.index("#") :])
    ]


#: Text that may be an `...` argument, the unit's only search before its tree is read.
_ELLIPSIS_ARGUMENT = re.compile(r"[(,=]\s*\.\.\.\s*[,)#\n]")


def left_blank(facts: FileFacts) -> set[Span]:
    """The spans of the calls an exercise left for the student to finish: a literal `...` is one
    of their arguments (`ds.interleave(...)`, `model.fit(x, epochs=...)`). No TF API takes
    Ellipsis as an argument; `x[..., 0]` is an index, not one. Their findings wait for the code."""
    dotted = {cell for cell in facts.cells if _ELLIPSIS_ARGUMENT.search(unit_text(facts.source, cell) or "")}
    blanks: set[Span] = set()
    for site in facts.sites:
        call = facts.call_at(site) if site.callsite.span.cell in dotted else None
        if call is not None and any(_ellipsis(a) for a in (*call.args, *(k.value for k in call.keywords))):
            blanks.add(site.callsite.span)
    return blanks


def _ellipsis(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is Ellipsis
