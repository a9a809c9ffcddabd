"""The codemods that fix findings: small LibCST rewrites at the call a finding points at.

A rule names its fix's codemod and that codemod's arguments (`FIX = FixBy("SetArgument", {...},
safe=...)`, greenlint.rules.base); the fix engine makes it here (`made`), so a check that shows no
fix loads no codemod. Each is frozen data (what to change) with a `rewrite` that does all of its
work, as LibCST's codemod commands do: given the `Target` (the parsed call, its parents and
positions, the file's name of tensorflow), it returns the edits, or () when the call is not what it
expects. The fix engine (`greenlint.fix.engine`) finds the call, asks the rule's codemod and checks
the result (line length, black-style wrapping for a codemod with `wraps`, that the edited statement
parses and that fixing twice is fixing once). Values are Python source in which `{tf}` stands for
the file's own name of the tensorflow module (`tf` after `import tensorflow as tf`); a file that
never imports tensorflow as a module gets no fix. LibCST is imported only when a fix is computed.
A new codemod is one class here."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from greenlint.analysis.callsite import Span
from greenlint.rules.base import FixBy
from greenlint.rules.diagnostic import Edit


@dataclass(frozen=True)
class Target:
    """The call a finding points at, in the LibCST tree of the text holding it (a file, a cell or
    the top-level statements around the call), with what a codemod may ask of that tree."""

    call: Any
    module: Any
    positions: Any
    parents: dict
    lines: list[str]  # the text's lines, with their endings
    cell: int | None
    tf: str | None  # the text's name of the tensorflow module
    holds: str | None = None  # what the call's value is (the finding's `holds`), for a new name
    taken: Callable[[], set[str]] = set  # every name the unit uses: a new name must shadow none
    whole: str = ""  # the whole unit's text (a notebook: every cell), for names read outside the call's statement

    def parent(self, node):
        return self.parents.get(node)

    def span(self, node) -> Span:
        pos = self.positions[node]
        return Span(pos.start.line, pos.start.column + 1, pos.end.line, pos.end.column + 1, self.cell)

    def outer_span(self, node) -> Span:
        """The node's span with the parentheses around it (`(a, b)` whole, not `a, b`)."""
        span = self.span(node)
        lpar, rpar = getattr(node, "lpar", ()), getattr(node, "rpar", ())
        if not lpar or not rpar:
            return span
        first, last = self.span(lpar[0]), self.span(rpar[-1])
        return Span(first.line, first.column, last.end_line, last.end_column, self.cell)

    def replace(self, node, content: str) -> Edit:
        return Edit(self.span(node), content)

    def after(self, node, content: str, parens: bool = False) -> Edit:
        """Insert `content` right after the node: inside parentheses around it, or with `parens`
        after them (`(a, b), x`, not `(a, b, x)`)."""
        span = self.outer_span(node) if parens else self.span(node)
        return Edit(Span(span.end_line, span.end_column, span.end_line, span.end_column, self.cell), content)

    def before_last(self, node, content: str) -> Edit:
        """Insert `content` just before the node's last character (a call's closing parenthesis)."""
        span = self.span(node)
        return Edit(Span(span.end_line, span.end_column - 1, span.end_line, span.end_column - 1, self.cell), content)

    def under_condition(self, node) -> bool:
        """Whether an `if` (or conditional expression) in the node's own function decides whether
        it runs (`if __name__ == "__main__":` and `if True:` do not): a literal written there
        was chosen for that case, and a fix leaves it as written."""
        import libcst as cst

        child = node
        while (parent := self.parents.get(child)) is not None:
            if isinstance(parent, (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Module)):
                return False
            if isinstance(parent, (cst.If, cst.IfExp)) and child is not parent.test and not _always(parent.test):
                return True
            child = parent
        return False

    def chain_end(self, node):
        """The outermost call of the method chain `node` starts (`ds.batch(8)` in `ds.batch(8).map(f)` -> all of it)."""
        import libcst as cst

        while True:
            attribute = self.parents.get(node)
            call = self.parents.get(attribute) if isinstance(attribute, cst.Attribute) else None
            if not (isinstance(call, cst.Call) and call.func is attribute and attribute.value is node):
                return node
            node = call


@dataclass(frozen=True)
class Codemod:
    """Base of the codemods: a rewrite at a call, configured by its fields."""

    #: Whether the engine may wrap the call the way black does when its one edit makes a line too long.
    wraps: ClassVar[bool] = False

    @property
    def needs_tf(self) -> bool:
        return "{tf}" in getattr(self, "value", "")

    def rewrite(self, at: Target) -> tuple[Edit, ...]:
        """The edits at the call; () when the call is not what the fix expects."""
        raise NotImplementedError


def _parse(expression: str):
    import libcst as cst

    return cst.parse_expression(expression)


def _code(node) -> str:
    import libcst as cst

    return cst.Module(body=[]).code_for_node(node)


def _argument(call: Any, name: str, position: int | None):
    """The argument binding parameter `name` (by keyword, else by position), or None."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    if position is not None:
        positional = [a for a in call.args if a.keyword is None and not a.star]
        if len(positional) > position:
            return positional[position]
    return None


def _is_literal(node) -> bool:
    """The expression is a literal as written (`"batch"`, `5`, `-1`)."""
    try:
        ast.literal_eval(_code(node).strip())
    except (ValueError, SyntaxError, TypeError):
        return False
    return True


@dataclass(frozen=True)
class SetArgument(Codemod):
    """Bind parameter `name` to `value`: replace the value given (by keyword or at `position`,
    or at the position `positions` gives for the called method's name), or add it as a keyword
    argument. A value written under a condition stays as written; with `literal_only`, so does one
    not written as a literal (`args.freq`: the setting is changed where the program makes it)."""

    name: str
    value: str
    position: int | None = None
    positions: tuple[tuple[str, int], ...] = ()
    literal_only: bool = False
    wraps: ClassVar[bool] = True

    def rewrite(self, at):
        import libcst as cst

        call = at.call
        value = _code(_parse(self.value.format(tf=at.tf)))
        position = self.position
        if self.positions:
            called = getattr(getattr(call.func, "attr", None), "value", None)
            if called not in dict(self.positions):
                return ()
            position = dict(self.positions)[called]
        arg = _argument(call, self.name, position)
        if arg is not None:
            kept = at.under_condition(call) or self.literal_only and not _is_literal(arg.value)
            return () if kept else (at.replace(arg.value, value),)
        if any(a.star for a in call.args):
            return ()  # *args or **kwargs might bind it already
        if call.args:
            last = call.args[-1].value
            if isinstance(last, cst.GeneratorExp) and not last.lpar:
                return ()  # `f(x for x in y)`: no argument may follow a bare generator
            return (at.after(last, f", {self.name}={value}", parens=True),)
        return (at.before_last(call, f"{self.name}={value}"),)


@dataclass(frozen=True)
class RemoveArgument(Codemod):
    """Drop the argument binding parameter `name` (keyword, or at `position`) so the default
    applies; not under a condition."""

    name: str
    position: int | None = None
    wraps: ClassVar[bool] = True

    def rewrite(self, at):
        import libcst as cst

        call = at.call
        arg = _argument(call, self.name, self.position)
        if arg is None or at.under_condition(call):
            return ()
        args = [a for a in call.args if a is not arg]
        if args and arg is call.args[-1]:
            args[-1] = args[-1].with_changes(
                comma=arg.comma if isinstance(arg.comma, cst.Comma) else cst.MaybeSentinel.DEFAULT
            )
        return (at.replace(call, _code(call.with_changes(args=args))),)


@dataclass(frozen=True)
class AppendCall(Codemod):
    """Append `.method(value)` to the whole method chain the call belongs to."""

    method: str
    value: str = ""

    def rewrite(self, at):
        import libcst as cst

        value = _code(_parse(self.value.format(tf=at.tf))) if self.value else ""
        end = at.chain_end(at.call)
        if isinstance(end.func, cst.Attribute) and end.func.attr.value == self.method:
            return ()  # the chain ends in the call already: appending it again would repeat it
        return (at.after(end, f".{self.method}({value})"),)


@dataclass(frozen=True)
class RemoveStatement(Codemod):
    """Delete the statement that is nothing but the call (`pass` if it was alone in its block);
    not under a condition."""

    def rewrite(self, at):
        import libcst as cst

        if at.under_condition(at.call):
            return ()
        expr = at.parent(at.call)
        line = at.parent(expr)
        if not (isinstance(expr, cst.Expr) and isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1):
            return ()
        block = at.parent(line)
        span = at.span(line)
        whole = Span(span.line, 1, span.end_line + 1, 1, at.cell)
        if isinstance(block, cst.IndentedBlock) and len(block.body) == 1:
            return (Edit(whole, f"{' ' * (span.column - 1)}pass\n"),)
        return (Edit(whole, ""),)


@dataclass(frozen=True)
class HoistBeforeLoop(Codemod):
    """Bind the call to a new name (the finding's `holds`, else one from the literal's shape, else
    `name`; numbered `_2`... if taken) just before the outermost loop around it (in its function),
    and use that name in the loop. Only for a call whose source names nothing but the tensorflow
    module (literals, `tf.float32`): its value cannot depend on the loop."""

    name: str = "hoisted"

    def rewrite(self, at):
        import ast

        import libcst as cst

        call = at.call
        code = at.module.code_for_node(call)
        try:
            names = {n.id for n in ast.walk(ast.parse(code, mode="eval")) if isinstance(n, ast.Name)}
        except SyntaxError:
            return ()
        if names - {at.tf} or at.tf is None:
            return ()
        node, loop = call, None  # the outermost loop of the call's own function
        while (node := at.parent(node)) is not None:
            if isinstance(node, (cst.Lambda, cst.BaseComp)):
                return ()
            if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
                break
            if isinstance(node, (cst.For, cst.While)):
                loop = node
        if loop is None:
            return ()
        base = at.holds or _holds(at.module, call) or self.name
        taken = at.taken()
        name = next(n for n in (base if i == 1 else f"{base}_{i}" for i in range(1, 1000)) if n not in taken)
        line = at.span(loop).line
        indent, newline = _indent(at.lines[line - 1])
        return Edit(Span(line, 1, line, 1, at.cell), f"{indent}{name} = {code}{newline}"), at.replace(call, name)


@dataclass(frozen=True)
class MoveToChainEnd(Codemod):
    """Move the call (`.prefetch(n)`) from the middle of its method chain to the end of the run
    of calls named in `over` that follows it, keeping its arguments as written."""

    over: frozenset[str]

    def rewrite(self, at):
        import libcst as cst

        call = at.call
        if not isinstance(call.func, cst.Attribute):
            return ()
        end = call
        while True:
            attribute = at.parent(end)
            outer = at.parent(attribute) if isinstance(attribute, cst.Attribute) else None
            if not (isinstance(outer, cst.Call) and outer.func is attribute and attribute.value is end):
                break
            if attribute.attr.value not in self.over:
                break
            end = outer
        if end is call:
            return ()
        receiver, whole = at.outer_span(call.func.value), at.span(call)
        moved = "." + _code(call.with_changes(func=call.func.attr))
        return (
            Edit(Span(receiver.end_line, receiver.end_column, whole.end_line, whole.end_column, at.cell), ""),
            at.after(end, moved),
        )


def _holds(module, call) -> str | None:
    """A name for the value of a call of a literal, from the literal's shape (`zeros_3`,
    `ones_2x2`, `vector_3`, `matrix_3x1`, `tensor_2x2x2`)."""
    import ast

    given = [a for a in call.args if a.keyword is None or a.keyword.value == "value"]
    try:
        value = ast.literal_eval(module.code_for_node(given[0].value)) if given else None
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    shape, items = [], value
    while isinstance(items, (list, tuple)) and items:
        shape.append(len(items))
        items = items[0]
    if not shape:
        return None
    flat = [value]
    for _ in shape:
        flat = [x for part in flat if isinstance(part, (list, tuple)) for x in part]
    if all(x == 0 for x in flat) or all(x == 1 for x in flat):
        noun = "zeros" if flat[0] == 0 else "ones"
    else:
        noun = {1: "vector", 2: "matrix"}.get(len(shape), "tensor")
    return f"{noun}_{'x'.join(map(str, shape))}"


def _always(test) -> bool:
    """`__name__ == "__main__"` or a truthy literal: a test that does not make a call conditional."""
    import libcst as cst

    if isinstance(test, cst.Comparison):
        return any(
            isinstance(n, cst.Name) and n.value == "__name__"
            for n in (test.left, *(c.comparator for c in test.comparisons))
        )
    return isinstance(test, cst.Name) and test.value == "True" or isinstance(test, cst.Integer) and test.value != "0"


@dataclass(frozen=True)
class WrapLoopBody(Codemod):
    """Move the body of the innermost `for` loop around the call (in its function) into a new
    function decorated with `@{tf}.function`, named `name` (numbered if taken), that takes the
    loop's variables, and call it from the loop. Only for a loop over plain names whose body neither
    leaves it (`break`, `continue`, `return`, `yield`) nor binds a name used outside it. The body's
    lines keep their indentation: the new function sits where the loop does."""

    name: str = "train_step"

    @property
    def needs_tf(self) -> bool:
        return True

    def rewrite(self, at):
        import ast
        import textwrap

        import libcst as cst

        node, loop = at.call, None
        while (node := at.parent(node)) is not None:
            if isinstance(node, (cst.Lambda, cst.BaseComp, cst.FunctionDef, cst.ClassDef)):
                break
            if isinstance(node, cst.For):
                loop = node
                break
        if loop is None or loop.orelse is not None or loop.asynchronous is not None:
            return ()
        targets = _plain_names(loop.target)
        body = loop.body
        if not targets or not isinstance(body, cst.IndentedBlock) or not body.body:
            return ()
        first, last = at.span(body.body[0]).line, at.span(body.body[-1]).end_line
        code = "".join(at.lines[first - 1 : last])
        try:
            tree = ast.parse(textwrap.dedent(code))
        except SyntaxError:
            return ()
        from greenlint.rules.syntax import host_reads

        if _leaves_loop(tree) or host_reads(tree):
            return ()  # a step left early, or one reading tensors with `.numpy()`, which a traced function cannot
        bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)} - set(
            targets
        )
        used = _name_counts(tree)
        whole = _name_counts_of(at.whole or at.module.code)
        if whole is None or any(whole.get(name, 0) > used.get(name, 0) for name in bound):
            return ()  # a name the step binds is read outside it: it would no longer be set there
        taken = at.taken()
        name = next(n for n in (self.name if i == 1 else f"{self.name}_{i}" for i in range(1, 1000)) if n not in taken)
        line = at.span(loop).line
        indent, newline = _indent(at.lines[line - 1])
        inner_indent, _ = _indent(at.lines[first - 1])
        params = ", ".join(targets)
        define = f"{indent}@{at.tf}.function{newline}{indent}def {name}({params}):{newline}{code}"
        end = at.lines[last - 1].rstrip("\r\n")
        return (
            Edit(Span(line, 1, line, 1, at.cell), define),
            Edit(Span(first, 1, last, len(end) + 1, at.cell), f"{inner_indent}{name}({params})"),
        )


def _indent(text: str) -> tuple[str, str]:
    """The indentation and the line ending of a line."""
    return text[: len(text) - len(text.lstrip(" \t"))], text[len(text.rstrip("\r\n")) :] or "\n"


def _plain_names(target) -> list[str]:
    """The names a `for` target binds when it is nothing but names (`x`, `x, y`, `(x, (y, z))`), else []."""
    import libcst as cst

    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        names = [_plain_names(e.value) for e in target.elements if not isinstance(e, cst.StarredElement)]
        if len(names) == len(target.elements) and all(names):
            return [n for part in names for n in part]
    return []


def _leaves_loop(tree) -> bool:
    """Whether a loop body breaks, continues, returns or yields (outside functions defined in it)."""
    import ast

    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(
            node, (ast.Break, ast.Continue, ast.Return, ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal)
        ):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))
    return False


def _name_counts(tree) -> dict[str, int]:
    import ast

    counts: dict[str, int] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            counts[n.id] = counts.get(n.id, 0) + 1
    return counts


def _name_counts_of(code: str) -> dict[str, int] | None:
    """How often each name occurs in *code*; None when it does not parse (a cell with magics)."""
    import ast

    try:
        return _name_counts(ast.parse(code))
    except SyntaxError:
        return None


#: The codemods by class name, as a rule's `FixBy` names them.
CODEMODS: dict[str, type[Codemod]] = {cls.__name__: cls for cls in Codemod.__subclasses__()}


def made(fix: FixBy) -> Codemod:
    """The codemod a rule's *fix* names, made with its arguments."""
    return CODEMODS[fix.codemod](**fix.args)
