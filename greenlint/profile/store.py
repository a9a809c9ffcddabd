"""The profile file: `<project>/.greenlint/profiles.json`, versioned JSON, written atomically.

Where: `greenlint measure` writes to the nearest `.greenlint/` directory at or above the measured
script; without one, it creates `.greenlint/` in the project root (the nearest folder above the
script holding `pyproject.toml`, `setup.cfg`, `setup.py` or `.git`, else the script's own folder).
A project commits the file to share it, or adds `.greenlint/` to `.gitignore`; `greenlint profile
clear` (or deleting the file) removes the profiles.

Layout (version 1):

    {"schema_version": 1,
     "files": {"<path relative to the folder holding .greenlint/, with />": [SITE, ...]}}

SITE: `line`, `column`, `end_line`, `end_column`, `cell` (as in docs/calls-json.md), `api`,
`statement` (hash of the call's lines, `lookup.statement_hash`), and the measurement: `executions`,
`median_j`, `iqr_j`, `interval_j` (10th-90th percentile per execution), `time_s` (median seconds
per execution), `cpu_j`, `gpu_j`, `ram_j` (medians), `counter` (the sources that measured, or
`estimated`), `estimated` (bool), `resolved` (bool: the counted energy reached the counter's
resolution rule), `hardware_id`, `date` (ISO 8601), `note`.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

SCHEMA_VERSION = 1
PROFILE_DIR = ".greenlint"
PROFILE_FILE = "profiles.json"
#: The largest profile file read (bytes): a few thousand measured sites take a few MiB.
MAX_FILE_BYTES = 16 * 1024 * 1024
ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")


class ProfileError(Exception):
    """A profile file that cannot be read or has another version; the message names the file."""


def find_profile_file(path: str | os.PathLike) -> Path | None:
    """The profile file that covers *path* (a file or folder): the nearest existing one above it."""
    folder = os.path.abspath(path)
    if not os.path.isdir(folder):
        folder = os.path.dirname(folder)
    while True:  # as strings: a run asks for each file it predicts
        candidate = os.path.join(folder, PROFILE_DIR, PROFILE_FILE)
        # a FIFO or device there too (load names it, never opens it); False for a name too long
        if os.path.exists(candidate) and not os.path.isdir(candidate):
            return Path(candidate)
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def profile_file_for_writing(script: str | os.PathLike) -> Path:
    """Where `greenlint measure` stores the profiles of *script* (see the module docstring)."""
    script = Path(os.path.abspath(script))
    for folder in script.parents:
        if (folder / PROFILE_DIR).is_dir():
            return folder / PROFILE_DIR / PROFILE_FILE
    for folder in script.parents:
        if any((folder / marker).exists() for marker in ROOT_MARKERS):
            return folder / PROFILE_DIR / PROFILE_FILE
    return script.parent / PROFILE_DIR / PROFILE_FILE


def root_of(profile_file: Path) -> Path:
    """The folder paths in *profile_file* are relative to."""
    return profile_file.parent.parent


def key_for(profile_file: Path, path: str | os.PathLike) -> str:
    """*path*'s key in *profile_file*: relative to its root, with `/`."""
    rel = os.path.relpath(os.path.abspath(path), root_of(profile_file))
    return Path(rel).as_posix()


def load(profile_file: Path) -> dict:
    """The file's content; an empty profile set where it does not exist. Only a regular file of at
    most MAX_FILE_BYTES is read (never a FIFO, a device, or a huge file)."""
    from greenlint.analysis.sources import read_bytes

    if not os.path.exists(profile_file):  # a dangling link too
        return {"schema_version": SCHEMA_VERSION, "files": {}}
    raw, error = read_bytes(Path(profile_file), MAX_FILE_BYTES)
    if raw is None:
        detail = error.reason if error else "unreadable"
        raise ProfileError(f"{profile_file}: cannot read ({detail})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProfileError(f"{profile_file}: not UTF-8 (byte {exc.start}); {_RESET}") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ProfileError(f"{profile_file}: not valid JSON ({exc}); {_RESET}") from None
    if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
        raise ProfileError(f"{profile_file}: not a greenlint profile file (no 'files' object); {_RESET}")
    if data.get("schema_version") != SCHEMA_VERSION:
        raise ProfileError(
            f"{profile_file}: profile schema version {data.get('schema_version')!r}, this greenlint reads "
            f"{SCHEMA_VERSION}; measure again or {_RESET}"
        )
    for key, sites in data["files"].items():
        why = _bad_sites(sites)
        if why:
            raise ProfileError(f"{profile_file}: the profiles of {key!r} are malformed ({why}); {_RESET}")
    return data


_RESET = "run `greenlint profile clear` (without paths) to start again"
#: What each stored site must hold, and of which types (the others are optional; see the module docstring).
_SITE_FIELDS = {"line": (int,), "column": (int,), "api": (str,), "statement": (str,), "executions": (int, float)}
_OPTIONAL_FIELDS = {
    "cell": (int, type(None)), "median_j": (int, float, type(None)), "iqr_j": (list, type(None)),
    "interval_j": (list, type(None)), "time_s": (int, float, type(None)), "hardware_id": (str, type(None)),
    "date": (str, type(None)), "note": (str, type(None)), "estimated": (bool, type(None)),
    "cpu_j": (int, float, type(None)), "gpu_j": (int, float, type(None)), "ram_j": (int, float, type(None)),
}
#: The most joules one execution of a call may have measured (a terajoule, 278 MWh): a larger, an
#: infinite or a negative figure is no measurement (a hand-edited or committed file), never a figure.
MAX_MEASURED_J = 1e12
_MEASURED = ("median_j", "cpu_j", "gpu_j", "ram_j", "iqr_j", "interval_j")


def _bad_sites(sites) -> str | None:
    """Why a file's stored sites cannot be used, or None."""
    if not isinstance(sites, list):
        return "not a list of sites"
    for i, site in enumerate(sites, 1):
        if not isinstance(site, dict):
            return f"site {i} is not an object"
        for name, kinds in _SITE_FIELDS.items():
            if not isinstance(site.get(name), kinds) or isinstance(site.get(name), bool):
                return f"site {i}: `{name}` missing or of the wrong type"
        for name, kinds in _OPTIONAL_FIELDS.items():
            if not isinstance(site.get(name), kinds) or (kinds[0] is not bool and isinstance(site.get(name), bool)):
                return f"site {i}: `{name}` of the wrong type"
        for name in ("iqr_j", "interval_j"):
            if site.get(name) is not None and (len(site[name]) != 2 or not all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) for v in site[name])):
                return f"site {i}: `{name}` is not a pair of numbers"
            if site.get(name) is not None and site[name][0] > site[name][1]:
                return f"site {i}: `{name}` ends below its start"
        for name in ("executions", "time_s", *_MEASURED):
            values = site.get(name)
            most = MAX_MEASURED_J if name in _MEASURED else math.inf
            for value in values if isinstance(values, list) else [values]:
                if value is not None and not (0 <= value <= most and math.isfinite(value)):
                    limit = f"from 0 to {most:g}" if math.isfinite(most) else "of at least 0"
                    return f"site {i}: `{name}` of {value!r}, not a finite number {limit}"
    return None


def save(profile_file: Path, data: dict) -> None:
    """Write *data* to *profile_file* (aside, then renamed). Never through a link: a `.greenlint`
    folder or a profile file that is a symbolic link (committed by someone else, pointing at
    another project's) is a ProfileError, and nothing is written."""
    for link in (Path(profile_file).parent, Path(profile_file)):
        if os.path.islink(link):
            raise ProfileError(f"{link}: is a symbolic link; greenlint never writes a profile through a link")
    data = {"schema_version": SCHEMA_VERSION, "files": dict(sorted(data["files"].items()))}
    from greenlint.atomic import atomic_write_text  # tempfile: only runs that write pay for it

    atomic_write_text(Path(profile_file), json.dumps(data, indent=1, sort_keys=True) + "\n")


def record(profile_file: Path, script: str | os.PathLike, sites: list[dict], hardware_id: str) -> None:
    """Store a new measurement of *script* on *hardware_id*: it replaces that script's earlier
    profiles from the same machine and keeps every other file's and machine's."""
    data = load(profile_file)
    key = key_for(profile_file, script)
    kept = [s for s in data["files"].get(key, []) if s.get("hardware_id") != hardware_id]
    data["files"][key] = sorted(kept + list(sites), key=lambda s: (s.get("cell") or 0, s["line"], s["column"], s["api"]))
    save(profile_file, data)


def clear(profile_file: Path, paths: list[str | os.PathLike] | None = None) -> int:
    """Remove the profiles of *paths* (all when None); returns how many sites were removed.

    Clearing them all also resets a file that cannot be read (malformed, another version)."""
    try:
        data = load(profile_file)
    except ProfileError:
        if paths is not None:
            raise
        save(profile_file, {"files": {}})
        return 0
    if paths is None:
        removed = sum(len(v) for v in data["files"].values())
        data["files"] = {}
    else:
        gone = [k for k in data["files"] if covered(k, [key_for(profile_file, p) for p in paths])]
        removed = sum(len(data["files"].pop(k)) for k in gone)
    save(profile_file, data)
    return removed


def covered(key: str, wanted: list[str]) -> bool:
    """Whether the file *key* is one of the *wanted* keys or lies in one of their folders ("." is all)."""
    return any(w == "." or key == w or key.startswith(w.rstrip("/") + "/") for w in wanted)


def stamp(path: str | os.PathLike) -> str:
    """What of the profiles decides *path*'s predictions (for the lint cache key): the covering
    profile file's location, size and modification time, or "" without one."""
    found = find_profile_file(path)
    if found is None:
        return ""
    try:
        st = found.stat()
    except OSError:
        return ""
    return f"profile:{found}:{st.st_size}:{st.st_mtime_ns}"
