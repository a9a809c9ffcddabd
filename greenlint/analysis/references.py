"""Where a module names one of its functions or classes: what `Resolver.all_calls_seen` compares
with the calls it saw, to know whether a function's parameters are what those calls passed.

Two counts of the same thing. `text_references` is fast (a literal search of the text) and never
fewer than the references in code: a word after a comment sign or inside a string opened on its
line is skipped, a string that is the name itself (`getattr(obj, "train")`) is not, unless it names a TF
scope or layer (`tf.variable_scope("generator")`, `name="generator"`), and a word in a string
spanning lines (a docstring's `act: ActWrapper`) still counts. Where it already equals
the calls seen, nothing more is needed. Otherwise `CodeReferences` reads the tree, once per module:
names loaded or bound, attributes, definitions, imports and string constants naming a Python path
(`"train"`, `"pkg.mod:train"`, an `__all__` entry) are references, prose in strings and comments is
not, nor is a string naming a TF scope or layer; a string that is the bare name is data, no
reference, in a module whose text has no word that looks objects up by strings (`looks_up_strings`). That walk is made only where it may change the answer: where the text's surplus over the
calls seen is no more than the docstrings' mentions (`in_prose`, found from the statements alone)
and, for a class, its `Cls.attr` reads. A function named anywhere else in code (passed on as a
value, exported, reached through a string) keeps an unseen use: its parameters stay unknown.
`word_lines` says where a name's word lies, to find the functions that may name it."""

from __future__ import annotations

import ast
import functools
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from greenlint.analysis import import_table, trees

#: A string literal closed on its line ('...' or "...", escapes included).
_CLOSED_STRING = re.compile(r"'(?:\\.|[^'\\])*'" + r'|"(?:\\.|[^"\\])*"')
#: A string constant that names a Python object: `train`, `pkg.mod.train`, `pkg.mod:train`.
_PATH = re.compile(r"[A-Za-z_][\w.:]*")
_PATH_PARTS = re.compile(r"[.:]")
_QUOTES = "'\""
#: What comes just before a string naming a TF scope or a layer, no Python object (`_graph_names`, in the text).
_GRAPH_NAME = re.compile(r"(?:[(,]\s*(?:name|name_or_scope)\s*=|\b(?:variable_scope|name_scope)\s*\()\s*$")


def text_references(text: str, name: str) -> tuple[int, int, int, int]:
    """Occurrences of the identifier *name* in *text* as a whole word: all of them, those after a
    dot (`obj.name`: an attribute), those before one (`name.x`: a dotted path's part) and the
    strings that are the name itself (`'name'`, counted in all of them too). Found by
    a literal search, which is much faster than tokenising the whole text; a word after a comment
    sign or inside a string opened on its line (`help='... to save ...'`) is no reference, unless
    the string is the name itself (`getattr(obj, 'save')`). A string spanning lines still counts
    (more references only ever withhold a binding)."""
    total = after = before = quoted = 0
    size, end_of_text = len(name), len(text)
    at = text.find(name)
    while at != -1:
        end = at + size
        if _whole_word(text, at, end):
            line = text[text.rfind("\n", 0, at) + 1 : at]
            if not _commented_or_quoted(line):
                total += 1
                i = at - 1
                while i >= 0 and text[i] in " \t":
                    i -= 1
                after += i >= 0 and text[i] == "."
                j = end
                while j < end_of_text and text[j] in " \t":
                    j += 1
                before += j < end_of_text and text[j] == "."
            elif at and end < end_of_text and text[at - 1] in _QUOTES and text[end] == text[at - 1] \
                    and not _GRAPH_NAME.search(line[:-1]):
                total += 1  # 'save' itself: getattr(obj, 'save'), __all__ = ['save']
                quoted += 1
        at = text.find(name, at + 1)
    return total, after, before, quoted


#: Words of the code that may look an object up by a string (builtins, `operator`, `mock`, `inspect`, an
#: export list, a module's namespace). In a module with none of them, a string equal to a function's name
#: is data (`if args.command == "train": train(model)`, `load(path, "train")`), no reference.
#: `importlib.import_module` and `__import__` look up a module, never a function: what is read off the
#: module they give is an attribute (a name in code) or looked up by one of these words (`getattr`).
_LOOKUPS = (
    "getattr", "hasattr", "setattr", "delattr", "globals", "locals", "vars", "eval", "exec",
    "__all__", "__dict__", "attrgetter", "methodcaller", "patch", "getmembers", "modules",
)


def looks_up_strings(text: str) -> bool:
    """Whether *text* may look an object up by a string: one of `_LOOKUPS` as a whole word in its
    code, not after a comment sign or inside a string opened on its line (`log('eval accuracy')`
    looks nothing up; a word in a string spanning lines counts, which only ever keeps more references).
    Found by literal searches: a regular expression of the words between `\\b`s tried every position
    of the text, three times as long on the benchmark corpus."""
    return any(_has_word(text, word) for word in _LOOKUPS)


def _has_word(text: str, word: str) -> bool:
    """Whether *word* occurs in *text* as a whole word (no word character on either side), neither
    commented nor quoted on its line (`_commented_or_quoted`)."""
    at = text.find(word)
    while at != -1:
        if _whole_word(text, at, at + len(word)) and not _commented_or_quoted(text[text.rfind("\n", 0, at) + 1 : at]):
            return True
        at = text.find(word, at + 1)
    return False


def _commented_or_quoted(prefix: str) -> bool:
    """Whether what follows *prefix* (the start of its line) is in a comment or in a string opened
    on that line: once the strings closed in it are taken out, a `#` or a quote is left."""
    if "#" not in prefix and "'" not in prefix and '"' not in prefix:
        return False
    rest = _CLOSED_STRING.sub("", prefix)
    return "#" in rest or "'" in rest or '"' in rest


def _word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _whole_word(text: str, at: int, end: int) -> bool:
    """Whether `text[at:end]` is a whole word: no word character just before or just after it."""
    return not (at and _word_char(text[at - 1])) and not (end < len(text) and _word_char(text[end]))


@dataclass(slots=True)
class Named:
    """How one module's code names one identifier."""

    total: int = 0  # every reference: loads, bindings, definitions, attributes, imports, strings naming it
    after_dot: int = 0  # `obj.name`: an attribute of something else
    strings: int = 0  # strings that are the name itself (`"name"`, no dotted path), counted in total too
    attributes: Counter[str] = field(default_factory=Counter)  # `name.attr`: how often each attr is read off it


class CodeReferences:
    """The identifiers a module's tree (or a function's: the names its own code can see) names,
    counted in one walk made when first asked."""

    def __init__(self, tree: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef):
        self.tree = tree
        self._nodes: list[ast.AST] | None = None  # the tree's nodes (`trees.walk`), for `of` and `not_a_method`
        self._named: dict[str, Named] | None = None
        self._prose: str | None = None  # the docstrings, joined by NUL (no word character: no word spans two)
        self._local: Counter[str] | None = None  # name -> its references naming no method (`not_a_method`)
        self._params: Counter[str] = Counter()  # name -> the parameters named so (`parameters`)
        self._attributes: dict[str, AttributeUses] | None = None  # attr -> how code uses it (`attribute_uses`)
        self._stored: dict[Any, list[str]] | None = None  # a lambda's or binding's id, a name -> attributes it is stored into
        self._bound: dict[str, list[str]] = {}  # a name -> attributes a binding of it is stored into (`bound_into`)

    def nodes(self) -> list[ast.AST]:
        """The tree's nodes, walked once for both counts (`of`, `not_a_method`)."""
        if self._nodes is None:
            self._nodes = trees.walk(self.tree)
        return self._nodes

    def of(self, name: str) -> Named:
        if self._named is None:
            self._named = _count(self.nodes())
        return self._named.get(name) or Named()

    def not_a_method(self, name: str) -> int:
        """How many of the references to *name* (a module's) name no method of it: the `Name` nodes in
        functions binding it themselves (`in_binding_functions`), and its reads as an attribute of a name
        the module's imports bind (`tf.train`)."""
        if self._local is None:
            self._local = Counter(in_binding_functions(self.tree).values())
            imported = self._imported()
            for node in self.nodes():
                if isinstance(node, ast.arg):
                    self._params[node.arg] += 1
                elif isinstance(node, ast.Attribute) and of_module(node, imported):
                    self._local[node.attr] += 1
        return self._local[name]

    def attribute_uses(self, attr: str) -> AttributeUses:
        """How the code uses the attribute *attr* of its objects (`attribute_uses`)."""
        if self._attributes is None:
            self._attributes, self._stored, self._bound = _attribute_uses(self.nodes(), self._imported())
        return self._attributes.get(attr) or AttributeUses()

    def stored_into(self, function: ast.Lambda | ast.Call | str) -> list[str]:
        """The attributes a lambda (its node), a binding (the `types.MethodType(train, m)` or
        `functools.partial(train, m)` call) or a function's name is stored into (`m.train = lambda lr:
        ...`, `m.test = _test`), once per store."""
        self.attribute_uses("")
        assert self._stored is not None
        return self._stored.get(function if type(function) is str else id(function), [])

    def bound_into(self, name: str) -> list[str]:
        """The attributes a binding of the function *name* is stored into (`m.train = types.MethodType(train,
        m)`), once per store: its name there is read by the binding, not by the store."""
        self.attribute_uses("")
        return self._bound.get(name, [])

    def _imported(self) -> frozenset[str]:
        return frozenset(import_table.own(self.tree)) if type(self.tree) is ast.Module else frozenset()

    def parameters(self, name: str) -> int:
        """How many parameters are named *name*: words of the text the tree counts nowhere (`not_a_method`)."""
        self.not_a_method(name)
        return self._params[name]

    def in_prose(self, name: str) -> int:
        """How often the statements that are a string alone (docstrings) name *name* as a word: the
        most the tree can take off the text's count besides attributes (found without walking the
        expressions: the walk of `of` is made only where it may change the answer)."""
        if self._prose is None:
            self._prose = "\0".join(_prose(self.tree.body, []))
        return len(word_lines(self._prose, name)) if name in self._prose else 0


_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")


def _prose(body: list, found: list[str]) -> list[str]:
    for stmt in body:
        if type(stmt) is ast.Expr and type(stmt.value) is ast.Constant and type(stmt.value.value) is str:
            found.append(stmt.value.value)
            continue
        for field_name in _BODIES:
            inner = getattr(stmt, field_name, None)
            if inner:
                _prose(inner, found)
    return found


def _count(nodes: list[ast.AST]) -> dict[str, Named]:
    """How a tree whose nodes are *nodes* (`trees.walk`'s order: a call before its arguments) names each identifier."""
    named: dict[str, Named] = {}

    def add(name: str) -> Named:
        entry = named.get(name)
        if entry is None:
            entry = named[name] = Named()
        entry.total += 1
        return entry

    graph_names: set[int] = set()  # ids of the strings naming a graph's scope or op (`_graph_names`)
    supers: set[int] = set()  # ids of the class names `super(Cls, self)` reads (`_super_class`)
    node: Any  # told apart by exact type: a parsed tree's nodes are of ast's own classes
    for node in nodes:  # every node once (counts), a call before its arguments
        kind = type(node)
        if kind is ast.Call:
            graph_names.update(_graph_names(node))
            supers.update(_super_class(node))
        if kind is ast.Name:
            if id(node) not in supers:
                add(node.id)
        elif kind is ast.Attribute:
            add(node.attr).after_dot += 1
            if type(node.value) is ast.Name:
                entry = named.get(node.value.id)  # its Name is counted where the walk reaches it
                if entry is None:
                    entry = named[node.value.id] = Named()
                entry.attributes[node.attr] += 1
        elif kind is ast.Constant:
            if type(node.value) is str and _PATH.fullmatch(node.value) and id(node) not in graph_names:
                entry = add(_PATH_PARTS.split(node.value)[-1])
                entry.strings += not _PATH_PARTS.search(node.value)
        elif kind not in _NAMING:
            continue
        elif kind is ast.alias:
            add(node.asname or node.name.partition(".")[0])
        elif kind is ast.Global or kind is ast.Nonlocal:
            for name in node.names:
                add(name)
        elif node.name:  # a definition, an `except ... as name`, a pattern's capture
            add(node.name)
    return named


@dataclass
class AttributeUses:
    """How a module's code uses one attribute name of its objects, reads off an imported module's path
    (`tf.train`) aside: calls through it (`obj.train(lr)`), stores into it and any other read (the value
    passed on, or an attribute of another object of the same name: its calls may not be the ones seen)."""

    calls: int = 0
    stores: int = 0
    reads: int = 0


#: The calls that bind a function's first parameters (`types.MethodType(train, m)`, `functools.partial(train,
#: m)`), as a module may spell them: its first argument is the function.
BINDERS = frozenset({"types.MethodType", "MethodType", "functools.partial", "partial"})


def _attribute_uses(nodes: list[ast.AST], imported: frozenset[str]) -> tuple[dict[str, AttributeUses], dict, dict]:
    """Each attribute name's `AttributeUses` among *nodes*; the attributes each lambda and binding (by id)
    and each name is stored into by an assignment of it alone (`obj.attr = lambda ...`, `obj.attr = name`,
    `obj.attr = types.MethodType(name, obj)`); and, by name, those a binding of the name is stored into."""
    uses: dict[str, AttributeUses] = {}
    stored: dict[Any, list[str]] = {}
    bound: dict[str, list[str]] = {}
    called = {id(node.func) for node in nodes if type(node) is ast.Call}
    for node in nodes:
        if type(node) is ast.Assign:
            value = node.value
            binder = _bound_name(value)
            key = id(value) if type(value) is ast.Lambda or binder else value.id if type(value) is ast.Name else None
            for target in node.targets if key is not None else ():
                if type(target) is ast.Attribute:
                    stored.setdefault(key, []).append(target.attr)
                    if binder:
                        bound.setdefault(binder, []).append(target.attr)
        if type(node) is not ast.Attribute or of_module(node, imported):
            continue
        found = uses.setdefault(node.attr, AttributeUses())
        if type(node.ctx) is ast.Store:
            found.stores += 1
        elif id(node) in called:
            found.calls += 1
        else:
            found.reads += 1
    return uses, stored, bound


def _bound_name(value: ast.expr) -> str:
    """The function name a binder call binds (`types.MethodType(train, m)`: "train"), "" for anything else."""
    if type(value) is not ast.Call or not value.args or type(value.args[0]) is not ast.Name:
        return ""
    return value.args[0].id if ".".join(trees.dotted(value.func)) in BINDERS else ""


def of_module(node: ast.AST, imported: frozenset[str]) -> bool:
    """Whether *node* is an attribute read off a dotted path whose first name is one of *imported* (the
    names a module's imports bind: `tf.train`, `tf.compat.v1.train`)."""
    if not isinstance(node, ast.Attribute):
        return False
    names = trees.dotted(node.value)
    return bool(names) and names[0] in imported


def in_binding_functions(tree: ast.AST, name: str | None = None) -> dict[int, str]:
    """The `Name` nodes (id -> name; of *name* alone where given) in the functions of *tree* that bind
    that name themselves (a parameter, or stored there and not declared global or nonlocal; their nested
    functions included): none of them names a method (a class body is no enclosing scope of its
    functions), as in `def train(self, train, dev): self.run_epoch(train, ...)`. One walk of the tree,
    each node's innermost function noted as it is reached; each function then takes its nested ones'
    names (a walk of each function's own subtree cost 2.7× as much on the benchmark corpus)."""
    frames: list[_Frame] = []
    walked: list[tuple[Any, _Frame | None]] = [(tree, None)]  # nodes told apart by exact type, as in `_count`
    append, node_type, fields, name_type, store = walked.append, ast.AST, trees.child_fields, ast.Name, ast.Store
    for node, frame in walked:  # grows as it goes: each node with the innermost function holding it
        kind = type(node)
        if kind is name_type:
            if frame is not None:
                frame.names.append(node)
                if type(node.ctx) is store:
                    frame.stores.add(node.id)
            continue
        if kind in _FUNCTIONS:
            frame = _Frame(node, frame)
            frames.append(frame)
        elif (kind is ast.Global or kind is ast.Nonlocal) and frame is not None:
            frame.shared.update(node.names)
        for field_name in fields(kind):
            value = getattr(node, field_name, None)
            if type(value) is list:
                for child in value:
                    if isinstance(child, node_type):
                        append((child, frame))
            elif isinstance(value, node_type):
                append((value, frame))
    found: dict[int, str] = {}
    for frame in reversed(frames):  # a nested function before the one holding it
        node, outer = frame.node, frame.outer
        args = node.args
        bound = {arg.arg for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if arg is not None}
        if type(node) is not ast.Lambda:
            bound |= frame.stores - frame.shared
        if name is not None:
            bound &= {name}
        if bound:
            found.update((id(n), n.id) for n in frame.names if n.id in bound)
        if outer is not None:
            outer.names += frame.names
            outer.stores |= frame.stores
            outer.shared |= frame.shared
    return found


#: The nodes that open a function's scope (`in_binding_functions`).
_FUNCTIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda})


@dataclass(slots=True)
class _Frame:
    """One function as `in_binding_functions` walks it: the `Name` nodes of its subtree, the names
    stored there and those declared global or nonlocal there (nested functions' included once done)."""

    node: Any
    outer: _Frame | None
    names: list[ast.Name] = field(default_factory=list)
    stores: set[str] = field(default_factory=set)
    shared: set[str] = field(default_factory=set)


#: `super(Cls, self)`: a class named to reach its base's methods, never to make one (`super_mentions`).
_SUPER = re.compile(r"\bsuper\(\s*([A-Za-z_]\w*)\s*,")


def super_mentions(text: str, name: str) -> int:
    """How often *text* names the class *name* as `super(name, self)` (Python 2's spelling, common in
    Keras layers' `__init__`), which makes no instance: fewer than a constructor's references."""
    return _super_counts(text).get(name, 0) if "super" in text else 0


def keyword_mentions(text: str, name: str) -> int:
    """How often *text* has *name* where a call's keyword or a parameter goes (`app.run(main=main)`,
    `def f(main=None)`): a word the tree counts as no reference; the text's count includes it."""
    if f"{name}=" not in text and f"{name} =" not in text:
        return 0
    found, size, end_of_text = 0, len(name), len(text)
    at = text.find(name)
    while at != -1:  # `[(,]\s*name\s*=(?!=)`, found by literal searches (a pattern led by a class tries every position)
        i, j = at - 1, at + size
        while i >= 0 and text[i].isspace():
            i -= 1
        while j < end_of_text and text[j].isspace():
            j += 1
        found += i >= 0 and text[i] in "(," and j < end_of_text and text[j] == "=" and text[j + 1 : j + 2] != "="
        at = text.find(name, at + 1)
    return found


def definitions(text: str, name: str) -> int:
    """How often *text* defines a function *name* (`def name(`): a method of each of several classes
    (`GAN.train`, `VAE.train`) is named by the others' definitions, which call none of them."""
    if f"def {name}" not in text:
        return 0
    if name.isascii():  # a word of `_DEF`'s: one scan of the text for every name
        return _definition_counts(text).get(name, 0)
    return len(re.findall(rf"\bdef\s+{re.escape(name)}\s*\(", text))  # (a mark in it may be no `\w`)


#: A function's definition: `def`, its name, its parameters' opening parenthesis (a word's end before it
#: tested apart: a pattern led by `\b` tries every position, 20x slower).
_DEF = re.compile(r"def\s+(\w+)\s*\(")


@functools.lru_cache(maxsize=8)
def _definition_counts(text: str) -> dict[str, int]:
    """Each function name's definitions in *text* (`definitions`): one scan per text, asked once per
    method name the resolver counts references of."""
    return dict(Counter(match[1] for match in _DEF.finditer(text)
                        if not (match.start() and (text[match.start() - 1].isalnum() or text[match.start() - 1] == "_"))))


@functools.lru_cache(maxsize=8)
def _super_counts(text: str) -> dict[str, int]:
    """Each class name's `super(name, ...)` mentions in *text*: one scan per text, asked once per class
    constructor the resolver counts references of."""
    return dict(Counter(_SUPER.findall(text)))


def _super_class(call: ast.Call) -> list[int]:
    """The id of the class name a `super(Cls, self)` call reads, as a list (none for any other call)."""
    func = call.func
    if type(func) is ast.Name and func.id == "super" and call.args and type(call.args[0]) is ast.Name:
        return [id(call.args[0])]
    return []


#: Calls whose first argument names a TF graph's scope (`tf.variable_scope("generator")`), not a Python object.
_SCOPES = frozenset({"variable_scope", "name_scope"})


def _graph_names(call: ast.Call) -> list[int]:
    """The ids of the strings *call* is given as a name in a TF graph or a Keras model (a scope's
    first argument, a `name=` keyword: `Dense(10, name="generator")`), which name no Python object."""
    func = call.func
    called = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""
    found = [id(k.value) for k in call.keywords if k.arg in ("name", "name_or_scope")]
    if called in _SCOPES and call.args:
        found.append(id(call.args[0]))
    return found


#: The other nodes that name an identifier (`_count`).
_NAMING = frozenset({
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.alias, ast.Global, ast.Nonlocal,
    ast.ExceptHandler, ast.MatchAs, ast.MatchStar,
})


def word_lines(text: str, name: str, called: bool = False) -> list[int]:
    """The lines (1-based) where *name* occurs in *text* as a whole word (*called*: followed by an
    opening parenthesis, `Name(`), prose and comments included: where to look for the code that
    may name it (a literal search, no parse)."""
    lines = []
    size, end_of_text = len(name), len(text)
    at = text.find(name)
    line, counted = 1, 0
    while at != -1:
        end = at + size
        if called:
            while end < end_of_text and text[end] in " \t":
                end += 1
            if end == end_of_text or text[end] != "(":
                at = text.find(name, at + 1)
                continue
        if _whole_word(text, at, end):
            line += text.count("\n", counted, at)
            counted = at
            lines.append(line)
        at = text.find(name, at + 1)
    return lines
