"""One file's analysis: call sites with predictions, file errors, suppressions; its cache record."""

from __future__ import annotations

import ast
import dataclasses
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import greenlint.check.noqa as noqa
import greenlint.check.records as records
from greenlint.analysis.callsite import Span
from greenlint.analysis.options import OptionRead
from greenlint.rules.diagnostic import Diagnostic

if TYPE_CHECKING:  # imported where used: a file whose findings are cached reads no analysis
    from greenlint.predict.site_predictions import Predict
    from greenlint.rules.site import Site


@dataclass(frozen=True)
class FileResult:
    """One file's result, as `check`, the language server and `diff` have it: its analysis (call
    sites with their predictions, file errors, noqa comments, imports) and its findings."""

    path: str
    sites: Sequence[Site] = ()  # a tuple (the language server's: the sites its analysis process sent, packed)
    errors: tuple[Diagnostic, ...] = ()  # GL001 / GL002
    source: str | tuple[str, ...] = ""  # text, or a notebook's code cells
    suppressions: noqa.Suppressions = field(default_factory=noqa.Suppressions)
    cacheable: bool = True  # False when greenlint itself failed on the file
    #: The files of the project modules it imports (absolute paths, sorted), as the analysis' import
    #: scan found them: the program a diff follows from a script (greenlint.review.sides).
    imports: tuple[str, ...] = ()
    #: The attributes read as the default of an option another module defines (`options.OptionRead`).
    options: tuple[OptionRead, ...] = ()
    #: The analysis' `ast` tree of a plain file, handed to the rules so that they do not parse it
    #: again. Process-local: never cached nor sent between processes (`shippable`).
    tree: Any = field(default=None, compare=False, repr=False)
    #: Its findings under the run's rules, suppressions applied, its file errors among them
    #: (`check.pipeline.apply_rules`; a diff's: its file errors alone): () until they are found.
    diagnostics: tuple[Diagnostic, ...] = ()
    #: Where its analysis is in the lint cache (None: not cached).
    key: str | None = field(default=None, compare=False)
    #: False when its analysis is not held (`sites`, `errors`, `suppressions`, `imports` left
    #: empty): its findings came from the cache, or a run reporting findings alone dropped it once
    #: they were found; `check.runner.load_result` reads it back.
    held: bool = True

    def shippable(self) -> FileResult:
        """This result without its tree: what the cache stores and a worker process returns."""
        return self if self.tree is None else dataclasses.replace(self, tree=None)


def to_record(result: FileResult) -> dict[str, Any]:
    """One file's analysis (without its tree) as a record."""
    from greenlint.report.calls import callsite_json

    lines, folder = result.suppressions.lines, _folder(result.path)
    return {
        "record": "file",
        "version": records.VERSION,
        "path": result.path,
        "sites": [callsite_json(s.callsite, s.prediction) for s in result.sites],
        "errors": [records.diagnostic_record(d) for d in result.errors],
        "cells": list(result.source) if isinstance(result.source, tuple) else None,
        "suppressions": {
            "file_codes": records.codes_record(result.suppressions.file_codes),
            "lines": [[cell, line, records.codes_record(codes)] for (cell, line), codes in lines.items()],
        },
        "imports": [os.path.relpath(f, folder) for f in result.imports],
        "options": [[*read[:5], repr(read.value)] for read in result.options],
        "cacheable": result.cacheable,
    }


def from_record(record: object) -> FileResult:
    """The FileResult of a file record (a text file's source left empty: its content is read
    anew); InvalidRecord for anything else."""
    from greenlint.report.calls import callsite_from_json
    from greenlint.rules.site import Site

    record = records.expect(record, "file")
    try:
        sites = tuple(Site(*callsite_from_json(s)) for s in records.read(record.get("sites"), list))
        suppressions = record.get("suppressions")
        if type(suppressions) is not dict:
            raise records.InvalidRecord("suppressions is an object")
        file_codes, lines = suppressions.get("file_codes"), {}
        for entry in records.read(suppressions.get("lines"), list):
            if not (type(entry) is list and len(entry) == 3 and records.is_cell(entry[0]) and type(entry[1]) is int):
                raise records.InvalidRecord(f"not a suppression: {entry!r}")
            lines[(entry[0], entry[1])] = records.read_codes(entry[2])
        path = records.read(record.get("path"), str)
        folder = _folder(path)
        imports = tuple(
            os.path.normpath(os.path.join(folder, records.read(f, str))) for f in records.read(record.get("imports"), list)
        )
        return FileResult(
            path,
            sites,
            tuple(records.read_diagnostic(d) for d in records.read(record.get("errors"), list)),
            records.read_cells(record.get("cells")) or "",
            noqa.Suppressions(file_codes if file_codes is False else records.read_codes(file_codes), lines),
            records.read(record.get("cacheable"), bool),
            imports,
            tuple(_option_read(entry) for entry in records.read(record.get("options"), list)),
        )
    except (ValueError, TypeError) as exc:  # from the call-site JSON's reader, or Basis(...)
        raise records.InvalidRecord(str(exc)) from exc


def _option_read(entry: object) -> OptionRead:
    """An `OptionRead` of its record: four ints, the option's name and its value's `repr`."""
    if not (type(entry) is list and len(entry) == 6 and all(type(n) is int for n in entry[:4])
            and type(entry[4]) is str and type(entry[5]) is str):
        raise records.InvalidRecord(f"not an option read: {entry!r}")
    try:
        value = ast.literal_eval(entry[5])
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        raise records.InvalidRecord(f"not a literal: {entry[5]!r}") from exc
    line, column, end_line, end_column, option = entry[:5]
    return OptionRead(line, column, end_line, end_column, option, value)


def _folder(path: str) -> str:
    """The absolute folder of a file: its imports are cached relative to it (a project moved or
    copied with its cache finds its own files)."""
    return os.path.dirname(os.path.abspath(path))


#: The file errors by code: name, and the words a message starts with.
_ERRORS = {
    "GL001": ("syntax-error", "cannot parse"),
    "GL002": ("file-error", "cannot analyse"),
    "GL004": ("exercise-placeholder", "exercise placeholder"),
}


def error_diagnostic(path: str, line: int, column: int, kind: str, message: str, cell: int | None = None) -> Diagnostic:
    """A file the pipeline could not analyse, as a GL001 (syntax), a GL004 (an exercise's blanks)
    or a GL002 (anything else)."""
    code = kind.upper() if kind.upper() in _ERRORS else "GL001" if "syntax" in kind.lower() else "GL002"
    name, words = _ERRORS[code]
    # the location is the diagnostic's own: drop a `path:cell N:line:col: ` prefix from the message
    detail = re.sub(rf"^{re.escape(path)}(?::cell \d+)?(?::\d+)*:\s*", "", message)
    detail = re.sub(r"^syntax error:\s*", "", detail) if code == "GL001" else detail
    span = Span(max(line, 1), max(column, 1), max(line, 1), max(column, 1), cell)
    return Diagnostic(path, span, code, name, f"{words}: {detail}", severity="info" if code == "GL004" else "error")


def from_analysis(analysis: Any, predict: Predict) -> FileResult:
    """Turn a `greenlint.analysis.analyse.FileAnalysis` into a FileResult, each call site predicted by
    *predict* (greenlint.predict.site_predictions; None for a file without call sites).

    A site profiled on this machine by `greenlint measure` gets its measured figure (basis
    `profiled*`, the prediction kept as its `forecast`), or the prediction with a stale profile
    when its statement changed since (greenlint.profile)."""
    from greenlint.predict.site_predictions import predict_sites
    from greenlint.rules.site import Site

    path = str(analysis.path)
    cells = getattr(analysis, "cells", None)  # a notebook's code cells, else the file's text
    source: str | tuple[str, ...] = (tuple(c if isinstance(c, str) else getattr(c, "source", "") for c in cells)
                                     if cells else getattr(analysis, "source_text", "") or "")
    predictions = predict_sites(predict, analysis.callsites)
    from greenlint.profile.lookup import apply_profiles, for_file  # on first need: a warm run reads no profile

    profiles = for_file(path) if analysis.callsites else None
    sites = [
        Site(cs, prediction if profiles is None else apply_profiles(profiles, cs, prediction, source))
        for cs, prediction in zip(analysis.callsites, predictions)
    ]
    errors = tuple(
        error_diagnostic(path, e.line or 1, e.column or 1, str(e.code), e.message, getattr(e, "cell", None))
        for e in analysis.errors
    )
    tree = getattr(analysis, "tree", None)
    imports = tuple(getattr(analysis, "imports", ()))
    return FileResult(path, tuple(sites), errors, source, noqa.parse(source), imports=imports,
                      options=tuple(getattr(analysis, "options", ())), tree=tree)


def internal_error(path: str, exc: BaseException, where: str = "greenlint") -> FileResult:
    """greenlint itself failed on this file: say so, keep going, do not cache it."""
    message = f"internal error in {where} ({type(exc).__name__}: {exc}); please report it"
    return FileResult(path, errors=(error_diagnostic(path, 1, 1, "internal", message),), cacheable=False)
