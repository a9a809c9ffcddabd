"""What the lint cache holds, as plain versioned JSON records, and reading them back.

Two records per checked file (greenlint.check.runner):

- its analysis, `{"record": "file", "version", "path", "sites", "errors", "cells",
  "suppressions", "imports", "cacheable"}` (written and read in greenlint.check.file_result, which the
  warm path never imports): each site is the call-site object of `greenlint calls --format
  json` (docs/calls-json.md, `report.calls.callsite_json`), its prediction included; `errors` are
  diagnostics (below); `cells` a notebook's code cells (null for a text file, whose source is its
  content, read on every run anyway); `suppressions` where its noqa comments are; `imports` the
  files of the project modules it imports, relative to its own folder;
- its diagnostics under one rule setting, `{"record": "diagnostics", "version", "diagnostics",
  "cells"}`, each diagnostic `{"path", "span", "code", "name", "message", "severity", "fix",
  "energy_j", "data"}` with `span` `[line, column, end_line, end_column, cell]` and `fix` null or
  `{"title", "safe", "edits": [{"span", "content"}]}`.

An entry may be written by anyone who can write the cache folder, so reading one builds only
these records from JSON values and checks every field's type: anything else is `InvalidRecord`,
which the cache's readers treat as a miss. Bump VERSION when a record's layout changes.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

from greenlint.analysis.callsite import Span
from greenlint.rules.diagnostic import Diagnostic, Edit, Fix

VERSION = 4  # 2: call sites carry their scope and shape; 3: a file record lists its project imports;
# 4: and the attributes it read as another module's option defaults
T = TypeVar("T")


class InvalidRecord(ValueError):
    """A cache entry that is not a record of this version."""


def diagnostics_record(diagnostics: list[Diagnostic], cells: tuple[str, ...] | None) -> dict[str, Any]:
    """One file's diagnostics under one rule setting, with a notebook's code cells."""
    return {
        "record": "diagnostics",
        "version": VERSION,
        "diagnostics": [diagnostic_record(d) for d in diagnostics],
        "cells": None if cells is None else list(cells),
    }


def read_diagnostics(record: object) -> tuple[list[Diagnostic], tuple[str, ...] | None]:
    """(diagnostics, notebook cells or None) of a diagnostics record; InvalidRecord otherwise."""
    record = expect(record, "diagnostics")
    return [read_diagnostic(d) for d in read(record.get("diagnostics"), list)], read_cells(record.get("cells"))


def diagnostic_record(d: Diagnostic) -> dict[str, Any]:
    fix = d.fix
    return {
        "path": d.path,
        "span": _span_record(d.span),
        "code": d.code,
        "name": d.name,
        "message": d.message,
        "severity": d.severity,
        "fix": None
        if fix is None
        else {
            "title": fix.title,
            "safe": fix.safe,
            "edits": [{"span": _span_record(e.span), "content": e.content} for e in fix.edits],
        },
        "energy_j": d.energy_j,
        "data": d.data,
    }


def read_diagnostic(record: object) -> Diagnostic:
    if type(record) is not dict:
        raise InvalidRecord("a diagnostic is an object")
    fix = record.get("fix")
    if fix is not None:
        if type(fix) is not dict:
            raise InvalidRecord("a fix is an object or null")
        edits = []
        for e in read(fix.get("edits"), list):
            if type(e) is not dict:
                raise InvalidRecord("an edit is an object")
            edits.append(Edit(_span(e.get("span")), read(e.get("content"), str)))
        fix = Fix(read(fix.get("title"), str), tuple(edits), read(fix.get("safe"), bool))
    energy, data = record.get("energy_j"), record.get("data")
    if type(energy) not in (int, float, type(None)) or type(data) is not dict:
        raise InvalidRecord("energy_j is a number or null, data an object")
    return Diagnostic(
        read(record.get("path"), str),
        _span(record.get("span")),
        read(record.get("code"), str),
        read(record.get("name"), str),
        read(record.get("message"), str),
        read(record.get("severity"), str),
        fix,
        energy,
        data,
    )


def _span_record(span: Span) -> list:
    return [span.line, span.column, span.end_line, span.end_column, span.cell]


def _span(value: object) -> Span:
    if not (type(value) is list and len(value) == 5 and all(type(v) is int for v in value[:4]) and is_cell(value[4])):
        raise InvalidRecord(f"not a span: {value!r}")
    return Span(*value)


def codes_record(codes: frozenset[str] | None | bool) -> list[str] | bool | None:
    """False (none), None (all) or the codes, sorted (JSON has no sets)."""
    return sorted(codes) if isinstance(codes, frozenset) else codes


def read_codes(value: object) -> frozenset[str] | None:
    """The noqa codes `codes_record` wrote for a line: None (all) or the codes."""
    strings = read_strings(value)
    return None if strings is None else frozenset(strings)


def read_cells(value: object) -> tuple[str, ...] | None:
    """A notebook's code cells, or None (a text file)."""
    strings = read_strings(value)
    return None if strings is None else tuple(strings)


def read_strings(value: object) -> list[str] | None:
    if value is None or (type(value) is list and all(type(c) is str for c in value)):
        return value
    raise InvalidRecord(f"expected a list of strings or null, got {type(value).__name__}")


def expect(record: object, kind: str) -> dict:
    if type(record) is not dict or record.get("record") != kind or record.get("version") != VERSION:
        raise InvalidRecord(f"not a {kind} record of version {VERSION}")
    return record


def read(value: object, kind: type[T]) -> T:
    """*value* when it is exactly of the JSON type *kind* (`true` is no int); else InvalidRecord."""
    if type(value) is not kind:
        raise InvalidRecord(f"expected {kind.__name__}, got {type(value).__name__}")
    return cast(T, value)


def is_cell(value: object) -> bool:
    return value is None or type(value) is int
