"""The lint cache's keys of one checked file: its path as shown, what besides its content decides
its analysis (the project modules it imports, its profiles), and the rule settings its diagnostics
were found under with what the rules read beside it, and a file looked up under them (`look_up`).
Light on purpose: a fully cached run looks its files up before importing the rest of the check
pipeline (greenlint.check.warm), as the runner does."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from greenlint.rules import codes

if TYPE_CHECKING:
    from greenlint.check.cache import Cache


def display_path(path: Path, cwd: str) -> str:
    """The path as users see it: relative to the working directory `cwd` when below it."""
    full = os.path.normpath(os.path.join(cwd, path))
    prefix = cwd.rstrip(os.sep) + os.sep
    return Path(full[len(prefix) :]).as_posix() if full.startswith(prefix) else str(path)


def look_up(
    path: Path, shown: str, content: bytes, cache: Cache, project, folder_stamps: dict[str, str], rules: Callable[[str], str]
) -> tuple[tuple[str, str], tuple[list, tuple[str, ...] | None] | None]:
    """The lint *cache*'s keys of the file at *path* (*shown* as `display_path` shows it, *content*
    its bytes), its analysis' and its diagnostics' under the rule settings `rules(shown)`, and the
    diagnostics stored under the latter, as the runner stored them (greenlint.check.records;
    None when absent or not such a record). A fully cached run (greenlint.check.warm) and the
    runner look a file up alike.

    Besides its content, the analysis' key holds what decides its analysis (the analysis' index of
    *project* modules says: `ProjectIndex.analysis_inputs`), the stamp of the profile file covering
    it (a new `greenlint measure` changes its figures) and the Hydra configuration files its
    analysis reads (analysis.hydra_config). The diagnostics' key adds to it what rules read in the
    modules beside it (`beside_stamp`) and the TensorFlow version its project targets
    (greenlint.rules.tf_target), unless no rule runs (`NO_RULES`: a diff reads neither). Each stamp
    is looked up once per folder in a run (*folder_stamps*: the files of a folder share them)."""
    absolute = os.path.abspath(path)
    inputs = project.analysis_inputs(absolute, content)
    folder = os.path.dirname(absolute)
    if folder not in folder_stamps:
        from greenlint.profile.store import stamp as profile_stamp  # on first need, as the other profile modules

        folder_stamps[folder] = profile_stamp(absolute)
    found = inputs + folder_stamps[folder]
    if b"hydra" in content:  # (the parse and the YAML reader only for a file that may name it)
        from greenlint.analysis.hydra_config import stamp as hydra_stamp

        found += hydra_stamp(absolute, content)
    key = cache.key(shown, content, found)
    settings = rules(shown)
    if settings != NO_RULES:
        beside_key = f"{folder}\0rules"  # (a NUL is in no path)
        if beside_key not in folder_stamps:
            from greenlint.rules import tf_target  # on first need: a diff runs no rule

            folder_stamps[beside_key] = beside_stamp(absolute, cache) + tf_target.stamp(absolute)
        settings += folder_stamps[beside_key]
    found_at = hashlib.sha256(f"{key}:{settings}".encode()).hexdigest()  # the analysis' key under those settings
    stored = cache.get(found_at)
    if stored is not None:
        from greenlint.check.records import InvalidRecord, read_diagnostics

        try:
            return (key, found_at), read_diagnostics(stored)
        except InvalidRecord:
            pass
    return (key, found_at), None


def project_modules():
    """The analysis' index of project modules, told to notice files changed since its last use
    (forked workers inherit it, with the summaries it made)."""
    from greenlint.analysis.project import project_index

    index = project_index()
    index.refresh()
    return index


def beside_stamp(path: str, cache: Cache | None) -> str:
    """What rules read in the modules beside *path* (greenlint.rules.beside), the answers kept in
    the lint *cache* under those modules' names and stamps: a later run stats them instead of
    reading them (while their stamps are settled)."""
    from greenlint.rules import beside  # on first need: a diff runs no rule

    listed = beside.modules(path)
    if listed is None or cache is None or beside.known(listed):
        return beside.stamp(beside.answers(listed))
    key = cache.key(listed.folder, repr(listed.stamps).encode(), "beside")
    stored = beside.read(cache.get(key))
    found = beside.answers(listed, stored)
    if stored is None and listed.settled():
        cache.put(key, list(found))
    return beside.stamp(found)


def rule_settings(options: Mapping, line_length: int, fixes: bool) -> str:
    """What besides the enabled codes decides a file's diagnostics: the rule options (their
    defaults, then *options* from the configuration), the line length and whether fixes are
    attached (findings cached without fixes do not serve a run that shows them)."""
    merged = {**codes.option_defaults(), **options, "line-length": line_length}
    return repr(sorted(merged.items())) + (" fixes" if fixes else "")


#: The rule settings of a file whose only diagnostics are its file errors (`pipeline.analyse_paths`):
#: no `rules_id` (a list's repr first) is this.
NO_RULES = "file errors only"


def rules_id(enabled: frozenset[str], settings: str) -> str:
    """The rule settings of one file: its enabled codes and the run's `rule_settings`."""
    return f"{sorted(enabled)}{settings}"
