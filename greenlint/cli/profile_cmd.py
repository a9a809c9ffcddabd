"""`greenlint profile show|clear [PATH...]`: list or remove the per-site profiles `greenlint measure` stored."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "show or clear the per-call-site profiles that `greenlint measure` stored (.greenlint/profiles.json)"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["show", "clear"], help="list the profiles, or remove them")
    parser.add_argument("paths", nargs="*", type=Path,
                        help="files or folders whose profiles to show/clear (default: the current folder's project)")
    parser.add_argument("--format", choices=["text", "json"], default="text", help="output format of `show`")


def _unusable(path: Path) -> str | None:
    """Why *path* cannot name anything (a name longer than NAME_MAX or PATH_MAX, a link loop), or
    None (a path that does not exist still has the profile file above it)."""
    import os

    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def _profile_files(paths: list[Path]) -> list[Path]:
    """The profile files *paths* name: for each, the one covering it, else those of the
    sub-projects below it (a folder whose sub-projects have their own `.greenlint/`)."""
    from greenlint.profile.store import find_profile_file

    found: dict[Path, None] = {}
    for path in paths or [Path.cwd()]:
        covering = find_profile_file(path)
        if covering is not None:
            found[covering] = None
        elif Path(path).is_dir():
            found.update(dict.fromkeys(_below(Path(path))))
    return list(found)


def _below(folder: Path) -> list[Path]:
    """Profile files in the folders below *folder* (skipping what `check` never looks into)."""
    import os

    from greenlint.check.config import DEFAULT_EXCLUDE
    from greenlint.profile import store

    out = []
    for dirpath, dirnames, _ in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if d not in DEFAULT_EXCLUDE and d != store.PROFILE_DIR)
        candidate = Path(dirpath, store.PROFILE_DIR, store.PROFILE_FILE)
        if candidate.is_file():
            out.append(candidate)
    return out


def run(args) -> int:
    import json

    from greenlint.profile import store
    from greenlint.report.escape import visible

    status = 0
    usable = []
    for path in args.paths:
        problem = _unusable(path)
        if problem:
            print(visible(f"greenlint profile: {path}: {problem}; skipped"), file=sys.stderr)
            status = 2
        else:
            usable.append(path)
    if args.paths and not usable:
        return status
    args.paths = usable
    profile_files = _profile_files(args.paths)
    if not profile_files:
        print(visible(f"greenlint profile: no {store.PROFILE_DIR}/{store.PROFILE_FILE} at, above or below "
                      f"{', '.join(map(str, args.paths)) or Path.cwd()}"), file=sys.stderr)
        return status or 1
    shown = []
    for profile_file in profile_files:
        # a path inside this file's project narrows it; a folder holding the project means all of it
        inside = [p for p in args.paths if not store.key_for(profile_file, p).startswith("..")]
        try:
            if args.action == "clear":
                removed = store.clear(profile_file, inside or None)
                print(visible(f"removed {removed} site profile(s) from {profile_file}"))
                continue
            data = store.load(profile_file)
        except store.ProfileError as exc:
            print(visible(f"greenlint profile: {exc}"), file=sys.stderr)
            status = 2
            continue
        except OSError as exc:  # a full disk, a read-only folder: written aside, so the file is as it was
            print(visible(f"greenlint profile: {profile_file}: cannot write it ({exc.strerror or exc}); left as it was"),
                  file=sys.stderr)
            status = 2
            continue
        wanted = [store.key_for(profile_file, p) for p in inside]
        files = {k: v for k, v in data["files"].items() if not wanted or store.covered(k, wanted)}
        shown.append({"schema_version": data["schema_version"], "profile_file": str(profile_file), "files": files})
    if args.format == "json" and args.action == "show" and shown:
        print(json.dumps(shown[0] if len(shown) == 1 else shown, indent=1))
    elif args.action == "show":
        for doc in shown:
            _print_text(Path(doc["profile_file"]), doc["files"])
    return status


def _print_text(profile_file: Path, files: dict) -> None:
    """Each profiled site, one line; what the file says (a repository's own) shown escaped."""
    from greenlint.report.escape import leading_path, visible
    from greenlint.units import fmt_j

    print(visible(f"{profile_file}"))
    if not files:
        print("  no profiles")
    for path, sites in files.items():
        for s in sites:
            cell = f"cell {s['cell']}:" if s.get("cell") else ""
            where = f"{path}:{cell}{s['line']}:{s['column']}"
            figure = fmt_j(s["median_j"]) if s.get("median_j") is not None else (s.get("note") or "not measured")
            kind = "estimated" if s.get("estimated") else "measured"
            print(visible(f"  {leading_path(where)}  {s['api']}  {figure} per execution ({kind}, {s['executions']} executions, "
                          f"{s.get('time_s') or 0:.3g} s each, {s.get('counter')}, {s.get('hardware_id')}, {s.get('date')})"))
