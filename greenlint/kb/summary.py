"""What the KB knows, as plain dicts: coverage (`kb stats`) and one API's evidence (`kb show`)."""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Callable, Iterable

from greenlint.kb.record import COMPONENTS, WHOLE_PROGRAM, KBRecord, count_apis


def quartiles(values: Iterable[float]) -> dict[str, float] | None:
    """Median and interquartile range (linear interpolation, like numpy's default)."""
    xs = sorted(values)
    if not xs:
        return None
    if len(xs) == 1:
        return {"median": xs[0], "q1": xs[0], "q3": xs[0], "n": 1}
    q1, med, q3 = statistics.quantiles(xs, n=4, method="inclusive")
    return {"median": med, "q1": q1, "q3": q3, "n": len(xs)}


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def component_stats(records: list[KBRecord]) -> dict[str, dict | None]:
    """Median and IQR of net J per component and in total, over records where it is defined."""
    out: dict[str, dict | None] = {}
    for comp in COMPONENTS:
        out[comp] = quartiles(v for r in records if (v := getattr(r, f"{comp}_net_j")) is not None)
    out["total"] = quartiles(v for r in records if (v := r.net_j) is not None)
    return out


def _family_of() -> Callable[[str], str]:
    from greenlint.catalog.catalog import CatalogError, load_catalog

    try:
        catalog = load_catalog()
    except CatalogError:
        return lambda api: api.rpartition(".")[0] or api
    return catalog.family


def stats(records: list[KBRecord], meta: dict) -> dict:
    """Coverage of the KB: datasets, files read and skipped, records, APIs, energy by family."""
    per_ds: dict[str, list[KBRecord]] = defaultdict(list)
    for r in records:
        per_ds[r.dataset].append(r)
    datasets = {}
    for name, d in sorted(meta.get("datasets", {}).items()):
        recs = per_ds.get(name, [])
        datasets[name] = {
            "files": d["files"],
            "files_read": d["files_read"],
            "skipped_files": d["skipped_files"],
            "records": len(recs),
            "apis": count_apis(recs),
            "raw_signatures": len({r.raw_signature for r in recs}),
            "scripts": len({(r.project, r.script) for r in recs}),
            "records_by_experiment": dict(sorted(d.get("records_by_experiment", {}).items(), key=lambda kv: int(kv[0]))),
            "below_resolution_share": _share(sum(r.below_resolution for r in recs), len(recs)),
            "series_cut_short": sum(r.series_cut_short for r in recs),
        }
    family = _family_of()
    fam: dict[str, list[KBRecord]] = defaultdict(list)
    for r in records:
        if r.dataset not in WHOLE_PROGRAM:
            fam[family(r.api)].append(r)
    families = []
    for name, recs in fam.items():
        nets = [v for r in recs if (v := r.net_j) is not None]
        resolved = [v for r in recs if not r.below_resolution and (v := r.net_j) is not None]
        families.append(
            {
                "family": name,
                "apis": len({r.api for r in recs}),
                "records": len(recs),
                "median_net_j": statistics.median(nets) if nets else None,
                "median_resolved_net_j": statistics.median(resolved) if resolved else None,
                "total_net_j": sum(nets),
                "below_resolution_share": _share(sum(r.below_resolution for r in recs), len(recs)),
            }
        )
    families.sort(key=lambda f: (-f["total_net_j"], f["family"]))
    return {
        "records": len(records),
        "apis": count_apis(records),
        "raw_signatures": len({r.raw_signature for r in records}),
        "files": meta.get("files", 0),
        "skipped_files": meta.get("skipped_files", 0),
        "skipped_records": meta.get("skipped_records", 0),
        "skipped_reasons": meta.get("skipped_reasons", {}),
        "below_resolution_share": _share(sum(r.below_resolution for r in records), len(records)),
        "series_cut_short": sum(r.series_cut_short for r in records),
        "datasets": datasets,
        "families": families,
    }


def resolve_query(query: str) -> set[str]:
    """The names a user's API text may match: as typed, FECoM-cleaned and canonical."""
    from greenlint.kb.measurement import fecom_name
    from greenlint.kb.names import canonicaliser

    text = query.strip()
    return {text, fecom_name(text), canonicaliser(require_catalog=False)(text)}


def matching(records: list[KBRecord], query: str) -> list[KBRecord]:
    """Records of the API *query* names: by canonical name, raw signature or FECoM name."""
    names = resolve_query(query)
    return [r for r in records if r.api in names or r.raw_signature in names or r.fecom_name in names]


def show(records: list[KBRecord], query: str) -> dict:
    """Everything the KB holds on one API (any alias): energy, time, sources, censoring."""
    recs = matching(records, query)
    apis = sorted({r.api for r in recs})
    sources: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in recs:
        sources[r.dataset][r.project if r.project.rpartition("/")[2] == r.script else f"{r.project}/{r.script}"] += 1
    below = [r for r in recs if r.below_resolution]
    return {
        "query": query,
        "apis": apis,
        "records": len(recs),
        "raw_signatures": sorted({r.raw_signature for r in recs}),
        "net_j": component_stats(recs),
        "net_j_resolved": component_stats([r for r in recs if not r.below_resolution]),
        "execution_time_s": quartiles(r.execution_time_s for r in recs),
        "below_resolution_share": _share(len(below), len(recs)),
        "upper_bound_j_below_resolution": quartiles(r.upper_bound_j for r in below if math.isfinite(r.upper_bound_j)),
        "unbounded": sum(not math.isfinite(r.upper_bound_j) for r in recs),
        "series_cut_short": sum(r.series_cut_short for r in recs),
        "hardware_ids": sorted({r.hardware_id for r in recs}),
        "sources": {ds: dict(sorted(p.items())) for ds, p in sorted(sources.items())},
    }
