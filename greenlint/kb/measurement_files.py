"""Find measurement files and derive each file's provenance from where it lies.

Known layouts (the public datasets, ``../shared``):

* ``.../greenlight/raw/<project>/<script>/experiment-<N>.json.xz`` -> dataset ``greenlight``;
* ``.../fecom/raw/<kind>/<category>/<tutorial>/experiment-<N>.json.xz`` -> dataset ``fecom-<kind>``
  (method-level, project-level, data-size), project ``<category>/<tutorial>``, script ``<tutorial>``.

Both were measured on the reference machine, ``REFERENCE_HARDWARE_ID``. Files anywhere else (our
own measurements) get the dataset and hardware id the caller names (a record's own ``hardware``
block, written by the meter, takes precedence), project = first folder under the named directory
and script = the file's folder.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from greenlint.kb.measurement import is_measurement_file
from greenlint.paths import shared_dir

#: The machine behind FECoM and Greenlight (SMART-Dal lab, 2023: Intel RAPL via perf + one NVIDIA
#: GPU via nvidia-smi). Neither dataset names its hardware; both come from the same group and tool
#: and show the same idle baselines, so they share one id. See data/kb/PROVENANCE.md.
REFERENCE_HARDWARE_ID = "smartdal-fecom-2023"
#: JSON files in the datasets that are not measurements.
NOT_MEASUREMENTS = ("skip_calls", "git_metadata", "execution_log", "scripts_execution")
_EXPERIMENT = re.compile(r"experiment-(\d+)")


@dataclass(frozen=True)
class FileJob:
    """One measurement file to read, with the provenance of all its records."""

    path: Path
    shown: str  # stable relative path used in reports and meta.json
    dataset: str
    project: str
    script: str
    experiment: int | None
    hardware_id: str


def default_dirs() -> list[Path]:
    """The public datasets' raw folders under ``../shared`` (empty if it is absent)."""
    base = shared_dir()
    if base is None:
        return []
    return [d for d in (base / "greenlight" / "raw", base / "fecom" / "raw") if d.is_dir()]


def _experiment(name: str) -> int | None:
    m = _EXPERIMENT.search(name)
    return int(m.group(1)) if m else None


def describe(path: Path, root: Path, dataset: str, hardware_id: str) -> FileJob:
    """Provenance of one file found under *root* (a directory the user named)."""
    parts = path.parts
    exp = _experiment(path.name)
    for i in range(len(parts) - 2, 0, -1):
        if parts[i] != "raw":
            continue
        owner, rest = parts[i - 1], parts[i + 1 : -1]
        shown = "/".join(parts[i - 1 :])
        if owner == "greenlight" and len(rest) == 2:
            return FileJob(path, shown, "greenlight", rest[0], rest[1], exp, REFERENCE_HARDWARE_ID)
        if owner == "fecom" and len(rest) == 3:
            kind, category, tutorial = rest
            return FileJob(path, shown, f"fecom-{kind}", f"{category}/{tutorial}", tutorial, exp, REFERENCE_HARDWARE_ID)
    rel = path.relative_to(root).parts[:-1]
    project = rel[0] if len(rel) >= 2 else root.name
    script = rel[-1] if rel else root.name
    shown = "/".join((root.name, *path.relative_to(root).parts))
    return FileJob(path, shown, dataset, project, script, exp, hardware_id)


def find_files(dirs: list[Path], dataset: str = "local", hardware_id: str = "unknown") -> list[FileJob]:
    """Every measurement file under *dirs* (or a file named directly), sorted, without duplicates."""
    jobs: dict[Path, FileJob] = {}
    for d in dirs:
        d = Path(d).resolve()
        if d.is_file():
            candidates, root = [d], d.parent
        else:
            candidates, root = sorted(p for p in d.rglob("*") if p.is_file()), d
        for p in candidates:
            if is_measurement_file(p) and not p.name.startswith(NOT_MEASUREMENTS):
                jobs.setdefault(p, describe(p, root, dataset, hardware_id))
    return sorted(jobs.values(), key=lambda j: j.shown)
