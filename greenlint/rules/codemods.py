"""The codemods rules use as fixes: small LibCST rewrites of the call a finding points at.

Each is frozen data (what to change and whether that keeps behaviour); `rewrite` does the work
on the parsed call and returns the replacement source of the node it touches. Values are Python
source in which `{tf}` stands for the file's own name of the tensorflow module (`tf` after
`import tensorflow as tf`); a file that never imports tensorflow as a module gets no fix.
LibCST is imported only when a fix is computed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Codemod:
    """Base: `safe` fixes keep the program's results (only speed, memory or logging change)."""

    safe: bool = field(kw_only=True)

    @property
    def needs_tf(self) -> bool:
        return "{tf}" in getattr(self, "value", "")

    def rewrite(self, call: Any, tf: str) -> Change | None:
        """What to change at the call, or None when the call is not what the fix expects."""
        raise NotImplementedError


@dataclass(frozen=True)
class Change:
    """Replace `node` with `content` (`how="replace"`), or insert `content` right after it
    (`"after"`) or just before its last character (`"before_last"`, a call's closing parenthesis)."""

    node: Any
    content: str
    how: str = "replace"


def _parse(expression: str):
    import libcst as cst

    return cst.parse_expression(expression)


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


@dataclass(frozen=True)
class SetArgument(Codemod):
    """Bind parameter `name` to `value`: replace the value given (by keyword or at `position`,
    or at the position `positions` gives for the called method's name), or add it as a keyword
    argument."""

    name: str
    value: str
    position: int | None = None
    positions: tuple[tuple[str, int], ...] = ()

    def rewrite(self, call, tf):
        value = _code(_parse(self.value.format(tf=tf)))
        position = self.position
        if self.positions:
            called = getattr(getattr(call.func, "attr", None), "value", None)
            if called not in dict(self.positions):
                return None
            position = dict(self.positions)[called]
        arg = _argument(call, self.name, position)
        if arg is not None:
            return Change(arg.value, value)
        if any(a.star for a in call.args):
            return None  # *args or **kwargs might bind it already
        if call.args:
            return Change(call.args[-1].value, f", {self.name}={value}", "after")
        return Change(call, f"{self.name}={value}", "before_last")


@dataclass(frozen=True)
class RemoveArgument(Codemod):
    """Drop the argument binding parameter `name` (keyword, or at `position`) so the default applies."""

    name: str
    position: int | None = None

    def rewrite(self, call, tf):
        import libcst as cst

        arg = _argument(call, self.name, self.position)
        if arg is None:
            return None
        args = [a for a in call.args if a is not arg]
        if args and arg is call.args[-1]:
            args[-1] = args[-1].with_changes(comma=arg.comma if isinstance(arg.comma, cst.Comma) else cst.MaybeSentinel.DEFAULT)
        return Change(call, _code(call.with_changes(args=args)))


@dataclass(frozen=True)
class AppendCall(Codemod):
    """Append `.method(value)` to the whole method chain the call belongs to."""

    method: str
    value: str = ""

    def rewrite(self, call, tf):
        value = _code(_parse(self.value.format(tf=tf))) if self.value else ""
        return Change(call, f".{self.method}({value})", "after")


@dataclass(frozen=True)
class RemoveStatement(Codemod):
    """Delete the statement that is nothing but the call (`pass` if it was alone in its block)."""

    def rewrite(self, call, tf):  # the engine handles statements: see engine._remove_statement
        raise NotImplementedError


def _code(node) -> str:
    import libcst as cst

    return cst.Module(body=[]).code_for_node(node)


@dataclass(frozen=True)
class HoistBeforeLoop(Codemod):
    """Bind the call to a new name (`name`, or `name_2`... if taken) just before its enclosing loop,
    and use that name in the loop; only for calls that name nothing but the tensorflow module."""

    name: str = "hoisted"

    def rewrite(self, call, tf):  # the engine handles loops: see engine._Unit._hoist
        raise NotImplementedError


@dataclass(frozen=True)
class MoveToChainEnd(Codemod):
    """Move the call (`.prefetch(n)`) from the middle of its method chain to the end of the run
    of calls named in `over` that follows it, keeping its arguments as written."""

    over: frozenset[str]

    def rewrite(self, call, tf):  # the engine handles chains: see engine._Unit._move_to_chain_end
        raise NotImplementedError


@dataclass(frozen=True)
class WrapLoopBody(Codemod):
    """Move the body of the `for` loop around the call into a new function decorated with
    `@{tf}.function`, named `name` (numbered if taken), that takes the loop's variables, and call
    it from the loop. Only for a loop over plain names whose body neither leaves it (`break`,
    `continue`, `return`, `yield`) nor binds a name used outside it."""

    name: str = "train_step"

    @property
    def needs_tf(self) -> bool:
        return True

    def rewrite(self, call, tf):  # the engine handles loops: see engine._Unit._wrap_loop_body
        raise NotImplementedError
