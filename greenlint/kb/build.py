"""`greenlint kb build`: measurement files -> KB records -> a KB directory, written atomically."""

from __future__ import annotations

import multiprocessing
import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from greenlint.kb.measurement import MeasurementFileError, RecordError, fecom_name, parse_record, read_measurement_file
from greenlint.kb.measurement_files import FileJob, find_files
from greenlint.kb.provenance import provenance_markdown
from greenlint.kb.record import SCHEMA_VERSION, WHOLE_PROGRAM, KBRecord, count_apis
from greenlint.kb.store import write_kb
from greenlint.stats import median


@dataclass(frozen=True)
class Problem:
    """Something skipped: a whole file (index None) or one record in it."""

    path: str
    reason: str
    index: int | None = None

    def __str__(self) -> str:
        where = self.path if self.index is None else f"{self.path} [record {self.index}]"
        return f"{where}: {self.reason}"


@dataclass
class IngestedFile:
    job: FileJob
    records: list[KBRecord] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    read: bool = False
    baselines: list[tuple[float | None, ...]] = field(default_factory=list)  # idle W per component


def ingest_file(job: FileJob) -> IngestedFile:
    """All records of one file (``api`` left empty: the caller canonicalises in one place)."""
    from greenlint.kb.energy import call_energy, energy_fields, features, idle_power_w, startup

    result = IngestedFile(job)
    try:
        items = read_measurement_file(job.path)
    except MeasurementFileError as exc:
        result.problems.append(Problem(job.shown, str(exc)))
        return result
    result.read = True
    data_size = job.dataset == "fecom-data-size"
    for index, item in enumerate(items):
        try:
            call = parse_record(item)
            energy = call_energy(call)
            fields = energy_fields(call, energy)
        except (RecordError, ValueError, TypeError, KeyError) as exc:
            result.problems.append(Problem(job.shown, str(exc) or type(exc).__name__, index))
            continue
        result.baselines.append(idle_power_w(call, energy))
        line = call.project_metadata.get("api_call_line")
        extra = features(call)
        if data_size:
            extra["data_size_fraction"] = round((index + 1) / len(items), 6)
        if job.dataset in WHOLE_PROGRAM:
            extra.update(startup(call))
        result.records.append(
            KBRecord(
                api="",
                raw_signature=call.raw_signature,
                fecom_name=fecom_name(call.raw_signature),
                dataset=job.dataset,
                project=job.project,
                script=job.script,
                experiment=job.experiment,
                index=index,
                line=line if isinstance(line, int) and not isinstance(line, bool) else None,
                hardware_id=call.hardware_id or job.hardware_id,
                features=extra,
                **fields,
            )
        )
    return result


@dataclass
class BuildSummary:
    out: Path
    records: int
    apis: int
    meta: dict
    problems: list[Problem]
    seconds: float
    written: bool


def _shown_dir(d: Path) -> str:
    """A source directory as recorded in meta.json: dataset-relative for the public datasets."""
    parts = d.resolve().parts
    if len(parts) >= 2 and parts[-1] == "raw" and parts[-2] in ("greenlight", "fecom"):
        return f"{parts[-2]}/raw"
    return str(d)


def _meta(results: list[IngestedFile], records: list[KBRecord], problems: list[Problem], dirs: list[str]) -> dict:
    per: dict[str, dict] = defaultdict(
        lambda: {"files": 0, "files_read": 0, "skipped_files": 0, "records": 0, "skipped_records": 0}
    )
    base: dict[str, list[tuple]] = defaultdict(list)
    for res in results:
        d = per[res.job.dataset]
        d["files"] += 1
        d["files_read"] += res.read
        d["skipped_files"] += not res.read
        d["skipped_records"] += sum(p.index is not None for p in res.problems)
        base[res.job.dataset].extend(res.baselines)
    by_ds: dict[str, list[KBRecord]] = defaultdict(list)
    for r in records:
        by_ds[r.dataset].append(r)
    for name, d in per.items():
        recs = by_ds.get(name, [])
        d["records"] = len(recs)
        d["apis"] = count_apis(recs)
        d["raw_signatures"] = len({r.raw_signature for r in recs})
        d["projects"] = len({r.project for r in recs})
        d["scripts"] = len({(r.project, r.script) for r in recs})
        d["below_resolution"] = sum(r.below_resolution for r in recs)
        d["series_cut_short"] = sum(r.series_cut_short for r in recs)
        d["records_by_experiment"] = {
            str(k): v for k, v in sorted(Counter(r.experiment for r in recs if r.experiment is not None).items())
        }
        cols = list(zip(*base[name])) if base[name] else [(), (), ()]
        d["idle_baseline_w"] = {
            comp: None if (m := median(col)) is None else round(m, 3) for comp, col in zip(("cpu", "ram", "gpu"), cols)
        }
    reasons = Counter(p.reason for p in problems if p.index is None)
    return {
        "schema_version": SCHEMA_VERSION,
        "generator": "greenlint kb build",
        "sources": dirs,
        "records": len(records),
        "apis": count_apis(records),
        "raw_signatures": len({r.raw_signature for r in records}),
        "below_resolution": sum(r.below_resolution for r in records),
        "series_cut_short": sum(r.series_cut_short for r in records),
        "files": sum(d["files"] for d in per.values()),
        "skipped_files": sum(d["skipped_files"] for d in per.values()),
        "skipped_records": sum(d["skipped_records"] for d in per.values()),
        "skipped_reasons": dict(sorted(reasons.items())),
        "datasets": {k: per[k] for k in sorted(per)},
        "skipped": [{"path": p.path, "index": p.index, "reason": p.reason} for p in problems],
    }


def build_kb(
    dirs: list[Path],
    out: Path,
    *,
    jobs: int | None = None,
    dataset: str = "local",
    hardware_id: str = "unknown",
    canonical: Callable[[str], str] | None = None,
    on_problem: Callable[[Problem], None] | None = None,
) -> BuildSummary:
    """Read every measurement file under *dirs* and write the KB directory *out* atomically.

    Bad files and records are reported through *on_problem* and skipped. Nothing is written when
    no record was read (the previous KB stays). *canonical* maps raw signatures to canonical API
    names (default: the catalog's, `greenlint.kb.names.canonicaliser`).
    """
    t0 = time.perf_counter()
    problems: list[Problem] = []

    def report(p: Problem) -> None:
        problems.append(p)
        if on_problem:
            on_problem(p)

    existing = []
    for d in dirs:
        if Path(d).exists():
            existing.append(Path(d))
        else:
            report(Problem(str(d), "no such file or directory"))
    file_jobs = find_files(existing, dataset=dataset, hardware_id=hardware_id)
    n_proc = max(1, min(jobs or os.cpu_count() or 1, len(file_jobs)))
    results: list[IngestedFile] = []
    if n_proc > 1:
        with multiprocessing.Pool(n_proc) as pool:
            iterator = pool.imap(ingest_file, file_jobs, chunksize=4)
            for res in iterator:
                results.append(res)
                for p in res.problems:
                    report(p)
    else:
        for job in file_jobs:
            res = ingest_file(job)
            results.append(res)
            for p in res.problems:
                report(p)
    if canonical is None:
        from greenlint.kb.names import canonicaliser

        canonical = canonicaliser()
    names = {raw: canonical(raw) for raw in sorted({r.raw_signature for res in results for r in res.records})}
    records = [replace(r, api=names[r.raw_signature]) for res in results for r in res.records]
    meta = _meta(results, records, problems, [_shown_dir(Path(d)) for d in dirs])
    written = bool(records)
    if written:
        write_kb(out, records, meta, provenance_markdown(meta))
    return BuildSummary(Path(out), len(records), meta["apis"], meta, problems, time.perf_counter() - t0, written)
