"""Static features of the KB's measured call sites, read by our resolver from the measured sources.

The KB records say which API was measured, not with which literal arguments. The measured
scripts are public: Greenlight measured notebooks of `tensorflow/docs` (its records carry the
repository, commit, script path and a line in the patched, converted script), and FECoM measured
converted TensorFlow tutorials whose `_original.py` it keeps in its own repository. This module
runs greenlint's resolver on those sources and matches each measured call site to one resolved
call, so the predictor can be trained and evaluated on what the linter sees in user code.

Matching (nothing is guessed; an unsure match is dropped and counted):

- Greenlight: the patched script keeps the statements' order but not their line numbers, so the
  measured calls of a script (ordered by line) are aligned with the resolved calls (in source
  order) by the longest common subsequence of API names. A matched call is kept only when every
  resolved call it is paired with in some longest alignment has the same features.
- FECoM: records name the call, not its line, but a run's records follow the calls' order: a site
  is the k-th call of its signature in a run (`occurrences`). The calls of the run with the most
  records are aligned with the resolved calls in the same way, by their place in the run instead of
  a line (a resolved call that runs more than once, `repeats`, may take several in a row); a site
  whose API's resolved calls all have the same features gets them whatever its place.
- Both: a measured `X` matches a resolved `X` or `X.__call__` (`names_call`: FECoM names a call of a
  model instance by its class; `instance_call`: the record shows which), and the row keeps the
  resolver's name of the matched call, `call_api`.

`python -m tools.kb.static_features --docs <tensorflow/docs git dir> --fecom <FECoM git dir>
[--repo OWNER/NAME=<git dir> ...]` writes `data/kb/static_features.csv` (derived numbers only, no code). Reading snapshots needs git.
With both sources read it also writes the tables' stamp, `static_inputs` of what they were derived from:
the resolver's code and tables, this module and the KB's measured call sites. Its staleness test fails
whenever one of them changes, since the sources are not at hand to check the rows themselves.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import lzma
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from greenlint.kb.static_table import (
    COLUMNS,
    DOCS_REPOSITORY,
    FECOM_COMMIT,
    FECOM_METHOD_LEVEL,
    FECOM_REPOSITORY,
    FECOM_SCRIPTS,
    STAMP,
    TABLE,
    occurrences,
    static_key,
    with_provenance,
)

#: Resolver features that are not facts about the call's workload (a fit's `callbacks`: what may stop it
#: is in its work, the epochs' bound).
_DROP = frozenset({"receiver", "receiver_kind", "callbacks"})
#: Longest list kept (shapes); longer literal lists (vocabularies, values) are left out.
_MAX_LIST = 8


def compact(features: dict) -> dict:
    """The JSON-able, workload-relevant part of a resolver feature dict (nested `init` kept flat)."""
    out = {}
    for k, v in features.items():
        if k in _DROP:
            continue
        if isinstance(v, dict):
            v = compact(v)
            if not v:
                continue
        elif isinstance(v, (list, tuple)):
            if len(v) > _MAX_LIST or not all(isinstance(x, (int, float, str, bool)) or x is None for x in v):
                continue
            v = list(v)
        elif not (v is None or isinstance(v, (int, float, str, bool))):
            continue
        if isinstance(v, str) and len(v) > 80:
            continue
        out[k] = v
    return out


@dataclass(frozen=True)
class Resolved:
    """One call our resolver found: its place (cell, line) and its compact features."""

    api: str
    cell: int | None
    line: int
    features: dict
    runs: int | None = None  # how often the call runs per program run (CallSite.runs), where known


def resolve_source(text: str, path: str) -> list[Resolved]:
    """Every resolved call of a script or notebook (notebook JSON when *path* ends in .ipynb), in order."""
    from greenlint.analysis.analyse import analyse_source
    from greenlint.predict.site_predictions import with_work

    result = analyse_source(text, path)
    return [
        Resolved(s.api, s.span.cell, s.span.line, compact(with_work(s.features, s.work)), _runs(s))
        for s in result.callsites
    ]


def _runs(callsite) -> int | None:
    count = callsite.runs.count
    if isinstance(count, int) and count >= 0:
        return count
    lm = callsite.features.get("loop_multiplier")
    return lm if isinstance(lm, int) and lm >= 0 else None


def _same(calls: Iterable) -> bool:
    return len({json.dumps(c, sort_keys=True) for c in calls}) == 1


def names_call(measured: str, resolved: str) -> bool:
    """Whether a measured API name can be the resolved call: the same API, or a call of an instance
    of the measured class (the profilers name `augment(images)` of `augment = Sequential(...)` by
    its class, `Sequential()`; the resolver reads it as `Sequential.__call__`)."""
    return resolved in (measured, f"{measured}.__call__")


def align(measured: Sequence[tuple[int, str]], found: Sequence[Resolved],
          repeats: Sequence[bool] | None = None) -> dict[tuple[int, str], Resolved]:
    """Measured (place, api) pairs matched to resolved calls, order-preserving.

    The measured calls (by place: Greenlight's line, FECoM's index in a run) and the resolved calls
    (in source order) are aligned by the longest common subsequence (LCS) of API names
    (`names_call`); a resolved call whose *repeats* is true (it runs more than once: a loop's, a
    traced function's) may take several measured calls in a row. A measured call is kept only when
    every resolved call it is paired with in *some* longest alignment is the same call kind with the
    same features: where the order alone cannot say which of several different calls was measured,
    it is dropped.
    """
    ms = sorted(set(measured))
    n, m = len(ms), len(found)
    rep = list(repeats) if repeats is not None else [False] * m
    hit = [[names_call(a, f.api) for f in found] for _, a in ms]
    fwd = [[0] * (m + 1) for _ in range(n + 1)]  # best alignment of ms[:i] and found[:j]
    for i in range(n):
        for j in range(m):
            fwd[i + 1][j + 1] = max(fwd[i][j + 1], fwd[i + 1][j],
                                    fwd[i][j] + 1 if hit[i][j] else 0, fwd[i][j + 1] + 1 if hit[i][j] and rep[j] else 0)
    bwd = [[0] * (m + 1) for _ in range(n + 1)]  # best alignment of ms[i:] and found[j:]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            bwd[i][j] = max(bwd[i + 1][j], bwd[i][j + 1],
                            bwd[i + 1][j + 1] + 1 if hit[i][j] else 0, bwd[i + 1][j] + 1 if hit[i][j] and rep[j] else 0)
    best = fwd[n][m]
    out = {}
    for i in range(n):
        pairs = [j for j in range(m) if hit[i][j] and (
            fwd[i][j] + 1 + bwd[i + 1][j + 1] == best
            or rep[j] and max(fwd[i][j], fwd[i][j + 1]) + 1 + bwd[i + 1][j] == best)]
        if pairs and _same((found[j].api, found[j].features) for j in pairs):
            out[ms[i]] = found[pairs[0]]
    return out


def repeats(call: Resolved) -> bool:
    """Whether a resolved call can be measured several times in one run: it runs more than once, or
    sits in a traced function (the profiler records each trace)."""
    return (call.runs or 0) > 1 or bool(call.features.get("in_tf_function"))


def match_unique(apis: Iterable[str], found: Sequence[Resolved]) -> dict[str, Resolved]:
    """FECoM: each API whose resolved calls in the script (`names_call`) are all one call kind with the
    same features."""
    out = {}
    for a in set(apis):
        calls = [f for f in found if names_call(a, f.api)]
        if calls and _same((f.api, f.features) for f in calls):
            out[a] = calls[0]
    return out


def match_fecom(runs: dict[int, list[tuple[int, str, int, bool]]], found: Sequence[Resolved]
                ) -> dict[tuple[str, int], Resolved]:
    """FECoM: (api, occurrence) of one script's measured calls matched to resolved calls.

    *runs* maps each run (experiment) to its records as (index in the file, api, occurrence, whether
    the record is a call of an instance of the class it names: `instance_call`). The run with the
    most records (the first such) is aligned by `align`, its index standing for a line, an instance's
    call only with a resolved call of an instance (`X.__call__`); `match_unique` answers for an API
    whose resolved calls all agree, at any occurrence but an instance's call.
    """
    sites = {(api, occ): instance for calls in runs.values() for _, api, occ, instance in calls}
    unique = match_unique({api for api, _ in sites}, found)
    fullest = max(sorted(runs), key=lambda e: len(runs[e]))
    measured = [(index, f"{api}.__call__" if instance else api) for index, api, _, instance in runs[fullest]]
    aligned = align(measured, found, [repeats(f) for f in found])
    # two signatures of one API can share an occurrence: the site is kept when their calls agree
    places: dict[tuple[str, int], list] = defaultdict(list)
    for (_, api, occ, _), m in zip(runs[fullest], measured):
        places[(api, occ)].append(aligned.get(m))
    out = {}
    for (api, occ), instance in sites.items():
        matched = places.get((api, occ), [None])
        if api in unique and not instance:
            out[(api, occ)] = unique[api]
        elif None not in matched and _same((m.api, m.features) for m in matched):
            out[(api, occ)] = matched[0]
    return out


def instance_call(record) -> bool:
    """Whether a FECoM record names a class but measured a call of one of its instances: the
    profiler names `augment(images)` by its class, `Sequential()`, and records the size of the
    object called, which a constructor's call has not yet (a class: a capitalised name in a
    module, `tensorflow.keras.Sequential`, not a method `tensorflow.train.Example.ParseFromString`)."""
    *module, name = record.api.split(".")
    return record.object_size is not None and name[:1].isupper() and bool(module) and module[-1][:1].islower()


# --- reading the snapshots and the KB -------------------------------------------------------------


def git_show(git_dir: Path, commit: str, path: str) -> str | None:
    try:
        return subprocess.run(["git", "-C", str(git_dir), "show", f"{commit}:{path}"], check=True,
                              capture_output=True, text=True).stdout
    except (subprocess.CalledProcessError, UnicodeDecodeError):
        return None


def greenlight_sources(shared: Path) -> dict[tuple[str, str, int, int], tuple[str, str, str]]:
    """(project, script, experiment, index) -> (repository URL, commit, path in the repository).

    From each Greenlight record's `project_metadata`; one script folder can hold records of two
    sources (two tutorials named `classification`), so the source is looked up per record.
    """
    out = {}
    for f in sorted((shared / "greenlight" / "raw").glob("*/*/experiment-*.json.xz")):
        project, script = f.parts[-3], f.parts[-2]
        experiment = int(f.name.split("-", 1)[1].split(".", 1)[0])
        with lzma.open(f, "rt") as fh:
            entries = json.load(fh)
        for index, entry in enumerate(entries):
            for value in entry.values():
                meta = value.get("project_metadata") or {}
                repo = (meta.get("project_repository") or "").removesuffix(".git")
                path = meta.get("script_path") or ""
                path = path.split("_patched/", 1)[1] if "_patched/" in path else ""
                out[(project, script, experiment, index)] = (repo, meta.get("project_commit") or "", path)
    return out


@dataclass
class Report:
    """Match counts per dataset: measured call sites, those without a readable source, matched, dropped."""

    sites: Counter
    matched: Counter
    no_source: Counter
    unmatched: Counter


def build_table(records: Sequence, *, repos: dict[str, Path], fecom: Path | None, shared: Path | None
                ) -> tuple[list[dict], Report]:
    """Rows of the static-feature table for the KB *records* and the match report.

    *repos* maps a repository URL (https://github.com/owner/name) to the git directory of a
    snapshot that holds the measured commit; Greenlight scripts of other repositories are skipped.
    """
    report = Report(Counter(), Counter(), Counter(), Counter())
    rows: list[dict] = []
    gl_records = [r for r in records if r.dataset == "greenlight" and r.line is not None]
    # FECoM's measured calls per script and run: (index in the run's file, api, occurrence, instance_call)
    fc_runs: dict[tuple[str, str], dict[int, list]] = defaultdict(lambda: defaultdict(list))
    for r, occ in zip(records, occurrences(records)):
        if occ is not None:
            fc_runs[(r.project, r.script)][r.experiment or 0].append((r.index, r.api, occ, instance_call(r)))
    sources = greenlight_sources(shared) if shared and gl_records else {}
    # a call site is (project, script, line, api); group them by the source their records name
    site_sources: dict[tuple, set] = defaultdict(set)
    for r in gl_records:
        site_sources[(r.project, r.script, r.line, r.api)].add(sources.get((r.project, r.script, r.experiment, r.index)))
    by_source: dict[tuple, set[tuple[int, str]]] = defaultdict(set)
    for (project, script, line, api), srcs in site_sources.items():
        report.sites["greenlight"] += 1
        if None in srcs:  # the record's source is not known (no ../shared Greenlight data)
            report.no_source["greenlight"] += 1
            continue
        if len(srcs) > 1:  # two sources share this line number: the call site mixes them
            report.unmatched["greenlight"] += 1
            continue
        by_source[(project, script, *next(iter(srcs)))].add((line, api))
    for (project, script, repo, commit, path), measured in sorted(by_source.items()):
        text = git_show(repos[repo], commit, path) if repo in repos and path else None
        if text is None:
            report.no_source["greenlight"] += len(measured)
            continue
        matches = align(sorted(measured), resolve_source(text, path))
        report.matched["greenlight"] += len(matches)
        report.unmatched["greenlight"] += len(measured) - len(matches)
        for (line, api), res in sorted(matches.items()):
            rows.append(_row("greenlight", project, script, line, api, repo, commit, path, res))
    dataset = FECOM_METHOD_LEVEL
    for (project, script), runs in sorted(fc_runs.items()):
        n = len({(api, occ) for calls in runs.values() for _, api, occ, _ in calls})
        report.sites[dataset] += n
        path = f"{FECOM_SCRIPTS}/{project}_original.py"
        text = git_show(fecom, FECOM_COMMIT, path) if fecom else None
        if text is None:
            report.no_source[dataset] += n
            continue
        calls = match_fecom(runs, resolve_source(text, path))
        report.matched[dataset] += len(calls)
        report.unmatched[dataset] += n - len(calls)
        for (name, occ), res in sorted(calls.items()):
            rows.append(_row(dataset, project, script, None, name, FECOM_REPOSITORY, FECOM_COMMIT, path, res, occ))
    return rows, report


def _row(dataset, project, script, line, api, repo, commit, path, res: Resolved, occurrence=None) -> dict:
    where = f"{res.cell}:{res.line}" if res.cell is not None else str(res.line)
    return {"dataset": dataset, "project": project, "script": script, "line": line, "occurrence": occurrence,
            "api": api, "call_api": res.api, "source_repository": repo, "source_commit": commit, "source_path": path,
            "source_line": where, "features": res.features}


SCRIPTS_TABLE = "script_sites.csv"
SCRIPT_COLUMNS = ("project", "source_path", "line", "api", "runs", "features")


def script_rows(records: Sequence, fecom: Path) -> list[dict]:
    """Every resolved call of each FECoM tutorial measured end to end (project level), in order.

    The whole-script check of docs/accuracy.md sums the predictions of these calls, each times
    how often it runs, against the tutorial's measured total.
    """
    rows = []
    for project in sorted({r.project for r in records if r.dataset == "fecom-project-level"}):
        path = f"{FECOM_SCRIPTS}/{project}_original.py"
        text = git_show(fecom, FECOM_COMMIT, path)
        if text is None:
            continue
        for res in resolve_source(text, path):
            rows.append({"project": project, "source_path": path, "line": res.line, "api": res.api,
                         "runs": res.runs, "features": res.features})
    return rows


def scripts_csv(rows: Sequence[dict]) -> str:
    return _csv(rows, SCRIPT_COLUMNS)


def load_scripts(path: Path) -> dict[str, list[tuple[str, dict, int | None]]]:
    """project -> [(api, features, runs)] of the whole-script table; {} when the file is absent."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) != SCRIPT_COLUMNS:
        raise ValueError(f"{path}: columns {reader.fieldnames} are not {list(SCRIPT_COLUMNS)}")
    out: dict[str, list] = defaultdict(list)
    for row in reader:
        try:
            runs = int(row["runs"]) if row["runs"] else None
            out[row["project"]].append((row["api"], json.loads(row["features"] or "{}"), runs))
        except ValueError as exc:
            raise ValueError(f"{path}: malformed row {reader.line_num} ({exc})") from None
    return dict(out)


def table_csv(rows: Sequence[dict]) -> str:
    return _csv(rows, COLUMNS)


def _csv(rows: Sequence[dict], columns: Sequence[str]) -> str:
    """The rows as CSV under `columns`; `features` as compact sorted JSON, None as empty."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for row in rows:
        w.writerow(["" if row[c] is None else json.dumps(row[c], sort_keys=True, separators=(",", ":"))
                    if c == "features" else row[c] for c in columns])
    return buf.getvalue()


#: What the resolver's reading of a source depends on (glob patterns, so a new module is covered): its
#: code, the catalog and work tables it reads, and this module.
STATIC_SOURCES = ("greenlint/analysis/**/*.py", "greenlint/catalog/*.py", "greenlint/units.py", "greenlint/kb/static_table.py",
                  "tools/kb/static_features.py", "data/catalog/*", "data/work/*")


def static_inputs(records: Sequence) -> str:
    """The stamp of the tables: a digest of STATIC_SOURCES and of the KB's measured call sites (their
    keys and the tutorials measured end to end), not of their energies."""
    from tools.digests import files_digest, matching

    sites = sorted({repr(static_key(r, occ)) for r, occ in zip(records, occurrences(records))}
                   | {f"project-level {r.project}" for r in records if r.dataset == "fecom-project-level"})
    measured = hashlib.sha256("\n".join(sites).encode()).hexdigest()[:16]
    return f"{files_digest(matching(STATIC_SOURCES))}-{measured}"


def main(argv: Sequence[str] | None = None) -> int:
    from greenlint.atomic import atomic_write_text
    from greenlint.kb.store import load_kb
    from greenlint.paths import shared_dir
    from tools import DATA_DIR

    ap = argparse.ArgumentParser(prog="python -m tools.kb.static_features", description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=Path, help="git directory of a tensorflow/docs snapshot (Greenlight's sources)")
    ap.add_argument("--repo", action="append", default=[], metavar="OWNER/NAME=GITDIR",
                    help="git directory of another repository Greenlight measured (repeatable)")
    ap.add_argument("--fecom", type=Path, help="git directory of a SMART-Dal/FECoM snapshot (FECoM's converted scripts)")
    ap.add_argument("--kb", type=Path, default=None, help="KB directory (default: the checkout's data/kb)")
    ap.add_argument("--out", type=Path, default=None, help=f"output CSV (default: <kb>/{TABLE})")
    args = ap.parse_args(argv)
    kb = args.kb or DATA_DIR / "kb"
    shared = shared_dir()
    if shared is None:
        print("warning: ../shared not found; Greenlight's script paths are unknown", file=sys.stderr)
    repos = {DOCS_REPOSITORY: args.docs} if args.docs else {}
    for spec in args.repo:
        name, sep, git_dir = spec.partition("=")
        if not sep or name.count("/") != 1:
            ap.error(f"--repo {spec!r}: expected OWNER/NAME=GITDIR")
        repos[f"https://github.com/{name}"] = Path(git_dir)
    records = load_kb(kb, static=False)
    rows, report = build_table(records, repos=repos, fecom=args.fecom, shared=shared)
    out = args.out or kb / TABLE
    atomic_write_text(out, table_csv(rows))
    if args.fecom:
        scripts = script_rows(records, args.fecom)
        atomic_write_text(out.parent / SCRIPTS_TABLE, scripts_csv(scripts))
        print(f"wrote {len(scripts)} calls of {len({r['project'] for r in scripts})} whole scripts to "
              f"{out.parent / SCRIPTS_TABLE}")
    if args.fecom and args.docs and shared is not None:
        atomic_write_text(out.parent / STAMP, static_inputs(records) + "\n")
    else:
        print(f"warning: not every source was read; {out.parent / STAMP} is left as it was", file=sys.stderr)
    provenance = out.parent / "PROVENANCE.md"
    if provenance.is_file():
        atomic_write_text(provenance, with_provenance(provenance.read_text(encoding="utf-8")))
    for ds in sorted(report.sites):
        print(f"{ds}: {report.sites[ds]} measured call sites, {report.no_source[ds]} without a readable source, "
              f"{report.matched[ds]} matched, {report.unmatched[ds]} not matched reliably (dropped)")
    print(f"wrote {len(rows)} rows to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
