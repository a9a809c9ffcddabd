"""The static features of the KB's measured call sites (`static_features.csv` in a KB folder): read
and merged into the KB's records. tools/kb/static_features.py derives the table (it runs the
resolver on the measured sources); its provenance section is this module's, so a KB rebuilt
without the sources keeps it.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

TABLE = "static_features.csv"
#: Beside the table: the digest of the inputs it was derived from (tools/kb/static_features.py writes
#: it, its staleness test recomputes it).
STAMP = "static_features.inputs"
COLUMNS = ("dataset", "project", "script", "line", "occurrence", "api", "call_api", "source_repository",
           "source_commit", "source_path", "source_line", "features")
DOCS_REPOSITORY = "https://github.com/tensorflow/docs"
FECOM_REPOSITORY = "https://github.com/SMART-Dal/FECoM"
#: FECoM commit of the energy data; its converted scripts are read there.
FECOM_COMMIT = "a9041d1b3a5aaeeca118c4e4e58ace5a38b8d77c"
FECOM_SCRIPTS = "data/code-dataset/Patched-Repositories"

Key = tuple[str, str, str, "int | None", "int | None", str]


class Matched(NamedTuple):
    """A measured call site's row: the resolver's name of the call at the matched place (`call_api`:
    FECoM names a call of a model or layer instance by its class, `X()`, which the resolver reads as
    `X.__call__`), the place's line where the record has none (a script's, not a notebook's) and its
    static features."""

    call_api: str
    line: int | None
    features: dict

#: The dataset whose records name a call but not its line: its calls are told apart by `occurrences`.
FECOM_METHOD_LEVEL = "fecom-method-level"


PROVENANCE_TITLE = "## Static features of the measured call sites (static_features.csv)"
PROVENANCE_TEXT = f"""{PROVENANCE_TITLE}

Derived by `python -m tools.kb.static_features --docs <tensorflow/docs git dir> --fecom <FECoM git dir>`:
greenlint's own resolver (`greenlint.analysis.analyse.analyse_source`) was run on the sources the records
measured, and each matched call site's static features (literal arguments by parameter name,
`loop_multiplier`, `in_tf_function`, `tensor_bytes`, `n_layers`, ...) and the values of its work
(`samples`, `steps_per_epoch`, `epochs`, `flops_per_sample`, ..., from `CallSite.work`) were stored.
Only these derived values and the source's repository, commit, path and cell:line are stored, no
code. `make static-features data` runs the command (on bare clones at `../.mirror/<owner>+<name>/repo`
unless `DOCS_GIT=... FECOM_GIT=... REPOS="owner/name=dir ..."` name others), then rebuilds what depends on it.

- Greenlight: the notebooks of {DOCS_REPOSITORY} (Apache-2.0) at the commit each record's
  `project_metadata.project_commit` names (`03190f3b6f327a1dbaba9a712bdf102616010cfc`), and those of
  the other repositories listed in the table's `source_repository` column at their measured commits
  (tensorflow/model-optimization, tensorflow/recommenders, tensorflow/gnn: Apache-2.0); scripts of
  repositories without a snapshot here are not read. Matched by the longest
  common subsequence of API names between the measured calls (by `api_call_line`, a line in the
  patched, converted script) and the resolved calls (in source order); a match is kept only when
  every resolved call it is paired with in some longest alignment has the same features.
- FECoM method level: the converted tutorials FECoM measured, `{FECOM_SCRIPTS}/<project>_original.py`
  in {FECOM_REPOSITORY} at `{FECOM_COMMIT}` (Apache-2.0 with the Commons Clause, see above; the
  tutorials themselves are {DOCS_REPOSITORY}'s). FECoM records do not say where in the script a call
  is, but a run's records follow the calls' order: a call site is the k-th call of its signature in a
  run (`occurrence`), and the calls of the run with the most records are aligned with the resolved
  calls as Greenlight's are (by their place in the run instead of a line; a resolved call that runs
  more than once, in a loop or a traced function, may take several measured calls in a row). A
  site whose API's resolved calls all have the same features gets them whatever its place. FECoM
  names a call of a model or layer instance by its class (`Sequential()` for
  `data_augmentation(images)`): a measured `X` is matched to a resolved `X` or `X.__call__`, and
  the record takes the resolver's name of the matched call (`call_api`), so a model's call is not
  priced as its constructor, and its line (`source_line`), so a loop's calls are one call site. A
  record that names a class but holds the size of the object called is that call, never matched to
  the constructor.
- Unsure matches are dropped, never guessed; the command prints how many were matched and dropped.
- The table is keyed by the KB's canonical API names: rerun the command after a catalog change
  renames APIs (`greenlint kb build` keeps the table, it cannot redo it without the snapshots).
- `script_sites.csv` (written by the same command with `--fecom`): every call greenlint resolves in
  each FECoM tutorial measured end to end (project level), with its features, work and how often it
  runs; `python -m tools.model.evaluate` sums their predictions against the measured totals.
- `{STAMP}` (written by the same command when it read every source): a digest of what the two tables
  were derived from (the resolver's code and tables, the command, the KB's measured call sites). A test
  recomputes it and fails when any of them changed: rerun the command, then `make data`.
"""


def with_provenance(text: str) -> str:
    """A KB PROVENANCE.md with this table's section (replacing an older copy of it)."""
    head = text.split(PROVENANCE_TITLE, 1)[0].rstrip("\n")
    return f"{head}\n\n{PROVENANCE_TEXT}"


def load_table(path: Path) -> dict[Key, Matched]:
    """(dataset, project, script, line or None, occurrence or None, api) -> the matched call; {} when
    the file is absent."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) != COLUMNS:
        raise ValueError(f"{path}: columns {reader.fieldnames} are not {list(COLUMNS)}")
    out = {}
    for row in reader:
        try:
            line = int(row["line"]) if row["line"] else None
            occurrence = int(row["occurrence"]) if row["occurrence"] else None
            place = int(row["source_line"]) if row["source_line"].isdigit() else None
            out[(row["dataset"], row["project"], row["script"], line, occurrence, row["api"])] = Matched(
                row["call_api"] or row["api"], place, json.loads(row["features"] or "{}"))
        except ValueError as exc:
            raise ValueError(f"{path}: malformed row {reader.line_num} ({exc})") from None
    return out


def occurrences(records: Sequence) -> list[int | None]:
    """Each FECoM method-level record's place among its run's calls of the same signature (1: the
    first), None for other records. FECoM names the call, not its line; a run's records (one file)
    follow the calls' order, and a signature FECoM stops measuring after the first run is left out
    of later runs whole, so the k-th call of a signature is the same call in every run."""
    seen: Counter = Counter()
    out: list[int | None] = [None] * len(records)
    order = sorted((r.dataset, r.project, r.script, r.experiment or 0, r.index, i) for i, r in enumerate(records)
                   if r.dataset == FECOM_METHOD_LEVEL)
    for *_, i in order:
        r = records[i]
        call = (r.project, r.script, r.experiment, r.raw_signature)
        seen[call] += 1
        out[i] = seen[call]
    return out


def static_key(record, occurrence: int | None = None) -> Key:
    """The table key of a KB record: Greenlight's by its line, FECoM's method-level by its
    *occurrence* (`occurrences`), FECoM's data-size sweeps by their script and API alone."""
    line = record.line if record.dataset == "greenlight" else None
    return (record.dataset, record.project, record.script, line, occurrence, record.api)


def attach(records: Sequence, table: dict[Key, Matched]) -> list:
    """Records with their matched call's name, place and static features merged in (the record's own
    line and features win on a clash): FECoM's calls of one line (a loop's) become one call site."""
    from dataclasses import replace

    out = []
    for r, occurrence in zip(records, occurrences(records)):
        m = table.get(static_key(r, occurrence)) if table else None
        out.append(replace(r, api=m.call_api, line=r.line if r.line is not None else m.line,
                           features={**m.features, **(r.features or {})}) if m else r)
    return out
