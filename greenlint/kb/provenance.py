"""Upstream sources, commits and licences of the public datasets, for data/kb/PROVENANCE.md."""

from __future__ import annotations

from greenlint.kb.measurement_files import REFERENCE_HARDWARE_ID
from greenlint.kb.record import COLUMN_DOCS

#: FECoM's LICENSE at the commit used (the Commons Clause condition; its notice must travel with the data).
COMMONS_CLAUSE_NOTICE = """\
"Commons Clause" License Condition v1.0

The Software is provided to you by the Licensor under the License, as defined below, subject to
the following condition.

Without limiting other conditions in the License, the grant of rights under the License will not
include, and the License does not grant to you, the right to Sell the Software.

For purposes of the foregoing, "Sell" means practicing any or all of the rights granted to you
under the License to provide to third parties, for a fee or other consideration (including without
limitation fees for hosting or consulting/ support services related to the Software), a product or
service whose value derives, entirely or substantially, from the functionality of the Software.
Any license notice or attribution required by the License must also include this Commons Clause
License Condition notice.

Software: [FECoM-tool]

License: [Apache 2.0]

Licensor: [FECoM-Authors]"""

UPSTREAM = {
    "greenlight": {
        "repository": "https://github.com/SMART-Dal/greenlight",
        "folder": "dataset/",
        "commit": "beba2195e35e085d9b99aa2772978e109cdc01a1",
        "licence": (
            "The README states Apache-2.0, but the repository has no licence file (no LICENSE, "
            "COPYING or NOTICE in any commit). Apache-2.0 is therefore asserted, not granted by a "
            "licence file; the measurement code it derives from (FECoM) is Apache-2.0 with the "
            "Commons Clause. Confirm the terms with the authors before redistributing."
        ),
    },
    "fecom": {
        "repository": "https://github.com/SMART-Dal/FECoM",
        "folder": "data/energy-dataset/ (method-level, project-level, data-size)",
        "commit": "a9041d1b3a5aaeeca118c4e4e58ace5a38b8d77c",
        "licence": (
            "Apache-2.0 with the Commons Clause License Condition v1.0 (LICENSE file; no separate "
            "data licence, so the data is taken to be under the same terms). The Commons Clause "
            "removes the right to sell: nobody may charge for a product or service whose value "
            "derives entirely or substantially from it, and any licence notice passed on must "
            "carry the Commons Clause text. It is not an OSI open-source licence. Our reading (not legal "
            "advice): greenlint may redistribute this derived KB free of charge with the notice below, "
            "but the data-derived parts (this KB and models trained on it) cannot go into a paid product "
            "or service whose value comes mainly from them without the licensor's permission, even "
            "though greenlint's own code is Apache-2.0."
        ),
    },
}


def _upstream_for(dataset: str) -> str | None:
    if dataset == "greenlight":
        return "greenlight"
    if dataset.startswith("fecom-"):
        return "fecom"
    return None


def provenance_markdown(meta: dict) -> str:
    """PROVENANCE.md for a built KB, from its meta.json contents."""
    datasets = meta["datasets"]
    lines = [
        "# Provenance of this knowledge base",
        "",
        "Built by `greenlint kb build` from measurement files in the FECoM/CodeGreen JSON format.",
        "Only derived per-call figures are stored here (no raw series); `meta.json` lists every",
        "file that was skipped and why. Energy follows FECoM's method (`meter/window.py`): nearest-sample",
        "window, baseline = mean of the 40 samples before the start, net = gross - window samples x",
        "baseline, GPU power x 0.5 s; the post-call lag tail is not counted. Records whose net lies",
        "within the baseline noise or whose window has fewer than 2 samples are flagged",
        "`below_resolution` and carry an `upper_bound_j`.",
        "",
        "## Sources",
        "",
        "| dataset | files | read | skipped | records |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, d in sorted(datasets.items()):
        lines.append(f"| {name} | {d['files']} | {d['files_read']} | {d['skipped_files']} | {d['records']} |")
    used = sorted({u for name in datasets if (u := _upstream_for(name))})
    for key in used:
        up = UPSTREAM[key]
        lines += [
            "",
            f"### {key}",
            "",
            f"- Upstream: {up['repository']}, folder `{up['folder']}`, commit `{up['commit']}`",
            "  (read from the xz-compressed copy in `../shared/`, see its README).",
            f"- Licence: {up['licence']}",
        ]
        if key == "fecom":
            lines += ["", "FECoM's licence notice, reproduced as it requires:", "", "```", COMMONS_CLAUSE_NOTICE, "```"]
    if used:
        lines += [
            "",
            "## Hardware",
            "",
            f"Records from these datasets carry hardware id `{REFERENCE_HARDWARE_ID}`: the SMART-Dal",
            "machine that FECoM and Greenlight (CodeGreen, FECoM's code) measured on in 2023, with Intel",
            "RAPL package + DRAM counters read by `perf stat -I 500` and one NVIDIA GPU read by",
            "`nvidia-smi --loop-ms=500`. Neither dataset names the processor or GPU model; one id is",
            "used because both come from the same group, tool and settings, and their idle baselines",
            "(median over records of the 40-sample pre-call mean, in W) are close. That it is one machine",
            "is our inference, not documented upstream.",
            "",
            "| dataset | CPU package | DRAM | GPU |",
            "|---|---:|---:|---:|",
        ]
        for name, d in sorted(datasets.items()):
            if _upstream_for(name):
                b = d["idle_baseline_w"]
                lines.append(f"| {name} | {b['cpu']} | {b['ram']} | {b['gpu']} |")
    others = sorted(name for name in datasets if _upstream_for(name) is None)
    if others:
        lines += ["", "## Local measurements", "", f"Datasets {', '.join(others)}: measured locally, own licence."]
    lines += [
        "",
        f"## Columns of records.csv (schema {meta['schema_version']})",
        "",
        "Sorted by dataset, project, script, experiment, index; floats to 7 significant digits.",
        "",
        *(f"- `{name}`: {doc}" for name, doc in COLUMN_DOCS.items()),
    ]
    return "\n".join(lines) + "\n"
