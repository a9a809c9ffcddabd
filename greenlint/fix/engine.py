"""The one fix engine: attach each finding's fix (its rule's codemod, run with LibCST) and apply
fixes to a text, for `greenlint check --fix/--diff` and the editor's quick fix and fix-all.

Edits use the Span convention (1-based lines, columns in characters, end exclusive). Applying
keeps everything outside the edits byte for byte, skips a fix overlapping one already applied
(the next pass gets it), and re-checks the text until no fix applies, so fixing twice changes
nothing. A fix is offered (to every output: `--fix`, `--diff`, JSON, SARIF, the editor) only when
the top-level statements it edits parse afterwards and its codemod, asked again at the edited
call, changes nothing more.
"""

from __future__ import annotations

import ast
import bisect
import dataclasses
import difflib
import functools
import itertools
import logging
import re
from collections.abc import Callable, Iterable, Sequence

from greenlint.analysis.callsite import Span
from greenlint.analysis.sources import lines_with_endings
from greenlint.analysis.trees import first_line
from greenlint.fix.codemods import Codemod, Target, made
from greenlint.report.escape import patch_path
from greenlint.rules import codes
from greenlint.rules.base import unit_text
from greenlint.rules.diagnostic import Diagnostic, Edit, Fix

log = logging.getLogger(__name__)

#: Passes of check-then-fix before giving up on a text whose fixes keep producing fixes.
MAX_PASSES = 10
#: The line length fixes keep to when the project sets none (black's and ruff's default).
LINE_LENGTH = 88


def _codemod(code: str) -> tuple[Codemod, str, bool] | None:
    """The codemod of the rule *code*'s fix, the fix's title and whether it is safe; None without one."""
    if code not in codes.table():
        return None
    rule = codes.rule_class(code)
    return None if rule.FIX is None else (made(rule.FIX), rule.FIX_TITLE, rule.FIX.safe)


def attach_fixes(
    diagnostics: Sequence[Diagnostic],
    source: str | tuple[str, ...],
    line_length: int = LINE_LENGTH,
    shape: Outline | None = None,
) -> list[Diagnostic]:
    """The diagnostics, each with its rule's fix attached when the codemod applies to its call
    and its edited lines fit in `line_length` (a call is wrapped as a formatter would, else the
    finding keeps no fix): `check` with a file's findings, the editor's quick fix with one. Each
    finding's top-level statements are parsed alone, once for the findings they hold (LibCST reads
    a few lines, not the file). `shape` is the `outline` of the findings' unit when the caller has
    it (the editor, from its analysis' tree); else each unit's text is outlined."""
    out = list(diagnostics)
    units: dict[tuple[int | None, tuple[int, int]], _Unit | None] = {}
    for i, d in enumerate(diagnostics):
        found = _codemod(d.code) if d.fix is None else None
        if found is None:
            continue
        text = unit_text(source, d.span.cell)
        known = shape or (_outline(text) if text else None)
        if not text or not known:
            continue  # a unit `ast` cannot read holds no call a finding points at
        lines = statement_lines(known, d.span.line, d.span.end_line)
        if lines is None:
            continue  # no statement there: no call
        key = (d.span.cell, lines)
        if key not in units:
            units[key] = _Unit.around(source, d.span.cell, text, lines, known, line_length)
        unit = units[key]
        if unit is None:
            continue
        codemod, title, safe = found
        edits = unit.edit(codemod, d.span, d.data.get("holds"))
        if edits:
            out[i] = dataclasses.replace(d, fix=Fix(title, edits, safe=safe))
    return out


#: The first and last line of each top-level statement of a unit, and its name of tensorflow.
Outline = tuple[tuple[int, ...], tuple[int, ...], "str | None"]


def outline(module) -> Outline:
    """The first and last line of each top-level statement of an `ast.Module` (decorators
    included), and the name its top-level imports give the tensorflow module (`import tensorflow as tf`: "tf")."""
    starts, ends, tf = [], [], None
    for node in module.body:
        starts.append(first_line(node))
        ends.append(node.end_lineno or node.lineno)
        if tf is None and isinstance(node, ast.Import):
            tf = next((a.asname or a.name for a in node.names if a.name == "tensorflow"), None)
    return tuple(starts), tuple(ends), tf


def statement_lines(shape: Outline, first: int, last: int) -> tuple[int, int] | None:
    """The first and last line of the top-level statements holding lines `first` to `last` (and
    of any sharing a line with them); None when no statement meets them."""
    starts, ends, _ = shape
    while True:  # widen to the statements it meets until none straddles the range
        lo, hi = bisect.bisect_left(ends, first), bisect.bisect_right(starts, last)
        if lo >= hi:
            return None
        wider = min(first, starts[lo]), max(last, ends[hi - 1])
        if wider == (first, last):
            return wider
        first, last = wider


#: `lines_with_endings` of the last texts a fix was asked of (read, never changed).
_unit_lines = functools.lru_cache(maxsize=8)(lines_with_endings)


@functools.lru_cache(maxsize=8)
def _outline(text: str) -> Outline | None:
    """The `outline` of a text; None when it does not parse. Kept for the last texts asked about:
    an editor asks for the fixes of one version many times."""
    try:
        return outline(ast.parse(text))
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


class _Unit:
    """One parsed text (a file, or a notebook cell, or the top-level statements of one holding a
    finding) with the positions of its calls: where a codemod is asked for its edits, which are
    then checked to fit the line length."""

    def __init__(
        self,
        module,
        positions,
        parents,
        cell: int | None,
        shape: Outline,
        line_length: int = LINE_LENGTH,
        first: int = 1,
    ):
        self.module, self.positions, self.parents, self.cell = module, positions, parents, cell
        self.shift = first - 1  # lines above the parsed text in its unit
        self.line_length = line_length
        self.text = module.code  # generated once: a file with many fixes must not regenerate it per fix
        self.lines = lines_with_endings(self.text)
        self.line_set = set(self.lines)
        self.others: tuple[
            str, ...
        ] = ()  # the whole unit's text, then a notebook's other cells: names a new name must not shadow
        self._taken: set[str] | None = None
        self.shape = shape  # the parsed text's `outline`
        self.calls = {}
        import libcst as cst

        for node, pos in positions.items():
            if isinstance(node, cst.Call):
                key = (pos.start.line, pos.start.column + 1, pos.end.line, pos.end.column + 1)
                self.calls.setdefault(key, node)
        self.tf = shape[2]  # the unit's name of the tensorflow module

    @classmethod
    def around(
        cls,
        source: str | tuple[str, ...],
        cell: int | None,
        text: str,
        statements: tuple[int, int],
        shape: Outline,
        line_length: int = LINE_LENGTH,
    ) -> _Unit | None:
        """Lines `statements` (first, last: whole top-level statements, `statement_lines`) of `text`,
        the unit `cell` of `source`, whose `outline` is `shape`, parsed alone; with the unit's tensorflow
        name and every name the unit and a notebook's other cells use. None when LibCST cannot parse them."""
        import libcst as cst
        from libcst.metadata import MetadataWrapper, PositionProvider

        first, last = statements
        lines = _unit_lines(text)
        try:
            wrapper = MetadataWrapper(cst.parse_module("".join(lines[first - 1 : last])), unsafe_skip_copy=True)
            positions = wrapper.resolve(PositionProvider)
        except Exception:
            return None
        starts, ends, tf = shape
        lo, hi = bisect.bisect_left(ends, first), bisect.bisect_right(starts, last)  # the statements parsed
        tf = tf or (_notebook_tf_alias(source) if isinstance(source, tuple) else None)
        local = (tuple(n - first + 1 for n in starts[lo:hi]), tuple(n - first + 1 for n in ends[lo:hi]), tf)
        unit = cls(wrapper.module, positions, _parents(wrapper.module), cell, local, line_length, first)
        others = (t for i, t in enumerate(source, 1) if i != cell) if isinstance(source, tuple) else ()
        unit.others = (text, *others)  # the whole unit's names: a new name must shadow none
        return unit

    def edit(self, codemod: Codemod, span: Span, holds: str | None = None) -> tuple[Edit, ...]:
        """The edits of the codemod at the call with this span; () when it does not apply.
        `holds` names what the call's value is, for a codemod that binds it to a new name."""
        if not self.shift:
            return self._edit(codemod, span, holds)
        local = dataclasses.replace(span, line=span.line - self.shift, end_line=span.end_line - self.shift)
        edits = self._edit(codemod, local, holds)
        shift = self.shift
        return tuple(
            Edit(dataclasses.replace(e.span, line=e.span.line + shift, end_line=e.span.end_line + shift), e.content)
            for e in edits
        )

    def _edit(self, codemod: Codemod, span: Span, holds: str | None) -> tuple[Edit, ...]:
        call = self.calls.get((span.line, span.column, span.end_line, span.end_column))
        if call is None or (codemod.needs_tf and self.tf is None):
            return ()
        at = Target(
            call,
            self.module,
            self.positions,
            self.parents,
            self.lines,
            self.cell,
            self.tf,
            holds,
            self._names_taken,
            self.others[0] if self.others else self.text,
        )
        try:
            edits = tuple(codemod.rewrite(at))
        except Exception:  # a value that does not parse, an unexpected node: no fix
            return ()
        if codemod.wraps and len(edits) == 1 and not self._fits(edits):
            wrapped = self._wrap(at, edits[0])
            edits = (wrapped,) if wrapped else ()
        if not edits or not self._fits(edits):
            return ()
        why = self._unsound(codemod, call, edits, holds)
        if why:
            log.debug("no fix for %s at line %d: %s", type(codemod).__name__, span.line + self.shift, why)
            return ()
        return edits

    def _unsound(self, codemod: Codemod, call, edits: tuple[Edit, ...], holds: str | None) -> str | None:
        """Why the edits must not be offered, or None: the top-level statements they touch must
        parse once edited, and the codemod asked again at the edited call must change nothing
        (fixing twice is fixing once). Python parses those statements, LibCST the innermost statement
        holding the call: never the whole text."""
        import libcst as cst
        from libcst.metadata import PositionProvider

        pos = self.positions[call]
        first = min(pos.start.line, *(e.span.line for e in edits))
        last = max(
            pos.end.line, *(e.span.end_line - (e.span.end_column == 1 and e.span.end_line > e.span.line) for e in edits)
        )
        first, last = statement_lines(self.shape, first, last) or (1, len(self.lines))
        before = "".join(self.lines[first - 1 : last])
        local = tuple(_moved(e, first) for e in edits)
        after = apply_fixes(before, [Fix("", local)])[0]
        try:
            tree = ast.parse(after)
        except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
            return f"the edited code does not parse ({exc})"
        start = _shifted(_Cursor(before).offset(pos.start.line - first + 1, pos.start.column + 1), before, local)
        try:
            text, skipped, wrapper = _statement_at(after, tree, start)
            positions = wrapper.resolve(PositionProvider)
        except Exception as exc:  # LibCST's ParserSyntaxError
            return f"LibCST cannot parse the edited code ({type(exc).__name__})"
        name, cursor = _called(call), _Cursor(text)
        again = [
            node
            for node, p in positions.items()
            if isinstance(node, cst.Call)
            and _called(node) == name
            and cursor.offset(p.start.line, p.start.column + 1) == start - skipped
        ]
        if not again:
            return None  # the call is gone (removed, or replaced by a name): nothing to fix twice
        node = max(again, key=lambda n: cursor.offset(positions[n].end.line, positions[n].end.column + 1))
        module = wrapper.module  # its code is `text`: never regenerated
        target = Target(
            node, module, positions, _parents(module), cursor.lines, self.cell, self.tf, holds, self._names_taken
        )
        try:
            twice = apply_fixes(text, [Fix("", tuple(codemod.rewrite(target)))])[0]
        except Exception as exc:
            return f"the codemod fails on its own result ({type(exc).__name__})"
        return None if twice == text else "applying the fix twice changes the code again"

    def _fits(self, edits: tuple[Edit, ...]) -> bool:
        """No line the edits write is longer than the line length, or than the longest line of
        the text they edit (a fix never makes a long line longer)."""
        if not edits:
            return True
        first, last = min(e.span.line for e in edits), max(e.span.end_line for e in edits)
        limit = max([self.line_length, *(len(line.rstrip("\r\n")) for line in self.lines[first - 1 : last])])
        return all(len(line.rstrip("\r\n")) <= limit for line in self._written(edits) if line not in self.line_set)

    def _written(self, edits: tuple[Edit, ...]) -> list[str]:
        """The lines the edits produce, applied to the lines they touch only (edits sharing a line
        together): a file with many fixes never rebuilds its whole text per fix."""
        groups: list[list[Edit]] = []
        for e in sorted(edits, key=lambda e: (e.span.line, e.span.column)):
            if groups and e.span.line <= max(g.span.end_line for g in groups[-1]):
                groups[-1].append(e)
            else:
                groups.append([e])
        out = []
        for group in groups:
            out += lines_with_endings(self._applied(group, group[0].span.line, max(e.span.end_line for e in group)))
        return out

    def _applied(self, edits: Sequence[Edit], first: int, last: int) -> str:
        """Lines `first` to `last` of the text with the edits (which lie within them) applied."""
        shifted = [
            Edit(
                Span(e.span.line - first + 1, e.span.column, e.span.end_line - first + 1, e.span.end_column), e.content
            )
            for e in edits
        ]
        return apply_fixes("".join(self.lines[first - 1 : last]), [Fix("", tuple(shifted))])[0]

    def _wrap(self, at: Target, edit: Edit) -> Edit | None:
        """The edit of a one-line call, as the whole call rewritten and wrapped the way black
        wraps it (its arguments on one indented line, else one per line with a trailing comma)
        when the edited line is too long; None when it cannot be wrapped that way (a call that
        spans lines, or sits inside another bracket on its line)."""
        import libcst as cst

        span = at.span(at.call)
        if span.line != span.end_line or edit.span.line != span.line or edit.span.end_line != span.line:
            return None
        line = self.lines[span.line - 1]
        prefix, after = line[: span.column - 1], line[span.end_column - 1 :]
        if _open_brackets(prefix):
            return None
        code = line[span.column - 1 : span.end_column - 1]
        start, end = edit.span.column - span.column, edit.span.end_column - span.column
        try:
            new = cst.parse_expression(code[:start] + edit.content + code[end:])
        except Exception:
            return None
        if not isinstance(new, cst.Call) or not new.args:
            return None
        module = cst.Module(body=[])
        func = module.code_for_node(new.func)
        args = [
            module.code_for_node(
                a.with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=cst.SimpleWhitespace(""))
            )
            for a in new.args
        ]
        indent = prefix[: len(prefix) - len(prefix.lstrip(" \t"))]
        inner = f"{indent}    {', '.join(args)}"
        if len(inner) <= self.line_length:
            body = f"\n{inner}\n"
        else:
            body = "\n" + "".join(f"{indent}    {a},\n" for a in args)
        wrapped = f"{func}({body}{indent})"
        if len(prefix) + len(func) + 1 > self.line_length or len(f"{indent}){after.rstrip()}") > self.line_length:
            return None
        return Edit(span, wrapped)

    def _names_taken(self) -> set[str]:
        """Every name this unit and a notebook's other cells use, read once per unit: a file with
        many hoists pays for one walk, not one regeneration and parse per finding."""
        if self._taken is None:
            self._taken = set().union(*(_names_in_use(text) for text in (self.text, *self.others)))
        return self._taken


def _statement_at(text: str, tree: ast.Module, offset: int):
    """The lines of the innermost statement of `text` holding `offset` (of a compound statement,
    its header and decorators, with `pass` for its body), parsed by LibCST: a few lines, not the
    whole text; with how many characters of `text` come before them. The lines of an indented
    statement go under an `if True:` (which makes nothing conditional). The whole text when no
    such lines parse alone (an `elif` header)."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper

    cursor = _Cursor(text)
    lines, starts = cursor.lines, cursor.starts
    line = bisect.bisect_right(starts, offset)
    best = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        top = first_line(node)
        body = getattr(node, "body", None) or getattr(node, "cases", None)
        bottom = (body[0].lineno - 1 if body[0].lineno > node.lineno else 0) if body else node.end_lineno or node.lineno
        if top <= line <= bottom and (best is None or (top, bottom) > best[:2]):
            best = top, bottom, bool(body)
    if best is not None:
        top, bottom, compound = best
        piece = "".join(lines[top - 1 : bottom])
        indent = piece[: len(piece) - len(piece.lstrip(" \t"))]
        if compound:
            piece += f"{indent}    pass\n"
        head = "if True:\n" if indent else ""
        try:
            return (
                head + piece,
                starts[top - 1] - len(head),
                MetadataWrapper(cst.parse_module(head + piece), unsafe_skip_copy=True),
            )
        except Exception:
            pass
    return text, 0, MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)


def _moved(edit: Edit, first: int) -> Edit:
    """The edit in the text that starts at line `first`."""
    span = edit.span
    return Edit(Span(span.line - first + 1, span.column, span.end_line - first + 1, span.end_column), edit.content)


class _Cursor:
    """Offsets of (line, column) positions in one text."""

    def __init__(self, text: str):
        self.lines = lines_with_endings(text)
        self.starts = [0, *itertools.accumulate(map(len, self.lines))]

    def offset(self, line: int, column: int) -> int:
        """The offset of 1-based `line` and `column`, kept within the line (a line past the end: the text's end)."""
        if line > len(self.lines):
            return self.starts[-1]
        return min(self.starts[line - 1] + column - 1, self.starts[line])


def _shifted(offset: int, text: str, edits: Sequence[Edit]) -> int:
    """Where an offset of `text` lands once the edits are applied (an edit covering it: its start)."""
    cursor, moved = _Cursor(text), offset
    for e in edits:
        start, end = cursor.offset(e.span.line, e.span.column), cursor.offset(e.span.end_line, e.span.end_column)
        if end <= offset:
            moved += len(e.content) - (end - start)
        elif start < offset:
            moved -= offset - start
    return moved


def _called(call) -> str | None:
    """The name a call calls (`fit` in `model.fit(x)`)."""
    func = call.func
    return getattr(getattr(func, "attr", func), "value", None)


def _names_in_use(code: str) -> set[str]:
    """Every name the code reads or binds (variables, parameters, functions, classes, imports)
    and the builtins: what a new variable must not shadow. Keyword and attribute names are free."""
    import builtins

    names = set(dir(builtins))
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return names | set(re.findall(r"[A-Za-z_]\w*", code))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
        elif isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


def _open_brackets(text: str) -> bool:
    """Whether a line's text before a call leaves a bracket open (the call is inside another)."""
    import io
    import tokenize

    depth = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
    except (tokenize.TokenError, SyntaxError):
        return True
    return depth > 0


def _parents(module) -> dict:
    """Each node's parent: what LibCST's ParentNodeProvider gives, in half its time."""
    parents, stack = {}, [module]
    while stack:
        node = stack.pop()
        for child in node.children:
            parents[child] = node
            stack.append(child)
    return parents


_IMPORT_TF = re.compile(r"^import\s+tensorflow(?:\s+as\s+([A-Za-z_]\w*))?\s*(?:#.*)?$", re.M)


def _notebook_tf_alias(cells: tuple[str, ...]) -> str | None:
    """The name a notebook gives tensorflow in a top-level `import tensorflow [as x]` of any cell."""
    for cell in cells:
        m = _IMPORT_TF.search(cell)
        if m:
            return m.group(1) or "tensorflow"
    return None


def apply_fixes(text: str, fixes: Iterable[Fix]) -> tuple[str, list[Fix]]:
    """`text` with every fix applied whose edits overlap no fix applied before it; and those fixes."""
    cursor = _Cursor(text)
    taken: list[tuple[int, int]] = []
    chosen: list[tuple[int, int, str]] = []
    applied = []
    for fix in fixes:
        ranges = [
            (cursor.offset(e.span.line, e.span.column), cursor.offset(e.span.end_line, e.span.end_column), e.content)
            for e in fix.edits
        ]
        if any(a < e and s < b or (a == s and b == e) for s, e, _ in ranges for a, b in taken):
            continue
        taken += [(s, e) for s, e, _ in ranges]
        chosen += ranges
        applied.append(fix)
    for start, end, content in sorted(chosen, reverse=True):
        text = text[:start] + content + text[end:]
    return text, applied


def fix_text(
    text: str, check: Callable[[str], list[Diagnostic]], unsafe: bool = False
) -> tuple[str, list[Diagnostic], list[Diagnostic]]:
    """Apply fixes until none applies: (fixed text, the findings fixed, the findings left).

    `check` gives the findings of a text (with fixes attached); unsafe fixes only with `unsafe`.
    """
    fixed: list[Diagnostic] = []
    found = check(text)
    for _ in range(MAX_PASSES):
        usable = [d for d in found if d.fix is not None and (d.fix.safe or unsafe)]
        if not usable:
            break
        text, applied = apply_fixes(text, [d.fix for d in usable])
        fixed += [d for d in usable if any(d.fix is f for f in applied)]
        found = check(text)
    return text, fixed, found


def unified_diff(path: str, before: str, after: str) -> str:
    """The change as a unified diff (`--- a/path`, `+++ b/path`; absolute paths as they are; a name
    holding a control character quoted as git quotes it), "" when nothing changed."""
    if before == after:
        return ""
    old, new = (path, path) if path.startswith("/") else (f"a/{path}", f"b/{path}")
    old, new = patch_path(old), patch_path(new)
    lines = difflib.unified_diff(lines_with_endings(before), lines_with_endings(after), old, new)
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)
