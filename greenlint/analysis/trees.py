"""Parsing a module's text, once: during a run of many files (`shared()`), the tree parsed for a
project module's summary is reused when the module itself is analysed, and the reverse
(`greenlint check` of a project does both for most of its files). A few recent trees are kept,
bounded by their texts' size, and dropped when the run ends; those of the run's files not yet
analysed are dropped last (their analysis would parse them again). Outside a run (the editor, which
re-analyses one buffer as it changes) the last tree of a few paths is kept: a new text of the same
path reuses the top-level statements above its first changed line and parses the rest (the same
tree as a whole parse: the lines above are the same tokens)."""

from __future__ import annotations

import ast
import contextlib
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from greenlint.analysis import python2

#: Texts larger than this are parsed but not kept (a tree takes ~30x its text's memory). A module
#: read beside another is parsed for its imports, then its calls, then its own check: a test module
#: of 448,417 characters in the benchmark corpus was parsed three times under 256,000.
MAX_TEXT = 512_000
#: The kept trees' texts in all, in characters. Under 1,000,000, 203 parses of the benchmark corpus
#: (0.69 s) repeated one whose tree was dropped; under 2,000,000, 40 (0.06 s), the peak RSS of a
#: cold `-j 1` run unchanged (336 MiB against 338: the largest files' analysis sets it).
MAX_TOTAL = 2_000_000

_kept: OrderedDict[str, tuple[str, ast.Module]] = OrderedDict()
_size = 0
_lock = threading.Lock()
_runs = 0  # runs of many files in progress in this process (`shared`)
_pending: set[str] = set()  # the runs' files not yet analysed (absolute paths)
#: Outside a run: the paths whose last text and tree are kept, for their next version.
EDITED = 4
_edited: OrderedDict[str, tuple[str, ast.Module]] = OrderedDict()


@contextlib.contextmanager
def shared(analysed: Iterable[str] = ()) -> Iterator[None]:
    """Keep trees for reuse while the block runs (a process forked meanwhile inherits them);
    *analysed*: the paths of the files the run analyses, whose trees are dropped last until then."""
    global _runs, _size
    with _lock:
        _runs += 1
        _pending.update(os.path.abspath(p) for p in analysed)
    try:
        yield
    finally:
        with _lock:
            _runs -= 1
            if not _runs:
                _kept.clear()
                _pending.clear()
                _size = 0


def analysing(path: str) -> None:
    """The run's file at *path* is analysed now: its tree is no longer dropped last."""
    with _lock:
        _pending.discard(os.path.abspath(path))


def running() -> bool:
    """Whether a run of many files is in progress in this process (`shared`)."""
    return _runs > 0


def parse_module(text: str, path: str, edited: bool = True) -> ast.Module:
    """`ast.parse(text, filename=path)` of a whole module, shared with the last caller that parsed
    the same text at the same path. The tree must not be changed (copy it first). A module only
    read beside the one analysed (not `edited`) is parsed alone outside a run: it must not take
    the place of an edited path's last tree."""
    key = os.path.abspath(path)
    with _lock:
        hit = _kept.get(key)
        if hit is not None and hit[0] == text:
            _kept.move_to_end(key)
            return hit[1]
    if _runs:
        tree = parse(text, path)
        if len(text) <= MAX_TEXT:
            _keep(key, text, tree)
        return tree
    if not edited:
        return parse(text, path)
    with _lock:
        last = _edited.pop(key, None)
    tree = (_reparsed(last, text, path) if last is not None else None) or parse(text, path)
    with _lock:
        _edited[key] = (text, tree)
        while len(_edited) > EDITED:
            _edited.popitem(last=False)
    return tree


def parse(text: str, path: str) -> ast.Module:
    """The tree of a module's *text*; a Python 2 module's read as Python 3 (python2.py) where only
    that reading parses. Raises the text's own SyntaxError otherwise."""
    try:
        return ast.parse(text, filename=path)
    except SyntaxError as error:
        readable = python2.readable(text) if python2.written_in_python2(error) else None
        if readable is None:
            raise
        try:
            return ast.parse(readable, filename=path)
        except SyntaxError:
            raise error from None


def _reparsed(last: tuple[str, ast.Module], text: str, path: str) -> ast.Module | None:
    """*text* parsed reusing the top-level statements of the *last* text's tree that lie wholly
    above the first line that differs (and do not share their last line with the next statement);
    None where none can be reused or the rest does not parse (a whole parse then says why)."""
    old_text, old_tree = last
    same = _common_prefix(old_text, text)
    if text.find("\r", 0, same) != -1 or "barry_as_FLUFL" in text:  # lines not counted by "\n"; `<>` tokenised
        return None
    unchanged = text.count("\n", 0, same)  # lines 1..unchanged are the same, line breaks included
    body = old_tree.body
    kept = 0
    for i, stmt in enumerate(body):
        first = first_line(stmt)
        if first > unchanged:
            break
        if i and (body[i - 1].end_lineno or first) < first:
            kept = i  # body[:i] ends above line `first`, which starts body[i] and is unchanged
    if not kept:
        return None
    first = first_line(body[kept])
    start = _line_offset(text, first)
    try:
        rest = ast.parse("\n" * (first - 1) + text[start:], filename=path)
    except Exception:  # SyntaxError, ValueError, RecursionError...: the whole parse says it
        return None
    return ast.Module(body=[*body[:kept], *rest.body], type_ignores=rest.type_ignores)


def walk(node: ast.AST) -> list[ast.AST]:
    """`ast.walk(node)` as a list, in its order (breadth first), without the shared leaves
    (`child_fields`), built without its generators: about twice as fast where every node is
    read (an early exit on the first match reads a prefix only, and keeps `ast.walk`)."""
    walked = [node]
    append, node_type, fields = walked.append, ast.AST, CHILD_FIELDS
    for parent in walked:  # grows as it goes
        names = fields.get(type(parent))
        if names is None:
            names = child_fields(type(parent))
        for name in names:
            value = getattr(parent, name, None)
            if isinstance(value, list):
                for child in value:
                    if isinstance(child, node_type):
                        append(child)
            elif isinstance(value, node_type):
                append(value)
    return walked


def children(node: ast.AST) -> list[ast.AST]:
    """`ast.iter_child_nodes(node)` as a list, in its order, without the shared leaves (`child_fields`)."""
    found: list[ast.AST] = []
    node_type = ast.AST
    for name in CHILD_FIELDS.get(type(node)) or child_fields(type(node)):
        value = getattr(node, name, None)
        if isinstance(value, list):
            found.extend(child for child in value if isinstance(child, node_type))
        elif isinstance(value, node_type):
            found.append(value)
    return found


def shift_lines(tree: ast.AST, offset: int) -> None:
    """`ast.increment_lineno(tree, offset)` over `walk`'s nodes: the shared leaves it skips hold no position."""
    node: Any  # any node type with a position
    for node in walk(tree):
        if type(node) is ast.TypeIgnore or "lineno" in node._attributes:  # (a TypeIgnore's is a field)
            node.lineno = getattr(node, "lineno", 0) + offset
        if "end_lineno" in node._attributes and (end := getattr(node, "end_lineno", 0)) is not None:
            node.end_lineno = end + offset


#: The fields of each node type that may hold nodes (`child_fields`), filled as types are met.
CHILD_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}
#: The grammar's kinds of field that never hold a node of their own: names, strings, constants,
#: and the expression contexts and operators, each one object shared by the whole tree
#: (`ast.Load()`, `ast.Add()`), with no position and no children.
_LEAF_KINDS = frozenset({"identifier", "string", "constant", "int", "expr_context", "operator", "cmpop", "unaryop", "boolop"})
_GRAMMAR = re.compile(r"\w+\((.*)\)")


def child_fields(cls: type[ast.AST]) -> tuple[str, ...]:
    """The fields of node type *cls* worth walking: its `_fields` less those whose kind, in
    the grammar line that is each class's docstring (`Name(identifier id, expr_context ctx)`),
    is a leaf (`_LEAF_KINDS`); all of them where the docstring says no kind."""
    fields = CHILD_FIELDS.get(cls)
    if fields is None:
        grammar = _GRAMMAR.fullmatch(cls.__doc__ or "")
        kinds = {}  # field name -> its kind, without `?` (optional) or `*` (a list)
        for part in grammar.group(1).split(", ") if grammar else ():
            kind, _, name = part.partition(" ")
            kinds[name] = kind.rstrip("?*")
        fields = CHILD_FIELDS[cls] = tuple(f for f in cls._fields if kinds.get(f) not in _LEAF_KINDS)
    return fields


def dotted(expr: ast.AST | None) -> list[str]:
    """The names of a dotted name, outermost first: `np.random.uniform` -> ["np", "random",
    "uniform"], `x` -> ["x"]; [] for any other expression."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return []
    return [expr.id, *reversed(parts)]


def first_line(stmt: ast.stmt) -> int:
    """The line a top-level statement starts on: its first decorator's, if any."""
    return min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])


def _common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix of *a* and *b* (compared in blocks, at C speed)."""
    n, step = min(len(a), len(b)), 4096
    i = 0
    while i < n and a[i : i + step] == b[i : i + step]:
        i += step
    if i >= n:
        return n
    while step > 1:
        step //= 2
        if a[i : i + step] == b[i : i + step]:
            i += step
    return i


def _line_offset(text: str, line: int) -> int:
    """The offset where 1-based *line* of *text* starts (its lines end with "\n")."""
    offset = 0
    for _ in range(line - 1):
        offset = text.index("\n", offset) + 1
    return offset


def _keep(key: str, text: str, tree: ast.Module) -> None:
    global _size
    with _lock:
        old = _kept.pop(key, None)
        if old is not None:
            _size -= len(old[0])
        _kept[key] = (text, tree)
        _size += len(text)
        if _size > MAX_TOTAL:  # the oldest first, those still to be analysed after all others, this one last
            for old_key in _dropped(key):
                _size -= len(_kept.pop(old_key)[0])


def _dropped(key: str) -> list[str]:
    """The kept paths to drop, in order, until the texts kept fit `MAX_TOTAL` again: the oldest first,
    those still to be analysed after all others, *key* (kept last) last. Chosen before any is dropped,
    reading only as many as it drops (most runs drop one or two of some hundred kept, on each keep)."""
    excess, found = _size - MAX_TOTAL, []
    for pending in (False, True):
        for old_key, (text, _) in _kept.items():
            if old_key != key and (old_key in _pending) is pending:
                found.append(old_key)
                excess -= len(text)
                if excess <= 0:
                    return found
    return [*found, key]
