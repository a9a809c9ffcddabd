"""A fully cached `greenlint check`, answered before the rest of the pipeline is imported.

An unchanged file needs only its cache keys (greenlint.check.keys) and the diagnostics stored
under them: neither the configuration's dataclasses nor discovery, the runner, the analysis or
the rules. Covered: files named on the command line (no folder), in a project without a
`[tool.greenlint]` table (the default configuration, its formatter's line length aside), with
no option but `--exit-zero`, `--statistics`, `--no-calibration` and an output format other
than `full` (which shows source lines); the command line judges the options. For anything
else, and as soon as one file is not in the cache, `cached_run` returns None and the whole
pipeline runs, reading the same entries: the output is the same either way.
"""

from __future__ import annotations

import os
from pathlib import Path


def cached_run(paths: list[str], output_format: str, fixes: bool,
               calibration: bool = True) -> tuple[list, dict | None] | None:
    """(diagnostics, calibration overlay applied) of *paths* in *output_format*, with their fixes
    when *fixes* (an output that writes them), the calibration overlay applied unless
    *calibration* is false, when every file is in the lint cache under the settings of this run;
    else None."""
    if output_format == "full" or not all(os.path.isfile(p) for p in paths):  # a folder is discovered
        return None
    if len({os.path.realpath(p) for p in paths}) < len(set(map(Path, paths))):
        return None  # a file named twice (relative and absolute): discovery keeps one name
    from greenlint.check.pyproject import ConfigError, find_pyproject, formatter_line_length

    start = Path(paths[0])
    try:
        if find_pyproject(start) is not None:
            return None  # a configured project: its settings are Config's to read
    except ConfigError:
        return None  # reported by the whole pipeline
    line_length = formatter_line_length(start)
    from greenlint.paths import calibration_dir

    overlay_root = calibration_dir() if calibration else None  # the overlay this run applies: its cache
    import greenlint.check.keys as keys
    from greenlint.check.cache import cache_in
    from greenlint.check.overlay import applied
    from greenlint.rules.codes import default_codes

    cache = cache_in(None, overlay_root)
    settings = keys.rule_settings({}, line_length, fixes=fixes)
    rules = keys.rules_id(default_codes(), settings)
    project = keys.project_modules()
    cwd = os.getcwd()
    folder_stamps: dict[str, str] = {}
    diagnostics: list = []
    from greenlint.analysis import sources  # the project index reads modules with it too

    for f in sorted(dict.fromkeys(map(Path, paths))):  # as discovery orders them
        content, _ = sources.read_bytes(f, sources.MAX_BYTES)
        if content is None:
            return None
        _, stored = keys.look_up(f, keys.display_path(f, cwd), content, cache, project, folder_stamps, lambda _: rules)
        if stored is None:
            return None
        diagnostics.extend(stored[0])
    return diagnostics, applied(overlay_root)

