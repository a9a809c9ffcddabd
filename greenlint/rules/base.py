"""The rule framework: a Rule class per module, its test cases and options, and the file's facts it
reads (`FileFacts`: its call sites, `greenlint.rules.site`, and its syntax tree on request)."""

from __future__ import annotations

import ast
import json
import re
import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar, TypeVar

from greenlint.analysis import trees
from greenlint.analysis.callsite import Span, node_columns
from greenlint.analysis.import_table import SCOPES, imported, own
from greenlint.analysis.options import OptionRead
from greenlint.analysis.options import argument as argument
from greenlint.analysis.options import keyword as keyword
from greenlint.analysis.options import last_name as last_name
from greenlint.analysis.sources import Code, cell_code, joined, parse_code, split_lines
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import Site

_Node = TypeVar("_Node", bound=ast.AST)
_Gathered = TypeVar("_Gathered")

#: Docstring sections every rule documents, in this order (CONTRIBUTING.md, "Adding a rule").
SECTIONS = (
    "What it does",
    "Why is this bad?",
    "Example",
    "Use instead",
    "Energy evidence",
    "Fix safety",
    "Options",
)


def notebook(*cells: str) -> str:
    """A case's notebook: the text of an .ipynb file of these code cells (a case's `filename` ends in `.ipynb`)."""
    return json.dumps({"cells": [{"cell_type": "code", "source": c} for c in cells], "nbformat": 4, "nbformat_minor": 5})


@dataclass(frozen=True)
class Valid:
    """Source that must produce no diagnostic of the rule."""

    code: str
    filename: str = "example.py"
    options: Mapping[str, Any] = field(default_factory=dict)
    device: str | None = None  # the GPU stated (`--device`): FileFacts.device


@dataclass(frozen=True)
class Invalid:
    """Source that must produce at least one diagnostic of the rule (optionally on `line`)."""

    code: str
    filename: str = "example.py"
    options: Mapping[str, Any] = field(default_factory=dict)
    device: str | None = None  # the GPU stated (`--device`): FileFacts.device
    line: int | None = None
    message_contains: str | None = None
    #: Text of the help line shown with the finding: its own (`data["help"]`), else the rule's FIX_TITLE.
    help_contains: str | None = None
    #: The source after applying the rule's fixes (safe and unsafe), like Fixit's expected_replacement;
    #: the code itself when the finding comes without a fix.
    expected_replacement: str | None = None


@dataclass(frozen=True)
class Option:
    """A `[tool.greenlint]` key a rule reads; validated and documented from here."""

    key: str
    type: type
    default: Any
    help: str


@dataclass(frozen=True)
class FixBy:
    """How a rule's findings are fixed: by the codemod of greenlint.fix.codemods named *codemod*,
    made with *args* (its fields), where the fix engine builds fixes; a check that shows none loads
    no codemod. `safe`: the fixed program computes the same results (only speed, memory or logging
    change)."""

    codemod: str
    args: Mapping[str, Any] = field(default_factory=dict)
    safe: bool = field(kw_only=True)


@dataclass(frozen=True)
class FileFacts:
    """Everything known about one file, as rules see it.

    Most rules read only the call sites. A rule that needs the syntax around a call (an argument
    given as a variable, the chain a call sits in, the block around it) asks `node(site)`: the
    file's (or cell's) `ast` tree, with parent links: the analysis' tree of a plain file when
    it is handed over (`parsed`), else parsed once on first request.
    """

    path: str
    sites: tuple[Site, ...]
    source: str | tuple[str, ...] = ""
    parsed: ast.Module | None = field(default=None, compare=False, repr=False)
    _trees: dict = field(default_factory=dict, compare=False, repr=False)
    #: name -> the file's functions and methods of that name with their cells: filled once by `functions_named`.
    _functions: dict = field(default_factory=dict, compare=False, repr=False)
    #: The GPU the user stated the code runs on (`--device`, `device = "…"`: the table name of
    #: greenlint/predict/devices.py), None where none was stated: a rule whose claim holds on some
    #: devices only reads it.
    device: str | None = None
    #: The attributes the analysis read as the default of an option another module defines.
    options: tuple[OptionRead, ...] = ()
    #: key -> what a rule's helper gathered once for the whole file: filled by `once`.
    _once: dict = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def text(self) -> str:
        """The file's text (a notebook's code cells joined by newlines)."""
        return joined(self.source)

    @cached_property
    def imported(self) -> dict[str, str]:
        """Name -> the dotted path the file's module-scope absolute imports bind it to (a
        notebook's cells, one namespace, in order): `analysis/import_table.py`."""
        found: dict[str, str] = {}
        for cell in self.cells:
            module = self.module(cell)
            if module is not None:
                found.update(imported(module))
        return found

    def imported_path(self, expr: ast.expr, cell: int | None = None) -> str | None:
        """The dotted path a name or attribute chain names through the imports that bind its first
        name where it is (`np.random.rand` -> `numpy.random.rand` after `import numpy as np`): those
        of the functions around it, innermost first (a class body's own for its direct statements
        only, as Python looks names up), then the file's (`imported`); None where no import binds it."""
        parts = trees.dotted(expr)
        if not parts:
            return None
        index = self._tree(cell)
        owned = index.setdefault("imports", {}) if index is not None else {}  # scope -> its own imports, once
        scopes = [a for a in self.ancestors(expr, cell) if isinstance(a, SCOPES)]
        for depth, scope in enumerate(scopes):
            if type(scope) is not ast.Module and (depth == 0 or type(scope) is not ast.ClassDef):
                bound = owned.get(scope)
                if bound is None:
                    bound = owned[scope] = own(scope)
                if parts[0] in bound:
                    dotted = bound[parts[0]]
                    return None if dotted is None else ".".join([dotted, *parts[1:]])
        dotted = self.imported.get(parts[0])
        return None if dotted is None else ".".join([dotted, *parts[1:]])

    def _tree(self, cell: int | None) -> dict | None:
        if cell not in self._trees:
            self._trees[cell] = _index(self.source, cell, self.parsed if cell is None else None)
        return self._trees[cell]

    def node(self, site: Site) -> ast.Call | None:
        """The `ast.Call` of a call site (None if the source is not at hand, or for a wrapper's or a
        library driver's call listed as the TF call it makes: its arguments are not that call's,
        analysis/wrappers.py, analysis/drivers.py)."""
        if site.features.get("receiver") in ("wrapper", "driver"):
            return None
        return self.call_at(site)

    def call_at(self, site: Site) -> ast.Call | None:
        """The `ast.Call` written at a call site's span, whatever the site is listed as: for a
        wrapper's call, the call of the helper (`model.train(lr, *batch)`), not the TF call it makes."""
        span = site.callsite.span
        index = self._tree(span.cell)
        return (
            None
            if index is None
            else index["calls"].get((span.line, span.column - 1, span.end_line, span.end_column - 1))
        )

    def site_at(self, node: ast.AST, cell: int | None = None) -> Site | None:
        """The call site whose call is `node` (an index built once per file or cell)."""
        index = self._tree(cell)
        if index is None:
            return None
        if "sites" not in index:
            found = ((self.node(s), s) for s in self.sites if s.callsite.span.cell == cell)
            index["sites"] = {call: s for call, s in found if call is not None}
        return index["sites"].get(node)

    def listed_at(self, node: ast.AST, cell: int | None = None) -> Site | None:
        """`site_at`, or the site of a wrapper's call written at `node` (`model.train(lr)`, listed as the
        session run it makes: `call_at`): what running the call does, its arguments not that call's."""
        found = self.site_at(node, cell)
        if found is not None or not isinstance(node, ast.Call):
            return found
        index = self._tree(cell)
        if index is None:
            return None
        if "wrapped" not in index:
            wrapped = (s for s in self.sites if s.callsite.span.cell == cell and s.features.get("receiver") == "wrapper")
            index["wrapped"] = {call: s for call, s in ((self.call_at(s), s) for s in wrapped) if call is not None}
        return index["wrapped"].get(node)

    def option_read(self, node: ast.Attribute) -> OptionRead | None:
        """The option another module defines whose default the analysis read *node* of a plain file as."""
        index = self._tree(None) if self.options else None
        if index is None:
            return None
        if "options" not in index:
            index["options"] = {tuple(read[:4]): read for read in self.options}
        return index["options"].get((node.lineno, node.col_offset, node.end_lineno, node.end_col_offset))

    def calls(self, cell: int | None = None) -> Iterable[ast.Call]:
        """Every call of the file (or cell), from the index built once per unit."""
        index = self._tree(cell)
        return () if index is None else index["calls"].values()

    def parent(self, node: ast.AST, cell: int | None = None) -> ast.AST | None:
        index = self._tree(cell)
        return None if index is None else index["parents"].get(node)

    def ancestors(self, node: ast.AST, cell: int | None = None) -> Iterator[ast.AST]:
        """Enclosing nodes, innermost first."""
        parent = self.parent(node, cell)
        while parent is not None:
            yield parent
            parent = self.parent(parent, cell)

    def span(self, node: ast.expr | ast.stmt, cell: int | None = None, through: ast.expr | None = None) -> Span:
        """The span of a syntax node of the unit (columns in characters), for a finding at a node
        other than a call site's; with `through`, the node up to the end of that part of it (a
        loop's header: the loop through its iterable or test)."""
        index = self._tree(cell)
        return node_span(node, cell, through, None if index is None else index["lines"])

    def module(self, cell: int | None = None) -> ast.Module | None:
        """The unit's tree: a script's as the analysis parsed it (not indexed: a rule that reads
        the tree alone needs no parent links), a notebook cell's from its index."""
        if cell is None and self.parsed is not None:
            return self.parsed if unit_text(self.source, cell) else None
        index = self._tree(cell)
        return None if index is None else index["module"]

    def nodes(self, cell: int | None, *types: type[_Node]) -> tuple[_Node, ...]:
        """The unit's nodes of exactly these *types*, in `ast.walk`'s order: from the one walk that
        indexed the unit, kept with each selection asked, serves every rule (a rule walking the
        whole tree for its few nodes, per file or per finding, repeated that walk)."""
        index = self._tree(cell)
        if index is None:
            return ()
        key = ("nodes", types)
        if key not in index:
            index[key] = tuple(node for node in index["walked"] if type(node) in types)
        return index[key]

    def once(self, key: str, gather: Callable[[], _Gathered]) -> _Gathered:
        """`gather()`, made on the first ask of *key* for this file and kept: an index a helper
        reads per name or per node (`defaults.module_value`'s bindings by name) built in one pass."""
        if key not in self._once:
            self._once[key] = gather()
        return self._once[key]

    @property
    def cells(self) -> list[int | None]:
        """The file's units: None for a script, each code cell's 1-based number for a notebook."""
        return [None] if isinstance(self.source, str) else list(range(1, len(self.source) + 1))

    def functions_named(self, name: str) -> tuple[tuple[int | None, ast.FunctionDef | ast.AsyncFunctionDef], ...]:
        """The file's functions and methods named *name* (every cell of a notebook), each with its
        cell, in `nodes`' order: indexed by name once per file (rules follow calls name by name)."""
        named = self._functions
        if not named:
            named[None] = []  # built: a file without functions
            for cell in self.cells:
                for function in self.nodes(cell, ast.FunctionDef, ast.AsyncFunctionDef):
                    if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):  # for the type checker
                        named.setdefault(function.name, []).append((cell, function))
        return tuple(named.get(name, ()))

    def calls_named(self, cell: int | None, name: str) -> tuple[ast.Call, ...]:
        """The unit's calls of *name* by the name they end in (`f(...)`, `self.f(...)`,
        `obj.f(...)`), in `calls`' order: the callers of a function of that name, indexed by
        name once per unit."""
        index = self._tree(cell)
        if index is None:
            return ()
        named = index.get("named")
        if named is None:
            named = index["named"] = {}
            for call in index["calls"].values():
                named.setdefault(last_name(call.func), []).append(call)
            for key, calls in named.items():
                named[key] = tuple(calls)
        return named.get(name, ())


def unit_text(source: str | tuple[str, ...], cell: int | None) -> str | None:
    """The text of one unit: the file's (`cell` None), or a notebook's code cell (1-based)."""
    if cell is None:
        return source if isinstance(source, str) else None
    return source[cell - 1] if isinstance(source, tuple) and 0 < cell <= len(source) else None


def _index(source: str | tuple[str, ...], cell: int | None, module: ast.Module | None = None) -> dict | None:
    """A unit's tree (*module*, when already parsed from it), its parent links, its nodes in
    `trees.walk`'s order (no expression context nor operator: shared leaves, no one's child)
    and its calls by character span (0-based columns), from one walk."""
    text = unit_text(source, cell)
    if not text:
        return None
    if module is None:
        code = Code(text) if cell is None else cell_code(text, cell)  # a cell's magics read as the analysis read them
        try:
            module = parse_code(code)
        except (SyntaxError, ValueError):
            return None
    lines = None if text.isascii() else split_lines(text)  # ASCII: `ast`'s byte offsets are the characters'
    parents, calls = {}, {}

    node_type, call_type = ast.AST, ast.Call
    known: dict[type[ast.AST], tuple[str, ...]] = {}  # each node type's fields that hold nodes
    walked: list[ast.AST] = [module]
    append = walked.append
    for parent in walked:  # breadth first, as trees.walk (the same nodes; parent links too); grows as it goes
        names = known.get(type(parent))
        if names is None:
            names = known[type(parent)] = trees.child_fields(type(parent))
        for name in names:
            value = getattr(parent, name, None)
            if type(value) is list:
                for child in value:
                    if isinstance(child, node_type):
                        parents[child] = parent
                        append(child)
            elif isinstance(value, node_type):
                parents[value] = parent
                append(value)
        if isinstance(parent, call_type):
            start, end = node_columns(parent, lines)
            calls.setdefault((parent.lineno, start, parent.end_lineno or parent.lineno, end), parent)
    return {"module": module, "parents": parents, "calls": calls, "walked": walked, "lines": lines}


def binds(call: ast.Call | None, name: str, position: int | None = None) -> bool:
    """Whether the call gives parameter `name` a value (by keyword, at `position`, or maybe by `*`/`**`).
    True when the call is unknown, so that a rule asking "is it missing?" stays silent."""
    if call is None or argument(call, name, position) is not None:
        return True
    return any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args)


def node_span(
    node: ast.expr | ast.stmt, cell: int | None, through: ast.expr | None = None, lines: Sequence[str] | None = None
) -> Span:
    """The span of a syntax node (1-based columns, in characters: *lines* are its unit's,
    `sources.split_lines`, None for an ASCII text), for a finding at a node other than a call
    site's; with `through`, from the node's start to the end of that part of it (a loop's header:
    the loop through its iterable or test). Rules ask `FileFacts.span`, which knows the lines."""
    end = through if through is not None else node
    start, _ = node_columns(node, lines)
    _, stop = node_columns(end, lines)
    return Span(node.lineno, start + 1, end.end_lineno or node.lineno, stop + 1, cell)


class Rule:
    """Base class of every rule. Subclasses set the class attributes and implement `check`."""

    code: ClassVar[str]
    name: ClassVar[str]
    MESSAGE: ClassVar[str]
    FIX_TITLE: ClassVar[str]
    VALID: ClassVar[tuple[Valid, ...]] = ()
    INVALID: ClassVar[tuple[Invalid, ...]] = ()
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    SEVERITY: ClassVar[str] = "warning"
    #: Off unless selected explicitly (`--select CODE` / `extend-select`).
    DEFAULT_ENABLED: ClassVar[bool] = True
    #: Checked also on a file with no TensorFlow call site that the analysis parsed (it names
    #: TensorFlow or Keras, or imports a project module): a data loader of NumPy code, say.
    #: Such a rule must not assume `facts.sites` holds anything.
    SITELESS: ClassVar[bool] = False
    #: The methods (a call site's API's last name: `fit`, `map`, `ModelCheckpoint`) of which a file
    #: must call one for the rule to report: a file calling none is not checked, nor the rule's
    #: module imported (codes.json lists them). Empty: every file is checked.
    CALLS: ClassVar[frozenset[str]] = frozenset()
    #: Text of which a file must hold one (a substring of its source, a notebook's cells joined)
    #: for the rule to report: a file holding none is not checked, nor the rule's module imported
    #: (codes.json lists them). Empty: every file is checked.
    MENTIONS: ClassVar[tuple[str, ...]] = ()
    #: Canonical APIs whose measured energy the generated docs show as evidence.
    EVIDENCE_APIS: ClassVar[tuple[str, ...]] = ()
    #: How a finding is fixed (`FixBy`), or None.
    FIX: ClassVar[FixBy | None] = None

    @classmethod
    def fix_availability(cls) -> str:
        """ "safe", "unsafe" or "none": what `check --fix` (or `--unsafe-fixes`) can do for a finding."""
        return "none" if cls.FIX is None else "safe" if cls.FIX.safe else "unsafe"

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        """Yield diagnostics for one file. Pipeline-level rules (GL0xx) yield nothing here."""
        return iter(())

    def diagnostic(self, span: Span, path: str, message: str, **kw: Any) -> Diagnostic:
        return Diagnostic(path, span, self.code, self.name, message, severity=self.SEVERITY, **kw)

    @classmethod
    def doc(cls) -> str:
        return textwrap.dedent(cls.__doc__ or "").strip()

    @classmethod
    def sections(cls) -> dict[str, str]:
        """The docstring split by its `## Section` headings."""
        parts = re.split(r"^## +(.+?)\s*$", cls.doc(), flags=re.M)
        return {title: body.strip() for title, body in zip(parts[1::2], parts[2::2])}

    @classmethod
    def summary(cls) -> str:
        """The first sentence of "What it does"."""
        para = cls.sections().get("What it does", "").split("\n\n")[0].replace("\n", " ")
        return re.split(r"(?<=\.)\s", para, maxsplit=1)[0]
