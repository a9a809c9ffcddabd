"""The training scripts of a loader module: the modules beside it that name TensorFlow or Keras
and import it (the project index's `tf_importers`), each analysed as rules see a file.

A loader module's functions are drawn, and repeated, only there: GL408 reports a loader's decode
that such a script's epoch loop runs again at the decode, where the decoded arrays are to be kept.
Only a loader that imports no module of the project is read so; its cache key holds its
importers' contents (greenlint/check/keys.py), so an edit of a script checks the loader again. An
editor shows the loader's findings as of its own last analysis.

A module that builds a pipeline is read likewise with the scripts beside it that import it
(`script_facts`), whatever it imports, and with the project modules it imports (`module_facts`):
GL408 follows a pipeline a data module's function returns to the script's epoch loop, and a
pipeline a library module builds to the data module that calls it; the cache key of every module
holds its importers' contents besides the digest of what it imports."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from greenlint.analysis.project import project_index
from greenlint.analysis.sources import MAX_BYTES, read_bytes
from greenlint.predict.prediction import Prediction
from greenlint.rules.base import FileFacts
from greenlint.rules.site import Site, judged

#: module path -> (its stamp, its facts): a script importing several loaders is analysed once.
_facts: dict[str, tuple[tuple | None, FileFacts | None]] = {}
_T = TypeVar("_T")
#: The most entries a `per_content` memo keeps, the oldest dropped first: a long-lived process (the language
#: server's) reads project after project, and `_facts` holds parse trees.
MAX_KEPT = 4096


def per_content(memo: dict[Any, tuple[tuple | None, _T]], key: Any, path: str, compute: Callable[[], _T]) -> _T:
    """`compute()`, kept in *memo* under *key* while the module at *path* keeps its stamp (the
    project index's: taken once per run): what a rule reads of a module, read once per content. The memo
    keeps at most `MAX_KEPT` entries."""
    stamp = project_index().stamp(path)
    known = memo.get(key)
    if known is None or known[0] != stamp:
        known = memo[key] = (stamp, compute())
        if len(memo) > MAX_KEPT:
            del memo[next(iter(memo))]
    return known[1]


def importer_facts(path: str, text: str) -> list[FileFacts]:
    """The facts of the training scripts of the loader at *path* ([] where it imports a module of
    the project, or has none) whose text calls one of the functions the loader's *text* defines in a
    `for` header (only such a script can draw them anew per pass, and reading one costs its whole
    analysis); their call sites carry no figure (`Prediction.unknown`)."""
    absolute = os.path.abspath(path)
    index = project_index()
    if not os.path.isfile(absolute) or index.imports(absolute):
        return []
    importers = index.tf_importers(absolute) if "def" in text else []  # [] for a module naming TF itself: most
    drawn = set(re.findall(r"\bdef\s+(\w+)\s*\(", text)) if importers else set()  # as written: no tree index built
    if not drawn:
        return []  # most loaders have no importer: no pattern built for them
    names = b"|".join(re.escape(name.encode()) for name in sorted(drawn))
    header = re.compile(rb"\bfor\b[^:]*?\b(?:" + names + rb")\s*\(")
    scripts = [module for module in importers if text_matches(module, header)]
    return [found for found in map(module_facts, scripts) if found is not None]


def text_matches(path: str, pattern: re.Pattern[bytes]) -> bool:
    """Whether the module's text matches *pattern*: a cheap test before analysing it."""
    data, _ = read_bytes(Path(path), MAX_BYTES)
    return data is not None and pattern.search(data) is not None


def script_facts(path: str) -> list[FileFacts]:
    """The facts of the modules beside *path* that name TensorFlow or Keras and import it, whatever
    *path* imports: where a pipeline its functions return is iterated (its cache key holds them)."""
    found = (module_facts(importer) for importer in project_index().importers(os.path.abspath(path)))
    return [facts for facts in found if facts is not None]


def module_facts(path: str) -> FileFacts | None:
    """The facts of the project module at *path*, analysed once per content (None: it does not parse)."""
    return per_content(_facts, path, path, lambda: _analysed(path))


def imported_modules(path: str, limit: int = 32) -> list[str]:
    """The project modules the module at *path* imports, directly or not (at most *limit*, nearest
    first): the modules its calls may reach (its cache key's digest covers them)."""
    index = project_index()
    absolute = os.path.abspath(path)
    found: list[str] = []
    seen = {absolute}
    todo = [absolute]
    while todo and len(found) < limit:
        for module in index.imports(todo.pop(0)):
            if module not in seen:
                seen.add(module)
                found.append(module)
                todo.append(module)
    return found[:limit]


def _analysed(path: str) -> FileFacts | None:
    from greenlint.analysis.analyse import analyse_file  # on first need: a warm run analyses nothing

    analysis = analyse_file(path, beside=True)
    if analysis.tree is None or analysis.source_text is None:
        return None  # a notebook, or a file that does not parse
    unknown = Prediction.unknown("read for a module it imports")
    return FileFacts(path, judged(Site(c, unknown) for c in analysis.callsites), analysis.source_text, analysis.tree,
                     options=analysis.options)


def loader_of(path: str, function: str) -> str | None:
    """The loader module, beside the script at *path* and imported by it, that defines *function*
    and is read with its training scripts (`importer_facts`); None where there is none."""
    absolute = os.path.abspath(path)
    index = project_index()
    defines = re.compile(rb"\bdef\s+" + re.escape(function.encode()) + rb"\s*\(")
    for module in index.imports(absolute):
        if os.path.dirname(module) != os.path.dirname(absolute) or index.imports(module):
            continue
        data, _ = read_bytes(Path(module), MAX_BYTES)
        if data is not None and defines.search(data) and absolute in index.tf_importers(module):
            return module
    return None
