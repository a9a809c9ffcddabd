"""How the scripts beside a module call a class or function it defines but never names itself
(`dcgan = DCGAN(sess, batch_size=FLAGS.batch_size, ...)` in main.py, `class DCGAN` in model.py), or
a method of such a class on the instances they make (`dcgan.train(FLAGS)`): the project index's
`callers` (the modules that import it in the folders a program importing it runs from, a notebook's
cells read as one script's top level, which the per-file cache key covers with the project modules they
import), read from their syntax alone, never walked or imported, whether they name it by name, through the
module (`import pkg.model as m`, `from pkg import model`) or through its `*` where no later `*` may give the
name; how often those calls run per run of the script too (script_runs.py). An argument
is known where it is a literal, a module constant of the script bound once to a literal (at its top
level or under its main guard), the default of one of the script's command-line options that it does not set itself
(`options.py`: its `Const.option` says so), or the script's options object itself (`FLAGS`, `args =
parser.parse_args()`: an `Options` of those defaults), or a call of what the script imports (`Made`:
`load_model(path)`, a name bound once to one), which the module's resolver types where it makes a
Keras model, a TF1 session, a `tf.data` dataset, a `tfds.builder()` or an instance of a plain project class
(`config = Config()`: `Imports.held`); unknown otherwise. A class's constructions include its subclasses' in the modules importing
it, as their `__init__` hands their arguments on (`super().__init__(config)`: `_constructing_heirs`); a method's calls, those such
a subclass makes on `self` (`self.add_train_op(...)` in `NERModel.build`: `_heir_self_calls`), as often as the scripts run the
subclass's methods making them. The absl flags such
modules define are read the same way (`flag_defaults`): absl's `FLAGS` is one for the process."""

from __future__ import annotations

import ast
import functools
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from greenlint.analysis import by_name, entry_runners, import_table, one_of, options, references, trees
from greenlint.analysis.script_runs import ScriptRuns
from greenlint.analysis.values import MOST_CHOICES, Const, Options


class Made(NamedTuple):
    """An argument made by a call of what the script imports (`load_model(path)`,
    `tf.compat.v1.Session()`, `tf.data.Dataset.from_tensor_slices(x).batch(32)`), or a name the
    script binds once to one (`model = keras.models.load_model(...)`, `with tf.Session() as sess`):
    the callee's dotted path through the script's imports and the methods chained on its result.
    The resolver of the module called says what it is (`Resolver.made_beside`); nothing of its size."""

    path: str
    methods: tuple[str, ...] = ()


class MadeOneOf(NamedTuple):
    """A name the script binds only to calls of what it imports, more than once (`net = vgg16()` in one
    branch of an `if`, `net = resnetv1(num_layers=101)` in another): whichever binding ran, one of them."""

    made: tuple[Made, ...]


#: An argument's value, where known.
Value = Const | Options | Made | MadeOneOf | None
#: One call's arguments: the positional values in order and the keyword values by name (None: unknown).
Arguments = tuple[list[Value], dict[str, Value]]
#: How often a script's calls of a name run per run of it as the program (script_runs.py; None: not known), and
#: whether that is at most so.
Counted = tuple[int | None, bool]
#: The runs of calls a script may make that its reading cannot tell (`Beside.calls`).
UNSEEN: Counted = (None, False)


class Elsewhere(NamedTuple):
    """What the project modules a script imports tell of its command line (`Beside.elsewhere`): the
    functions it imports from them that return it parsed, each with whether first of two (`from config
    import get_config`; `config, unparsed = get_config()`), the literal defaults of the options those
    modules define (None where not literal or defined twice), and the options they set themselves,
    whatever holds them (`setattr(config, "data_format", ...)`), with whether only where None
    (`options.set_by_program`)."""

    parsing: tuple[tuple[str, bool], ...] = ()
    defaults: tuple[tuple[str, Const | None], ...] = ()
    set: tuple[tuple[str, bool], ...] = ()


#: A script told nothing by the modules it imports.
NOTHING_ELSEWHERE = Elsewhere()


class Called(NamedTuple):
    """How the scripts beside call a name: each call's *arguments*, and how often those calls run per run
    of the program (*runs*, None where not known; a program is one script: the most any script makes,
    *upper* where they differ or one is at most so); *scripts*: the file names of the scripts calling it."""

    arguments: list[Arguments]
    runs: int | None
    upper: bool
    scripts: tuple[str, ...] = ()


class Tally(NamedTuple):
    """What the scripts beside a module do with a name of it, before they are summed up (`Beside.tally`):
    each call's arguments, the runs of each script's calls of it (`Counted`), and the scripts' file names."""

    found: list[Arguments]
    counts: list[Counted]
    scripts: list[str]


class Read(NamedTuple):
    """The words a module's code reads (`_Script.read`): the attributes (`.train` of `model.train(...)`) and
    the bare names; none of a comment or a string."""

    attributes: frozenset[str]
    names: frozenset[str]


#: How the scripts beside the module at a path call a name of it (`Beside.tally` there): asked of the
#: callers defining a subclass, for the method it inherits (`Sub.train`); None where one names it otherwise.
Inherited = Callable[[str, str], Tally | None]


class Beside:
    """The scripts beside the module at *path* that may call it (*importers*: their texts by path,
    None where unreadable), read once per module analysed: those whose text may import it or names
    from it (`_imports_from`: `from ...model import DCGAN`, `import model`) and whose imports parse.
    Which names they can call is kept beside (`may_call`), so that a name none of them can call
    costs a set lookup and a script is walked only for the names it can call. The others' texts (*unread*,
    by path: `import pkg.model as m`, an unreadable file) may call it where the reading does not follow: their
    calls are not counted (`calls`)."""

    def __init__(self, importers: dict[str, str | None], path: str, own: Callable[[], str | None] = lambda: None,
                 package: Callable[[], str | None] = lambda: None):
        self.stem = os.path.splitext(os.path.basename(path))[0]
        self.path = path
        self.own = functools.cache(own)  # the module's own text, read where asked (`_self_counts`: what it calls on `self`)
        self.package = package  # the text of its package's `__init__.py` (None: none, or unreadable)
        self.scripts: list[tuple[str, str, dict[str, tuple[str, str]], dict[str, str]]] = []
        self.unread: list[tuple[str, str | None]] = []
        self.aliases: dict[str, frozenset[str]] = {}  # a script -> its names of this module `from package import module` binds
        for importer, text in importers.items():
            imports = _imports(importer, text) if text is not None and (
                _imports_from(text, self.stem) or _names_by_string(text, self.stem)) else None
            if imports is not None and text is not None:
                imported, modules = imports
                aliases = self._as_module(imported)
                if aliases:  # `from tf_unet import unet`: the module itself, read as after `import unet`
                    imported = {local: key for local, key in imported.items() if local not in aliases}
                    modules = {**modules, **dict.fromkeys(aliases, self.stem)}
                    self.aliases[importer] = aliases
                self.scripts.append((importer, text, imported, modules))
            else:
                self.unread.append((importer, text))
        self.named = frozenset(name for _, _, imported, _ in self.scripts
                               for stem, name in imported.values() if stem == self.stem)
        self.whole = [importer for importer, _, _, modules in self.scripts if self.stem in modules.values()]
        self.starred = [importer for importer, _, imported, _ in self.scripts if (self.stem, "*") in imported.values()]
        self.words: dict[str, frozenset[str]] = {}  # the words of the scripts importing it whole or its `*` (`_reads`)
        self.told: dict[str, Elsewhere] = {}  # a script -> what the modules it imports tell (`elsewhere`)

    def _as_module(self, imported: dict[str, tuple[str, str]]) -> frozenset[str]:
        """The names a script's `from package import <this module>` binds to this module (*imported*: its
        `from` imports): its package's folder named so, and its `__init__.py` (where it has one) defining no
        other object of that name (Python binds the package's attribute first, its submodule otherwise)."""
        folder = os.path.basename(os.path.dirname(self.path))
        names = frozenset(local for local, (package, name) in imported.items() if name == self.stem and package == folder)
        if not names:
            return names
        init = self.package()
        stem = re.escape(self.stem)
        if init is not None and self.stem in init and re.search(rf"^[ \t]*(?:(?:async[ \t]+)?def|class)[ \t]+{stem}\b|^[ \t]*{stem}[ \t]*=|\bimport\b.*\bas[ \t]+{stem}\b",
                                          init, re.MULTILINE):
            return frozenset()
        return names

    def may_call(self, name: str) -> bool:
        """Whether a script can call *name* (`calls`'s): imported from the module by name, or
        read where a script imports the module whole (`model.train(FLAGS)`) or its `*`."""
        word = name.rpartition(".")[0] or name
        return word in self.named or any(self._reads(importer, word) for importer in (*self.whole, *self.starred))

    def _reads(self, importer: str, name: str) -> bool:
        """Whether the script imported whole may read *name*: its text holds the word; every
        word of an ASCII text, an identifier read unchanged (a non-ASCII one may be normalised: always)."""
        words = self.words.get(importer)
        if words is None:
            text = next(text for path, text, _, _ in self.scripts if path == importer)
            words = self.words[importer] = frozenset(re.findall(r"\w+", text)) if text.isascii() else frozenset()
        return name in words or not words

    def elsewhere(self, importer: str, text: str, names: dict[str, tuple[str, str]],
                  imported: Callable[[str], dict[str, str | None]]) -> Elsewhere:
        """What the project modules the script at *importer* imports (*imported*: their texts by path) tell
        of its command line (`Elsewhere`), read where it binds a name to a call without arguments of one
        it imports from them (*names*: `config, unparsed = get_config()`), once per script."""
        if importer in self.told:
            return self.told[importer]
        called = {local: key for local, key in names.items()  # `in` first: most scripts call none of them
                  if f"{local}(" in text and re.search(rf"=\s*{re.escape(local)}\(\s*\)", text)}
        parsing: list[tuple[str, bool]] = []
        defaults: dict[str, Const | None] = {}
        set_: dict[str, bool] = {}
        modules = imported(importer) if called else {}
        for local, (stem, name) in called.items():
            found = [path for path in modules if _stem(path) == stem]
            there = modules[found[0]] if len(found) == 1 else None
            if there is None or not any(parser in there for parser in options.PARSERS):
                continue  # (most modules: never parsed here)
            told = _parses(found[0], there)
            pair = dict(told.parsing).get(name)
            if pair is None:
                continue
            parsing.append((local, pair))
            for attr, value in told.defaults:
                defaults[attr] = value if defaults.get(attr, value) == value else None
            for attr, only_none in told.set:
                set_[attr] = set_.get(attr, True) and only_none
        result = Elsewhere(tuple(parsing), tuple(defaults.items()), tuple(set_.items())) if parsing else NOTHING_ELSEWHERE
        self.told[importer] = result
        return result

    def calls(self, name: str, imported: Callable[[str], dict[str, str | None]] = lambda script: {},
              inherited: Inherited | None = None) -> Called | None:
        """How the scripts call *name* (`Called`); *name* a function or class, or `Class.method` called on the
        instances a script makes of the class (`dcgan = DCGAN(...)`, `dcgan.train(FLAGS)`), or on those of a
        subclass a script defines without the method (*inherited*, `tally`). None where none calls it, or
        where one names it otherwise than in a plain call (passes it on, subclasses it, spreads `*args` or
        `**kwargs` into it, reads `.method` of anything but such an instance), or hands such an instance on
        (to a call) while a project module it imports (*imported*: their texts by path, by script) reads a
        `.method`."""
        tally = self.tally(name, imported, inherited)
        if tally is None or not tally.found:
            return None
        found, counts, scripts = tally
        known = [count for count, _ in counts]
        if None in known:
            return Called(found, None, False, tuple(scripts))
        most = max(count for count in known if count is not None)
        return Called(found, most, len(set(known)) > 1 or any(upper for _, upper in counts), tuple(scripts))

    def tally(self, name: str, imported: Callable[[str], dict[str, str | None]] = lambda script: {},
              inherited: Inherited | None = None) -> Tally | None:
        """The calls of *name* the scripts make, each script's runs of them and the scripts (`calls`); None
        where one names it otherwise. For `Class.method`, a script defining `class Sub(Class)` (the class
        imported by name) whose body does not define the method adds the calls of `Sub.method` that the
        scripts beside it make (*inherited*, asked of its path: `model.train(...)` in train.py on a
        `NERModel`, whose `train` is `BaseModel`'s), and the calls of it on `self` that such a class's methods make,
        as often as those scripts run them (`_self_counts`); not asked, they are calls not seen."""
        if not self.may_call(name):
            return None
        owner, _, method = name.rpartition(".")
        found: list[Arguments] = []
        counts: list[Counted] = []
        scripts: list[str] = []
        word = method if owner else name
        pattern = re.compile(rf"\.\s*{re.escape(word)}\b") if owner else _whole_word(word)

        def named(path: str, text: str | None, read: Read | None = None) -> bool:
            """Whether the code of the module at *path* reads `.method` (or *name*, bare or as an attribute):
            the pattern a test of its text, its tree the judge (*read*, or `_read`): a comment or a
            string naming it calls nothing (`# model.restore_session(...)`). So where it does not parse."""
            if text is None or word not in text or pattern.search(text) is None:  # `in` first: most texts lack it
                return text is None
            read = read or _read(path, text)
            return read is None or method in read.attributes or not owner and name in read.names

        for importer, text, imported_names, modules in self.scripts:
            bases = frozenset(local for local, key in imported_names.items() if key == (self.stem, name)) \
                if not owner and "class " in text else frozenset()
            heirs = _constructing_heirs(importer, text, bases) if bases else ()
            if heirs is None:
                return None
            for heir, forward in heirs:  # `class NERModel(BaseModel)`: its constructions make a `BaseModel`
                through = inherited(importer, heir) if inherited is not None else Tally([], [UNSEEN], [])
                handed = [arguments if forward is None else _forwarded(forward, arguments) for arguments in
                          (through.found if through is not None else ())]
                if through is None or None in handed:
                    return None
                found.extend(arguments for arguments in handed if arguments is not None)
                counts.extend(through.counts)
                scripts.extend(through.scripts)
            if heirs:
                continue
            key = (self.stem, name)
            if not _may_call(imported_names, modules, self.stem, owner, name):
                if self._star_gives(importer, imported_names, imported, owner or name):
                    key = ("*", name)  # `from model import *`, then `unet()`
                elif named(importer, text):  # named otherwise than its reading follows (`import pkg.mod as m`; `m.f()`)
                    counts.append(UNSEEN)
                    continue
                else:
                    continue
            elif not owner and key not in imported_names.values() and not self._reads(importer, name):
                continue  # imported whole only, and never names it
            calls, handed, counted, read = _script(importer, text, self.elsewhere(importer, text, imported_names, imported),
                                                   self.aliases.get(importer, frozenset()))
            called = calls.get(key, ())
            if called is None:
                return None
            if called and owner in handed:
                if any(named(path, other) for path, other in imported(importer).items()):
                    return None
            if called:
                found.extend(called)
                counts.append(counted[key])
                scripts.append(os.path.basename(importer))
            elif owner and named(importer, text, read) and not self._heirs_call(importer, text, imported_names, name):
                counts.append(UNSEEN)  # `.method` read on what it cannot tell: calls not seen
        for importer, text, imported_names, _ in self.scripts if owner else ():
            heirs = self._heirs_of(importer, text, imported_names, name)
            for heir in heirs:
                through = inherited(importer, f"{heir}.{method}") if inherited is not None else Tally([], [UNSEEN], [])
                if through is None:
                    return None
                if set(through.scripts) & set(scripts):  # one script calling it through two classes: not summed
                    counts.append(UNSEEN)
                found.extend(through.found)
                counts.extend(through.counts)
                scripts.extend(through.scripts)
            own = _heir_self_calls(importer, text, heirs, method) if heirs else None
            if own:  # `self.add_train_op(...)` in `NERModel.build`
                found.extend(arguments for calls in own for arguments in calls.arguments)
                per = self._self_counts(importer, text, own, inherited)
                # (a script also calling it otherwise: not summed)
                counts.extend([UNSEEN] if per is None or set(per) & set(scripts) else per.values())
                scripts.append(os.path.basename(importer))
        if found and any(named(path, text) for path, text in self.unread):
            counts.append(UNSEEN)
        return Tally(found, counts, scripts)

    def _star_gives(self, importer: str, imported: dict[str, tuple[str, str]],
                    texts: Callable[[str], dict[str, str | None]], word: str) -> bool:
        """Whether the name *word* the script at *importer* never binds is this module's, by its `from module
        import *` (*imported*: the script's imports): this module names it and lists no `__all__`, and no
        star import after this one may give it (each of another project module the script imports, *texts*,
        whose text neither names it nor imports a `*` itself). Where one may, or is another library's, the
        name is not told (Python binds it to the last one giving it)."""
        stars = [stem for stem, name in imported.values() if name == "*"]
        own = self.own()
        if self.stem not in stars or word.startswith("_") or own is None or "__all__" in own \
                or not _names_word(own, word):
            return False
        later = stars[len(stars) - stars[::-1].index(self.stem):]
        modules = texts(importer) if later else {}
        for stem in later:
            found = [text for path, text in modules.items() if _stem(path) == stem]
            if len(found) != 1 or found[0] is None or _names_word(found[0], word) or _STAR_IMPORT.search(found[0]):
                return False
        return True

    def _heirs_of(self, importer: str, text: str, imported: dict[str, tuple[str, str]], name: str) -> tuple[str, ...]:
        """The classes the script at *importer* defines on the class of *name* (`Class.method`), imported by name
        from this module, that inherit the method (`_heirs`)."""
        owner, _, method = name.rpartition(".")
        bases = frozenset(local for local, key in imported.items() if key == (self.stem, owner))
        return _heirs(importer, text, bases, method) if bases else ()

    def _heirs_call(self, importer: str, text: str, imported: dict[str, tuple[str, str]], name: str) -> bool:
        """Whether every `.method` the script at *importer* reads is a call of it on `self` in a class it defines
        on *name*'s class that inherits it (`_heir_self_calls`): calls `tally` counts through that class."""
        heirs = self._heirs_of(importer, text, imported, name)
        return bool(heirs) and bool(_heir_self_calls(importer, text, heirs, name.rpartition(".")[2]))

    def _self_counts(self, importer: str, text: str, made: tuple[_SelfCalls, ...],
                     inherited: Inherited | None) -> dict[str, Counted] | None:
        """How often the calls *made* on `self` run per run of each script calling the methods making them (as
        `tally` counts a method the class inherits: *inherited*, a construction for `__init__`), summed per
        script, by script; None where one of those methods is named where that reading does not
        follow (this module or the base's, besides its definition: `self.build()`, a base's `self.run_epoch(...)`; for
        `__init__`, the class named in its module: `Sub()` there), or a count is not known (a loop, a method no script
        calls)."""
        own = self.own()
        read, base = _read(importer, text), _read(self.path, own) if own is not None else None
        per: dict[str, tuple[int, bool]] = {}
        for calls in made:
            caller, (times, at_most) = calls.caller, calls.counted
            init = caller == "__init__"  # (run by the class's constructions)
            if inherited is None or times is None or read is None or base is None or (
                    calls.heir in read.names if init else caller in read.attributes or caller in base.attributes):
                return None
            through = inherited(importer, calls.heir if init else f"{calls.heir}.{caller}")
            if through is None or not through.found or len(through.counts) != len(through.scripts):
                return None
            for (runs, upper), script in zip(through.counts, through.scripts):
                if runs is None:
                    return None
                total, held = per.get(script, (0, False))
                per[script] = (total + runs * times, held or upper or at_most)
        return dict(per)


def flag_defaults(texts: dict[str, str | None]) -> dict[str, Const | None]:
    """The absl flags the modules of *texts* (their texts by path, None where unreadable) define:
    each flag's literal default where every module defining it gives the same one and none sets it
    itself (`_Script.option`); None where they differ or one is not known."""
    found: dict[str, Const | None] = {}
    for path, text in texts.items():
        if text is None or "DEFINE_" not in text:
            continue
        for flag, value in _flags(path, text).items():
            found[flag] = value if found.get(flag, value) == value else None
    return found




def names_method(tree: ast.Module, name: str) -> bool:
    """Whether a module's *tree* names a method's *name* besides its definition: bare, but in a function
    binding the name itself (`references.in_binding_functions`), or as an attribute of anything but a
    name the module imports (`self.train`, `obj.train`; `tf.train` is none): a call of it that the
    scripts beside do not make."""
    imported: set[str] = set()
    attributes: list[ast.Attribute] = []
    bare: list[ast.Name] = []
    for node in trees.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imported.update(alias.asname or alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.Name) and node.id == name:
            bare.append(node)
        elif isinstance(node, ast.Attribute) and node.attr == name:
            attributes.append(node)
    if bare:
        local = references.in_binding_functions(tree, name)
        if any(id(node) not in local for node in bare):
            return True
    return not all(references.of_module(node, frozenset(imported)) for node in attributes)


def _imports_from(text: str, stem: str) -> bool:
    """Whether *text* may hold `from ...<stem> import` (the module's last name followed by `import`,
    with only blanks and line continuations between), `import <stem>`, `import <package>.<stem>` or `from <package> import
    a, <stem>`: a test of the text before
    its parse. Tried where the name occurs only: a search for a pattern that starts with `\\b` does
    not skip ahead to the name and cost 40× more on Keras's modules."""
    at = text.find(stem)
    if at == -1:
        return False
    named, module = _import_patterns(stem)
    while at != -1:
        before = at > 0 and (text[at - 1].isalnum() or text[at - 1] == "_")
        if not before and named.match(text, at) is not None:
            return True
        if module.search(text, max(0, at - 64), at + len(stem) + 1) is not None:
            return True
        at = text.find(stem, at + 1)
    return False


@functools.lru_cache(maxsize=1024)
def _import_patterns(stem: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """`_imports_from`'s two patterns for *stem*, compiled once: a run asks of each module's stem for
    every script beside it (482 asks of 183 stems in tf-models-official's vision and nlp)."""
    return (re.compile(rf"{re.escape(stem)}[\s\\]*import\b"),
            re.compile(rf"\bimport[ \t(]+(?:[\w.]+\.)?(?:[\w.]+[ \t]*,[ \t]*)*{re.escape(stem)}\b"))


def _names_by_string(text: str, stem: str) -> bool:
    """Whether *text* may import the module *stem* by a string (`importlib.import_module("models.net")`,
    `by_name.named_paths`): a test of the text before its parse, as `_imports_from` is."""
    return stem in text and any(path.rpartition(".")[2] == stem for path in by_name.named_paths(text))


#: The scripts whose `_imports` and `_script` are kept: a run asks again for most of them (each module
#: they import analysed asks), and a parse costs ~100x the text's digest.
MAX_SCRIPTS = 4096


def _per_text(func: Callable[..., Any]) -> Callable[..., Any]:
    """*func(path, text, *rest)* kept per path, length and `hash` of the text and the hashable *rest*,
    for the last `MAX_SCRIPTS` (unlike `functools.lru_cache`, the texts themselves are not kept).
    Python's string hash (64 bits, keyed per process) is kept on the text object once computed; a
    cryptographic digest of the whole text, recomputed on every ask, cost more than the parses it
    saved on Keras's sources."""
    kept: dict[tuple, Any] = {}

    @functools.wraps(func)
    def once(path: str, text: str, *rest: Any) -> Any:
        key = (path, len(text), hash(text), *rest)
        try:
            return kept[key]
        except KeyError:
            pass
        found = func(path, text, *rest)
        if len(kept) >= MAX_SCRIPTS:
            kept.pop(next(iter(kept)), None)  # the oldest
        kept[key] = found
        return found

    return once


@_per_text
def _flags(path: str, text: str) -> dict[str, Const | None]:
    """The absl flags one module defines, each with its default (`flag_defaults`)."""
    try:
        tree = trees.parse_module(text, path, edited=False)
    except SyntaxError:
        return {}
    script = _Script(tree)
    defined = options.defaults(c for c in script.calls if options.last_name(c.func) in options.ABSL)
    return {flag: script.option("FLAGS", flag) for flag in defined}


@_per_text
def _heirs(path: str, text: str, bases: frozenset[str], method: str) -> tuple[str, ...]:
    """The classes the module at *path* defines at its top level on one of *bases* (names it binds by
    import to a class of another module) whose body does not define *method*: they inherit it."""
    tree = trees.parse_module(text, path, edited=False)  # (parsed already by `_imports`: shared in a run)
    found = []
    for node in tree.body:
        if type(node) is not ast.ClassDef or not any(type(b) is ast.Name and b.id in bases for b in node.bases):
            continue
        own = {part.name for part in node.body if isinstance(part, (ast.FunctionDef, ast.AsyncFunctionDef))}
        own.update(target.id for part in node.body if isinstance(part, (ast.Assign, ast.AnnAssign))
                   for target in (part.targets if isinstance(part, ast.Assign) else [part.target])
                   if type(target) is ast.Name)
        if method not in own:
            found.append(node.name)
    return tuple(found)


#: A method's definition.
_Method = ast.FunctionDef | ast.AsyncFunctionDef


class _SelfCalls(NamedTuple):
    """The calls `self.method(...)` one method (*caller*) of a class (*heir*) makes (`_heir_self_calls`): how
    often they run per run of it (`Counted`), and each one's arguments (literals; None for anything else)."""

    heir: str
    caller: str
    counted: Counted
    arguments: list[Arguments]


@_per_text
def _self_called(path: str, text: str) -> tuple[Counter[str], dict[str, dict[str, list[tuple[_Method, list[ast.Call]]]]]]:
    """What the module at *path* reads as an attribute, by name (how often: `.add_train_op`), and the calls the
    methods of its top-level classes make on `self` (a method's first parameter): class -> method called -> each
    calling method with its calls. One walk per module (`_heir_self_calls` asks it per method name)."""
    tree = trees.parse_module(text, path, edited=False)  # (parsed already by `_imports`: shared in a run)
    read: Counter[str] = Counter(node.attr for node in trees.walk(tree) if type(node) is ast.Attribute)
    classes: dict[str, dict[str, list[tuple[_Method, list[ast.Call]]]]] = {}
    for node in tree.body:
        if type(node) is not ast.ClassDef:
            continue
        called = classes.setdefault(node.name, {})
        for part in node.body:
            if not isinstance(part, (ast.FunctionDef, ast.AsyncFunctionDef)) or not part.args.args:
                continue
            me, calls = part.args.args[0].arg, dict[str, list[ast.Call]]()
            for call in trees.walk(part):
                if type(call) is ast.Call and type(call.func) is ast.Attribute and type(call.func.value) is ast.Name \
                        and call.func.value.id == me:
                    calls.setdefault(call.func.attr, []).append(call)
            for attr, made in calls.items():
                called.setdefault(attr, []).append((part, made))
    return read, classes


@_per_text
def _heir_self_calls(path: str, text: str, heirs: tuple[str, ...], method: str) -> tuple[_SelfCalls, ...] | None:
    """The calls of *method* on `self` that the methods of *heirs*, classes the module at *path* defines at its top
    level, make, grouped by method, their runs in it read as a script's (script_runs.py: once, at most once under a
    condition, unknown in a loop); None where the module reads `.method` otherwise (on anything else, uncalled, or a
    call spreads `*args`), or a decorated method calls it."""
    read, classes = _self_called(path, text)
    found: list[_SelfCalls] = []
    for heir in heirs:
        for caller, calls in classes.get(heir, {}).get(method, ()):
            if caller.decorator_list or any(_spreads(call) for call in calls):
                return None
            body = ast.Module(body=caller.body, type_ignores=[])
            loads = Counter(n.id for n in trees.walk(body) if type(n) is ast.Name and type(n.ctx) is ast.Load)
            arguments: list[Arguments] = [
                ([_literal(a) for a in call.args], {k.arg: _literal(k.value) for k in call.keywords if k.arg}) for call in calls]
            found.append(_SelfCalls(heir, caller.name, ScriptRuns(body, dict(loads)).total(calls), arguments))
    return tuple(found) if read[method] == sum(len(calls.arguments) for calls in found) else None


class _Forward(NamedTuple):
    """How a subclass's `__init__` hands what it is given to its base's (`super().__init__(config)`): its own
    parameters after `self`, their literal defaults, and the base call's positional and keyword arguments,
    each the name of one of those parameters or a literal (None: neither, unknown)."""

    params: tuple[str, ...]
    defaults: tuple[tuple[str, Const | None], ...]
    args: tuple[str | Const | None, ...]
    keywords: tuple[tuple[str, str | Const | None], ...]


@_per_text
def _constructing_heirs(path: str, text: str, bases: frozenset[str]) -> tuple[tuple[str, _Forward | None], ...] | None:
    """The classes the module at *path* defines at its top level on one of *bases* (names it binds by import
    to a class of another module), each with how its `__init__` calls the base's (`_Forward`; None where it
    defines none, the base's own then); None where the module names a base otherwise (makes one, hands the
    class on), or an `__init__` calls the base's in a form not read (not once, `*args`, `**kwargs`)."""
    try:
        tree = trees.parse_module(text, path, edited=False)  # (parsed already by `_imports`: shared in a run)
    except SyntaxError:
        return None
    found: list[tuple[str, _Forward | None]] = []
    allowed: set[int] = set()  # the base names read as a class's base or in `Base.__init__(self, ...)`
    for node in tree.body:
        if type(node) is not ast.ClassDef or not any(type(b) is ast.Name and b.id in bases for b in node.bases):
            continue
        allowed.update(id(b) for b in node.bases)
        init = next((part for part in node.body if type(part) is ast.FunctionDef and part.name == "__init__"), None)
        forward = _forward(init, node.name, bases, allowed) if init is not None else None
        if init is not None and forward is None:
            return None
        found.append((node.name, forward))
    if found and any(type(n) is ast.Name and n.id in bases and id(n) not in allowed for n in trees.walk(tree)):
        return None
    return tuple(found)


def _forward(init: ast.FunctionDef, name: str, bases: frozenset[str], allowed: set[int]) -> _Forward | None:
    """How *init*, class *name*'s `__init__`, calls its base's (`_Forward`): exactly once, as
    `super().__init__(...)`, `super(name, self).__init__(...)` or `Base.__init__(self, ...)`; None otherwise."""
    args = init.args
    if args.vararg or args.kwarg or args.posonlyargs or not args.args:
        return None
    params = tuple(arg.arg for arg in args.args[1:])
    defaults = tuple((arg.arg, _literal(d)) for arg, d in zip(args.args[len(args.args) - len(args.defaults):], args.defaults))
    calls = []
    for call in trees.walk(init):
        if type(call) is not ast.Call or type(call.func) is not ast.Attribute or call.func.attr != "__init__":
            continue
        owner = call.func.value
        if type(owner) is ast.Call and type(owner.func) is ast.Name and owner.func.id == "super" and (
                not owner.args or len(owner.args) == 2 and type(owner.args[0]) is ast.Name and owner.args[0].id == name):
            calls.append(call.args)
        elif type(owner) is ast.Name and owner.id in bases and call.args and type(call.args[0]) is ast.Name \
                and call.args[0].id == args.args[0].arg:
            allowed.add(id(owner))
            calls.append(call.args[1:])
        else:
            continue
        if any(type(a) is ast.Starred for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        keywords = tuple((k.arg, _handed(k.value, params)) for k in call.keywords if k.arg is not None)
    if len(calls) != 1:
        return None
    return _Forward(params, defaults, tuple(_handed(a, params) for a in calls[0]), keywords)


def _handed(node: ast.expr, params: tuple[str, ...]) -> str | Const | None:
    """An argument a subclass's `__init__` gives its base's: the name of one of its *params*, a literal, or None."""
    return node.id if type(node) is ast.Name and node.id in params else _literal(node)


def _forwarded(forward: _Forward, arguments: Arguments) -> Arguments | None:
    """A construction's *arguments* of a subclass as its `__init__` hands them to the base's (`_Forward`);
    None where they do not bind its parameters."""
    given, named = arguments
    if len(given) > len(forward.params) or any(k not in forward.params for k in named):
        return None
    bound: dict[str, Value] = dict(zip(forward.params, given))
    if any(k in bound for k in named):
        return None
    bound.update(named)
    for param, default in forward.defaults:
        bound.setdefault(param, default)

    def value(handed: str | Const | None) -> Value:
        return bound.get(handed) if isinstance(handed, str) else handed

    return [value(a) for a in forward.args], {k: value(v) for k, v in forward.keywords}


@_per_text
def _read(path: str, text: str) -> Read | None:
    """What the code of the module at *path* reads (`Read`), from its tree (shared in a run); None where it
    does not parse."""
    try:
        return _Script(trees.parse_module(text, path, edited=False)).read
    except SyntaxError:
        return None


@_per_text
def _parses(path: str, text: str) -> Elsewhere:
    """What the module at *path* tells the scripts importing it of their command line (`Elsewhere`), for
    each of its functions returning it parsed; empty where none does."""
    try:
        tree = trees.parse_module(text, path, edited=False)
    except SyntaxError:
        return NOTHING_ELSEWHERE
    parsing = _Parsing(tree)
    if not parsing.functions and not parsing.pairs:
        return NOTHING_ELSEWHERE
    script = _Script(tree)
    set_: dict[str, bool] = {}
    for (_, attr), only_none in script.set.items():
        set_[attr] = set_.get(attr, True) and only_none
    named = sorted([*((n, False) for n in parsing.functions), *((n, True) for n in parsing.pairs)])
    return Elsewhere(tuple(named), tuple((attr, script.default(attr)) for attr in script.defaults), tuple(set_.items()))


#: `import *` as a whole word, the literal first: a pattern opening on `\b` is tried at every
#: character of the text (25 times slower over a long module), a literal one only where it is found.
_STAR_IMPORT = re.compile(r"import(?<=\bimport)\s*\*")


def _names_word(text: str, word: str) -> bool:
    """Whether *text* holds the identifier *word* as a whole word (`in` first: most texts lack it)."""
    return word in text and _whole_word(word).search(text) is not None


def _whole_word(word: str) -> re.Pattern[str]:
    """`\\bword\\b`, the literal first (`_STAR_IMPORT`)."""
    return re.compile(rf"{re.escape(word)}(?<=\b{re.escape(word)})\b")


def _stem(path: str) -> str:
    """The last name of the module at *path* (`config` of config.py, of config/__init__.py)."""
    stem, folder = os.path.splitext(os.path.basename(path))[0], os.path.dirname(path)
    return os.path.basename(folder) if stem == "__init__" else stem


@_per_text
def _imports(path: str, text: str) -> tuple[dict[str, tuple[str, str]], dict[str, str]] | None:
    """A script's top-level imports: name -> (module stem, name) of `from ...stem import name` (`*module`
    -> (module stem, "*") of `from module import *`, in their order), name -> module stem of `import module`
    and `import package.module as name`; None where it does not parse."""
    try:
        tree = trees.parse_module(text, path, edited=False)
    except SyntaxError:
        return None
    imported = {
        alias.asname or (f"*{'.' * node.level}{node.module or ''}" if alias.name == "*" else alias.name):
            ((node.module or "").rpartition(".")[2], alias.name)
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    modules = {alias.asname or alias.name: alias.name.rpartition(".")[2] for node in tree.body if isinstance(node, ast.Import)
               for alias in node.names if alias.asname or "." not in alias.name}
    return imported, {**(_loaded_by_name(tree) if "import_module" in text else {}), **modules}


def _loaded_by_name(tree: ast.Module) -> dict[str, str]:
    """Name -> module stem of a name the script binds once, anywhere, to `importlib.import_module(s)` (by_name.py)
    of a literal dotted path or of an option's literal default (`network = importlib.import_module(args.model_def)`,
    `--model_def` defaulting to `"models.inception_resnet_v1"`): as after `import models.net as network`."""
    nodes = trees.walk(tree)
    bound = Counter(node.id for node in nodes if type(node) is ast.Name and type(node.ctx) is ast.Store)
    found: dict[str, str] = {}
    defaults: dict[str, ast.expr | None] | None = None
    for node in nodes:
        if not (type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name
                and type(node.value) is ast.Call and options.last_name(node.value.func) == "import_module"
                and len(node.value.args) == 1 and not node.value.keywords):
            continue
        given: ast.expr | None = node.value.args[0]
        if type(given) is ast.Attribute:
            if defaults is None:
                defaults = options.defaults(n for n in nodes if type(n) is ast.Call)
            given = defaults.get(given.attr)
        if type(given) is ast.Constant and type(given.value) is str and bound[node.targets[0].id] == 1 \
                and all(part.isidentifier() for part in given.value.split(".")):
            found[node.targets[0].id] = given.value.rpartition(".")[2]
    return found


def _may_call(imported: dict[str, tuple[str, str]], modules: dict[str, str], stem: str, owner: str, name: str) -> bool:
    """Whether a script of these imports can call *name* of module *stem* (`_script`'s keys): a
    method on the instances of a class imported from it, a name imported from it, or any name of
    it imported as a module. Tried before the script's walk."""
    if owner:
        return (stem, owner) in imported.values() or stem in modules.values()
    return (stem, name) in imported.values() or stem in modules.values()


@_per_text
def _script(path: str, text: str, elsewhere: Elsewhere = NOTHING_ELSEWHERE, aliases: frozenset[str] = frozenset()
            ) -> tuple[dict[tuple[str, str], list[Arguments] | None], frozenset[str], dict[tuple[str, str], Counted], Read]:
    """(module stem, name) -> the arguments of each call of a name this script imports from that
    module (a function, a class, `Class.method` on the instances it makes, a module's `function`
    after `import module`; ("*", name) of a name it never binds, where it imports some module's `*`), None
    where the script names it otherwise than in plain calls; the
    classes whose instances it hands on (passes to a call); how often the calls of each such name
    run per run of the script (script_runs.py); and what its code reads (`Read`). *elsewhere*: what the
    project modules it imports tell of its command line; *aliases*: the names its `from package import module`
    binds to the module itself (`Beside._as_module`), read as after `import module`."""
    imports = _imports(path, text)
    if imports is None or not any(imports):
        return {}, frozenset(), {}, Read(frozenset(), frozenset())
    imported, modules = imports
    if aliases:
        modules = {**modules, **{local: imported[local][1] for local in aliases if local in imported}}
        imported = {local: key for local, key in imported.items() if local not in aliases}
    tree = trees.parse_module(text, path, edited=False)
    script = _Script(tree, elsewhere)
    free = script.free if any(name == "*" for _, name in imported.values()) else frozenset()
    choices = one_of.Choices(tree, frozenset(imported), text)
    instances = script.instances(imported, modules, free, choices)
    by_name: dict[str, list[ast.Call]] = {}
    by_attribute: dict[tuple[str, str], list[ast.Call]] = {}
    picked: Counter[str] = Counter()  # an imported class -> the calls of it through a pick (one_of.py)
    for call in script.calls:
        func = call.func
        for local in choices.picked(call):  # `model(sess, ...)` of `for model in [GAN, CGAN]`: a call of each
            by_name.setdefault(local, []).append(call)
            picked[local] += 1
        if isinstance(func, ast.Name):
            by_name.setdefault(func.id, []).append(call)
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            by_attribute.setdefault((func.value.id, func.attr), []).append(call)
    found: dict[tuple[str, str], list[Arguments] | None] = {}
    nodes: dict[tuple[str, str], list[ast.Call]] = {}  # the calls of each name found
    chosen = {imported[local] for local in picked}  # each of its calls one of several's: at most so often
    for local, key in [*imported.items(), *((local, ("*", local)) for local in free)]:  # ("*", name): a star import's
        if script.loads.get(local, 0):
            named = script.loads[local] - choices.displayed[local] + picked[local]
            found[key] = script.arguments(nodes.setdefault(key, by_name.get(local, [])), named)
    own = {holder: _Held({}, Counter(), holder in script.handed) for holder in instances}  # the script's names
    for (holder, attr), calls in by_attribute.items():
        if holder in modules:  # `model.train(FLAGS)` after `import model`
            nodes[(modules[holder], attr)] = calls
            found[(modules[holder], attr)] = script.arguments(calls, script.attributes[(holder, attr)])
        elif holder in own:  # `dcgan.train(FLAGS)` after `dcgan = DCGAN(...)`
            own[holder].calls[attr] = calls
            own[holder].reads[attr] = script.attributes[(holder, attr)]
    held: dict[tuple[str, str], list[_Held]] = {}  # (stem, class) -> what the names holding its instances do
    for holder, keys in instances.items():
        for key in keys:
            held.setdefault(key, []).append(own[holder])
    in_functions = _local_instances(tree, imported, modules, frozenset(instances), free, choices)
    for keys, holding in in_functions:
        for key in keys:
            held.setdefault(key, []).append(holding)
    several = [keys for keys in (*instances.values(), *(keys for keys, _ in in_functions)) if len(keys) > 1]
    # `tf.train`, `FLAGS.train`: no instance
    for (stem, cls), holders in held.items():
        for attr in dict.fromkeys(attr for h in holders for attr in h.calls):
            calls = nodes[(stem, f"{cls}.{attr}")] = [c for h in holders for c in h.calls.get(attr, ())]
            on = sum(h.reads[attr] for h in holders)
            other = sum(script.attributes[(m, attr)] for m in (*modules, *imported, *script.holders))
            # every `.attr` the script reads of anything but what it imports or its options is on these instances
            found[(stem, f"{cls}.{attr}")] = script.arguments(calls, on) if on + other == script.reads[attr] else None
            if any((stem, cls) in keys for keys in several):  # `gan.train()`, gan one of several classes'
                chosen.add((stem, f"{cls}.{attr}"))
    handed = frozenset(cls for (_, cls), holders in held.items() if any(h.handed for h in holders))
    runs = ScriptRuns(tree, script.loads) if any(found.values()) else None
    counted = {key: _one_of(runs.total(nodes[key]), key in chosen) for key, called in found.items()
               if called and runs is not None}
    return found, handed, counted, script.read


class _Held(NamedTuple):
    """What a name holding instances of a class the script imports does with them: the calls of each
    method on it, how often it reads each attribute, and whether it hands them on (reads the name bare)."""

    calls: dict[str, list[ast.Call]]
    reads: Counter[str]
    handed: bool


def _made(value: ast.expr, imported: dict[str, tuple[str, str]], modules: dict[str, str], free: frozenset[str],
          choices: one_of.Choices) -> tuple[tuple[str, str], ...] | None:
    """The classes (module stem, class) an instance bound to *value* may be of: the one a call makes of a
    class the script imports (`DCGAN(...)`), of one read of a module it imports (`modellib.MaskRCNN(...)`),
    ("*", class) of a name it never binds (*free*, where it imports some module's `*`); the candidates of a
    call through a pick of one of several (`model(sess)`, `one_of.Choices`); none for `None` (a method
    called on it never runs); None for anything else."""
    if type(value) is ast.Constant and value.value is None:
        return ()
    if type(value) is not ast.Call:
        return None
    func = value.func
    if type(func) is ast.Name and (func.id in imported or func.id in free):
        return (imported.get(func.id) or ("*", func.id),)
    if type(func) is ast.Attribute and type(func.value) is ast.Name and func.value.id in modules:
        return ((modules[func.value.id], func.attr),)
    return tuple(imported[local] for local in choices.picked(value)) or None


def _instances_made(made: dict[str, list[tuple[tuple[str, str], ...]]], stores: Mapping[str, int]
                    ) -> dict[str, tuple[tuple[str, str], ...]]:
    """Name -> the classes its instances may be of, of the names every binding of which *made* notes
    (`_made`), at least one of them an instance."""
    found = {}
    for name, bindings in made.items():
        keys = tuple(dict.fromkeys(key for keys in bindings for key in keys))
        if keys and len(bindings) == stores.get(name, 0) and len(keys) <= MOST_CHOICES:
            found[name] = keys
    return found


def _local_instances(tree: ast.Module, imported: dict[str, tuple[str, str]], modules: dict[str, str],
                     taken: frozenset[str], free: frozenset[str], choices: one_of.Choices
                     ) -> list[tuple[tuple[tuple[str, str], ...], _Held]]:
    """The names a top-level function of the script binds only to instances of a class it imports (or to
    None), none of them a parameter there or one of the script's own (*taken*): `model = NERModel(config)` in
    `main` while another function's parameter is also `model`. Each with the classes they may be of
    (`_made`: one, or one of several) and what it does (`_Held`), read in that function alone."""
    found = []
    for function in tree.body:
        if type(function) not in (ast.FunctionDef, ast.AsyncFunctionDef):
            continue
        nodes: list[Any] = trees.walk(function)
        made: dict[str, list[tuple[tuple[str, str], ...]]] = {}
        for node in nodes:
            if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
                keys = _made(node.value, imported, modules, free, choices)
                if keys is not None:
                    made.setdefault(node.targets[0].id, []).append(keys)
        if not made:
            continue
        params = {node.arg for node in nodes if type(node) is ast.arg}
        shared = {name for node in nodes if type(node) in (ast.Global, ast.Nonlocal) for name in node.names}
        stores = Counter(node.id for node in nodes if type(node) is ast.Name and type(node.ctx) is not ast.Load)
        for name, keys in _instances_made(made, stores).items():
            if name in taken or name in params or name in shared:
                continue
            held = _Held({}, Counter(), False)
            loads = 0  # its reads handing an instance on
            for node in nodes:
                kind = type(node)
                if kind is ast.Name and node.id == name and type(node.ctx) is ast.Load:
                    loads += 1
                elif kind is ast.Compare:
                    loads -= _tested_none(node).count(name)
                elif kind is ast.Attribute and type(node.value) is ast.Name and node.value.id == name:
                    held.reads[node.attr] += type(node.ctx) is ast.Load
                elif kind is ast.Call and type(node.func) is ast.Attribute and type(node.func.value) is ast.Name \
                        and node.func.value.id == name:
                    held.calls.setdefault(node.func.attr, []).append(node)
            found.append((keys, held._replace(handed=loads > sum(held.reads.values()))))
    return found


def _tested_none(node: ast.Compare) -> list[str]:
    """The names a comparison tests for None (`gan is None`, `model is not None`): no instance handed on."""
    if len(node.ops) != 1 or type(node.ops[0]) not in (ast.Is, ast.IsNot):
        return []
    left, right = node.left, node.comparators[0]
    if type(right) is ast.Name and type(left) is ast.Constant:
        left, right = right, left
    return [left.id] if type(left) is ast.Name and type(right) is ast.Constant and right.value is None else []


def _one_of(counted: Counted, chosen: bool) -> Counted:
    """A script's runs of a name's calls (`Counted`), at most so where each is a call of one of several
    classes (*chosen*: `model(sess)` of `for model in [GAN, CGAN]`, `gan.train()` on what that makes)."""
    runs, upper = counted
    return runs, upper or chosen and runs is not None


#: The nodes binding names otherwise than as a `Name` stored (`_defines`).
_DEFINING = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.ExceptHandler,
                       ast.MatchAs, ast.MatchStar, ast.MatchMapping, ast.Global, ast.Nonlocal})


def _defines(node: Any) -> list[str]:
    """The names one of the `_DEFINING` nodes binds."""
    kind = type(node)
    if kind in (ast.Import, ast.ImportFrom):
        return [alias.asname or alias.name.partition(".")[0] for alias in node.names]
    if kind in (ast.Global, ast.Nonlocal):
        return list(node.names)
    found = node.rest if kind is ast.MatchMapping else node.name
    return [found] if found else []


def _spreads(call: ast.Call) -> bool:
    return any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords)


class _Script:
    """What a script's arguments are read from: its calls (option definitions among them), the
    options it sets itself, its names bound once at its top level to a literal and how it reads
    its names (bare, or their attributes)."""

    def __init__(self, tree: ast.Module, elsewhere: Elsewhere = NOTHING_ELSEWHERE):
        self.tree = tree
        self.elsewhere = elsewhere
        self.calls: list[ast.Call] = []
        self.loads: dict[str, int] = {}
        self.stores: dict[str, int] = {}
        self.attributes: Counter[tuple[str, str]] = Counter()  # (name, attr) -> `name.attr` read
        self.reads: Counter[str] = Counter()  # attr -> `<anything>.attr` read
        self.bare: set[str] = set()  # names read otherwise than as `name.attr`
        self.tested: Counter[str] = Counter()  # name -> its reads testing it for None (`if gan is None:`)
        self.parameters: Counter[str] = Counter()  # how often each name is a parameter
        self.assigns: list[ast.Assign] = []  # in the walk's order (`instances`, `parsed`)
        self.withs: list[ast.withitem] = []  # `with tf.compat.v1.Session() as sess` (`made`)
        self.defined: set[str] = set()  # names bound by a definition, an import, `except ... as`, a `match` pattern
        node: Any  # told apart by exact type: a parsed tree's nodes are of ast's own classes
        for node in trees.walk(tree):
            kind = type(node)
            if kind is ast.Name:
                counts = self.loads if type(node.ctx) is ast.Load else self.stores
                counts[node.id] = counts.get(node.id, 0) + 1
            elif kind is ast.Attribute and type(node.ctx) is ast.Load:
                self.reads[node.attr] += 1
                if type(node.value) is ast.Name:
                    self.attributes[(node.value.id, node.attr)] += 1
            elif kind is ast.Call:
                self.calls.append(node)
            elif kind is ast.Compare:
                self.tested.update(_tested_none(node))
            elif kind is ast.arg:
                self.parameters[node.arg] += 1
            elif kind is ast.Assign:
                self.assigns.append(node)
            elif kind is ast.withitem:
                self.withs.append(node)
            elif kind in _DEFINING:
                self.defined.update(_defines(node))
        top = [*tree.body, *(s for node in tree.body if type(node) is ast.If and entry_runners.is_main_guard(node.test)
                             for s in node.body)]  # the main guard's statements run as the program's top level
        self.constants = {
            target.id: node.value
            for node in top
            if isinstance(node, ast.Assign) and len(node.targets) == 1
            for target in node.targets
            if isinstance(target, ast.Name) and self.stores.get(target.id) == 1
        }

    @functools.cached_property
    def free(self) -> frozenset[str]:
        """The names the script reads and never binds (what a `from module import *` may give it)."""
        return frozenset(self.loads).difference(self.stores, self.parameters, self.defined)

    @property
    def read(self) -> Read:
        """The attributes and the names the script reads."""
        return Read(frozenset(self.reads), frozenset(self.loads))

    def arguments(self, calls: list[ast.Call], named: int) -> list[Arguments] | None:
        """The arguments of *calls*; None where the script names their callee *named* times
        otherwise, or one spreads `*args` or `**kwargs`."""
        if named != len(calls) or any(_spreads(c) for c in calls):
            return None
        return [([self.value(a) for a in c.args], {k.arg: self.value(k.value) for k in c.keywords if k.arg}) for c in calls]

    def instances(self, imported: dict[str, tuple[str, str]], modules: dict[str, str], free: frozenset[str],
                  choices: one_of.Choices) -> dict[str, tuple[tuple[str, str], ...]]:
        """Name -> the classes (module stem, class) its instances may be of, of the names every binding of
        which makes an instance of a class the script imports (`dcgan = DCGAN(...)`, `model =
        modellib.MaskRCNN(...)`), or of one of several (`gan = model(sess)` of `for model in [GAN, CGAN]`,
        `_made`), or is None; none of them a parameter."""
        made: dict[str, list[tuple[tuple[str, str], ...]]] = {}
        for node in self.assigns:
            if len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
                keys = _made(node.value, imported, modules, free, choices)
                if keys is not None:
                    made.setdefault(node.targets[0].id, []).append(keys)
        return {name: keys for name, keys in _instances_made(made, self.stores).items() if name not in self.parameters}

    @functools.cached_property
    def handed(self) -> frozenset[str]:
        """The names the script reads bare (passes on, puts in a container), not only as `name.attr` or
        in a test for None."""
        as_holder: Counter[str] = Counter(self.tested)  # name -> its `name.attr` reads and None tests
        for (name, _), count in self.attributes.items():
            as_holder[name] += count
        return frozenset(n for n, count in self.loads.items() if count > as_holder[n])

    def value(self, node: ast.expr) -> Value:
        """The argument *node*'s value, where known."""
        if type(node) is ast.Name and node.id in self.calls_bound and node.id not in self.holders:
            node = self.calls_bound[node.id]
        if type(node) is ast.Name and node.id in self.made_several:
            return self.made_several[node.id]
        if type(node) is ast.Call:
            return self.made(node)
        holder = _source(node) if isinstance(node, (ast.Name, ast.Attribute)) else ""
        if isinstance(node, ast.Name) and node.id in self.holders or \
                isinstance(node, ast.Attribute) and holder.endswith(options.FLAGS):
            attrs = dict.fromkeys([*self.defaults, *(attr for attr, _ in self.elsewhere.defaults)])
            known = {attr: found for attr in attrs if (found := self.option(holder, attr)) is not None}
            return Options(known) if known else None
        if isinstance(node, ast.Name) and node.id in self.constants:
            node = self.constants[node.id]
        if isinstance(node, ast.Attribute):  # `FLAGS.batch_size`, `args.batch_size`
            return self.option(_source(node.value), node.attr)
        return _literal(node)

    def option(self, holder: str, attr: str) -> Const | None:
        """The default of the script's option *attr* read on *holder* (`FLAGS`, `args`), where
        literal and the script does not set it itself; for a default of None the script sets only
        to another option's value, that option's (`options.read_as`)."""
        known = self.default(attr)
        read = options.read_as(self.set, self.tree, holder, attr, known.value is None) if known is not None else None
        if read is not None and read != attr:
            known = self.default(read)
        if read is None or known is None or known.value is None and read != attr:
            return None
        if holder in self.parsed and any(options.set_here(self.set, other, read, known.value is None)
                                         for other in self.parsed if other != holder):
            return None  # set on the same namespace under another name (`setattr(config, ...)` in `main(config)`)
        return Const(known.value, read)

    def default(self, option: str) -> Const | None:
        """The literal default of the script's *option*, or of one a project module it imports defines
        (`Elsewhere`), where it has one."""
        if option not in self.defaults:
            return dict(self.elsewhere.defaults).get(option)
        default = self.defaults.get(option)
        if isinstance(default, ast.Name):
            default = self.constants.get(default.id)
        return _literal(default) if default is not None else None

    def made(self, call: ast.Call) -> Made | None:
        """*call* as a `Made`: its innermost callee a dotted name whose first the script imports
        at its top level, then only methods called on the results."""
        methods: list[str] = []
        func = call.func
        while type(func) is ast.Attribute and type(func.value) is ast.Call:
            methods.append(func.attr)
            func = func.value.func
        names = trees.dotted(func)
        if not names or names[0] not in self.imported:
            return None
        return Made(".".join([self.imported[names[0]], *names[1:]]), tuple(reversed(methods)))

    @functools.cached_property
    def imported(self) -> dict[str, str]:
        """The names the script's module-scope absolute imports bind (`import_table`), each to its
        dotted path, that it binds nowhere else (`import tensorflow as tf`, `from
        tensorflow.keras.models import load_model`)."""
        return {name: path for name, path in import_table.imported(self.tree).items() if self.stores.get(name, 0) == 0}

    @functools.cached_property
    def calls_bound(self) -> dict[str, ast.Call]:
        """The names the script binds once, to a call: `model = load_model(p)`, `with tf.compat.v1.Session()
        as sess`; none a parameter but of top-level functions each call of which passes the name itself
        (`builder = tfds.builder(name)`, `evaluate(model, builder)` of `def evaluate(model, builder)`: `_handed_in`)."""
        bound = [(node.targets[0], node.value) for node in self.assigns if len(node.targets) == 1]
        bound += [(item.optional_vars, item.context_expr) for item in self.withs if item.optional_vars is not None]
        once = {target.id: value for target, value in bound
                if type(target) is ast.Name and type(value) is ast.Call and self.stores.get(target.id) == 1}
        handed = self._handed_in(set(once), set()) if any(name in self.parameters for name in once) else set()
        return {name: value for name, value in once.items() if name not in self.parameters or name in handed}

    @functools.cached_property
    def made_several(self) -> dict[str, MadeOneOf]:
        """The names the script binds more than once, each time (and only) by `name = call` of what it imports
        (`made`), none a parameter nor an options object: at most `MOST_CHOICES` calls, one of which made it."""
        bound: dict[str, list[Made | None]] = {}
        for node in self.assigns:
            if len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
                value = node.value
                bound.setdefault(node.targets[0].id, []).append(self.made(value) if type(value) is ast.Call else None)
        return {name: MadeOneOf(tuple(dict.fromkeys(made))) for name, made in bound.items()  # type: ignore[arg-type]
                if 1 < len(made) <= MOST_CHOICES and None not in made and self.stores.get(name) == len(made)
                and name not in self.parameters and name not in self.holders}

    @functools.cached_property
    def holders(self) -> frozenset[str]:
        """The names of the script's options objects: `parsed`, and `FLAGS = flags.FLAGS`."""
        return self.parsed | {name for name, value in self.constants.items()
                              if isinstance(value, ast.Attribute) and ast.unparse(value).endswith(options.FLAGS)}

    @functools.cached_property
    def parsed(self) -> frozenset[str]:
        """The names bound once to the command line parsed (`args = parser.parse_args()`, `args, rest =
        parser.parse_known_args()`, `args = parse_args()` of a script function returning it, `config, _ =
        get_config()` of a project module's: `_Parsing`), none a parameter but of a function handing its
        argument back; and the parameters every call passes one (`main(config)`: `_handed_in`)."""
        parsing = _Parsing(self.tree, self.elsewhere.parsing)
        bound = parsing.bound(self.assigns, self.stores)
        found = {name for name in bound if name not in self.parameters or name in parsing.handed_back}
        return frozenset(self._handed_in(bound, found))

    def _handed_in(self, bound: set[str], found: set[str]) -> set[str]:
        """*found* and the parameters of the script's top-level functions, named only in plain calls, that
        each of those calls passes the command line parsed (`def main(config): ...`, `main(config)`), where
        the name is a parameter nowhere else and bound otherwise only as one of *bound*."""
        calls: dict[str, list[ast.Call]] = {}
        for call in self.calls:
            if type(call.func) is ast.Name:
                calls.setdefault(call.func.id, []).append(call)
        functions = [(node, calls[node.name]) for node in self.tree.body if type(node) is ast.FunctionDef
                     and node.name in calls and self.loads.get(node.name) == len(calls[node.name])
                     and not any(_spreads(c) for c in calls[node.name])]
        holders = set(found)
        grown = bool(holders or bound) and bool(functions)
        while grown:
            given: Counter[str] = Counter()  # a parameter's name -> its places every call passes one
            for function, made in functions:
                for index, param in enumerate([*function.args.posonlyargs, *function.args.args]):
                    passed = [options.argument(call, param.arg, index) for call in made]
                    if all(type(a) is ast.Name and (a.id in holders or a.id == param.arg and a.id in bound) for a in passed):
                        given[param.arg] += 1
            taken = {name for name, places in given.items() if name not in holders
                     and places == self.parameters[name] and (name in bound or name not in self.stores)}
            holders |= taken
            grown = bool(taken)
        return holders

    @functools.cached_property
    def defaults(self) -> dict[str, ast.expr | None]:
        """The defaults of the options the script defines (`options.defaults`)."""
        found = options.defaults(self.calls)
        found.update((attr, None) for attr, _ in self.elsewhere.defaults if attr in found)  # defined twice
        return found

    @functools.cached_property
    def set(self) -> dict[tuple[str, str], bool]:
        """The options the script sets itself (`options.set_by_program`), read where an argument
        names one with a known default."""
        found = options.set_by_program(self.tree)
        for attr, only_none in self.elsewhere.set:  # set where they are defined, whatever holds them
            found[("", attr)] = found.get(("", attr), True) and only_none
        return found


class _Parsing:
    """Which calls of a script give its command line parsed: a parser's `parse_args()` (of the
    process's own arguments), a call of a top-level function of the script whose every `return` gives
    one (`def parse_args(): ...; return parser.parse_args()`, or a name it binds once to one), or of one
    handing its first argument back (`return check_args(parser.parse_args())`, `def check_args(args):
    ...; return args`) given one. *pairs*: the functions returning it first of two, as
    `parse_known_args` does (`return config, unparsed`); *elsewhere*: such functions the script
    imports from project modules (`Elsewhere.parsing`)."""

    def __init__(self, tree: ast.Module, elsewhere: tuple[tuple[str, bool], ...] = ()):
        functions = {node.name: node for node in tree.body if type(node) is ast.FunctionDef}
        walked = {name: trees.walk(node) for name, node in functions.items()}  # each function walked once
        self.back = {name for name, node in functions.items() if _hands_back(node, walked[name])}
        self.handed_back = frozenset(functions[name].args.args[0].arg for name in self.back)
        self.functions: set[str] = {name for name, pair in elsewhere if not pair}
        self.pairs: set[str] = {name for name, pair in elsewhere if pair}
        returned = {name: [n.value for n in nodes if type(n) is ast.Return] for name, nodes in walked.items()}
        scopes = {name: ([n for n in nodes if type(n) is ast.Assign],
                         Counter(n.id for n in nodes if type(n) is ast.Name and type(n.ctx) is not ast.Load))
                  for name, nodes in walked.items() if returned[name] and None not in returned[name]}
        grown = True
        while grown:  # (a function returning another's: `return check_args(build().parse_args())`)
            grown = False
            for name, (assigns, stores) in scopes.items():
                if name in self.functions or name in self.pairs:
                    continue
                returns: list[Any] = returned[name]
                bound = self.bound(assigns, stores)
                if all(self.parses(v) or type(v) is ast.Name and v.id in bound for v in returns):
                    self.functions.add(name)
                    grown = True
                elif all(type(v) is ast.Tuple and len(v.elts) == 2 and type(v.elts[0]) is ast.Name
                         and v.elts[0].id in bound for v in returns):
                    self.pairs.add(name)
                    grown = True

    def parses(self, value: ast.expr) -> bool:
        """Whether *value* gives the command line parsed."""
        if type(value) is not ast.Call:
            return False
        func = value.func
        if type(func) is ast.Attribute:
            return func.attr in options.PARSERS and options.given(options.argument(value, "args", 0)) == frozenset()
        if type(func) is not ast.Name:
            return False
        return func.id in self.functions or func.id in self.back and bool(value.args) and self.parses(value.args[0])

    def pair(self, value: ast.expr) -> bool:
        """Whether *value* gives the command line parsed first of two (`parser.parse_known_args()`, a
        function of *pairs*)."""
        func = value.func if type(value) is ast.Call else None
        if type(func) is ast.Attribute:
            return func.attr == "parse_known_args" and self.parses(value)
        return type(func) is ast.Name and func.id in self.pairs

    def bound(self, assigns: Iterable[ast.Assign], stores: Mapping[str, int]) -> set[str]:
        """The names that a scope's *assigns* bind to the command line parsed (`args =
        parser.parse_args()`; `args, rest = parser.parse_known_args()`), each bound only there (*stores*:
        how often the scope binds each name)."""
        found: set[str] = set()
        for node in assigns:
            target = node.targets[0] if len(node.targets) == 1 else None
            if self.pair(node.value):
                target = target.elts[0] if type(target) is ast.Tuple and len(target.elts) == 2 else None
            elif not self.parses(node.value):
                continue
            if type(target) is ast.Name and stores.get(target.id) == 1:
                found.add(target.id)
        return found


def _hands_back(function: ast.FunctionDef, nodes: list[ast.AST]) -> bool:
    """Whether every `return` of *function* (*nodes*: its `trees.walk`) gives its first parameter back
    unchanged (a check of the parsed options: `def check_args(args): ...; return args`), the
    parameter never bound in it."""
    if not function.args.args:
        return False
    first = function.args.args[0].arg
    returns = [n for n in nodes if type(n) is ast.Return]
    stored = any(type(n) is ast.Name and n.id == first and type(n.ctx) is not ast.Load for n in nodes)
    return bool(returns) and not stored and all(type(r.value) is ast.Name and r.value.id == first for r in returns)


def _source(node: ast.expr) -> str:
    """`ast.unparse(node)`, joined from its names where it is a dotted name (most arguments)."""
    names = trees.dotted(node)
    return ".".join(names) if names else ast.unparse(node)


def _literal(node: ast.expr) -> Const | None:
    try:
        return Const(ast.literal_eval(node))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
